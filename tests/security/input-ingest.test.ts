import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../src/domain/constants';
import { hashToken } from '../../server/auth/secrets';
import { apiKeys, hazards, runs, things, thingTypes } from '../../server/db/schema';
import type { IngestEngine } from '../../server/live/ingest';
import { createTestServer, type TestServer } from '../support/test-server';

/**
 * One bad device message must be refused alone, and one row the database refuses must never stop
 * the once-a-second flush (OWASP Input Validation; availability of the live data, part 1 §4).
 */
let server: TestServer;
let engine: IngestEngine;
let org: { id: string };
let otherOrg: { id: string };
let haasCounter = 0;
const KEY = 'lb_input_ingest_key_0001';
const YEAR_ZERO = '0000-01-01T00:00:00Z';
const RANGE_REASON = 'timestamp: must be a real date between 1970-01-01 and 2100-01-01';

async function createThing(organizationId: string) {
  const [typeRow] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const [row] = await server.database.db
    .insert(things)
    .values({ organizationId, haasId: `HA5-IN${++haasCounter}`, thingTypeId: typeRow!.id, lat: 30.27, lng: -97.74 })
    .returning();
  await engine.reload();
  return row!;
}

const at = (offsetMs = 0) => new Date(server.clock.ms + offsetMs).toISOString();

async function post(messages: unknown[]) {
  const response = await server.app.inject({ method: 'POST', url: '/ingest', headers: { 'x-api-key': KEY }, payload: { messages } });
  return { status: response.statusCode, body: response.json() as unknown };
}

async function thingRow(id: string) {
  const [row] = await server.database.db.select().from(things).where(eq(things.id, id));
  return row!;
}

beforeAll(async () => {
  server = await createTestServer();
  engine = (server.app as unknown as { ingest: IngestEngine }).ingest;
  org = await server.createOrg({ name: 'Input Ingest Org' });
  otherOrg = await server.createOrg({ name: 'Input Ingest Other Org' });
  const user = await server.createUser({ org, role: 'ADMIN' });
  await server.database.db
    .insert(apiKeys)
    .values({ userId: user.id, organizationId: org.id, description: 'device', tokenHash: hashToken(KEY), tokenPrefix: KEY.slice(0, 6) });
});
afterAll(() => server.close());

describe('POST /ingest: a message stamped outside the time range is refused alone', () => {
  it.each([
    ['lights', (haas_id: string) => ({ type: 'lights', haas_id, on: true, timestamp: YEAR_ZERO })],
    [
      'hazard',
      (haas_id: string) => ({
        type: 'hazard',
        haas_id,
        hazard_type: 'ice',
        severity: 'high',
        lat: 30.27,
        lng: -97.74,
        timestamp: YEAR_ZERO,
      }),
    ],
  ] as const)('a %s message stamped year 0000 is a 422 naming it; nothing is stored and live data goes on', async (_type, message) => {
    const thing = await createThing(org.id);
    const other = await createThing(otherOrg.id);
    const { status, body } = await post([message(thing.haasId)]);
    expect(status).toBe(422);
    expect(body).toEqual({ accepted: 0, rejected: [{ index: 0, reason: RANGE_REASON }] });
    expect(await server.database.db.select().from(runs).where(eq(runs.thingId, thing.id))).toEqual([]);
    expect(await server.database.db.select().from(hazards).where(eq(hazards.thingId, thing.id))).toEqual([]);
    await engine.flush();

    // The next good messages are stored, for this organization and the others.
    expect((await post([{ type: 'lights', haas_id: thing.haasId, on: true, timestamp: at() }])).status).toBe(200);
    const simulatorResult = await engine.ingest([{ type: 'heartbeat', haas_id: other.haasId, timestamp: at() }], null);
    expect(simulatorResult).toEqual({ accepted: 1, rejected: [] });
    await engine.flush();
    expect((await thingRow(thing.id)).lightsOn).toBe(true);
    expect((await thingRow(other.id)).heartbeatAt?.toISOString()).toBe(at());
  });

  it('in a batch, only the bad message is refused (index and field named)', async () => {
    const thing = await createThing(org.id);
    const { status, body } = await post([
      { type: 'heartbeat', haas_id: thing.haasId, timestamp: at() },
      { type: 'lights', haas_id: thing.haasId, on: true, timestamp: '+275760-09-13T00:00:00Z' },
      { type: 'lights', haas_id: thing.haasId, on: true, timestamp: '1969-12-31T23:59:59Z' },
    ]);
    expect(status).toBe(200);
    expect(body).toEqual({
      accepted: 1,
      rejected: [
        { index: 1, reason: 'timestamp: timestamp must be an ISO date-time' },
        { index: 2, reason: RANGE_REASON },
      ],
    });
  });
});

