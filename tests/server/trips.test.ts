import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { fromTripWire, toTripQuery, tripWireSchema } from '../../src/domain/trip';
import { points, runs, things, thingTypes } from '../../server/db/schema';
import { coverageWireSchema } from '../../server/http/trips/schema';
import { call, refusedTokens, type Answer, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
const token = { adminA: '', userA: '', mediaA: '', adminB: '' };
let refused: { revoked: string; expired: string };
let thingA: typeof things.$inferSelect;
let thingB: typeof things.$inferSelect;
let idleThing: typeof things.$inferSelect;
let run1: typeof runs.$inferSelect;
let run2: typeof runs.$inferSelect;
/** The test clock: 2026-11-22 12:00 UTC. */
const NOW = Date.UTC(2026, 10, 22, 12, 0);
const at = (hours: number, minutes = 0) => Date.UTC(2026, 10, 22, hours, minutes);
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  server = await createTestServer();
  const db = server.database.db;
  const orgA = await server.createOrg({ name: 'Alpha County', timezone: 'America/Chicago' });
  const orgB = await server.createOrg({ name: 'Bravo City' });
  const users = {
    adminA: await server.createUser({ org: orgA, role: 'ADMIN' }),
    userA: await server.createUser({ org: orgA, role: 'USER' }),
    mediaA: await server.createUser({ org: orgA, role: 'USER (Incidents / Events only)' }),
    adminB: await server.createUser({ org: orgB, role: 'ADMIN' }),
  };
  for (const [key, user] of Object.entries(users)) token[key as keyof typeof token] = await server.signIn(user.email);
  refused = await refusedTokens(server, users.adminA);
  const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'maintenance'));
  const insertThing = async (organizationId: string, haasId: string) =>
    (await db.insert(things).values({ organizationId, haasId, thingTypeId: type!.id }).returning())[0]!;
  thingA = await insertThing(orgA.id, 'trip-a');
  thingB = await insertThing(orgB.id, 'trip-b');
  idleThing = await insertThing(orgA.id, 'trip-idle');
  run1 = (
    await db
      .insert(runs)
      .values({ thingId: thingA.id, runStart: new Date(at(10)), runEnd: new Date(at(10, 30)), isActive: false })
      .returning()
  )[0]!;
  run2 = (
    await db
      .insert(runs)
      .values({ thingId: thingA.id, runStart: new Date(at(11)), isActive: true })
      .returning()
  )[0]!;
  const run3 = (
    await db
      .insert(runs)
      .values({ thingId: thingB.id, runStart: new Date(at(10)), isActive: true })
      .returning()
  )[0]!;
  const point = (thingId: string, runId: string | null, time: number, i: number) => ({
    thingId,
    runId,
    lat: 41.88 + i / 1000,
    lng: -87.63,
    course: 90,
    speed: 12.5,
    timestamp: new Date(time),
  });
  await db.insert(points).values([
    // Written out of order on purpose: the answer is in time order.
    ...[30, 0, 10, 5, 15, 20, 25].map((m, i) => point(thingA.id, run1.id, at(10, m), i)),
    ...[0, 20, 40].map((m, i) => point(thingA.id, run2.id, at(11, m), i)),
    point(thingA.id, null, at(10, 45), 0),
    point(thingB.id, run3.id, at(10, 5), 0),
  ]);
});
afterAll(() => server.close());

const tripsUrl = (thingId: string, start: number, end: number) => {
  const query = toTripQuery(start, end);
  return `/things/${thingId}/trips?start_time=${encodeURIComponent(query.start_time)}&end_time=${encodeURIComponent(query.end_time)}`;
};
const shown = (answer: Answer) => errorText('trips', { status: answer.status, message: answer.body.message ?? null }).text;

describe('authorization matrix: no, revoked or expired token → 401', () => {
  const calls: [Method, string][] = [
    ['GET', tripsUrl('00000000-0000-4000-8000-000000000000', at(9), at(11))],
    ['GET', '/things/coverage?thing_ids[]=00000000-0000-4000-8000-000000000000'],
  ];
  it.each(calls)('%s %s', async (method, url) => {
    for (const bearer of [null, 'not-a-token', refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer)).status).toBe(401);
    }
  });
});

