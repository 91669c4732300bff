import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/domain/errors';
import { points, r2rAlerts, roles, things, thingTypes, users } from '../../server/db/schema';
import { nearestPosition, r2rSearchWireSchema } from '../../server/http/r2r-search/schema';
import { call, refusedTokens, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
const token = { engineerA: '', adminA: '', engineerB: '' };
let refused: { revoked: string; expired: string };
let police: typeof things.$inferSelect;
let fire: typeof things.$inferSelect;
let stranger: typeof things.$inferSelect;
/** The test clock: 2026-11-22 12:00 UTC. */
const at = (hours: number, minutes = 0) => Date.UTC(2026, 10, 22, hours, minutes);
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  server = await createTestServer();
  const db = server.database.db;
  const orgA = await server.createOrg({ name: 'Alpha County' });
  const orgB = await server.createOrg({ name: 'Bravo City' });
  // engineer:test without haas:manage: an R2R engineer who sees their own organization only.
  const engineerA = await server.createUser({ org: orgA, role: 'USER' });
  const adminA = await server.createUser({ org: orgA, role: 'ADMIN' });
  const engineerB = await server.createUser({ org: orgB, role: 'USER' });
  const [role] = await db
    .insert(roles)
    .values({ name: 'R2R ENGINEER', permissions: ['engineer:test'] })
    .returning();
  await db.update(users).set({ roleId: role!.id }).where(eq(users.id, engineerA.id));
  await db.update(users).set({ roleId: role!.id }).where(eq(users.id, engineerB.id));
  token.engineerA = await server.signIn(engineerA.email);
  token.adminA = await server.signIn(adminA.email);
  token.engineerB = await server.signIn(engineerB.email);
  refused = await refusedTokens(server, engineerA);
  const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const insertThing = async (organizationId: string, haasId: string, nickname: string | null) =>
    (await db.insert(things).values({ organizationId, haasId, nickname, thingTypeId: type!.id, isR2rEnabled: true }).returning())[0]!;
  police = await insertThing(orgA.id, 'p-100', 'Car 100');
  fire = await insertThing(orgA.id, 'e-7', null);
  stranger = await insertThing(orgB.id, 'b-1', 'Bravo 1');
  await db.insert(r2rAlerts).values([
    {
      organizationId: orgA.id,
      thingId: police.id,
      otherThingId: fire.id,
      distanceM: 320,
      lat: 41.88,
      lng: -87.63,
      alertTime: new Date(at(10, 5)),
    },
    {
      organizationId: orgA.id,
      thingId: police.id,
      otherThingId: stranger.id,
      distanceM: 150,
      alertTime: new Date(at(10, 1)),
      delivered: false,
    },
    { organizationId: orgA.id, thingId: police.id, otherThingId: fire.id, distanceM: 90, alertTime: new Date(at(10, 15)), isTest: true },
    { organizationId: orgA.id, thingId: police.id, otherThingId: fire.id, distanceM: 80, alertTime: new Date(at(10, 16)) },
    { organizationId: orgA.id, thingId: fire.id, otherThingId: police.id, distanceM: 320, alertTime: new Date(at(10, 5)) },
  ]);
  // Trip points around the alerts (a run's points; a point outside any run is not a trip point).
  const run = '33333333-3333-4333-8333-333333333333';
  await db.insert(points).values([
    { thingId: fire.id, runId: run, lat: 41.9, lng: -87.6, timestamp: new Date(at(10, 3)) },
    { thingId: fire.id, runId: run, lat: 41.91, lng: -87.61, timestamp: new Date(at(10, 6)) },
    { thingId: fire.id, runId: null, lat: 40, lng: -80, timestamp: new Date(at(10, 5)) },
    { thingId: police.id, runId: run, lat: 41.7, lng: -87.7, timestamp: new Date(at(10, 2)) },
    { thingId: stranger.id, runId: run, lat: 42, lng: -88, timestamp: new Date(at(10, 1)) },
  ]);
});
afterAll(() => server.close());

const url = (thingId: string, start: number | string) =>
  `/r2r?thing_id=${thingId}&start_time=${encodeURIComponent(typeof start === 'number' ? iso(start) : start)}`;

describe('authorization matrix: no, revoked or expired token → 401', () => {
  const calls: [Method, string][] = [['GET', '/r2r?thing_id=00000000-0000-4000-8000-000000000000&start_time=2026-11-22T10:00:00Z']];
  it.each(calls)('%s %s', async (method, path) => {
    for (const bearer of [null, 'not-a-token', refused.revoked, refused.expired]) {
      expect((await call(server, method, path, bearer)).status).toBe(401);
    }
  });
});

