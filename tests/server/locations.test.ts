import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, EVENTS_KEPT, HOUR_MS, MINUTE_MS, SECOND_MS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { incrementalAnswerSchema } from '../../src/domain/incremental';
import { capEvents, fromLocationWire, locationWireSchema } from '../../src/domain/location';
import { issueTokens } from '../../server/auth/tokens';
import { locations, locationThings, roles, things, thingTypes, users } from '../../server/db/schema';
import { call, junk, refusedTokens } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
const locationsAnswer = incrementalAnswerSchema(locationWireSchema);

type OrgKey = 'a' | 'managed' | 'accessed' | 'child' | 'stranger' | 'eng' | 'window' | 'many';
const org = {} as Record<OrgKey, { id: string; name: string }>;
type UserKey = 'admin' | 'reader' | 'media' | 'stranger' | 'engineer' | 'window' | 'many' | 'thingsOnly';
const user = {} as Record<UserKey, { id: string; email: string; organizationId: string }>;
const token = {} as Record<UserKey, string>;
let policeTypeId = '';
let haasCounter = 0;

const ago = (ms: number) => new Date(server.clock.ms - ms);

async function insertLocation(organizationId: string, values: Partial<typeof locations.$inferInsert> = {}) {
  const [row] = await server.database.db
    .insert(locations)
    .values({ organizationId, lat: 41.88, lng: -87.63, startTime: ago(HOUR_MS), updatedAt: server.clock.now(), ...values })
    .returning();
  return row!;
}

async function insertThing(organizationId: string, values: Partial<typeof things.$inferInsert> = {}) {
  const [row] = await server.database.db
    .insert(things)
    .values({ organizationId, haasId: `LOC-${++haasCounter}`, thingTypeId: policeTypeId, updatedAt: server.clock.now(), ...values })
    .returning();
  return row!;
}

async function locationRow(id: string) {
  const [row] = await server.database.db.select().from(locations).where(eq(locations.id, id));
  return row!;
}

async function locationsTable(): Promise<string> {
  return JSON.stringify(await server.database.db.select().from(locations).orderBy(asc(locations.id)));
}

async function getLocations(who: string, query = '') {
  const answer = await call(server, 'GET', `/locations${query}`, who);
  expect(answer.status).toBe(200);
  return locationsAnswer.parse(answer.json);
}

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.database;
  const [police] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  policeTypeId = police!.id;
  org.a = await server.createOrg({ name: 'Metro Fire' });
  org.managed = await server.createOrg({ name: 'Managed EMS' });
  org.accessed = await server.createOrg({ name: 'Accessed County' });
  org.child = await server.createOrg({ name: 'Child Station', parentId: org.a.id });
  org.stranger = await server.createOrg({ name: 'Stranger City' });
  org.eng = await server.createOrg({ name: 'Engineering' });
  org.window = await server.createOrg({ name: 'Window Org' });
  org.many = await server.createOrg({ name: 'Many Events Org' });
  await server.relate(org.managed.id, org.a.id, 'manager');
  await server.relate(org.accessed.id, org.a.id, 'accessor');
  const make = async (key: UserKey, o: { id: string }, role: string) => {
    const row = await server.createUser({ org: o, role });
    user[key] = row;
    token[key] = await server.signIn(row.email);
  };
  await make('admin', org.a, 'ADMIN');
  await make('reader', org.a, 'USER');
  await make('media', org.a, 'USER (Incidents / Events only)');
  await make('stranger', org.stranger, 'ADMIN');
  await make('engineer', org.eng, 'ENGINEER');
  await make('window', org.window, 'USER');
  await make('many', org.many, 'USER');
  // A role with the things view only: no events view (part 1 §6).
  const [role] = await db
    .insert(roles)
    .values({ name: 'THINGS ONLY (locations test)', permissions: ['thing:read'] })
    .returning();
  const thingsOnly = await server.createUser({ org: org.a, role: 'USER' });
  await db.update(users).set({ roleId: role!.id }).where(eq(users.id, thingsOnly.id));
  user.thingsOnly = thingsOnly;
  token.thingsOnly = await server.signIn(thingsOnly.email);
});
afterAll(() => server.close());

