import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertingZoneWireSchema, fromAlertingZoneWire } from '../../src/domain/alerting-zone';
import { errorText } from '../../src/domain/errors';
import { alertingZones, alertingZoneThings, things, thingTypes } from '../../server/db/schema';
import { call, refusedTokens, type Answer, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string };
let orgB: { id: string };
const token = { adminA: '', userA: '', mediaA: '', adminB: '', engineer: '' };
let refused: { revoked: string; expired: string };
let activeZone: typeof alertingZones.$inferSelect;
let standbyZone: typeof alertingZones.$inferSelect;
let thingA: typeof things.$inferSelect;
let thingB: typeof things.$inferSelect;

const polygonFeature = {
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [-87.63, 41.88],
        [-87.62, 41.88],
        [-87.62, 41.89],
        [-87.63, 41.88],
      ],
    ],
  },
  properties: {},
};
const circleFeature = { type: 'Feature', geometry: { type: 'Point', coordinates: [-87.6, 41.9] }, properties: { radius: 250 } };

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
  const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  [thingA] = (await db
    .insert(things)
    .values({ organizationId: orgA.id, haasId: 'zone-a1', nickname: 'Unit 12', thingTypeId: type!.id })
    .returning()) as [typeof things.$inferSelect];
  [thingB] = (await db.insert(things).values({ organizationId: orgB.id, haasId: 'zone-b1', thingTypeId: type!.id }).returning()) as [
    typeof things.$inferSelect,
  ];
  [standbyZone] = (await db
    .insert(alertingZones)
    .values({
      organizationId: orgA.id,
      externalId: 'AZ-2',
      typeName: 'school',
      description: 'Lincoln Elementary',
      features: [circleFeature, { nonsense: true }],
      isActive: false,
    })
    .returning()) as [typeof alertingZones.$inferSelect];
  [activeZone] = (await db
    .insert(alertingZones)
    .values({
      organizationId: orgA.id,
      externalId: 'AZ-1',
      typeName: 'work_zone',
      alertMessage: 'Slow down',
      description: 'Bridge works',
      features: [polygonFeature],
      isActive: true,
      defaultExpiry: 3600,
    })
    .returning()) as [typeof alertingZones.$inferSelect];
  await db.insert(alertingZones).values({ organizationId: orgB.id, typeName: 'work_zone', description: 'B zone', isActive: true });
  await db.insert(alertingZoneThings).values([
    { zoneId: activeZone.id, thingId: thingA.id },
    { zoneId: activeZone.id, thingId: thingB.id },
  ]);
});
afterAll(() => server.close());

const shown = (answer: Answer) =>
  errorText('zonesFetch', { status: answer.status, message: answer.body.message ?? null, code: answer.body.error ?? null }).text;

describe('authorization matrix: no, revoked or expired token → 401', () => {
  const calls: [Method, string][] = [
    ['GET', '/organization/alerting_zones'],
    ['GET', '/organization/alerting_zones/00000000-0000-4000-8000-000000000000'],
  ];
  it.each(calls)('%s %s', async (method, url) => {
    for (const bearer of [null, 'not-a-token', refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer)).status).toBe(401);
    }
  });
});

describe('part2 §7 GET /organization/alerting_zones', () => {
  it('answers the fields of the alerting zone entity, active first, parsing with the wire schema', async () => {
    const answer = await call(server, 'GET', `/organization/alerting_zones?org_ids[]=${orgA.id}`, token.userA);
    expect(answer.status).toBe(200);
    const zones = alertingZoneWireSchema.array().parse(answer.json);
    expect(zones.map((zone) => zone.id)).toEqual([activeZone.id, standbyZone.id]);
    expect(zones[0]).toEqual({
      id: activeZone.id,
      external_id: 'AZ-1',
      alerting_zone_type_name: 'work_zone',
      alert_message: 'Slow down',
      description: 'Bridge works',
      features: [polygonFeature],
      is_active: true,
      // The B asset in the zone is not the caller's to see.
      active_things: [{ id: thingA.id, haas_id: 'zone-a1', nickname: 'Unit 12' }],
      active_locations: { default_expiry: 3600 },
    });
    const standby = fromAlertingZoneWire(zones[1]!);
    expect(standby).toMatchObject({ status: 'standby', activeThings: [], activeLocationExpiry: null });
    // A stored feature that is not GeoJSON is left out; the circle stays a circle.
    expect(standby.features).toEqual([{ kind: 'circle', center: { lat: 41.9, lng: -87.6 }, radius: 250 }]);
  });

  it('haas:manage sees every organization and every asset of a zone', async () => {
    const zones = alertingZoneWireSchema.array().parse((await call(server, 'GET', '/organization/alerting_zones', token.engineer)).json);
    expect(zones.length).toBe(3);
    expect(zones.find((zone) => zone.id === activeZone.id)!.active_things).toHaveLength(2);
  });

  it("part2 §8 Zones fetch: a user of another organization naming A → 404 → 'Organization not found'; unasked, none of A's", async () => {
    const answer = await call(server, 'GET', `/organization/alerting_zones?org_ids[]=${orgA.id}`, token.adminB);
    expect(answer.status).toBe(404);
    expect(shown(answer)).toBe('Organization not found');
    const unknown = await call(server, 'GET', '/organization/alerting_zones?org_ids[]=no-such-org', token.adminA);
    expect(shown(unknown)).toBe('Organization not found');
    const own = alertingZoneWireSchema.array().parse((await call(server, 'GET', '/organization/alerting_zones', token.adminB)).json);
    expect(own.map((zone) => zone.description)).toEqual(['B zone']);
  });

  it('part2 §6 needs zone read or manage (or haas:manage) → 403 for a Media user', async () => {
    expect((await call(server, 'GET', '/organization/alerting_zones', token.mediaA)).status).toBe(403);
  });
});

describe('GET /organization/alerting_zones/{id} (zone detail)', () => {
  it('answers one zone; another organization → 404', async () => {
    const answer = await call(server, 'GET', `/organization/alerting_zones/${activeZone.id}`, token.adminA);
    expect(alertingZoneWireSchema.parse(answer.json).id).toBe(activeZone.id);
    expect((await call(server, 'GET', `/organization/alerting_zones/${activeZone.id}`, token.adminB)).status).toBe(404);
    expect((await call(server, 'GET', '/organization/alerting_zones/not-an-id', token.adminA)).status).toBe(422);
  });
});
