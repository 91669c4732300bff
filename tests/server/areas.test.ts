import { area as turfArea } from '@turf/area';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaTypeWireSchema, areaWireSchema, fromAreaWire } from '../../src/domain/area';
import { SQ_METRES_PER_SQ_MILE } from '../../src/domain/constants';
import { errorText, type ErrorContext } from '../../src/domain/errors';
import { areas, areaTypes, roles, users } from '../../server/db/schema';
import { isSimpleRing } from '../../server/http/areas/schema';
import { badBodies, badIds, call, junk, refusedTokens, snapshot, type Answer, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string; name: string };
let orgB: { id: string; name: string };
/** An organization that A manages: visible to A, but A is not its owner. */
let orgC: { id: string; name: string };
const token = { adminA: '', userA: '', mediaA: '', adminB: '', engineer: '', createOnlyA: '' };
let adminA: typeof users.$inferSelect;
let refused: { revoked: string; expired: string };
const typeIds = new Map<string, string>();

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  orgC = await server.createOrg({ name: 'Charlie Township' });
  await server.relate(orgC.id, orgA.id, 'manager');
  adminA = await server.createUser({ org: orgA, role: 'ADMIN' });
  const userA = await server.createUser({ org: orgA, role: 'USER' });
  const mediaA = await server.createUser({ org: orgA, role: 'USER (Incidents / Events only)' });
  const adminB = await server.createUser({ org: orgB, role: 'ADMIN' });
  const engineer = await server.createUser({ org: orgB, role: 'ENGINEER' });
  // A role with exclusion:create alone: it may add, not edit or delete.
  const [createOnly] = await server.database.db
    .insert(roles)
    .values({ name: 'AREA CREATOR', permissions: ['exclusion:create', 'incident:read'] })
    .returning();
  const createOnlyA = await server.createUser({ org: orgA, role: 'USER' });
  await server.database.db.update(users).set({ roleId: createOnly!.id }).where(eq(users.id, createOnlyA.id));
  for (const [key, user] of Object.entries({ adminA, userA, mediaA, adminB, engineer, createOnlyA })) {
    token[key as keyof typeof token] = await server.signIn(user.email);
  }
  refused = await refusedTokens(server, adminA);
  for (const type of await server.database.db.select().from(areaTypes)) typeIds.set(type.dbName, type.id);
});
afterAll(() => server.close());

/** Values a field must refuse: junk that is not null (null is a valid "none" for several fields). */
const notNull = junk.filter((value) => value !== null);
const notText = junk.filter((value) => typeof value !== 'string');
const notNumber = notNull.filter((value) => typeof value !== 'number');

const areasSnapshot = () => snapshot(server, areas, areas.id);
const shown = (context: ErrorContext, answer: Answer) =>
  errorText(context, { status: answer.status, message: answer.body.message ?? null, code: answer.body.error ?? null }).text;

/** A closed square ring ([lng, lat]) of `side` degrees at a Chicago corner. */
function square(side: number, lng = -87.63, lat = 41.88): number[][] {
  return [
    [lng, lat],
    [lng + side, lat],
    [lng + side, lat + side],
    [lng, lat + side],
    [lng, lat],
  ];
}

function exclusionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organization_id: orgA.id,
    name: 'Station 12 yard',
    desc: 'Apparatus bay and yard',
    ez_type_id: typeIds.get('station'),
    area_geom: { type: 'Polygon', coordinates: [square(0.001)] },
    point_geom: { lat: 41.8805, lon: -87.6295 },
    address1: '12 W Lake St',
    address2: '',
    city: 'Chicago',
    state: 'IL',
    postal_code: '60601',
    country_code: 'US',
    ...overrides,
  };
}

async function createArea(overrides: Record<string, unknown> = {}, bearer = token.adminA) {
  const answer = await call(server, 'POST', '/organization/exclusion_zone', bearer, exclusionBody(overrides));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return areaWireSchema.parse(answer.json);
}

async function areaRow(id: string) {
  const [row] = await server.database.db.select().from(areas).where(eq(areas.id, id));
  return row!;
}

