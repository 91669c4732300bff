/**
 * A stop loses nothing (docs/operations.md "Stopping"): the real server process, a device posting
 * positions one after another and a live socket. On SIGTERM /ready turns 503 'draining' at once
 * while the process goes on taking positions for SHUTDOWN_DRAIN_MS; then the socket is told to
 * reconnect ('disconnect' with reconnect: true, close 1012) and the process exits. Every position
 * the server acknowledged (200) is in the database afterwards, and each asset stands at the last one.
 */
import fs from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connection';
import { points, things } from '../../server/db/schema';
import { FAULT_API_KEY, ingestPoint, seedFaultFleet, signInFault, type FaultFleet } from '../support/fault-seed';
import { spawnServer, templateDataDir, type SpawnedServer } from '../support/spawn-server';
import { until, untilAsync } from '../support/until';
import { connect, isType, subscribe } from './socket-harness';

const START_TIMEOUT_MS = 120_000;
const DRAIN_MS = 3_000;

let dataDir = '';
let server: SpawnedServer | null = null;
let fleet: FaultFleet;

beforeAll(async () => {
  dataDir = templateDataDir('lightbar-graceful-stop-');
  const seeding = await openDatabase({ dataDir });
  fleet = await seedFaultFleet(seeding.db, 3);
  await seeding.close();
  server = await spawnServer(
    { PORT: '0', DATA_DIR: dataDir, LIGHTBAR_DEMO: '0', SIM_ASSETS: '0', SHUTDOWN_DRAIN_MS: String(DRAIN_MS) },
    START_TIMEOUT_MS,
  );
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await server?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('SIGTERM drains: /ready says so, positions go on being taken, the socket is told to reconnect, nothing acknowledged is lost', async () => {
  const base = server!.url;
  const socket = await connect(base.replace(/^http/, 'ws'), await signInFault(base));
  subscribe(socket, fleet.organizationId);
  // Lights on: each asset is on a run, so each position is also a trip point (part 1 §5 Trips).
  const lightsOn = await fetch(`${base}/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': FAULT_API_KEY },
    body: JSON.stringify({
      messages: fleet.things.map((thing) => ({ type: 'lights', haas_id: thing.haasId, on: true, timestamp: new Date().toISOString() })),
    }),
  });
  expect(await lightsOn.json()).toEqual({ accepted: fleet.things.length, rejected: [] });
  await until(() => socket.frames.some(isType('confirm_subscription')), 'the subscription', 10_000);

  /** The last acknowledged latitude of each asset, and how many positions were acknowledged. */
  const lastLat = new Map<string, number>();
  let acknowledged = 0;
  let refusedAfterExit = false;
  let sequence = 0;
  const stream = (async () => {
    while (!refusedAfterExit) {
      const thing = fleet.things[sequence % fleet.things.length]!;
      const lat = 30 + (sequence += 1) / 10_000;
      const answer = await ingestPoint(base, thing.haasId, lat).catch(() => null);
      if (answer === null) refusedAfterExit = true;
      else if (answer.status === 200 && (answer.body as { accepted: number }).accepted === 1) {
        lastLat.set(thing.id, lat);
        acknowledged += 1;
      }
      // Past the drain the server answers 503 to new requests on open connections: the device would retry later.
    }
  })();
  await until(() => acknowledged >= 20, '20 positions acknowledged', 30_000);

  const atSignal = acknowledged;
  const exited = new Promise<void>((resolve) => {
    const check = setInterval(() => {
      try {
        process.kill(server!.pid, 0);
      } catch {
        clearInterval(check);
        resolve();
      }
    }, 50);
  });
  process.kill(server!.pid, 'SIGTERM');
  // Draining: not ready, still alive, still taking positions.
  // (The signal reaches the process's loop between two requests: /ready turns within a few.)
  const ready = await untilAsync(
    async () => {
      const answer = await fetch(`${base}/ready`);
      return answer.status === 503 ? answer : false;
    },
    '/ready answering 503',
    DRAIN_MS / 2,
  );
  expect(await ready.json()).toMatchObject({ ready: false, reason: 'draining', checks: { draining: true } });
  expect((await fetch(`${base}/health`)).status).toBe(200);
  await until(() => acknowledged >= atSignal + 3, 'positions acknowledged while draining', DRAIN_MS);

  const closed = await socket.closed;
  expect(closed).toEqual({ code: 1012, reason: 'server restart' });
  expect(socket.frames.filter(isType('disconnect'))).toEqual([{ type: 'disconnect', reason: 'server_restart', reconnect: true }]);
  await exited;
  await stream;
  expect(server!.output()).toContain(`Lightbar is draining for ${DRAIN_MS} ms before it stops.`);

  // The process is gone: its database holds every acknowledged position.
  const stored = await openDatabase({ dataDir });
  try {
    const ids = fleet.things.map((thing) => thing.id);
    const rows = await stored.db.select({ thingId: points.thingId }).from(points).where(inArray(points.thingId, ids));
    expect(rows.length).toBe(acknowledged);
    for (const [id, lat] of lastLat) {
      const [row] = await stored.db
        .select({ lat: things.lat })
        .from(things)
        .where(and(eq(things.id, id)));
      expect(row?.lat).toBeCloseTo(lat, 6);
    }
  } finally {
    await stored.close();
  }
}, 90_000);
