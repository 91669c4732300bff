/**
 * The real worker against the real server: the demo seed on PGlite, the server listening
 * on a free port, the fleet simulator posting through the ingest, the worker (under
 * @vitest/web-worker, with Node's fetch and `ws`) paging the things, subscribing to the socket and
 * batching what arrives; then the store's counts per status equal those of GET /organization/things.
 */
import '@vitest/web-worker';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WS from 'ws';
import { fromThingWire, thingWireSchema } from '../../src/domain/asset';
import { computeAssetStatus, displayStatus } from '../../src/domain/asset-status';
import { SECOND_MS, SOCKET_BATCH_MS, THINGS_PAGE_MAX, THINGS_PAGE_SIZE } from '../../src/domain/constants';
import { pageCount, pagedAnswerSchema } from '../../src/domain/incremental';
import { createLiveBridge, type LiveBridge } from '../../src/app/live/bridge';
import { STATUS_COUNT } from '../../src/domain/live-diff';
import { DEMO_ORGS, seedDemo } from '../../server/seed/demo';
import type { IngestEngine } from '../../server/live/ingest';
import { FleetSimulator } from '../../server/sim/simulator';
import { createTestServer, type TestServer } from '../support/test-server';
import { sleep, until } from '../support/until';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { closures, thingExternalIdentifiers, things, thingTypes } from '../../server/db/schema';

const DEMO = { assets: 120, seed: 5 };
const TICKS = 4;

let server: TestServer;
let bridge: LiveBridge;
let base = '';
let token = '';

/** Counts per display status of GET /organization/things, every page, computed with the domain at `now`. */
async function serverCounts(now: number, who = token): Promise<number[]> {
  const counts = new Array<number>(STATUS_COUNT).fill(0);
  const schema = pagedAnswerSchema(thingWireSchema);
  for (let page = 1, pages = 1; page <= pages; page += 1) {
    const response = await fetch(`${base}/organization/things?page=${page}&per_page=${THINGS_PAGE_SIZE}`, {
      headers: { authorization: `Bearer ${who}` },
    });
    const answer = schema.parse(await response.json());
    pages = pageCount(answer.meta.total, answer.meta.per_page);
    for (const wire of answer.data) {
      const asset = fromThingWire(wire, now);
      if (asset) counts[displayStatus(computeAssetStatus(asset, now), asset.inService)]! += 1;
    }
  }
  return counts;
}

beforeAll(async () => {
  (globalThis as { WebSocket?: unknown }).WebSocket = WS;
  server = await createTestServer();
  // One clock for the server and the worker: the server's follows real time in this test.
  server.clock.ms = Date.now();
  const summary = await seedDemo(server.deps, DEMO);
  if (!summary) throw new Error('the demo was not seeded');
  token = await server.signIn('admin@lightbar.demo', DEMO_PASSWORD);
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const organizationId = summary.organizations.find((org) => org.name === DEMO_ORGS.regional)!.id;
  bridge = createLiveBridge({ signals: null, storage: null });
  await bridge.start({ apiBase: base, socketUrl: `${base.replace('http', 'ws')}/cable`, token, organizationId });
}, 120_000);

afterAll(async () => {
  await bridge?.dispose();
  await server?.close();
});

