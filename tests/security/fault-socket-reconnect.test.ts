/**
 * The dashboard recovers from a server restart (part 1 §4 "Streaming", ARCHITECTURE "Live data"):
 * the browser's own live engine (the worker under @vitest/web-worker, `ws` as its WebSocket)
 * against the real server process; the server is stopped (SIGTERM) or killed (SIGKILL) and started
 * again on the same DATA_DIR and port. The socket reconnects and subscribes again, a position
 * posted while the client was away reaches the store (the incremental load on subscribe, or the
 * poll while the socket is down), the incremental REST load returns it, and positions posted after
 * the reconnect arrive on the socket.
 */
import '@vitest/web-worker';
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WS from 'ws';
import { thingWireSchema } from '../../src/domain/asset';
import { createLiveBridge, type LiveBridge } from '../../src/app/live/bridge';
import { openDatabase } from '../../server/db/connection';
import { ingestPoint, seedFaultFleet, signInFault, type FaultFleet } from '../support/fault-seed';
import { spawnServer, templateDataDir, type SpawnedServer } from '../support/spawn-server';
import { until, untilAsync } from '../support/until';

const START_TIMEOUT_MS = 120_000;
/** Bound for the client to subscribe again: the longest reconnect delay (10 s, part 1 §9) and a margin. */
const RESUBSCRIBE_MS = 30_000;
/** Bound for a position to reach the store: the socket batch (1 s) or the poll (15 s), with a margin. */
const ARRIVE_MS = 25_000;

let dataDir = '';
let server: SpawnedServer | null = null;
let bridge: LiveBridge | null = null;
let token = '';
let fleet: FaultFleet;

/**
 * A TCP relay in front of the server's socket endpoint only: while `held`, it cuts every new
 * connection, so the test decides when the client can reconnect (REST calls go straight through).
 */
function relay(target: () => number) {
  let held = false;
  const open = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    if (held) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target(), '127.0.0.1');
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  return {
    listen: () => new Promise<number>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as net.AddressInfo).port))),
    hold(on: boolean) {
      held = on;
    },
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

const socketRelay = relay(() => Number(new URL(server!.url).port));

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const answer = await fetch(`${server!.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, json: await answer.json() };
}

async function ingest(haasId: string, lat: number): Promise<void> {
  expect(await ingestPoint(server!.url, haasId, lat)).toEqual({ status: 200, body: { accepted: 1, rejected: [] } });
}

async function storeLat(id: string): Promise<number | null | undefined> {
  return (await bridge!.asset(id))?.position.lat;
}

/** Polls the store (an async read) until the asset sits at `lat`. */
async function untilStoreLat(id: string, lat: number, what: string): Promise<void> {
  const deadline = Date.now() + ARRIVE_MS;
  while ((await storeLat(id)) !== lat) {
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what} (store has ${await storeLat(id)}; connectivity ${JSON.stringify(bridge!.store.connectivity)})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  (globalThis as { WebSocket?: unknown }).WebSocket = WS;
  dataDir = templateDataDir('lightbar-fault-socket-');
  // A fleet no simulator moves (no demo): the only positions are the test's.
  const seeding = await openDatabase({ dataDir });
  fleet = await seedFaultFleet(seeding.db, 2);
  await seeding.close();
  server = await spawnServer({ PORT: '0', DATA_DIR: dataDir, LIGHTBAR_DEMO: '0', SIM_ASSETS: '0' }, START_TIMEOUT_MS);
  token = await signInFault(server.url);
  const relayPort = await socketRelay.listen();
  bridge = createLiveBridge({ signals: null, storage: null });
  await bridge.start({ apiBase: server.url, socketUrl: `ws://127.0.0.1:${relayPort}/cable`, token, organizationId: fleet.organizationId });
  await until(
    () => bridge!.store.phase === 'live' && bridge!.store.connectivity.socket === 'subscribed',
    'the load and the subscription',
    30_000,
    20,
  );
}, START_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await bridge?.dispose();
  await socketRelay.close();
  await server?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each([
  ['SIGTERM', (s: SpawnedServer) => s.stop(), 30.1],
  ['SIGKILL', (s: SpawnedServer) => s.kill(), 30.2],
] as const)('the live engine after a server restart (%s)', (_signal, end, base) => {
  it(
    'subscribes again, catches up with what changed while it was away, and receives new positions on the socket',
    async () => {
      const [away, live] = [fleet.things[0]!, fleet.things[1]!];
      // Before: a position reaches the store through the socket.
      await ingest(live.haasId, base);
      await untilStoreLat(live.id, base, 'a position before the restart');
      const before = await call('GET', '/organization/things?per_page=100');
      const since = (before.json as { meta: { server_timestamp: string } }).meta.server_timestamp;

      socketRelay.hold(true);
      await end(server!);
      await until(() => bridge!.store.connectivity.socket !== 'subscribed', 'the client to see the socket go', 15_000, 20);
      server = await server!.restart(START_TIMEOUT_MS);

      // While the client cannot reach the socket: a position it does not receive.
      const awayLat = base + 0.001;
      await ingest(away.haasId, awayLat);
      // The incremental REST load from before the restart returns it (once the once-a-second flush wrote it).
      await untilAsync(
        async () => {
          const changed = await call('GET', `/organization/things?per_page=100&last_updated_timestamp=${encodeURIComponent(since)}`);
          const data = thingWireSchema.array().parse((changed.json as { data: unknown[] }).data);
          return data.find((thing) => thing.id === away.id)?.lat === awayLat;
        },
        'the incremental load to return the position posted while the client was away',
        10_000,
        100,
      );

      socketRelay.hold(false);
      await until(() => bridge!.store.connectivity.socket === 'subscribed', 'the client to subscribe again', RESUBSCRIBE_MS, 50);
      await untilStoreLat(away.id, awayLat, 'the position posted while the client was away');
      const liveLat = base + 0.002;
      await ingest(live.haasId, liveLat);
      await untilStoreLat(live.id, liveLat, 'a position posted after the reconnect');
      expect(bridge!.store.connectivity.socket).toBe('subscribed');
    },
    START_TIMEOUT_MS + 90_000,
  );
});