describe('GET /r2r (design: R2R search by asset and alert time)', () => {
  it("answers the asset's R2R alerts in [start, start + 15 min] with the other asset's name and distance", async () => {
    const answer = await call(server, 'GET', url(police.id, at(10)), token.engineerA);
    expect(answer.status).toBe(200);
    const wire = r2rSearchWireSchema.parse(answer.json);
    expect(wire).toMatchObject({ thing_id: police.id, thing_name: 'Car 100', start_time: iso(at(10)), end_time: iso(at(10, 15)) });
    expect(wire.alerts.map((alert) => [alert.alert_time, alert.other_thing_name, alert.distance_m])).toEqual([
      // The other organization's asset stays anonymous.
      [iso(at(10, 1)), null, 150],
      [iso(at(10, 5)), 'E-7', 320],
      [iso(at(10, 15)), 'E-7', 90],
    ]);
    expect(wire.alerts[0]).toMatchObject({ other_thing_id: null, delivered: false });
    expect(wire.alerts[2]!.is_test).toBe(true);
  });

  it('part2 §2 R2R map: where the alerting vehicle and a visible receiver were at the alert time', async () => {
    const wire = r2rSearchWireSchema.parse((await call(server, 'GET', url(police.id, at(10)), token.engineerA)).json);
    const byTime = new Map(wire.alerts.map((alert) => [alert.alert_time, alert]));
    // The receiver's trip point nearest in time (10:06 for 10:05), not the closer point outside a run.
    expect(byTime.get(iso(at(10, 5)))).toMatchObject({ lat: 41.88, lng: -87.63, other_lat: 41.91, other_lng: -87.61 });
    // An alert stored without a position: the alerting vehicle's nearest trip point; an invisible receiver's stays hidden.
    expect(byTime.get(iso(at(10, 1)))).toMatchObject({ lat: 41.7, lng: -87.7, other_lat: null, other_lng: null });
    // Nothing within 5 minutes of 10:15 (the last point is 10:06).
    expect(byTime.get(iso(at(10, 15)))).toMatchObject({ other_lat: null, other_lng: null });
  });

  it('nearest position: closest in time, within 5 minutes', () => {
    const list = [
      { at: 0, lat: 1, lng: 1 },
      { at: 60_000, lat: 2, lng: 2 },
      { at: 600_000, lat: 3, lng: 3 },
    ];
    expect(nearestPosition(list, 20_000)).toEqual({ lat: 1, lng: 1 });
    expect(nearestPosition(list, 40_000)).toEqual({ lat: 2, lng: 2 });
    expect(nearestPosition(list, 1_000_000)).toBeNull();
    expect(nearestPosition(list, 900_000)).toEqual({ lat: 3, lng: 3 });
    expect(nearestPosition([], 0)).toBeNull();
  });

  it('epoch seconds work as the start too', async () => {
    const wire = r2rSearchWireSchema.parse((await call(server, 'GET', url(police.id, String(at(10, 10) / 1000)), token.engineerA)).json);
    expect(wire.alerts.map((alert) => alert.distance_m)).toEqual([90, 80]);
  });

  it.each([
    ['no asset', '/r2r?start_time=2026-11-22T10:00:00Z', 'thing_id: Required'],
    ['no start', () => `/r2r?thing_id=${police.id}`, 'start_time: Required'],
    ['a future start', () => url(police.id, at(12, 1)), 'start_time: Must be past date'],
    ['a malformed asset id', '/r2r?thing_id=car-100&start_time=2026-11-22T10:00:00Z', 'thing_id: must be a uuid'],
  ])('part2 §5 %s → 422 %s', async (_case, path, message) => {
    const answer = await call(server, 'GET', typeof path === 'function' ? path() : path, token.engineerA);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
  });

  it("another organization's asset → 404 'Asset not found'", async () => {
    const answer = await call(server, 'GET', url(police.id, at(10)), token.engineerB);
    expect(answer.status).toBe(404);
    expect(errorText('trips', { status: answer.status }).text).toBe('Asset not found');
  });

  it('part2 §6 needs engineer:test → 403 for an ADMIN', async () => {
    expect((await call(server, 'GET', url(police.id, at(10)), token.adminA)).status).toBe(403);
  });
});
