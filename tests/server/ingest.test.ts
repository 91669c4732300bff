import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_STATUS, computeAssetStatus } from '../../src/domain/asset-status';
import { MINUTE_MS, SECOND_MS } from '../../src/domain/constants';
import type { LiveMessageInput } from '../../src/domain/live-message';
import { hashToken } from '../../server/auth/secrets';
import { apiKeys, closures, hazards, locations, locationThings, points, r2rAlerts, runs, things, thingTypes } from '../../server/db/schema';
import { APPLY_SLICE_MS, INGEST_BUSY_MESSAGE, type IngestEngine } from '../../server/live/ingest';
import { createTestServer, type TestServer } from '../support/test-server';
import { countLoopTurns, sleep, until } from '../support/until';

let server: TestServer;
let engine: IngestEngine;
let org: { id: string };
let otherOrg: { id: string };
let key: string;
let otherKey: string;
const received: LiveMessageInput[] = [];
let haasCounter = 0;

async function createKey(organizationId: string, userId: string, token: string) {
  await server.database.db
    .insert(apiKeys)
    .values({ userId, organizationId, description: 'device', tokenHash: hashToken(token), tokenPrefix: token.slice(0, 6) });
}

async function createThing(type: string, values: Partial<typeof things.$inferInsert> = {}) {
  const [typeRow] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, type));
  const [row] = await server.database.db
    .insert(things)
    .values({ organizationId: org.id, haasId: `HA5-T${++haasCounter}`, thingTypeId: typeRow!.id, lat: 30.27, lng: -97.74, ...values })
    .returning();
  await engine.reload();
  return row!;
}

const at = (offsetMs = 0) => new Date(server.clock.ms + offsetMs).toISOString();

async function post(messages: unknown[], apiKey = key) {
  const response = await server.app.inject({ method: 'POST', url: '/ingest', headers: { 'x-api-key': apiKey }, payload: { messages } });
  return { status: response.statusCode, body: response.json() as { accepted: number; rejected: { index: number; reason: string }[] } };
}

const lights = (haas_id: string, on: boolean, offset = 0) => ({ type: 'lights', haas_id, on, timestamp: at(offset) });
const heartbeat = (haas_id: string, offset = 0) => ({ type: 'heartbeat', haas_id, timestamp: at(offset) });
const point = (haas_id: string, lat: number, lng: number, speed: number, offset = 0) => ({
  type: 'point',
  haas_id,
  lat,
  lng,
  speed,
  course: 90,
  accuracy: 5,
  timestamp: at(offset),
});

beforeAll(async () => {
  server = await createTestServer();
  engine = (server.app as unknown as { ingest: IngestEngine }).ingest;
  org = await server.createOrg({ name: 'Ingest Org' });
  otherOrg = await server.createOrg({ name: 'Other Org' });
  const user = await server.createUser({ org, role: 'ADMIN' });
  const otherUser = await server.createUser({ org: otherOrg, role: 'ADMIN' });
  key = 'lb_ingest_test_key_0001';
  otherKey = 'lb_ingest_test_key_0002';
  await createKey(org.id, user.id, key);
  await createKey(otherOrg.id, otherUser.id, otherKey);
  server.deps.bus.subscribe(org.id, (message) => received.push(message));
});
afterAll(() => server.close());

describe('POST /ingest: authentication and bad input', () => {
  it('needs an API key', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/ingest', payload: { messages: [{}] } });
    expect(response.statusCode).toBe(401);
    expect((await post([{}], 'lb_wrong')).status).toBe(401);
  });

  it('a malformed batch is a 422 naming the field', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { 'x-api-key': key },
      payload: { messages: 'nope' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toMatch(/^messages: /);
  });

  it('keeps the good messages of a batch and rejects each bad one with a reason', async () => {
    const thing = await createThing('police');
    const { status, body } = await post([
      { type: 'heartbeat', haas_id: thing.haasId, timestamp: at() },
      { type: 'point', haas_id: thing.haasId, lat: 91, lng: 0, timestamp: at() },
      { type: 'heartbeat', haas_id: 'HA5-NOBODY', timestamp: at() },
      { type: 'teleport', haas_id: thing.haasId, timestamp: at() },
      { type: 'heartbeat', haas_id: thing.haasId, timestamp: at(10 * MINUTE_MS) },
    ]);
    expect(status).toBe(200);
    expect(body.accepted).toBe(1);
    expect(body.rejected.map((r) => r.index)).toEqual([1, 2, 3, 4]);
    expect(body.rejected[0]!.reason).toMatch(/^lat: /);
    expect(body.rejected[1]!.reason).toBe('haas_id: no device HA5-NOBODY in this organization');
    expect(body.rejected[3]!.reason).toBe('timestamp: more than 5 minutes in the future');
    await engine.flush();
    const [row] = await server.database.db.select().from(things).where(eq(things.id, thing.id));
    expect(row!.heartbeatAt?.getTime()).toBe(server.clock.ms);
  });

  it("another organization's key cannot report for this organization's device", async () => {
    const thing = await createThing('fire');
    const { status, body } = await post([{ type: 'heartbeat', haas_id: thing.haasId, timestamp: at() }], otherKey);
    expect(status).toBe(422);
    expect(body.accepted).toBe(0);
  });
});