describe('the real worker against the real server', () => {
  it('after a few batches of simulated traffic, the store’s counts equal those of GET /organization/things', async () => {
    await until(
      () => bridge.store.phase === 'live' && bridge.store.connectivity.socket === 'subscribed',
      'the load and the subscription',
      20_000,
      20,
    );
    const loaded = bridge.store.total;
    expect(loaded).toBeGreaterThan(DEMO.assets / 2);
    const ingest = (server.app as unknown as { ingest: IngestEngine }).ingest;
    // The seed wrote the fleet behind the ingest's back: let it read the fleet and its audiences.
    await ingest.reload();
    const sim = await new FleetSimulator(server.deps, ingest, {
      assets: DEMO.assets,
      seed: 9,
      initialIncidents: 1,
      initialClosureVisits: 1,
    }).load();
    const version = bridge.store.version;
    for (let tick = 0; tick < TICKS; tick += 1) {
      server.clock.ms = Date.now();
      await sim.tick(server.clock.now());
      await sleep(SECOND_MS);
    }
    await ingest.flush();
    expect(sim.stats().messages).toBeGreaterThan(0);
    expect(sim.stats().rejected).toBe(0);
    // the last messages reach the store with the next batch
    await sleep(SOCKET_BATCH_MS + 500);
    expect(bridge.store.version - version).toBeGreaterThanOrEqual(2);
    const expected = await serverCounts(Date.now());
    expect([...bridge.store.counts]).toEqual(expected);
    expect(bridge.store.total).toBe(expected.reduce((a, b) => a + b, 0));
  }, 60_000);

  it('a fleet larger than one large page loads through the fleet snapshot alone: every asset whole, the same counts as the list, no large page', async () => {
    const { db } = server.database;
    const org = await server.createOrg({ name: 'Snapshot Fleet' });
    const who = await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email);
    const types = await db.select().from(thingTypes);
    const size = THINGS_PAGE_MAX + 1;
    const now = Date.now();
    for (let i = 0; i < size; i += 1_000) {
      await db.insert(things).values(
        Array.from({ length: Math.min(1_000, size - i) }, (_, j) => ({
          organizationId: org.id,
          haasId: `SNAP-${String(i + j).padStart(5, '0')}`,
          thingTypeId: types[(i + j) % types.length]!.id,
          lat: 30.2 + (j % 50) * 0.001,
          lng: -97.7 - Math.floor(j / 50) * 0.001,
          // Heard now, a minute ago (pending) or never (offline); every seventh on the way.
          heartbeatAt: (i + j) % 5 === 0 ? null : new Date(now - ((i + j) % 2) * 60 * SECOND_MS),
          enroute: (i + j) % 7 === 0,
          inService: (i + j) % 11 !== 0,
        })),
      );
    }
    // One asset's details: an identifier and a running automated closure (a status of its own).
    const [detailed] = await db.select({ id: things.id }).from(things).where(eq(things.haasId, 'SNAP-04321'));
    await db.insert(thingExternalIdentifiers).values({ thingId: detailed!.id, identifierId: 'G-4321', systemName: 'geotab' });
    const [closure] = await db
      .insert(closures)
      .values({
        organizationId: org.id,
        closureType: 'automated',
        isActive: true,
        description: 'lane',
        thingId: detailed!.id,
        externalId: 'WZ-1',
      })
      .returning();
    const asked: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
      asked.push(new URL(String(input)).pathname);
      return realFetch(input, init);
    }) as typeof fetch;
    const own = createLiveBridge({ signals: null, storage: null });
    try {
      await own.start({ apiBase: base, socketUrl: `${base.replace('http', 'ws')}/cable`, token: who, organizationId: org.id });
      await until(() => own.store.phase === 'live', 'the load', 30_000, 20);
      expect(asked).toContain('/organization/things/snapshot');
      // The first page of 500 and the snapshot: no page of the fleet after it.
      expect(asked.filter((path) => path === '/organization/things')).toHaveLength(1);
      expect(own.store.progress).toMatchObject({ loaded: 2, total: 2, done: true });
      expect(await own.asset(detailed!.id)).toMatchObject({
        externalIdentifiers: [{ identifierId: 'G-4321', systemName: 'geotab' }],
        activeClosures: [{ id: closure!.id, wzdxId: 'WZ-1' }],
      });
      expect((await own.rows(0, size)).filter((row) => row.detailsPending)).toEqual([]);
      expect(own.store.total).toBe(size);
      expect([...own.store.counts]).toEqual(await serverCounts(Date.now(), who));
      expect(new Set((await own.rows(0, size)).map((row) => row.name)).size).toBe(size);
    } finally {
      globalThis.fetch = realFetch;
      await own.dispose();
    }
  }, 90_000);

  it("a large organization's poll reads the fleet snapshot since its last load (docs/decisions/spec.md): its fleet then equals a fresh load's through the pages", async () => {
    const { db } = server.database;
    const org = await server.createOrg({ name: 'Polled Fleet' });
    const who = await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email);
    const [type] = await db.select().from(thingTypes);
    server.clock.ms = Date.now();
    const rows = await db
      .insert(things)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          organizationId: org.id,
          haasId: `POLL-${String(i).padStart(3, '0')}`,
          thingTypeId: type!.id,
          lat: 30.2 + i * 0.001,
          lng: -97.7,
          heartbeatAt: server.clock.now(),
          updatedAt: server.clock.now(),
        })),
      )
      .returning({ id: things.id });
    const asked: URL[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
      asked.push(new URL(String(input)));
      return realFetch(input, init);
    }) as typeof fetch;
    const start = (b: LiveBridge, largeOrg: boolean) =>
      b.start({ apiBase: base, socketUrl: `${base.replace('http', 'ws')}/cable`, token: who, organizationId: org.id, largeOrg });
    const polled = createLiveBridge({ signals: null, storage: null });
    // The session still open (disposed in the end).
    let open = polled;
    try {
      await start(polled, true);
      await until(
        () => polled.store.phase === 'live' && polled.store.connectivity.polling && polled.store.total === 40,
        'the load',
        20_000,
        20,
      );
      // A quarter moves, one is renamed through the API, one is removed.
      server.clock.ms = Date.now() + SECOND_MS;
      for (const { id } of rows.slice(0, 10)) {
        await db
          .update(things)
          .set({ lat: 30.3, lng: -97.6, speed: 20, enroute: true, heartbeatAt: server.clock.now(), updatedAt: server.clock.now() })
          .where(eq(things.id, id));
      }
      const renamed = await fetch(`${base}/things/${rows[10]!.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${who}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: rows[10]!.id, in_service: true, is_publicly_alerting: true, nickname: 'Polled' }),
      });
      expect(renamed.status).toBe(200);
      await db.update(things).set({ deletedAt: server.clock.now(), updatedAt: server.clock.now() }).where(eq(things.id, rows[11]!.id));
      const before = asked.length;
      await polled.refresh();
      await until(() => polled.store.total === 39, 'the poll', 10_000, 20);
      const poll = asked.slice(before).filter((url) => url.pathname.startsWith('/organization/things'));
      expect(poll.map((url) => [url.pathname, url.searchParams.has('since')])).toEqual([['/organization/things/snapshot', true]]);
      const polledRows = await polled.rows(0, 39);
      const polledCounts = [...polled.store.counts];
      expect(polledRows.find((row) => row.id === rows[10]!.id)?.primaryDisplayName).toBe('Polled');
      expect(polledRows.find((row) => row.id === rows[0]!.id)).toMatchObject({ position: { lat: 30.3, lng: -97.6 }, speed: 20 });
      await polled.dispose();
      // A fresh session: its first load of a fleet of one page is the list's page, every wire whole.
      const loaded = createLiveBridge({ signals: null, storage: null });
      open = loaded;
      await start(loaded, true);
      await until(() => loaded.store.phase === 'live' && loaded.store.total === 39, 'the fresh load', 20_000, 20);
      expect(
        asked
          .filter((url) => url.pathname === '/organization/things')
          .at(-1)
          ?.searchParams.has('last_updated_timestamp'),
      ).toBe(false);
      expect(polledRows).toEqual(await loaded.rows(0, 39));
      expect(polledCounts).toEqual([...loaded.store.counts]);
    } finally {
      globalThis.fetch = realFetch;
      await open.dispose();
    }
  }, 60_000);
});