describe('part1 §7 GET /locations', () => {
  it('answers the visible locations with their active and inactive vehicles (locationWireSchema)', async () => {
    const { db } = server.database;
    const unit = await insertThing(org.a.id, {
      nickname: 'Engine 9',
      externalId: 'EXT-9',
      vinNumber: 'VIN9',
      licensePlateNumber: 'PL9',
      registryNumber: 'R9',
    });
    const left = await insertThing(org.a.id);
    const location = await insertLocation(org.a.id, {
      displayName: 'I-90 at Exit 12',
      street: 'I-90',
      roadwayHeading: 270,
      alertMessage: 'Crash ahead',
      wzdxId: 'WZ-1',
      externalId: 'SYS-1',
      markerLat: 41.881,
      markerLng: -87.631,
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [-87.63, 41.88] }, properties: { radius: 50 } },
        { junk: true },
      ],
    });
    await db.insert(locationThings).values([
      { locationId: location.id, thingId: unit.id, startTime: ago(30 * MINUTE_MS) },
      { locationId: location.id, thingId: left.id, startTime: ago(50 * MINUTE_MS), endTime: ago(40 * MINUTE_MS), isActive: false },
    ]);
    const managed = await insertLocation(org.managed.id);
    const accessed = await insertLocation(org.accessed.id);
    const child = await insertLocation(org.child.id);
    const hidden = await insertLocation(org.stranger.id);

    const answer = await getLocations(token.admin);
    const ids = answer.data.map((l) => l.id);
    expect(ids).toEqual(expect.arrayContaining([location.id, managed.id, accessed.id, child.id]));
    expect(ids).not.toContain(hidden.id);
    expect(answer.meta).toEqual({ server_timestamp: server.clock.now().toISOString(), deleted_ids: [] });
    const wire = answer.data.find((l) => l.id === location.id)!;
    expect(wire).toMatchObject({
      display_name: 'I-90 at Exit 12',
      is_active: true,
      marker_position: { lat: 41.881, lng: -87.631 },
      roadway_heading: 270,
      alert_message: 'Crash ahead',
      wzdx_id: 'WZ-1',
      external_id: 'SYS-1',
      organization_id: org.a.id,
      start_time: ago(HOUR_MS).toISOString(),
      end_time: null,
    });
    expect(wire.features).toHaveLength(1); // the stored junk is not a Feature
    expect(wire.things_active).toEqual([
      {
        id: unit.id,
        haas_id: unit.haasId,
        nickname: 'Engine 9',
        external_id: 'EXT-9',
        vin_number: 'VIN9',
        license_plate_number: 'PL9',
        registry_number: 'R9',
        start_time: ago(30 * MINUTE_MS).toISOString(),
        end_time: null,
        runtime: 30 * 60,
      },
    ]);
    expect(wire.things_inactive).toMatchObject([{ id: left.id, runtime: 10 * 60, end_time: ago(40 * MINUTE_MS).toISOString() }]);
    // The server also names each vehicle as the client would.
    const rawAnswer = await call(server, 'GET', '/locations', token.admin);
    const rawWire = (
      rawAnswer.json as { data: { id: string; things_active: { display_name: string }[]; things_inactive: { display_name: string }[] }[] }
    ).data.find((l) => l.id === location.id)!;
    expect(rawWire.things_active[0]?.display_name).toBe('Engine 9');
    expect(rawWire.things_inactive[0]?.display_name).toBe(left.haasId.toUpperCase());
    expect(fromLocationWire(wire).thingsActive[0]?.displayName).toBe('Engine 9');
  });

  it('part1 §4, §9 the first fetch covers the last 7 days (start_date), active events whatever their age', async () => {
    const old = await insertLocation(org.window.id, { isActive: false, startTime: ago(9 * DAY_MS), endTime: ago(8 * DAY_MS) });
    const recent = await insertLocation(org.window.id, { isActive: false, startTime: ago(7 * DAY_MS + HOUR_MS), endTime: ago(6 * DAY_MS) });
    const started = await insertLocation(org.window.id, { isActive: false, startTime: ago(2 * DAY_MS), endTime: null });
    const longRunning = await insertLocation(org.window.id, { isActive: true, startTime: ago(30 * DAY_MS) });
    const answer = await getLocations(token.window);
    expect(answer.data.map((l) => l.id).sort()).toEqual([recent.id, started.id, longRunning.id].sort());
    expect(answer.data.map((l) => l.id)).not.toContain(old.id);
    // An explicit start_date widens or narrows the window.
    const wider = await getLocations(token.window, `?start_date=${encodeURIComponent(ago(10 * DAY_MS).toISOString())}`);
    expect(wider.data.map((l) => l.id)).toContain(old.id);
    const narrower = await getLocations(token.window, `?start_date=${encodeURIComponent(ago(3 * DAY_MS).toISOString())}`);
    expect(narrower.data.map((l) => l.id).sort()).toEqual([started.id, longRunning.id].sort());
  });

  it(`part1 §9 a full load answers at most the newest ${EVENTS_KEPT}, in the events order`, async () => {
    const rows = Array.from({ length: EVENTS_KEPT + 10 }, (_, i) => ({
      organizationId: org.many.id,
      lat: 40,
      lng: -80,
      isActive: i % 50 === 0,
      startTime: ago((i + 2) * MINUTE_MS),
      endTime: i % 50 === 0 ? null : ago((i + 1) * MINUTE_MS),
      updatedAt: server.clock.now(),
    }));
    await server.database.db.insert(locations).values(rows);
    const answer = await getLocations(token.many);
    expect(answer.data).toHaveLength(EVENTS_KEPT);
    const all = await server.database.db.select().from(locations).where(eq(locations.organizationId, org.many.id));
    const expected = capEvents(
      all.map((l) => ({ id: l.id, isActive: l.isActive, startTime: l.startTime.getTime(), endTime: l.endTime?.getTime() ?? null })),
    );
    expect(answer.data.map((l) => l.id)).toEqual(expected.map((l) => l.id));
  });

  it('incremental: a change after server_timestamp comes in the next call, a deletion in deleted_ids', async () => {
    const inc = await server.createOrg({ name: 'Incremental Events' });
    const incUser = await server.createUser({ org: inc, role: 'ADMIN' });
    const incToken = await server.signIn(incUser.email);
    const moved = await insertLocation(inc.id);
    const removed = await insertLocation(inc.id);
    await insertLocation(inc.id);
    const full = await getLocations(incToken);
    expect(full.data).toHaveLength(3);
    const since = encodeURIComponent(full.meta.server_timestamp);
    expect((await getLocations(incToken, `?last_updated_timestamp=${since}`)).data).toEqual([]);

    server.clock.advance(5 * SECOND_MS);
    const put = await call(server, 'PUT', `/locations/${moved.id}`, incToken, {
      lat: 42,
      lng: -88,
      roadway_heading: 90,
      organization_id: inc.id,
    });
    expect(put.status).toBe(200);
    await server.database.db
      .update(locations)
      .set({ deletedAt: server.clock.now(), updatedAt: server.clock.now() })
      .where(eq(locations.id, removed.id));
    const next = await getLocations(incToken, `?last_updated_timestamp=${since}`);
    expect(next.data.map((l) => l.id)).toEqual([moved.id]);
    expect(next.data[0]).toMatchObject({ lat: 42, lng: -88, roadway_heading: 90 });
    expect(next.meta.deleted_ids).toEqual([removed.id]);
    expect((await getLocations(incToken)).data.map((l) => l.id)).not.toContain(removed.id);
  });

  it('org_ids[] narrows to visible organizations; others are dropped; malformed ids → 422', async () => {
    const managedOnly = await getLocations(token.admin, `?org_ids[]=${org.managed.id}`);
    expect(new Set(managedOnly.data.map((l) => l.organization_id))).toEqual(new Set([org.managed.id]));
    expect((await getLocations(token.admin, `?org_ids[]=${org.stranger.id}`)).data).toEqual([]);
    const bad = await call(server, 'GET', '/locations?org_ids[]=nope', token.admin);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('org_ids');
    const badDate = await call(server, 'GET', '/locations?start_date=someday', token.admin);
    expect(badDate.status).toBe(422);
    expect(badDate.body.message).toContain('start_date');
  });

  it('authorization: 401 without a usable token; another organization sees none; no events view → 403; haas sees all', async () => {
    const refused = await refusedTokens(server, user.reader);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'GET', '/locations', t)).status).toBe(401);
      expect((await call(server, 'GET', '/locations/active', t)).status).toBe(401);
    }
    const stranger = await getLocations(token.stranger);
    expect(stranger.data.every((l) => l.organization_id === org.stranger.id)).toBe(true);
    expect((await call(server, 'GET', '/locations', token.thingsOnly)).status).toBe(403);
    expect((await call(server, 'GET', '/locations/active', token.thingsOnly)).status).toBe(403);
    // Media (incident:read) sees events.
    expect((await call(server, 'GET', '/locations', token.media)).status).toBe(200);
    const haas = await getLocations(token.engineer, `?org_ids[]=${org.stranger.id}`);
    expect(haas.data.length).toBeGreaterThan(0);
  });
});