describe('ingest derivations', () => {
  it('lights on start a run with points; lights off end it; the status follows (part 1 §4)', async () => {
    const thing = await createThing('ambulance');
    received.length = 0;
    await post([
      lights(thing.haasId, true),
      point(thing.haasId, 30.27, -97.74, 40, SECOND_MS),
      point(thing.haasId, 30.271, -97.74, 42, 2 * SECOND_MS),
    ]);
    await engine.flush();
    const [row] = await server.database.db.select().from(things).where(eq(things.id, thing.id));
    expect(row!.enroute).toBe(true);
    expect(row!.runPointsCount).toBe(2);
    expect(
      computeAssetStatus(
        { heartbeatTime: row!.heartbeatAt!.getTime(), enroute: row!.enroute, street: row!.street, isOnIncident: false, activeClosures: [] },
        server.clock.ms,
      ),
    ).toBe(ASSET_STATUS.active);
    // The flush writes the asset's latest state and every point of the run, value for value.
    expect(row).toMatchObject({
      lat: 30.271,
      lng: -97.74,
      speed: 42,
      course: 90,
      accuracy: 5,
      lightsOn: true,
      heartbeatAt: new Date(at(2 * SECOND_MS)),
    });
    const stored = await server.database.db.select().from(points).where(eq(points.runId, row!.runId!)).orderBy(points.timestamp);
    expect(
      stored.map(({ thingId, lat, lng, speed, course, accuracy, timestamp }) => ({
        thingId,
        lat,
        lng,
        speed,
        course,
        accuracy,
        timestamp,
      })),
    ).toEqual([
      { thingId: thing.id, lat: 30.27, lng: -97.74, speed: 40, course: 90, accuracy: 5, timestamp: new Date(at(SECOND_MS)) },
      { thingId: thing.id, lat: 30.271, lng: -97.74, speed: 42, course: 90, accuracy: 5, timestamp: new Date(at(2 * SECOND_MS)) },
    ]);
    expect(received.filter((m) => m.type === 'point')).toHaveLength(2);
    expect(received.find((m) => m.type === 'heartbeat')).toMatchObject({ thing_id: thing.id, is_active: true, run_id: row!.runId });

    await post([lights(thing.haasId, false, 3 * SECOND_MS)]);
    await engine.flush();
    const [run] = await server.database.db.select().from(runs).where(eq(runs.id, row!.runId!));
    expect(run).toMatchObject({ isActive: false, runEnd: new Date(server.clock.ms + 3 * SECOND_MS) });
    expect(received.at(-1)).toMatchObject({ type: 'heartbeat', is_active: false, run_id: null });
  });

  it('0°, 0° is no GPS fix: the point keeps the asset where it was (no trip point, no point frame) but counts as its heartbeat; a hazard there is refused alone', async () => {
    const thing = await createThing('police');
    await post([lights(thing.haasId, true), point(thing.haasId, 30.28, -97.75, 30, SECOND_MS)]);
    received.length = 0;
    const { status, body } = await post([
      point(thing.haasId, 0, 0, 0, 2 * SECOND_MS),
      { type: 'hazard', haas_id: thing.haasId, hazard_type: 'ice', severity: 'high', lat: 0, lng: 0, timestamp: at(2 * SECOND_MS) },
    ]);
    expect(status).toBe(200);
    expect(body).toEqual({ accepted: 1, rejected: [{ index: 1, reason: 'lat, lng: 0, 0 is no position (a device without a GPS fix)' }] });
    await engine.flush();
    const [row] = await server.database.db.select().from(things).where(eq(things.id, thing.id));
    expect(row).toMatchObject({ lat: 30.28, lng: -97.75, heartbeatAt: new Date(at(2 * SECOND_MS)) });
    const stored = await server.database.db.select().from(points).where(eq(points.thingId, thing.id));
    expect(stored.map((p) => [p.lat, p.lng])).toEqual([[30.28, -97.75]]);
    expect(received.filter((m) => m.type === 'point')).toEqual([]);
    expect(received.find((m) => m.type === 'heartbeat')).toMatchObject({ thing_id: thing.id });
    expect(await server.database.db.select().from(hazards).where(eq(hazards.thingId, thing.id))).toEqual([]);
  });

  it('a vehicle stopped with lights on for more than 30 s opens a location; a second joins; it ends when the last leaves', async () => {
    const first = await createThing('fire', { lat: 30.3, lng: -97.7 });
    const second = await createThing('police', { lat: 30.3, lng: -97.7 });
    received.length = 0;
    await post([lights(first.haasId, true), point(first.haasId, 30.3, -97.7, 0, 0), point(first.haasId, 30.3, -97.7, 0, 30 * SECOND_MS)]);
    expect(engine.stateOf(first.haasId)?.locationId).toBeNull(); // exactly 30 s: not yet
    await post([point(first.haasId, 30.3, -97.7, 0, 31 * SECOND_MS)]);
    const locationId = engine.stateOf(first.haasId)?.locationId;
    expect(locationId).toBeTruthy();
    expect(received.find((m) => m.type === 'location')).toMatchObject({ thing_id: first.id, location_id: locationId });
    // Named by what the first unit is and where (no street lookup here: its coordinates).
    const [opened] = await server.database.db.select().from(locations).where(eq(locations.id, locationId!));
    expect(opened!.displayName).toBe('Fire: Near 30.3000, -97.7000');

    await post([
      lights(second.haasId, true),
      point(second.haasId, 30.3005, -97.7, 0, 0),
      point(second.haasId, 30.3005, -97.7, 0, 40 * SECOND_MS),
    ]);
    expect(engine.stateOf(second.haasId)?.locationId).toBe(locationId);

    await post([lights(first.haasId, false, 60 * SECOND_MS)]);
    let [location] = await server.database.db.select().from(locations).where(eq(locations.id, locationId!));
    expect(location!.isActive).toBe(true);
    // The second drives away: the last vehicle left, the location ends.
    await post([point(second.haasId, 30.31, -97.7, 35, 70 * SECOND_MS)]);
    [location] = await server.database.db.select().from(locations).where(eq(locations.id, locationId!));
    expect(location).toMatchObject({ isActive: false, endTime: new Date(server.clock.ms + 70 * SECOND_MS) });
    const onScene = await server.database.db.select().from(locationThings).where(eq(locationThings.locationId, locationId!));
    expect(onScene.map((row) => row.isActive)).toEqual([false, false]);
  });

  it('an automated closure activates with its asset and publishes a closure message', async () => {
    const board = await createThing('arrow_board');
    const [closure] = await server.database.db
      .insert(closures)
      .values({
        organizationId: org.id,
        closureType: 'automated',
        description: 'Lane closed',
        thingId: board.id,
        externalId: 'wz-ingest-1',
      })
      .returning();
    received.length = 0;
    await post([lights(board.haasId, true)]);
    let [row] = await server.database.db.select().from(closures).where(eq(closures.id, closure!.id));
    expect(row!.isActive).toBe(true);
    expect(received).toContainEqual(
      expect.objectContaining({ type: 'closure', closure_id: closure!.id, wzdx_id: 'wz-ingest-1', is_active: true }),
    );
    await post([lights(board.haasId, false, SECOND_MS)]);
    [row] = await server.database.db.select().from(closures).where(eq(closures.id, closure!.id));
    expect(row!.isActive).toBe(false);
  });

  it('alerting switched off turns back on after 60 minutes (part 1 §4)', async () => {
    const thing = await createThing('police', { isPubliclyAlerting: false, alertingOffAt: new Date(server.clock.ms - 60 * MINUTE_MS) });
    const fresh = await createThing('police', { isPubliclyAlerting: false, alertingOffAt: new Date(server.clock.ms - 58 * MINUTE_MS) });
    server.clock.advance(MINUTE_MS); // past the 30 s sweep guard of earlier tests
    received.length = 0;
    await post([{ type: 'heartbeat', haas_id: thing.haasId, timestamp: at() }]);
    const [row] = await server.database.db.select().from(things).where(eq(things.id, thing.id));
    expect(row!.isPubliclyAlerting).toBe(true);
    const [still] = await server.database.db.select().from(things).where(eq(things.id, fresh.id));
    expect(still!.isPubliclyAlerting).toBe(false);
    expect(received).toContainEqual(
      expect.objectContaining({ type: 'thing', thing: expect.objectContaining({ id: thing.id, is_publicly_alerting: true }) }),
    );
  });

  it('two R2R-enabled responders alerting within 500 m alert each other, once per pair in 5 minutes', async () => {
    const a = await createThing('police', { isR2rEnabled: true, lat: 30.4, lng: -97.8 });
    const b = await createThing('fire', { isR2rEnabled: true, lat: 30.4, lng: -97.8 });
    const far = await createThing('ambulance', { isR2rEnabled: true, lat: 30.5, lng: -97.8 });
    await post([point(a.haasId, 30.4, -97.8, 30), point(b.haasId, 30.402, -97.8, 30), point(far.haasId, 30.5, -97.8, 30)]);
    await post([lights(a.haasId, true), lights(far.haasId, true), lights(b.haasId, true)]);
    const alerts = await server.database.db.select().from(r2rAlerts).where(eq(r2rAlerts.organizationId, org.id));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ thingId: b.id, otherThingId: a.id });
    expect(alerts[0]!.distanceM).toBeGreaterThan(200);
    expect(alerts[0]!.distanceM).toBeLessThan(250);
  });

  it('a quiet asset still for 10 minutes gets its street and is stationary', async () => {
    const thing = await createThing('maintenance');
    engine.setStreetLookup(() => 'Congress Ave');
    received.length = 0;
    await post([point(thing.haasId, 30.28, -97.74, 0, 0), point(thing.haasId, 30.28, -97.74, 0, 10 * MINUTE_MS - 1)]);
    expect(engine.stateOf(thing.haasId)?.street).toBeNull();
    server.clock.advance(10 * MINUTE_MS);
    await post([point(thing.haasId, 30.28, -97.74, 0, 0)]);
    await engine.flush();
    const [row] = await server.database.db
      .select()
      .from(things)
      .where(and(eq(things.id, thing.id)));
    expect(row!.street).toBe('Congress Ave');
    // The point message carries the street, so dashboards switch to stationary without waiting for a reload.
    expect(received.filter((m) => m.type === 'point' && m.thing_id === thing.id).at(-1)).toMatchObject({ street: 'Congress Ave' });
    expect(
      computeAssetStatus(
        { heartbeatTime: row!.heartbeatAt!.getTime(), enroute: false, street: row!.street, isOnIncident: false, activeClosures: [] },
        server.clock.ms,
      ),
    ).toBe(ASSET_STATUS.stationary);
    await post([point(thing.haasId, 30.281, -97.74, 25, SECOND_MS)]);
    expect(engine.stateOf(thing.haasId)?.street).toBeNull();
  });
});