describe('authorization matrix: no, revoked or expired token → 401 for every call', () => {
  const calls: [Method, string][] = [
    ['GET', '/ez_types'],
    ['GET', '/organization/exclusion_zone'],
    ['GET', '/organization/exclusion_zone/00000000-0000-4000-8000-000000000000'],
    ['POST', '/organization/exclusion_zone'],
    ['PUT', '/organization/exclusion_zone/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/organization/exclusion_zone/00000000-0000-4000-8000-000000000000'],
  ];
  it.each(calls)('%s %s', async (method, url) => {
    const before = await areasSnapshot();
    const body = method === 'POST' || method === 'PUT' ? exclusionBody() : undefined;
    for (const bearer of [null, 'not-a-token', refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer, body)).status).toBe(401);
    }
    expect(await areasSnapshot()).toBe(before);
  });
});

describe('part2 §7 GET /ez_types', () => {
  it('answers the area types sorted alphabetically with Other last, is_av_type for no_stop and no_enter', async () => {
    const answer = await call(server, 'GET', '/ez_types', token.userA);
    expect(answer.status).toBe(200);
    const types = areaTypeWireSchema.array().parse(answer.json);
    expect(types.map((type) => type.display_name)).toEqual([
      'Hospital',
      'No Enter',
      'No Stop',
      'School Zone',
      'Station',
      'Work Yard',
      'Other',
    ]);
    expect(
      types
        .filter((type) => type.is_av_type)
        .map((type) => type.db_name)
        .sort(),
    ).toEqual(['no_enter', 'no_stop']);
  });

  it('needs the areas view → 403 for a Media user', async () => {
    expect((await call(server, 'GET', '/ez_types', token.mediaA)).status).toBe(403);
  });
});