describe('part1 §7 GET /locations/active', () => {
  it('answers only the active locations of the visible organizations', async () => {
    const active = await insertLocation(org.a.id, { isActive: true, startTime: ago(20 * DAY_MS) });
    const ended = await insertLocation(org.a.id, { isActive: false, endTime: ago(MINUTE_MS) });
    const strangers = await insertLocation(org.stranger.id, { isActive: true });
    const answer = await call(server, 'GET', '/locations/active', token.reader);
    expect(answer.status).toBe(200);
    const parsed = locationsAnswer.parse(answer.json);
    const ids = parsed.data.map((l) => l.id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(ended.id);
    expect(ids).not.toContain(strangers.id);
    expect(parsed.data.every((l) => l.is_active)).toBe(true);
    const narrowed = locationsAnswer.parse((await call(server, 'GET', `/locations/active?org_ids[]=${org.managed.id}`, token.reader)).json);
    expect(narrowed.data.every((l) => l.organization_id === org.managed.id)).toBe(true);
  });
});

describe('part1 §7 PUT /locations/{id}', () => {
  const body = (organizationId: string, extra: Record<string, unknown> = {}) => ({
    lat: 41.9,
    lng: -87.7,
    roadway_heading: 180,
    organization_id: organizationId,
    ...extra,
  });

  it('moves the location and sets its roadway heading; answers the updated location', async () => {
    const location = await insertLocation(org.a.id);
    server.clock.advance(SECOND_MS);
    const answer = await call(server, 'PUT', `/locations/${location.id}`, token.admin, body(org.a.id, { roadway_heading: 360 }));
    expect(answer.status).toBe(200);
    const wire = locationWireSchema.parse(answer.json);
    expect(wire).toMatchObject({
      id: location.id,
      lat: 41.9,
      lng: -87.7,
      roadway_heading: 360,
      updated_at: server.clock.now().toISOString(),
    });
    expect(await locationRow(location.id)).toMatchObject({ lat: 41.9, lng: -87.7, roadwayHeading: 360 });
  });

  it('a managed or child organization’s location may be edited, naming either organization', async () => {
    const managed = await insertLocation(org.managed.id);
    expect((await call(server, 'PUT', `/locations/${managed.id}`, token.admin, body(org.managed.id))).status).toBe(200);
    const child = await insertLocation(org.child.id);
    expect((await call(server, 'PUT', `/locations/${child.id}`, token.admin, body(org.a.id))).status).toBe(200);
  });

  describe('part1 §8 location update rows, provoked for a real reason', () => {
    it("'active': the event ended → Location no longer active", async () => {
      const ended = await insertLocation(org.a.id, { isActive: false, endTime: ago(MINUTE_MS) });
      const answer = await call(server, 'PUT', `/locations/${ended.id}`, token.admin, body(org.a.id));
      expect(answer.status).toBe(422);
      expect(errorText('locationUpdate', { status: 422, message: answer.body.message }).text).toBe('Location no longer active');
    });

    it("'access': an organization the user only accesses (accessor relation) → User does not have access to Location", async () => {
      const accessed = await insertLocation(org.accessed.id);
      const answer = await call(server, 'PUT', `/locations/${accessed.id}`, token.admin, body(org.accessed.id));
      expect(answer.status).toBe(422);
      expect(errorText('locationUpdate', { status: 422, message: answer.body.message }).text).toBe('User does not have access to Location');
    });

    it("'found': the location was removed since it was loaded → Location not found", async () => {
      const removed = await insertLocation(org.a.id, { deletedAt: server.clock.now() });
      const answer = await call(server, 'PUT', `/locations/${removed.id}`, token.admin, body(org.a.id));
      expect(answer.status).toBe(422);
      expect(errorText('locationUpdate', { status: 422, message: answer.body.message }).text).toBe('Location not found');
    });

    it.each([
      ['a geo marker', { isGeoMarker: true }, {}, "A geo marker's position cannot be edited"],
      [
        'an organization id of another organization',
        {},
        { organization_id: 'managed' },
        "organization_id: is not the Location's organization",
      ],
      ['a latitude of 91', {}, { lat: 91 }, 'lat: Must be between -90 and 90'],
      ['a longitude of -181', {}, { lng: -181 }, 'lng: Must be between -180 and 180'],
      ['a heading of 361', {}, { roadway_heading: 361 }, 'roadway_heading: Must be between 0 and 360'],
      ['no heading', {}, { roadway_heading: undefined }, 'roadway_heading: Required'],
    ])('other: %s → Unable to update Location', async (_case, values, extra: Record<string, unknown>, message) => {
      const location = await insertLocation(org.a.id, values);
      const resolved = { ...extra, ...(extra.organization_id === 'managed' ? { organization_id: org.managed.id } : {}) };
      const before = await locationsTable();
      const answer = await call(server, 'PUT', `/locations/${location.id}`, token.admin, body(org.a.id, resolved));
      expect(answer.status).toBe(422);
      expect(answer.body.message).toBe(message);
      expect(errorText('locationUpdate', { status: 422, message: answer.body.message }).text).toBe('Unable to update Location');
      expect(await locationsTable()).toBe(before);
    });
  });

  it('authorization: 401; another organization 404 Location not found; incident read only 403; nothing changes', async () => {
    const location = await insertLocation(org.a.id);
    const before = await locationsTable();
    const refused = await refusedTokens(server, user.admin);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'PUT', `/locations/${location.id}`, t, body(org.a.id))).status).toBe(401);
    }
    const stranger = await call(server, 'PUT', `/locations/${location.id}`, token.stranger, body(org.stranger.id));
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Location not found');
    const unknown = await call(server, 'PUT', `/locations/${randomUUID()}`, token.admin, body(org.a.id));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Location not found');
    expect((await call(server, 'PUT', '/locations/42', token.admin, body(org.a.id))).status).toBe(404);
    expect((await call(server, 'PUT', `/locations/${location.id}`, token.reader, body(org.a.id))).status).toBe(403);
    expect((await call(server, 'PUT', `/locations/${location.id}`, token.media, body(org.a.id))).status).toBe(403);
    expect(await locationsTable()).toBe(before);
    // haas:manage edits any organization's location.
    const strangers = await insertLocation(org.stranger.id);
    expect((await call(server, 'PUT', `/locations/${strangers.id}`, token.engineer, body(org.stranger.id))).status).toBe(200);
  });

  it('property: bad bodies and ids never give a 5xx and never change a row', async () => {
    const location = await insertLocation(org.a.id);
    const valid = body(org.a.id);
    const notNumber = junk.filter((v) => typeof v !== 'number');
    const bad: Record<string, fc.Arbitrary<unknown>> = {
      lat: fc.oneof(
        notNumber,
        fc.double({ min: 90.000001, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: -90.000001, noNaN: true }),
      ),
      lng: fc.oneof(notNumber, fc.double({ min: 180.000001, max: 1e6, noNaN: true })),
      roadway_heading: fc.oneof(
        notNumber,
        fc.double({ min: 360.000001, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: -0.000001, noNaN: true }),
      ),
      organization_id: fc.oneof(junk, fc.uuid()),
    };
    const poisoned = fc.constantFrom(...Object.keys(bad)).chain((field) => bad[field]!.map((value) => ({ ...valid, [field]: value })));
    const before = await locationsTable();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), poisoned),
        fc.oneof(fc.constant(location.id), fc.string({ maxLength: 20 }), fc.uuid()),
        async (payload, id) => {
          const answer = await call(server, 'PUT', `/locations/${encodeURIComponent(id)}`, token.admin, payload);
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 80 },
    );
    expect(await locationsTable()).toBe(before);
  });

  it('a token issued to a role without any permission is refused (403)', async () => {
    const [role] = await server.database.db.insert(roles).values({ name: 'EMPTY (locations test)', permissions: [] }).returning();
    const nobody = await server.createUser({ org: org.a, role: 'USER' });
    await server.database.db.update(users).set({ roleId: role!.id }).where(eq(users.id, nobody.id));
    const issued = await issueTokens(server.database.db, nobody.id, org.a.id, server.clock.now());
    const location = await insertLocation(org.a.id);
    expect((await call(server, 'PUT', `/locations/${location.id}`, issued.access_token, body(org.a.id))).status).toBe(403);
    expect((await call(server, 'GET', '/locations', issued.access_token)).status).toBe(403);
  });
});