describe('ingest flush (part 1 §4: live data goes on while state is stored)', () => {
  it('messages go on being applied and published while a flush writes; a change made meanwhile is written by the next flush', async () => {
    const thing = await createThing('police');
    const moveTo = (lat: number, offset: number) => engine.ingest([point(thing.haasId, lat, -97.74, 30, offset)], null);
    expect(await moveTo(30.27, SECOND_MS)).toEqual({ accepted: 1, rejected: [] });

    // The database holds the flush's first write until released.
    const { db } = server.database;
    const execute = db.execute.bind(db);
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writes = 0;
    db.execute = (async (query: Parameters<typeof execute>[0]) => {
      writes += 1;
      await held;
      return execute(query);
    }) as typeof db.execute;
    let flushing: Promise<void>;
    try {
      flushing = engine.flush();
      await until(() => writes > 0, 'the flush to start writing');
      received.length = 0;
      const during = await Promise.race([moveTo(30.28, 2 * SECOND_MS), sleep(3_000).then(() => 'still waiting for the flush')]);
      expect(during).toEqual({ accepted: 1, rejected: [] });
      expect(received).toContainEqual(expect.objectContaining({ type: 'point', thing_id: thing.id, lat: 30.28 }));
    } finally {
      db.execute = execute;
      release();
    }
    await flushing;
    await engine.flush();
    const [row] = await server.database.db.select().from(things).where(eq(things.id, thing.id));
    expect(row).toMatchObject({ lat: 30.28, heartbeatAt: new Date(at(2 * SECOND_MS)) });
  });

  it('a flush with a limit writes the assets changed longest ago first; the rest wait for the next one, none is lost', async () => {
    const fleet = [await createThing('police'), await createThing('police'), await createThing('police')];
    const [a, b, c] = fleet;
    const lat = async (id: string) => (await server.database.db.select({ lat: things.lat }).from(things).where(eq(things.id, id)))[0]!.lat;
    await engine.flush();
    // Changed in the order b, a, c; a changes again (it keeps its place).
    for (const [thing, offset] of [
      [b!, 1],
      [a!, 2],
      [c!, 3],
      [a!, 4],
    ] as const) {
      await engine.ingest([point(thing.haasId, 31 + offset / 100, -97.74, 30, offset * SECOND_MS)], null);
    }
    await engine.flush(2);
    expect([await lat(a!.id), await lat(b!.id), await lat(c!.id)]).toEqual([31.04, 31.01, 30.27]);
    await engine.flush(2);
    expect(await lat(c!.id)).toBe(31.03);
    // Nothing is left: another flush changes nothing, and a change after it is written by the next.
    await engine.ingest([point(b!.haasId, 31.05, -97.74, 30, 5 * SECOND_MS)], null);
    await engine.flush(1);
    expect([await lat(a!.id), await lat(b!.id), await lat(c!.id)]).toEqual([31.04, 31.05, 31.03]);
  });
});

