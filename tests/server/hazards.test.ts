import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { hazards, things, thingTypes } from '../../server/db/schema';
import { hazardCounts, hazardReportWireSchema, hazardWireSchema } from '../../server/http/hazards/schema';
import { badBodies, call, junk, refusedTokens, snapshot, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string; name: string };
let orgB: { id: string; name: string };
const token = { adminA: '', userA: '', mediaA: '', adminB: '', engineer: '' };
let refused: { revoked: string; expired: string };
let thingA: typeof things.$inferSelect;
let thingB: typeof things.$inferSelect;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  server = await createTestServer();
  const db = server.database.db;
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  const users = {
    adminA: await server.createUser({ org: orgA, role: 'ADMIN' }),
    userA: await server.createUser({ org: orgA, role: 'USER' }),
    mediaA: await server.createUser({ org: orgA, role: 'USER (Incidents / Events only)' }),
    adminB: await server.createUser({ org: orgB, role: 'ADMIN' }),
    engineer: await server.createUser({ org: orgB, role: 'ENGINEER' }),
  };
  for (const [key, user] of Object.entries(users)) token[key as keyof typeof token] = await server.signIn(user.email);
  refused = await refusedTokens(server, users.adminA);
  const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'tow'));
  thingA = (
    await db.insert(things).values({ organizationId: orgA.id, haasId: 'hz-a', nickname: 'Tow 4', thingTypeId: type!.id }).returning()
  )[0]!;
  thingB = (await db.insert(things).values({ organizationId: orgB.id, haasId: 'hz-b', thingTypeId: type!.id }).returning())[0]!;
});
afterAll(() => server.close());

const now = () => server.clock.ms;
const hazardsSnapshot = () => snapshot(server, hazards, hazards.id);
const hazardBody = (overrides: Record<string, unknown> = {}) => ({
  hazard_type: 'debris',
  severity: 'medium',
  lat: 41.88,
  lng: -87.63,
  thing_id: thingA.id,
  reported_at: iso(now() - 10 * MINUTE_MS),
  ...overrides,
});

async function report(overrides: Record<string, unknown> = {}, bearer = token.adminA) {
  const answer = await call(server, 'POST', '/organization/hazards', bearer, hazardBody(overrides));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return hazardWireSchema.parse(answer.json);
}

const reportUrl = (query: string, start = now() - 2 * HOUR_MS, end = now()) =>
  `/organization/hazards?start_time=${encodeURIComponent(iso(start))}&end_time=${encodeURIComponent(iso(end))}${query}`;

describe('authorization matrix: no, revoked or expired token → 401', () => {
  const calls: [Method, string][] = [
    ['GET', '/organization/hazards?all_types=true'],
    ['POST', '/organization/hazards'],
  ];
  it.each(calls)('%s %s', async (method, url) => {
    const before = await hazardsSnapshot();
    for (const bearer of [null, 'not-a-token', refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer, method === 'POST' ? hazardBody() : undefined)).status).toBe(401);
    }
    expect(await hazardsSnapshot()).toBe(before);
  });
});

describe('POST /organization/hazards (design: devices and the simulator report hazards)', () => {
  it("stores a hazard of the asset's organization and answers it", async () => {
    const wire = await report({ hazard_type: 'crash', severity: 'high' });
    expect(wire).toMatchObject({
      organization_id: orgA.id,
      organization_name: 'Alpha County',
      thing_id: thingA.id,
      thing_name: 'Tow 4',
      hazard_type: 'crash',
      severity: 'high',
      reported_at: iso(now() - 10 * MINUTE_MS),
    });
  });

  it("without an asset: the caller's organization, reported now", async () => {
    const wire = await report({ thing_id: undefined, reported_at: undefined, hazard_type: 'ice' });
    expect(wire).toMatchObject({ organization_id: orgA.id, thing_id: null, reported_at: iso(now()) });
  });

  it.each([
    ['a future report time', { reported_at: iso(Date.UTC(2026, 10, 22, 13)) }, 422, 'reported_at: Must be past date'],
    ["another organization's asset", { thing_id: '00000000-0000-4000-8000-000000000000' }, 422, 'thing_id: Asset not found'],
    ['an unknown type', { hazard_type: 'meteor' }, 422, undefined],
    ['a latitude off the globe', { lat: 91 }, 422, 'lat: Must be between -90 and 90'],
    [
      "another organization's id",
      { thing_id: undefined, organization_id: '00000000-0000-4000-8000-000000000001' },
      404,
      'Organization not found',
    ],
  ])('%s → %s %s, nothing stored', async (_case, overrides, status, message) => {
    const before = await hazardsSnapshot();
    const answer = await call(server, 'POST', '/organization/hazards', token.adminA, hazardBody(overrides));
    expect(answer.status).toBe(status);
    if (message) expect(answer.body.message).toBe(message);
    expect(await hazardsSnapshot()).toBe(before);
  });

  it('a user of another organization cannot report on A: asset → 422, organization → 404; nothing stored', async () => {
    const before = await hazardsSnapshot();
    expect((await call(server, 'POST', '/organization/hazards', token.adminB, hazardBody())).status).toBe(422);
    expect(
      (await call(server, 'POST', '/organization/hazards', token.adminB, hazardBody({ thing_id: undefined, organization_id: orgA.id })))
        .status,
    ).toBe(404);
    expect(await hazardsSnapshot()).toBe(before);
  });

  it('needs thing:manage or haas:manage → 403 for a USER (hazard:read alone), nothing stored', async () => {
    const before = await hazardsSnapshot();
    expect((await call(server, 'POST', '/organization/hazards', token.userA, hazardBody())).status).toBe(403);
    expect(await hazardsSnapshot()).toBe(before);
    await report({ thing_id: thingB.id }, token.engineer);
  });

  it('property: bad bodies never give a 5xx and never store a row', async () => {
    const before = await hazardsSnapshot();
    const bodies = badBodies(hazardBody(), {
      hazard_type: junk,
      severity: junk,
      lat: fc.oneof(
        junk.filter((value) => typeof value !== 'number'),
        fc.double({ min: 90.0001, max: 1e9, noNaN: true }),
      ),
      lng: fc.oneof(
        junk.filter((value) => typeof value !== 'number'),
        fc.double({ max: -180.0001, min: -1e9, noNaN: true }),
      ),
      thing_id: fc.oneof(
        junk.filter((value) => value !== null),
        fc.uuid(),
      ),
      reported_at: fc.oneof(
        junk.filter((value) => value !== null),
        fc
          .date({ min: new Date(Date.UTC(2026, 10, 23)), max: new Date(Date.UTC(2030, 0, 1)), noInvalidDate: true })
          .map((d) => d.toISOString()),
      ),
    });
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await call(server, 'POST', '/organization/hazards', token.adminA, body);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 120 },
    );
    expect(await hazardsSnapshot()).toBe(before);
  });
});