describe('part2 §7 GET /things/{thingId}/trips', () => {
  it('answers thing_id and the runs with points in the range, points in time order (trip wire schema)', async () => {
    expect(server.clock.ms).toBe(NOW);
    const answer = await call(server, 'GET', tripsUrl(thingA.id, at(9), at(12)), token.userA);
    expect(answer.status).toBe(200);
    const wire = tripWireSchema.parse(answer.json);
    expect(wire.thing_id).toBe(thingA.id);
    expect(wire.runs.map((run) => run.run_id)).toEqual([run1.id, run2.id]);
    const [first, second] = wire.runs;
    expect(first).toMatchObject({ run_start: iso(at(10)), run_end: iso(at(10, 30)), run_duration: 1800, is_active: false });
    expect(first!.points.map((p) => p.timestamp)).toEqual([0, 5, 10, 15, 20, 25, 30].map((m) => iso(at(10, m))));
    expect(first!.points[0]).toEqual({ lat: 41.881, lng: -87.63, course: 90, speed: 12.5, timestamp: iso(at(10)) });
    // A run still going counts up to now.
    expect(second).toMatchObject({ run_end: null, run_duration: 3600, is_active: true });
    const trip = fromTripWire(wire);
    expect(trip.runs[1]!.points).toHaveLength(3);
  });

  it('a narrower range gives only the points inside it (both ends included); points outside runs are no trip', async () => {
    const wire = tripWireSchema.parse((await call(server, 'GET', tripsUrl(thingA.id, at(10, 10), at(10, 50)), token.userA)).json);
    expect(wire.runs).toHaveLength(1);
    expect(wire.runs[0]!.points.map((p) => p.timestamp)).toEqual([10, 15, 20, 25, 30].map((m) => iso(at(10, m))));
    const empty = tripWireSchema.parse((await call(server, 'GET', tripsUrl(thingA.id, at(1), at(2)), token.userA)).json);
    expect(empty.runs).toEqual([]);
  });

  it("run_date alone: the organization's day (America/Chicago), up to now", async () => {
    const wire = tripWireSchema.parse((await call(server, 'GET', `/things/${thingA.id}/trips?run_date=2026-11-22`, token.userA)).json);
    expect(wire.start_time).toBe('2026-11-22T06:00:00.000Z');
    expect(wire.end_time).toBe(iso(NOW));
    expect(wire.runs).toHaveLength(2);
    const day = await call(server, 'GET', `/things/${thingA.id}/trips?run_date=22-11-2026`, token.userA);
    expect(day.status).toBe(422);
    expect(day.body.message).toBe('run_date: must be a date YYYY-MM-DD');
  });

  it.each([
    ['a future end', at(11), NOW + HOUR_MS, 'end_time: Must be past date'],
    ['a future start', NOW + MINUTE_MS, NOW + 2 * MINUTE_MS, 'start_time: Must be past date'],
    ['the same times', at(10), at(10), 'end_time: Dates must be different'],
    ['an end before the start', at(11), at(10), 'end_time: End time must be after Start time'],
    ['over 24 hours', at(11) - 25 * HOUR_MS, at(11), 'end_time: Select up to 24 hours'],
  ])('part2 §5 %s → 422 %s', async (_case, start, end, message) => {
    const answer = await call(server, 'GET', tripsUrl(thingA.id, start, end), token.userA);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
  });

  it('part2 §5 exactly 24 hours is allowed; no range at all → start_time: Required', async () => {
    expect((await call(server, 'GET', tripsUrl(thingA.id, NOW - 24 * HOUR_MS, NOW), token.userA)).status).toBe(200);
    const none = await call(server, 'GET', `/things/${thingA.id}/trips`, token.userA);
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('start_time: Required');
    const garbage = await call(server, 'GET', `/things/${thingA.id}/trips?start_time=soon&end_time=later`, token.userA);
    expect(garbage.status).toBe(422);
    expect(garbage.body.message).toContain('start_time');
  });

  it("part2 §8 Trips: another organization's asset or an unknown one → 404 → 'Asset not found'", async () => {
    for (const id of [thingB.id, '00000000-0000-4000-8000-000000000000']) {
      const answer = await call(server, 'GET', tripsUrl(id, at(9), at(12)), token.adminA);
      expect(answer.status).toBe(404);
      expect(shown(answer)).toBe('Asset not found');
    }
    expect((await call(server, 'GET', tripsUrl('not-an-id', at(9), at(12)), token.adminA)).status).toBe(422);
  });

  it('part2 §6 needs trip:read → 403 for a Media user', async () => {
    expect((await call(server, 'GET', tripsUrl(thingA.id, at(9), at(12)), token.mediaA)).status).toBe(403);
  });
});

describe('part2 §7 GET /things/coverage', () => {
  it('answers, per requested visible asset, the span of its stored points and its run count', async () => {
    const url = `/things/coverage?thing_ids[]=${thingA.id}&thing_ids[]=${thingB.id}&thing_ids[]=${idleThing.id}&thing_ids[]=00000000-0000-4000-8000-000000000000`;
    const answer = await call(server, 'GET', url, token.userA);
    expect(answer.status).toBe(200);
    // B's asset and the unknown id are left out: the answer never confirms they exist.
    expect(coverageWireSchema.array().parse(answer.json)).toEqual([
      { thing_id: thingA.id, first_point_at: iso(at(10)), last_point_at: iso(at(11, 40)), run_count: 2 },
      { thing_id: idleThing.id, first_point_at: null, last_point_at: null, run_count: 0 },
    ]);
    const other = coverageWireSchema
      .array()
      .parse((await call(server, 'GET', `/things/coverage?thing_ids[]=${thingA.id}`, token.adminB)).json);
    expect(other).toEqual([]);
  });

  it("no asset → 422 'Must select at least 1 Asset'; a malformed id → 422; no trip:read → 403", async () => {
    const none = await call(server, 'GET', '/things/coverage', token.userA);
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('thing_ids: Must select at least 1 Asset');
    expect((await call(server, 'GET', '/things/coverage?thing_ids[]=abc', token.userA)).status).toBe(422);
    expect((await call(server, 'GET', `/things/coverage?thing_ids[]=${thingA.id}`, token.mediaA)).status).toBe(403);
  });
});

describe('property: arbitrary query strings never give a 5xx', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.integer().map(String),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.uuid(),
  );
  const query = fc.dictionary(fc.constantFrom('start_time', 'end_time', 'run_date', 'thing_ids[]', 'thing_ids'), value, { maxKeys: 4 });
  it('GET /things/{thingId}/trips and GET /things/coverage', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.oneof(fc.constant(''), fc.string({ maxLength: 20 })), async (params, pathId) => {
        const search = new URLSearchParams(params).toString();
        const id = pathId === '' ? thingA.id : encodeURIComponent(pathId) || 'x';
        for (const url of [`/things/${id}/trips?${search}`, `/things/coverage?${search}`]) {
          const answer = await call(server, 'GET', url, token.userA);
          expect(answer.status).toBeLessThan(500);
        }
      }),
      { numRuns: 80 },
    );
  });
});