describe('part2 §7 POST /organization/exclusion_zone', () => {
  it('creates an exclusion: the answer parses with the area wire schema and maps to an exclusion', async () => {
    const before = (await server.database.db.select().from(areas)).length;
    const wire = await createArea({ radius_dist: 0.1 });
    const area = fromAreaWire(wire);
    expect(area).toMatchObject({
      displayName: 'Station 12 yard',
      isExclusion: true,
      isPoi: false,
      orgId: orgA.id,
      orgName: 'Alpha County',
    });
    expect(area.lineStringArray).toHaveLength(4);
    expect(wire.ez_type.db_name).toBe('station');
    // part 2 §3: radius_dist is in miles, converted to metres by 1609.
    expect(wire.radius_dist).toBe(0.1);
    expect(area.radius).toBeCloseTo(160.9);
    const row = await areaRow(wire.id);
    expect(row).toMatchObject({ name: 'Station 12 yard', organizationId: orgA.id, postalCode: '60601', lat: 41.8805, lng: -87.6295 });
    expect((await server.database.db.select().from(areas)).length).toBe(before + 1);
  });

  it('creates a point of interest (a point, no shape); the zip is upper-cased', async () => {
    const wire = await createArea({
      name: 'Hospital entrance',
      ez_type_id: typeIds.get('hospital'),
      area_geom: null,
      country_code: 'CA',
      postal_code: 'k1a 0b1',
    });
    expect(fromAreaWire(wire)).toMatchObject({ isPoi: true, isExclusion: false, postalCode: 'K1A 0B1' });
  });

  it('truncates coordinates to 7 decimals (part 2 §9)', async () => {
    const wire = await createArea({ name: 'Truncated', point_geom: { lat: 41.880512345678, lon: -87.629512345678 } });
    expect(wire.point_geom).toEqual({ lat: 41.8805123, lon: -87.6295123 });
  });

  it.each([
    ['name over 100', { name: 'x'.repeat(101) }, 'name: 100 Max Characters'],
    ['no name', { name: '   ' }, 'name: Required'],
    ['no type', { ez_type_id: null }, 'ez_type_id: Required'],
    ['no map position', { point_geom: null }, "point_geom: ERROR: Please set new map location. Click 'View Instructions' above if needed"],
    [
      'an exclusion of 2 points',
      {
        area_geom: {
          type: 'Polygon',
          coordinates: [
            [
              [-87.63, 41.88],
              [-87.629, 41.88],
              [-87.63, 41.88],
            ],
          ],
        },
      },
      'area_geom: Exclusions must have at least 3 points',
    ],
    ['a bad US zip', { postal_code: '6060' }, 'postal_code: Invalid zip code'],
    ['a bad Canadian postal code', { country_code: 'CA', postal_code: '12345' }, 'postal_code: Invalid postal code'],
    ['a country code over 2', { country_code: 'USA' }, 'country_code: Must be 2 or fewer characters'],
    ['an unknown type', { ez_type_id: '00000000-0000-4000-8000-000000000000' }, 'ez_type_id: unknown area type'],
    [
      'a shape off the globe',
      {
        area_geom: {
          type: 'Polygon',
          coordinates: [
            [
              [-87.63, 95],
              [-87.629, 95],
              [-87.629, 96],
              [-87.63, 95],
            ],
          ],
        },
      },
      'area_geom.0.lat: Must be between -90 and 90',
    ],
  ])('part2 §5 %s → 422 %s, shown as "Unable to save Area"', async (_case, overrides, message) => {
    const before = await areasSnapshot();
    const answer = await call(server, 'POST', '/organization/exclusion_zone', token.adminA, exclusionBody(overrides));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
    expect(shown('areaSave', answer)).toBe('Unable to save Area');
    expect(await areasSnapshot()).toBe(before);
  });

  it("part2 §8 an area of 0.5 sq mi or more → 422 'too large' → 'Polygon area is too large, please keep area under .5 square miles'", async () => {
    const before = await areasSnapshot();
    // Just over and just under the limit, measured by @turf/area (an oracle independent of the domain's polygonAreaSqM).
    const sqMiles = (side: number) => turfArea({ type: 'Polygon', coordinates: [square(side)] }) / SQ_METRES_PER_SQ_MILE;
    let side = 0.01;
    while (sqMiles(side) < 0.5) side += 0.0001;
    const over = await call(
      server,
      'POST',
      '/organization/exclusion_zone',
      token.adminA,
      exclusionBody({ area_geom: { type: 'Polygon', coordinates: [square(side)] } }),
    );
    expect(over.status).toBe(422);
    expect(over.body.message).toContain('too large');
    expect(shown('areaSave', over)).toBe('Polygon area is too large, please keep area under .5 square miles');
    expect(await areasSnapshot()).toBe(before);
    const under = side - 0.0002;
    expect(sqMiles(under)).toBeLessThan(0.5);
    await createArea({ name: 'Just under the limit', area_geom: { type: 'Polygon', coordinates: [square(under)] } });
  });

  it("part2 §8 a circle (radius_dist) of 0.5 sq mi or more → 'too large'", async () => {
    const answer = await call(server, 'POST', '/organization/exclusion_zone', token.adminA, exclusionBody({ radius_dist: 0.4 }));
    expect(shown('areaSave', answer)).toBe('Polygon area is too large, please keep area under .5 square miles');
  });

  const bowTie = [
    [-87.63, 41.88],
    [-87.629, 41.881],
    [-87.629, 41.88],
    [-87.63, 41.881],
    [-87.63, 41.88],
  ];
  const unclosed = [
    [-87.63, 41.88],
    [-87.629, 41.88],
    [-87.629, 41.881],
    [-87.63, 41.881],
  ];
  const spike = [
    [-87.63, 41.88],
    [-87.629, 41.88],
    [-87.628, 41.88],
    [-87.6285, 41.88],
    [-87.629, 41.881],
    [-87.63, 41.88],
  ];
  const holed = [square(0.002), square(0.0005, -87.6295, 41.8805)];
  it.each([
    ['self-intersecting (a bow tie)', [bowTie]],
    ['not closed', [unclosed]],
    ['an edge doubling back', [spike]],
    ['with a hole', holed],
  ])("part2 §8 a shape %s → 422 'invalid' → 'Exclusion shape is invalid'", async (_case, coordinates) => {
    const before = await areasSnapshot();
    const answer = await call(
      server,
      'POST',
      '/organization/exclusion_zone',
      token.adminA,
      exclusionBody({ area_geom: { type: 'Polygon', coordinates } }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('invalid');
    expect(shown('areaSave', answer)).toBe('Exclusion shape is invalid');
    expect(await areasSnapshot()).toBe(before);
  });

  it('part2 §6 needs exclusion create or manage → 403 for a USER, nothing stored', async () => {
    const before = await areasSnapshot();
    expect((await call(server, 'POST', '/organization/exclusion_zone', token.userA, exclusionBody())).status).toBe(403);
    expect(await areasSnapshot()).toBe(before);
  });

  it('part2 §6 exclusion:create alone may add', async () => {
    await createArea({ name: 'Created by a creator' }, token.createOnlyA);
  });

  it("part2 §6 add needs the owner: a managed organization's area → 403; haas:manage may", async () => {
    const before = await areasSnapshot();
    expect(
      (await call(server, 'POST', '/organization/exclusion_zone', token.adminA, exclusionBody({ organization_id: orgC.id }))).status,
    ).toBe(403);
    expect(await areasSnapshot()).toBe(before);
    const wire = await createArea({ organization_id: orgC.id, name: 'Township yard' }, token.engineer);
    expect(wire.organization_name).toBe('Charlie Township');
  });

  it("another organization's id → 404 'Organization not found', nothing stored", async () => {
    const before = await areasSnapshot();
    const answer = await call(server, 'POST', '/organization/exclusion_zone', token.adminA, exclusionBody({ organization_id: orgB.id }));
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('Organization not found');
    expect(await areasSnapshot()).toBe(before);
  });

  it('property: arbitrary and near-valid bad bodies never give a 5xx and never store a row', async () => {
    const before = await areasSnapshot();
    const bodies = badBodies(exclusionBody(), {
      organization_id: junk,
      name: fc.oneof(
        notText,
        fc.string({ minLength: 101, maxLength: 120 }).filter((s) => s.trim().length > 100),
        fc.constant('   '),
      ),
      ez_type_id: junk,
      area_geom: fc.oneof(
        notNull,
        fc.record({
          type: fc.constant('Polygon'),
          coordinates: fc.array(fc.array(fc.array(fc.double(), { maxLength: 3 }), { maxLength: 6 }), { maxLength: 2 }),
        }),
      ),
      point_geom: fc.oneof(junk, fc.record({ lat: fc.double({ min: 91, max: 1e6 }), lon: fc.double() })),
      postal_code: fc.oneof(fc.integer(), fc.constant('ABCDE')),
      // No infinities: JSON writes -Infinity as null, which is a valid (absent) radius.
      radius_dist: fc.oneof(
        notNumber,
        fc.double({ max: 0, noNaN: true, noDefaultInfinity: true }),
        fc.double({ min: 0.4, max: 1e6, noNaN: true }),
      ),
    });
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await call(server, 'POST', '/organization/exclusion_zone', token.adminA, body);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 120 },
    );
    expect(await areasSnapshot()).toBe(before);
  });
});

