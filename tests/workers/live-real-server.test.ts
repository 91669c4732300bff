/**
 * The real worker against the real server: the demo seed on PGlite, the server listening
 * on a free port, the fleet simulator posting through the ingest, the worker (under
 * @vitest/web-worker, with Node's fetch and `ws`) paging the things, subscribing to the socket and
 * batching what arrives; then the store's counts per status equal those of GET /organization/things.
 */
import '@vitest/web-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WS from 'ws';
import { fromThingWire, thingWireSchema } from '../../src/domain/asset';
import { computeAssetStatus, displayStatus } from '../../src/domain/asset-status';
import { SECOND_MS, SOCKET_BATCH_MS, THINGS_PAGE_SIZE } from '../../src/domain/constants';
import { pageCount, pagedAnswerSchema } from '../../src/domain/incremental';
import { createLiveBridge, type LiveBridge } from '../../src/app/live/bridge';
import { STATUS_COUNT } from '../../src/domain/live-diff';
import { DEMO_ORGS, seedDemo } from '../../server/seed/demo';
import type { IngestEngine } from '../../server/live/ingest';
import { FleetSimulator } from '../../server/sim/simulator';
import { createTestServer, type TestServer } from '../support/test-server';
import { sleep, until } from '../support/until';
import { DEMO_PASSWORD } from '../../server/seed/demo';

const DEMO = { assets: 120, seed: 5 };
const TICKS = 4;

let server: TestServer;
let bridge: LiveBridge;
let base = '';
let token = '';

/** Counts per display status of GET /organization/things, every page, computed with the domain at `now`. */
async function serverCounts(now: number): Promise<number[]> {
  const counts = new Array<number>(STATUS_COUNT).fill(0);
  const schema = pagedAnswerSchema(thingWireSchema);
  for (let page = 1, pages = 1; page <= pages; page += 1) {
    const response = await fetch(`${base}/organization/things?page=${page}&per_page=${THINGS_PAGE_SIZE}`, {
      headers: { authorization: `Bearer ${token}` },
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
});