describe('a database slower than the stream: the ingest holds a bounded backlog and loses nothing', () => {
  /** Replaces the database's raw statements (the flush's writes) with `hold`, until `restore`. */
  function holdExecute(hold: (run: () => Promise<unknown>) => Promise<unknown>) {
    const { db } = server.database;
    const execute = db.execute.bind(db);
    let calls = 0;
    db.execute = ((query: Parameters<typeof execute>[0]) => {
      calls += 1;
      return hold(() => execute(query));
    }) as typeof db.execute;
    return { calls: () => calls, restore: () => (db.execute = execute) };
  }
  const runPoints = async (thingId: string) => {
    const [row] = await server.database.db.select().from(things).where(eq(things.id, thingId));
    const stored = await server.database.db.select().from(points).where(eq(points.runId, row!.runId!)).orderBy(points.timestamp);
    return stored.map((p) => p.lat);
  };

  it('past the trip points it may hold, POST /ingest refuses a batch whole (503, Retry-After) until the flush wrote them; every point taken is stored', async () => {
    const thing = await createThing('ambulance');
    await post([lights(thing.haasId, true)]);
    await engine.flush();
    const limits = engine.limits;
    engine.limits = { ...limits, pendingPoints: 3 };
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = holdExecute((run) => held.then(run));
    let flushing: Promise<void> | undefined;
    try {
      expect(
        (await post([point(thing.haasId, 30.3, -97.74, 40, SECOND_MS), point(thing.haasId, 30.301, -97.74, 40, 2 * SECOND_MS)])).body,
      ).toEqual({
        accepted: 2,
        rejected: [],
      });
      // The flush takes the two points and waits on the database; a third point is still taken.
      flushing = engine.flush();
      await until(() => hold.calls() > 0, 'the flush to start writing');
      expect((await post([point(thing.haasId, 30.302, -97.74, 40, 3 * SECOND_MS)])).body).toEqual({ accepted: 1, rejected: [] });
      expect(engine.backlog().pendingPoints).toBe(3);

      received.length = 0;
      const refused = await server.app.inject({
        method: 'POST',
        url: '/ingest',
        headers: { 'x-api-key': key },
        payload: { messages: [point(thing.haasId, 30.303, -97.74, 40, 4 * SECOND_MS), heartbeat(thing.haasId, 5 * SECOND_MS)] },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.json()).toEqual({ error: 'ingest_busy', message: INGEST_BUSY_MESSAGE });
      // Nothing of the refused batch was applied or published.
      expect(engine.stateOf(thing.haasId)).toMatchObject({ lat: 30.302, heartbeatAt: new Date(at(3 * SECOND_MS)) });
      expect(received).toEqual([]);
    } finally {
      hold.restore();
      release();
      engine.limits = limits;
    }
    await flushing;
    // Written: the device sends the batch again and it is taken.
    expect((await post([point(thing.haasId, 30.303, -97.74, 40, 4 * SECOND_MS)])).body).toEqual({ accepted: 1, rejected: [] });
    await engine.flush();
    expect(await runPoints(thing.id)).toEqual([30.3, 30.301, 30.302, 30.303]);
    expect(engine.backlog()).toEqual({ queuedMessages: 0, pendingPoints: 0 });
  });

  it('a database unreachable while the flush writes: its trip points wait for the next flush, ahead of newer ones', async () => {
    const thing = await createThing('ambulance');
    await post([lights(thing.haasId, true)]);
    await engine.flush();
    await post([point(thing.haasId, 30.31, -97.74, 40, SECOND_MS), point(thing.haasId, 30.311, -97.74, 40, 2 * SECOND_MS)]);
    const hold = holdExecute(() => Promise.reject(new Error('Connection terminated unexpectedly')));
    try {
      await expect(engine.flush()).rejects.toThrow('Connection terminated unexpectedly');
    } finally {
      hold.restore();
    }
    expect(engine.backlog().pendingPoints).toBe(2);
    await post([point(thing.haasId, 30.312, -97.74, 40, 3 * SECOND_MS)]);
    await engine.flush();
    expect(await runPoints(thing.id)).toEqual([30.31, 30.311, 30.312]);
    const [row] = await server.database.db.select().from(things).where(eq(things.id, thing.id));
    expect(row).toMatchObject({ lat: 30.312, runPointsCount: 3 });
  });

  it('past the messages its queue may hold a batch is refused, but a batch alone in the queue is always taken', async () => {
    const thing = await createThing('police');
    const limits = engine.limits;
    engine.limits = { ...limits, queuedMessages: 3 };
    try {
      const queued = engine.ingest(
        [point(thing.haasId, 30.32, -97.74, 40, SECOND_MS), point(thing.haasId, 30.321, -97.74, 40, 2 * SECOND_MS)],
        null,
      );
      expect(engine.backlog().queuedMessages).toBe(2);
      expect(engine.hasRoomFor(1)).toBe(true);
      expect(engine.hasRoomFor(2)).toBe(false);
      expect(await queued).toEqual({ accepted: 2, rejected: [] });
      expect(engine.backlog().queuedMessages).toBe(0);
      expect(engine.hasRoomFor(10)).toBe(true);
    } finally {
      engine.limits = limits;
    }
  });
});

describe('a large batch: the event loop is served while it is applied', () => {
  it('is applied in slices, with turns of the event loop between them, every message in order', async () => {
    const thing = await createThing('police');
    const count = 640;
    // Turns of the event loop counted as each of the asset's points is published.
    let loop: ReturnType<typeof countLoopTurns> | undefined;
    const turnsAt: number[] = [];
    const lats: number[] = [];
    const off = server.deps.bus.subscribe(org.id, (message) => {
      if (message.type !== 'point' || message.thing_id !== thing.id) return;
      turnsAt.push(loop!.turns());
      lats.push(message.lat);
    });
    engine.sliceMs = 0;
    try {
      loop = countLoopTurns();
      const batch = Array.from({ length: count }, (_, i) => point(thing.haasId, 30 + i / 10_000, -97.74, 30, (i - count) * 100));
      expect(await post(batch)).toEqual({ status: 200, body: { accepted: count, rejected: [] } });
    } finally {
      loop?.stop();
      engine.sliceMs = APPLY_SLICE_MS;
      off();
    }
    expect(lats).toEqual(Array.from({ length: count }, (_, i) => 30 + i / 10_000));
    // At least one turn for each look at the clock (every 32 messages) between the first and the last.
    expect(turnsAt.at(-1)! - turnsAt[0]!).toBeGreaterThanOrEqual(count / 32 - 1);
    expect(engine.stateOf(thing.haasId)).toMatchObject({ lat: 30 + (count - 1) / 10_000 });
  });
});