describe('part2 §7 GET /organization/exclusion_zone', () => {
  it("answers the visible organizations' areas, sorted by name case-insensitively, each parsing", async () => {
    await createArea({ name: 'alpha lot' });
    await createArea({ name: 'Zulu depot' });
    const answer = await call(server, 'GET', `/organization/exclusion_zone?org_ids[]=${orgA.id}`, token.userA);
    expect(answer.status).toBe(200);
    const list = areaWireSchema.array().parse(answer.json);
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.every((area) => area.organization_id === orgA.id)).toBe(true);
    const names = list.map((area) => area.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    // Without org_ids: every visible organization (A and the managed C).
    const all = areaWireSchema.array().parse((await call(server, 'GET', '/organization/exclusion_zone', token.adminA)).json);
    expect(new Set(all.map((area) => area.organization_id))).toEqual(new Set([orgA.id, orgC.id]));
  });

  it("a user of another organization sees none of them; naming only A → 404 'Organization not found'", async () => {
    const own = areaWireSchema.array().parse((await call(server, 'GET', '/organization/exclusion_zone', token.adminB)).json);
    expect(own.some((area) => area.organization_id === orgA.id)).toBe(false);
    const answer = await call(server, 'GET', `/organization/exclusion_zone?org_ids[]=${orgA.id}`, token.adminB);
    expect(answer.status).toBe(404);
    expect(shown('lists', answer)).toBe('Organization not found');
    // Even haas:manage (which sees every organization) gets 404 for ids naming none.
    for (const ids of ['org_ids[]=abc', 'org_ids[]=00000000-0000-4000-8000-000000000000']) {
      const none = await call(server, 'GET', `/organization/exclusion_zone?${ids}`, token.engineer);
      expect(shown('lists', none)).toBe('Organization not found');
    }
  });

  it('needs the areas view → 403 for a Media user', async () => {
    expect((await call(server, 'GET', '/organization/exclusion_zone', token.mediaA)).status).toBe(403);
  });

  it('GET /organization/exclusion_zone/{id}: the detail; another organization → 404', async () => {
    const wire = await createArea({ name: 'Detail me' });
    const answer = await call(server, 'GET', `/organization/exclusion_zone/${wire.id}`, token.userA);
    expect(areaWireSchema.parse(answer.json)).toEqual(wire);
    expect((await call(server, 'GET', `/organization/exclusion_zone/${wire.id}`, token.adminB)).status).toBe(404);
  });
});