describe('GET /organization/hazards (design: the hazard report by type and severity)', () => {
  it('answers the hazards of the range, filtered by type and severity, with counts', async () => {
    server.clock.advance(HOUR_MS);
    await report({ hazard_type: 'pothole', severity: 'low', reported_at: iso(now() - 12 * MINUTE_MS) });
    await report({ hazard_type: 'pothole', severity: 'high', reported_at: iso(now() - 11 * MINUTE_MS) });
    await report({ hazard_type: 'flooding', severity: 'high' });
    const answer = await call(server, 'GET', reportUrl('&types[]=pothole&types[]=flooding', now() - 30 * MINUTE_MS), token.userA);
    expect(answer.status).toBe(200);
    const wire = hazardReportWireSchema.parse(answer.json);
    expect(wire.hazards.map((hazard) => `${hazard.hazard_type}/${hazard.severity}`)).toEqual([
      'pothole/low',
      'pothole/high',
      'flooding/high',
    ]);
    expect(wire.counts).toEqual([
      { hazard_type: 'flooding', low: 0, medium: 0, high: 1, total: 1 },
      { hazard_type: 'pothole', low: 1, medium: 0, high: 1, total: 2 },
    ]);
    const high = hazardReportWireSchema.parse(
      (await call(server, 'GET', reportUrl('&all_types=true&severities[]=high', now() - 30 * MINUTE_MS), token.userA)).json,
    );
    expect(high.hazards.map((hazard) => hazard.hazard_type)).toEqual(['pothole', 'flooding']);
    const all = hazardReportWireSchema.parse((await call(server, 'GET', reportUrl('&all_types=true'), token.userA)).json);
    expect(all.hazards.length).toBeGreaterThanOrEqual(5);
  });

  it.each([
    ['no type and not all', '', undefined, undefined, 'types[]: Must select at least 1 type'],
    ['over 24 hours', '&all_types=true', Date.UTC(2026, 10, 21, 11), Date.UTC(2026, 10, 22, 12), 'end_time: Select up to 24 hours'],
    ['a future end', '&all_types=true', Date.UTC(2026, 10, 22, 12), Date.UTC(2026, 10, 22, 18), 'end_time: Must be past date'],
    ['an unknown type', '&types[]=meteor', undefined, undefined, undefined],
  ])('part2 §5 %s → 422 %s', async (_case, query, start, end, message) => {
    const answer = await call(server, 'GET', reportUrl(query, start, end), token.userA);
    expect(answer.status).toBe(422);
    if (message) expect(answer.body.message).toBe(message);
  });

  it("a user of another organization sees none of A's hazards; naming A → 404 'Organization not found'", async () => {
    const own = hazardReportWireSchema.parse((await call(server, 'GET', reportUrl('&all_types=true'), token.adminB)).json);
    expect(own.hazards.some((hazard) => hazard.organization_id === orgA.id)).toBe(false);
    const answer = await call(server, 'GET', reportUrl(`&all_types=true&org_ids[]=${orgA.id}`), token.adminB);
    expect(answer.status).toBe(404);
    expect(errorText('lists', { status: answer.status }).text).toBe('Organization not found');
    const staff = hazardReportWireSchema.parse(
      (await call(server, 'GET', reportUrl(`&all_types=true&org_ids[]=${orgA.id}`), token.engineer)).json,
    );
    expect(staff.hazards.length).toBeGreaterThan(0);
  });

  it('part2 §6 needs hazard:read → 403 for a Media user', async () => {
    expect((await call(server, 'GET', reportUrl('&all_types=true'), token.mediaA)).status).toBe(403);
  });

  it('hazardCounts orders types as HAZARD_TYPES and leaves out types with none', () => {
    expect(
      hazardCounts([
        { hazard_type: 'other', severity: 'low' },
        { hazard_type: 'crash', severity: 'low' },
      ]).map((row) => row.hazard_type),
    ).toEqual(['crash', 'other']);
  });
});

describe('property: arbitrary report queries never give a 5xx', () => {
  it('GET /organization/hazards', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('true', 'crash', 'high', 'meteor'),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.uuid(),
    );
    const keys = fc.constantFrom('start_time', 'end_time', 'types[]', 'severities[]', 'all_types', 'org_ids[]');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(keys, value), { maxLength: 6 }), async (pairs) => {
        const answer = await call(server, 'GET', `/organization/hazards?${new URLSearchParams(pairs).toString()}`, token.userA);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 80 },
    );
  });
});