describe('ingest: a message whose write the database refuses is refused alone', () => {
  it('the message is rejected with a reason, the batch and the next messages are kept', async () => {
    const thing = await createThing(org.id);
    // A road map naming a street with a NUL: the incident the stopped, alerting vehicle opens cannot be stored.
    engine.setStreetLookup(() => 'Bad\u0000Street');
    const haas_id = thing.haasId;
    const result = await engine.ingest(
      [
        { type: 'lights', haas_id, on: true, timestamp: at(-MINUTE_MS) },
        { type: 'point', haas_id, lat: 30.27, lng: -97.74, speed: 0, timestamp: at(-MINUTE_MS) },
        { type: 'point', haas_id, lat: 30.27, lng: -97.74, speed: 0, timestamp: at() },
      ],
      null,
    );
    expect(result).toEqual({ accepted: 2, rejected: [{ index: 2, reason: 'message: refused by the database' }] });
    engine.setStreetLookup(() => null);
    // The earlier messages of the batch stay (lights on, not yet flushed); the next point is accepted.
    expect(engine.stateOf(haas_id)?.lightsOn).toBe(true);
    expect(await engine.ingest([{ type: 'point', haas_id, lat: 30.27, lng: -97.74, speed: 0, timestamp: at(1_000) }], null)).toEqual({
      accepted: 1,
      rejected: [],
    });
    await engine.flush();
    const row = await thingRow(thing.id);
    expect(row.lightsOn).toBe(true);
    expect(row.locationId).toBe(engine.stateOf(haas_id)?.locationId ?? null);
    expect(row.locationId).not.toBeNull();
  });
});

describe('ingest flush: a row the database refuses is isolated', () => {
  it('the other rows of the batch are written, and the next flush works', async () => {
    const good = await createThing(org.id);
    const bad = await createThing(org.id);
    // A road map naming a street with a NUL character: the schema never sees it, Postgres refuses it.
    engine.setStreetLookup((position) => (position.lat > 30.5 ? 'Bad\u0000Street' : 'Congress Ave'));
    const stillFor = (haas_id: string, lat: number) => [
      { type: 'point', haas_id, lat, lng: -97.74, speed: 0, timestamp: at(-11 * MINUTE_MS) },
      { type: 'point', haas_id, lat, lng: -97.74, speed: 0, timestamp: at() },
    ];
    const result = await engine.ingest([...stillFor(good.haasId, 30.27), ...stillFor(bad.haasId, 30.6)], null);
    expect(result).toEqual({ accepted: 4, rejected: [] });
    expect(engine.stateOf(bad.haasId)?.street).toBe('Bad\u0000Street');

    await engine.flush();
    const goodRow = await thingRow(good.id);
    expect(goodRow.street).toBe('Congress Ave');
    expect(goodRow.lat).toBe(30.27);
    expect((await thingRow(bad.id)).street).toBeNull();

    // The next flush is not blocked: both assets move and both rows change.
    const moved = await engine.ingest(
      [
        { type: 'point', haas_id: good.haasId, lat: 30.28, lng: -97.74, speed: 30, timestamp: at(1_000) },
        { type: 'point', haas_id: bad.haasId, lat: 30.61, lng: -97.74, speed: 30, timestamp: at(1_000) },
      ],
      null,
    );
    expect(moved).toEqual({ accepted: 2, rejected: [] });
    await expect(engine.flush()).resolves.toBeUndefined();
    expect((await thingRow(good.id)).lat).toBe(30.28);
    const badRow = await thingRow(bad.id);
    expect(badRow.lat).toBe(30.61);
    expect(badRow.speed).toBe(30);
    engine.setStreetLookup(() => null);
  });
});