describe('part2 §7 PUT /organization/exclusion_zone/{id}', () => {
  it('updates the area and answers it', async () => {
    const wire = await createArea({ name: 'Before' });
    const answer = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${wire.id}`,
      token.adminA,
      exclusionBody({ id: wire.id, name: 'After', desc: 'moved', area_geom: { type: 'Polygon', coordinates: [square(0.002)] } }),
    );
    expect(answer.status).toBe(200);
    const updated = areaWireSchema.parse(answer.json);
    expect(updated).toMatchObject({ id: wire.id, name: 'After', desc: 'moved' });
    expect((await areaRow(wire.id)).name).toBe('After');
  });

  it('a user of another organization → 404, unchanged', async () => {
    const wire = await createArea({ name: 'Not yours' });
    const before = await areasSnapshot();
    const answer = await call(server, 'PUT', `/organization/exclusion_zone/${wire.id}`, token.adminB, exclusionBody({ name: 'Hijacked' }));
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('Area not found');
    expect(await areasSnapshot()).toBe(before);
  });

  it('part2 §6 needs exclusion update or manage → 403 for a USER and for exclusion:create alone, unchanged', async () => {
    const wire = await createArea({ name: 'Keep me' });
    const before = await areasSnapshot();
    for (const bearer of [token.userA, token.createOnlyA]) {
      expect(
        (await call(server, 'PUT', `/organization/exclusion_zone/${wire.id}`, bearer, exclusionBody({ name: 'Changed' }))).status,
      ).toBe(403);
    }
    expect(await areasSnapshot()).toBe(before);
  });

  it("part2 §6 the owner edits; a managed organization's area needs haas:manage", async () => {
    const wire = await createArea({ organization_id: orgC.id, name: 'Township lot' }, token.engineer);
    const before = await areasSnapshot();
    const denied = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${wire.id}`,
      token.adminA,
      exclusionBody({ organization_id: orgC.id, name: 'Mine now' }),
    );
    expect(denied.status).toBe(403);
    expect(await areasSnapshot()).toBe(before);
    const allowed = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${wire.id}`,
      token.engineer,
      exclusionBody({ organization_id: orgC.id, name: 'Renamed by staff' }),
    );
    expect(allowed.status).toBe(200);
  });

  it('part2 §6 automated-vehicle types (is_av_type) need haas:manage to edit, also to become one', async () => {
    const plain = await createArea({ name: 'Plain' });
    const before = await areasSnapshot();
    const toAv = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${plain.id}`,
      token.adminA,
      exclusionBody({ ez_type_id: typeIds.get('no_stop') }),
    );
    expect(toAv.status).toBe(403);
    expect(await areasSnapshot()).toBe(before);
    const av = await createArea({ name: 'No stopping', ez_type_id: typeIds.get('no_stop') }, token.engineer);
    const edit = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${av.id}`,
      token.adminA,
      exclusionBody({ name: 'Stop anyway', ez_type_id: typeIds.get('no_stop') }),
    );
    expect(edit.status).toBe(403);
    const staff = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${av.id}`,
      token.engineer,
      exclusionBody({ name: 'No stopping ever', ez_type_id: typeIds.get('no_stop') }),
    );
    expect(staff.status).toBe(200);
  });

  it("part2 §8 a too large shape on update → 'Polygon area is too large, …', unchanged", async () => {
    const wire = await createArea({ name: 'Growing' });
    const before = await areasSnapshot();
    const answer = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${wire.id}`,
      token.adminA,
      exclusionBody({ area_geom: { type: 'Polygon', coordinates: [square(0.05)] } }),
    );
    expect(shown('areaSave', answer)).toBe('Polygon area is too large, please keep area under .5 square miles');
    expect(await areasSnapshot()).toBe(before);
  });

  it('an area cannot move to another organization → 422', async () => {
    const wire = await createArea({ name: 'Stay' });
    const answer = await call(
      server,
      'PUT',
      `/organization/exclusion_zone/${wire.id}`,
      token.engineer,
      exclusionBody({ organization_id: orgC.id }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('organization_id');
  });

  it('property: bad bodies never give a 5xx and never change the area', async () => {
    const wire = await createArea({ name: 'Fuzzed' });
    const before = await areasSnapshot();
    const bodies = badBodies(exclusionBody(), {
      organization_id: junk,
      name: fc.oneof(
        notText,
        fc.string({ minLength: 101, maxLength: 120 }).filter((s) => s.trim().length > 100),
      ),
      ez_type_id: junk,
      area_geom: notNull,
      point_geom: junk,
      country_code: fc.oneof(
        notText.filter((value) => value !== null),
        fc.string({ minLength: 3, maxLength: 5 }).filter((value) => value.trim().length > 2),
      ),
    });
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await call(server, 'PUT', `/organization/exclusion_zone/${wire.id}`, token.adminA, body);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
    expect(await areasSnapshot()).toBe(before);
  });
});

describe('part2 §7 DELETE /organization/exclusion_zone/{id}', () => {
  it("answers { id }; a second delete → 404 → 'Area not found' (the client treats it as deleted)", async () => {
    const wire = await createArea({ name: 'Doomed' });
    const answer = await call(server, 'DELETE', `/organization/exclusion_zone/${wire.id}`, token.adminA);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ id: wire.id });
    expect((await areaRow(wire.id)).deletedAt).not.toBeNull();
    const list = areaWireSchema.array().parse((await call(server, 'GET', '/organization/exclusion_zone', token.adminA)).json);
    expect(list.some((area) => area.id === wire.id)).toBe(false);
    const again = await call(server, 'DELETE', `/organization/exclusion_zone/${wire.id}`, token.adminA);
    expect(again.status).toBe(404);
    expect(shown('areaDelete', again)).toBe('Area not found');
  });

  it("part2 §8 a malformed id → 422 → 'Unable to delete Area'", async () => {
    const answer = await call(server, 'DELETE', '/organization/exclusion_zone/not-an-id', token.adminA);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('id: must be a uuid');
    expect(shown('areaDelete', answer)).toBe('Unable to delete Area');
  });

  it("a user of another organization → 404 'Area not found', still there", async () => {
    const wire = await createArea({ name: 'Survivor' });
    const answer = await call(server, 'DELETE', `/organization/exclusion_zone/${wire.id}`, token.adminB);
    expect(shown('areaDelete', answer)).toBe('Area not found');
    expect((await areaRow(wire.id)).deletedAt).toBeNull();
  });

  it('part2 §6 needs exclusion delete or manage (403 for a USER); AV types need haas:manage', async () => {
    const wire = await createArea({ name: 'Protected' });
    expect((await call(server, 'DELETE', `/organization/exclusion_zone/${wire.id}`, token.userA)).status).toBe(403);
    expect((await call(server, 'DELETE', `/organization/exclusion_zone/${wire.id}`, token.createOnlyA)).status).toBe(403);
    expect((await areaRow(wire.id)).deletedAt).toBeNull();
    const av = await createArea({ name: 'No entry', ez_type_id: typeIds.get('no_enter') }, token.engineer);
    expect((await call(server, 'DELETE', `/organization/exclusion_zone/${av.id}`, token.adminA)).status).toBe(403);
    expect((await areaRow(av.id)).deletedAt).toBeNull();
    expect((await call(server, 'DELETE', `/organization/exclusion_zone/${av.id}`, token.engineer)).status).toBe(200);
  });

  it('property: arbitrary ids never give a 5xx and never delete a row', async () => {
    await createArea({ name: 'Fuzz target' });
    const before = await areasSnapshot();
    await fc.assert(
      fc.asyncProperty(badIds, async (id) => {
        const answer = await call(server, 'DELETE', `/organization/exclusion_zone/${encodeURIComponent(id)}`, token.adminA);
        expect([404, 422]).toContain(answer.status);
      }),
      { numRuns: 60 },
    );
    expect(await areasSnapshot()).toBe(before);
  });
});

describe('the shape check (a simple closed ring)', () => {
  it.each([
    ['a square', square(1), true],
    [
      'a triangle',
      [
        [0, 0],
        [1, 0],
        [0, 1],
        [0, 0],
      ],
      true,
    ],
    [
      'a concave ring',
      [
        [0, 0],
        [4, 0],
        [4, 4],
        [2, 1],
        [0, 4],
        [0, 0],
      ],
      true,
    ],
    [
      'a bow tie',
      [
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ],
      false,
    ],
    [
      'a repeated corner',
      [
        [0, 0],
        [1, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ],
      false,
    ],
    [
      'all on a line',
      [
        [0, 0],
        [1, 0],
        [2, 0],
        [0, 0],
      ],
      false,
    ],
    [
      'a ring touching itself',
      [
        [0, 0],
        [4, 0],
        [4, 4],
        [2, 0],
        [0, 4],
        [0, 0],
      ],
      false,
    ],
    [
      'two corners only',
      [
        [0, 0],
        [1, 0],
        [0, 0],
      ],
      false,
    ],
  ])('%s → %s', (_case, ring, simple) => {
    expect(isSimpleRing(ring)).toBe(simple);
  });
});
