import { area as turfArea } from '@turf/area';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_STATUS, ASSET_STATUS_NAMES } from '../../src/domain/asset-status';
import { routeWireSchema } from '../../src/domain/closure';
import {
  ASSET_TYPES,
  DAY_MS,
  HAZARD_SEVERITIES,
  HAZARD_TYPES,
  MINUTE_MS,
  POLYGON_MAX_SQ_MILES,
  SQ_METRES_PER_SQ_MILE,
} from '../../src/domain/constants';
import { areaWireSchema, fromAreaWire } from '../../src/domain/area';
import { exportWireSchema } from '../../src/domain/export';
import { geoJsonFeatureSchema, geoJsonPolygonSchema } from '../../src/domain/geometry';
import { profileWireSchema } from '../../src/domain/profile';
import { WZDX_LOCATION_METHODS, WZDX_VEHICLE_IMPACTS } from '../../src/domain/wzdx';
import {
  alertingZones,
  alertingZoneThings,
  areas,
  areaTypes,
  closures,
  exports,
  hazards,
  jobs,
  locations,
  locationThings,
  organizationRelationships,
  organizations,
  organizationTypes,
  points,
  r2rAlerts,
  roles,
  runs,
  thingExternalIdentifiers,
  thingRelationships,
  things,
  thingSubtypes,
  thingTypes,
  users,
} from '../../server/db/schema';
import { DEMO_ORGS, DEMO_PASSWORD, demoStatuses, loadDemoReferences, planDemo, seedDemo, type DemoSummary } from '../../server/seed/demo';
import {
  austinRoadNetwork,
  buildRoadNetwork,
  CITY,
  drivePath,
  mphToMetresPerSecond,
  nodePosition,
  RING_HIGHWAY_NAME,
  shortestPath,
  SPEED_LIMITS_MPH,
} from '../../server/region/geography';
import { createRandom } from '../../server/region/random';
import { readConfig } from '../../server/config';
import { distanceM } from '../../src/domain/geometry';
import { createTestServer, type TestServer } from '../support/test-server';

const ASSETS = 300;
const SEED = 7;

let server: TestServer;
let summary: DemoSummary | null;
beforeAll(async () => {
  server = await createTestServer();
  summary = await seedDemo(server.deps, { assets: ASSETS, seed: SEED });
});
afterAll(() => server.close());

const db = () => server.database.db;
const nowMs = () => server.clock.ms;

async function orgByName(name: string) {
  const [org] = await db().select().from(organizations).where(eq(organizations.name, name));
  if (!org) throw new Error(`no organization ${name}`);
  return org;
}

async function tableCounts() {
  const tables = {
    organizations,
    users,
    things,
    locations,
    areas,
    closures,
    alertingZones,
    runs,
    points,
    hazards,
    r2rAlerts,
    exports,
    jobs,
  };
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table);
    out[name] = row?.n ?? 0;
  }
  return out;
}

describe('seed: organizations', () => {
  it('creates the nine demo organizations in Austin, with the regional family, the WZDx, acs and large organizations', async () => {
    expect(summary).not.toBeNull();
    expect(summary?.organizations.map((o) => o.name).sort()).toEqual(Object.values(DEMO_ORGS).sort());
    const regional = await orgByName(DEMO_ORGS.regional);
    expect(regional).toMatchObject({
      showInfiniteTimeoutOption: true,
      isLargeOrg: false,
      timezone: 'America/Chicago',
      city: 'Austin',
      state: 'TX',
    });
    expect(regional.lat).toBeCloseTo(CITY.center.lat, 1);
    expect(regional.lng).toBeCloseTo(CITY.center.lng, 1);
    for (const child of [DEMO_ORGS.fire, DEMO_ORGS.ems, DEMO_ORGS.police, DEMO_ORGS.publicWorks]) {
      expect((await orgByName(child)).parentId).toBe(regional.id);
    }
    expect((await orgByName(DEMO_ORGS.txdot)).isWzdxOrg).toBe(true);
    expect((await orgByName(DEMO_ORGS.capmetro)).isLargeOrg).toBe(true);
    const acs = await orgByName(DEMO_ORGS.acs);
    const [acsType] = await db()
      .select()
      .from(organizationTypes)
      .where(eq(organizationTypes.id, acs.organizationTypeId ?? ''));
    expect(acsType?.acs).toBe(true);
    const all = await db().select().from(organizations);
    for (const org of all) {
      expect(org.timezone).toBe('America/Chicago');
      expect(org.address1).toBeTruthy();
      expect(org.lat).not.toBeNull();
      expect(org.organizationTypeId).not.toBeNull();
    }
  });

  it('TxDOT manages and Williamson County accesses the regional organization', async () => {
    const regional = await orgByName(DEMO_ORGS.regional);
    const relations = await db().select().from(organizationRelationships).where(eq(organizationRelationships.organizationId, regional.id));
    const byType = Object.fromEntries(relations.map((r) => [r.relationshipType, r.relatedOrganizationId]));
    expect(byType.manager).toBe((await orgByName(DEMO_ORGS.txdot)).id);
    expect(byType.accessor).toBe((await orgByName(DEMO_ORGS.williamson)).id);
    // And single assets of the regional family are shared with both.
    const shares = await db().select().from(thingRelationships);
    expect(shares.some((s) => s.relationshipType === 'manager')).toBe(true);
    expect(shares.some((s) => s.relationshipType === 'accessor')).toBe(true);
  });
});

describe('seed: demo accounts', () => {
  it('one account per role, every one signs in through POST /user_token with the demo password', async () => {
    const roleRows = await db().select().from(roles);
    const accounts = summary?.accounts ?? [];
    expect(new Set(accounts.map((a) => a.role))).toEqual(new Set(roleRows.map((r) => r.name)));
    expect(accounts.map((a) => a.email)).toEqual(
      expect.arrayContaining([
        'media@lightbar.demo',
        'user@lightbar.demo',
        'admin@lightbar.demo',
        'orgadmin@lightbar.demo',
        'engineer@lightbar.demo',
      ]),
    );
    for (const account of accounts) {
      const token = await server.signIn(account.email, DEMO_PASSWORD);
      const response = await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(token) });
      expect(response.statusCode).toBe(200);
      const profile = profileWireSchema.parse(response.json());
      expect(profile.email).toBe(account.email);
      if (account.email === 'engineer@lightbar.demo')
        expect(profile.permissions).toEqual(expect.arrayContaining(['engineer:test', 'haas:manage']));
      if (account.email === 'media@lightbar.demo') expect(profile.permissions).toEqual(['incident:read']);
    }
    expect(accounts.find((a) => a.email === 'txdot.admin@lightbar.demo')).toMatchObject({ role: 'ADMIN', organization: DEMO_ORGS.txdot });
    expect(accounts.find((a) => a.email === 'capmetro.admin@lightbar.demo')).toMatchObject({
      role: 'ADMIN',
      organization: DEMO_ORGS.capmetro,
    });
  });

  it('all accounts share one argon2id hash of the demo password, changed and active now', async () => {
    const rows = await db().select().from(users);
    expect(new Set(rows.map((u) => u.passwordHash)).size).toBe(1);
    expect(rows[0]?.passwordHash).toMatch(/^\$argon2id\$/);
    for (const row of rows) {
      expect(row.passwordChangedAt?.getTime()).toBe(nowMs());
      expect(row.lastActivityAt?.getTime()).toBe(nowMs());
    }
  });
});

describe('seed: assets', () => {
  it('part1 §4 every status is present at deps.now(), computed by the domain from the seeded facts, plus out of service', async () => {
    const thingRows = await db().select().from(things);
    const closureRows = await db().select().from(closures);
    const statuses = demoStatuses(thingRows, closureRows, server.deps.now().getTime());
    const present = new Set([...statuses.values()].map((s) => ASSET_STATUS_NAMES[s]));
    expect([...present].sort()).toEqual([...ASSET_STATUS_NAMES].sort());
    // Each status is a real share of the fleet, not a lone accident.
    const counts = new Map<number, number>();
    for (const s of statuses.values()) counts.set(s, (counts.get(s) ?? 0) + 1);
    for (const status of [ASSET_STATUS.active, ASSET_STATUS.standby, ASSET_STATUS.stationary, ASSET_STATUS.pending, ASSET_STATUS.offline]) {
      expect(counts.get(status)).toBeGreaterThanOrEqual(10);
    }
  });

  it('the requested number of assets of all seven types with subtypes, plus Capital Metro, owned by the right organizations', async () => {
    const rows = await db()
      .select({ thing: things, type: thingTypes.name, subtypeType: thingSubtypes.thingTypeId, org: organizations.name })
      .from(things)
      .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
      .innerJoin(organizations, eq(organizations.id, things.organizationId))
      .leftJoin(thingSubtypes, eq(thingSubtypes.id, things.thingSubtypeId));
    const capmetro = rows.filter((r) => r.org === DEMO_ORGS.capmetro);
    expect(rows.length - capmetro.length).toBe(ASSETS);
    expect(capmetro.length).toBeGreaterThan(0);
    expect(capmetro.length).toBeLessThanOrEqual(50);
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set(ASSET_TYPES));
    for (const r of rows) expect(r.subtypeType).toBe(r.thing.thingTypeId);
    const owners = (type: string) => new Set(rows.filter((r) => r.type === type && r.org !== DEMO_ORGS.capmetro).map((r) => r.org));
    expect(owners('police')).toEqual(new Set([DEMO_ORGS.police]));
    expect(owners('fire')).toEqual(new Set([DEMO_ORGS.fire]));
    expect(owners('ambulance')).toEqual(new Set([DEMO_ORGS.ems]));
    for (const type of ['arrow_board', 'maintenance', 'tow', 'waste']) {
      for (const org of owners(type)) expect([DEMO_ORGS.publicWorks, DEMO_ORGS.txdot, DEMO_ORGS.regional]).toContain(org);
    }
    expect(owners('arrow_board').has(DEMO_ORGS.txdot)).toBe(true);
  });

  it('unique haas ids, nicknames, device types, VIN and plate, R2R, test mode, feeds and integrations', async () => {
    const rows = await db().select().from(things);
    expect(new Set(rows.map((t) => t.haasId)).size).toBe(rows.length);
    for (const t of rows) {
      expect(t.haasId).toMatch(/^(HA5|HA7|API)-\d{6}$/);
      expect(t.haasId.slice(0, 3).toLowerCase()).toBe(t.deviceType);
      expect(t.vinNumber).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(t.lat).not.toBeNull();
      expect(t.lng).not.toBeNull();
      expect(t.accuracy).toBeLessThanOrEqual(50);
    }
    expect(new Set(rows.map((t) => t.deviceType))).toEqual(new Set(['ha5', 'ha7', 'api']));
    expect(rows.some((t) => t.nickname && /^(Engine|Medic|Patrol) \d+$/.test(t.nickname))).toBe(true);
    expect(rows.some((t) => t.nickname === null)).toBe(true);
    expect(rows.filter((t) => t.isR2rEnabled).length).toBeGreaterThan(10);
    for (const t of rows.filter((r) => r.isR2rEnabled)) expect(['ha5', 'ha7']).toContain(t.deviceType);
    expect(rows.some((t) => t.isAllowedForTestMode)).toBe(true);
    expect(rows.filter((t) => !t.inService).length).toBeGreaterThan(0);
    expect(rows.some((t) => t.feedSubscriptions.length > 0)).toBe(true);
    const identifiers = await db().select().from(thingExternalIdentifiers);
    expect(identifiers.length).toBe(rows.filter((t) => t.deviceType === 'api').length);
    expect(new Set(identifiers.map((i) => i.systemName))).toEqual(new Set(['samsara', 'geotab']));
  });

  it('assets stand within the Austin road network', async () => {
    const net = austinRoadNetwork();
    const rows = await db().select({ lat: things.lat, lng: things.lng }).from(things);
    for (const t of rows) expect(distanceM(net.center, { lat: t.lat ?? 0, lng: t.lng ?? 0 })).toBeLessThan(13_000);
  });
});

describe('seed: incidents', () => {
  it('active incidents with their responders on scene, and about 30 past ones over the last 7 days', async () => {
    const rows = await db().select().from(locations);
    const active = rows.filter((l) => l.isActive);
    const inactive = rows.filter((l) => !l.isActive);
    expect(active.length).toBeGreaterThanOrEqual(3);
    expect(inactive.length).toBe(30);
    const links = await db().select().from(locationThings);
    const thingRows = await db().select().from(things);
    for (const location of active) {
      const onScene = links.filter((l) => l.locationId === location.id && l.isActive);
      expect(onScene.length).toBeGreaterThan(0);
      for (const link of onScene) expect(thingRows.find((t) => t.id === link.thingId)?.locationId).toBe(location.id);
      expect(location.endTime).toBeNull();
    }
    for (const location of inactive) {
      expect(location.startTime.getTime()).toBeGreaterThan(nowMs() - 7 * DAY_MS);
      expect(location.endTime!.getTime()).toBeGreaterThan(location.startTime.getTime());
      expect(location.endTime!.getTime()).toBeLessThanOrEqual(nowMs());
      const gone = links.filter((l) => l.locationId === location.id);
      expect(gone.length).toBeGreaterThan(0);
      for (const link of gone) expect(link.isActive).toBe(false);
    }
  });
});

describe('seed: areas', () => {
  it('stations, exclusions under 0.5 sq mi, points of interest and an AV no_stop zone, each a valid area wire', async () => {
    const rows = await db()
      .select({ area: areas, type: areaTypes, org: organizations.name })
      .from(areas)
      .innerJoin(areaTypes, eq(areaTypes.id, areas.ezTypeId))
      .innerJoin(organizations, eq(organizations.id, areas.organizationId));
    const parsed = rows.map(({ area, type, org }) =>
      fromAreaWire(
        areaWireSchema.parse({
          id: area.id,
          organization_id: area.organizationId,
          organization_name: org,
          lat: area.lat,
          lng: area.lng,
          desc: area.desc,
          radius_dist: area.radiusDist,
          is_active: area.isActive,
          area_geom: area.areaGeom,
          point_geom: area.pointGeom,
          name: area.name,
          ez_type: {
            id: type.id,
            db_name: type.dbName,
            display_name: type.displayName,
            is_station_view: type.isStationView,
            is_av_type: type.isAvType,
          },
          address1: area.address1,
          city: area.city,
          state: area.state,
          postal_code: area.postalCode,
          country_code: area.countryCode,
        }),
      ),
    );
    const stations = parsed.filter((a) => a.ezTypeDbName === 'station');
    expect(new Set(stations.map((s) => s.orgName))).toEqual(new Set([DEMO_ORGS.fire, DEMO_ORGS.ems, DEMO_ORGS.police]));
    for (const s of stations) {
      expect(s.isPoi && s.isStationView).toBe(true);
      expect(s.radius).toBeCloseTo(0.06 * 1609, 3);
    }
    const hospitals = parsed.filter((a) => a.ezTypeDbName === 'hospital');
    expect(hospitals.length).toBeGreaterThan(0);
    for (const h of hospitals) expect(h.isPoi).toBe(true);
    const exclusions = parsed.filter((a) => a.isExclusion);
    expect(exclusions.length).toBeGreaterThanOrEqual(3);
    for (const row of rows.filter((r) => r.area.areaGeom)) {
      const polygon = geoJsonPolygonSchema.parse(row.area.areaGeom);
      expect(turfArea(polygon) / SQ_METRES_PER_SQ_MILE).toBeLessThan(POLYGON_MAX_SQ_MILES);
    }
    expect(parsed.some((a) => a.ezTypeDbName === 'no_stop' && a.isAvType && a.isExclusion)).toBe(true);
  });
});

describe('seed: closures', () => {
  it('manual (active, inactive, scheduled), automated on an arrow board (one active) and feed closures in TxDOT', async () => {
    const txdot = await orgByName(DEMO_ORGS.txdot);
    const rows = (await db().select().from(closures)).filter((c) => c.organizationId === txdot.id);
    const manual = rows.filter((c) => c.closureType === 'manual');
    expect(manual.some((c) => c.isActive && c.endTime && c.endTime.getTime() > nowMs())).toBe(true);
    expect(manual.some((c) => !c.isActive && !c.startTime)).toBe(true);
    expect(manual.some((c) => !c.isActive && c.startTime && c.startTime.getTime() > nowMs())).toBe(true);
    const automated = rows.filter((c) => c.closureType === 'automated');
    expect(automated.filter((c) => c.isActive)).toHaveLength(1);
    const boards = await db()
      .select({ id: things.id, type: thingTypes.name, org: things.organizationId })
      .from(things)
      .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId));
    for (const c of automated) expect(boards.find((b) => b.id === c.thingId)).toMatchObject({ type: 'arrow_board', org: txdot.id });
    const feed = rows.filter((c) => c.closureType === 'feed');
    expect(feed.length).toBeGreaterThan(0);
    for (const c of feed) {
      expect(c.externalId).toBeTruthy();
      expect(c.isDashboardManaged).toBe(false);
    }
    for (const c of rows) expect(['N', 'E', 'S', 'W']).toContain(c.direction);
  });

  it('published closures carry WZDx 4.2 values and every route is a list of lat/lng along the roads', async () => {
    const rows = await db().select().from(closures);
    const published = rows.filter((c) => c.isPublishOn);
    expect(published.length).toBeGreaterThanOrEqual(2);
    for (const c of [...published, ...rows.filter((r) => r.closureType === 'feed')]) {
      expect(c.externalId).toBeTruthy();
      expect(WZDX_VEHICLE_IMPACTS).toContain(c.vehicleImpact);
      expect(WZDX_LOCATION_METHODS).toContain(c.locationMethod);
    }
    for (const c of rows) {
      const user = routeWireSchema.parse(c.userRoute);
      const geocoded = routeWireSchema.parse(c.geocodedRoute);
      expect(user.length).toBeGreaterThanOrEqual(2);
      expect(geocoded.length).toBeGreaterThanOrEqual(user.length);
      // Consecutive geocoded points follow the road closely.
      for (let i = 1; i < geocoded.length; i++) expect(distanceM(geocoded[i - 1]!, geocoded[i]!)).toBeLessThan(100);
    }
    expect(new Set(rows.map((c) => c.externalId).filter(Boolean)).size).toBe(rows.filter((c) => c.externalId).length);
  });
});

describe('seed: alerting zones', () => {
  it('zones with GeoJSON features, active and standby, with their assets', async () => {
    const rows = await db().select().from(alertingZones);
    expect(rows.some((z) => z.isActive)).toBe(true);
    expect(rows.some((z) => !z.isActive)).toBe(true);
    for (const zone of rows) {
      expect(zone.features.length).toBeGreaterThan(0);
      for (const feature of zone.features) geoJsonFeatureSchema.parse(feature);
    }
    expect((await db().select().from(alertingZoneThings)).length).toBeGreaterThan(0);
  });
});

describe('seed: trips, hazards and R2R', () => {
  it('runs of the past 2 days with a point every 10 s, at most 100k points', async () => {
    const runRows = await db().select().from(runs);
    const pointRows = await db().select().from(points).orderBy(points.runId, points.timestamp);
    expect(new Set(runRows.map((r) => r.thingId)).size).toBeGreaterThanOrEqual(5);
    expect(pointRows.length).toBeGreaterThan(0);
    expect(pointRows.length).toBeLessThanOrEqual(100_000);
    for (const run of runRows) {
      expect(run.runStart.getTime()).toBeGreaterThanOrEqual(nowMs() - 2 * DAY_MS);
      if (run.isActive) expect(run.runEnd).toBeNull();
      else expect(run.runEnd!.getTime()).toBeLessThanOrEqual(nowMs());
    }
    for (let i = 1; i < pointRows.length; i++) {
      const a = pointRows[i - 1]!;
      const b = pointRows[i]!;
      if (a.runId !== b.runId) continue;
      expect(b.timestamp.getTime() - a.timestamp.getTime()).toBe(10_000);
      // 10 s at 65 mph at most.
      expect(distanceM(a, b)).toBeLessThan(mphToMetresPerSecond(SPEED_LIMITS_MPH.highway) * 10 + 1);
    }
    // An active run belongs to an asset that is on it now.
    const activeRuns = runRows.filter((r) => r.isActive);
    const thingRows = await db().select().from(things);
    for (const run of activeRuns) expect(thingRows.find((t) => t.id === run.thingId)?.runId).toBe(run.id);
  });

  it('hazards of every type and severity, and R2R alerts', async () => {
    const rows = await db().select().from(hazards);
    const pairs = new Set(rows.map((h) => `${h.hazardType}/${h.severity}`));
    for (const type of HAZARD_TYPES) for (const severity of HAZARD_SEVERITIES) expect(pairs.has(`${type}/${severity}`)).toBe(true);
    const alerts = await db().select().from(r2rAlerts);
    expect(alerts.some((a) => !a.isTest && a.otherThingId)).toBe(true);
    expect(alerts.some((a) => a.isTest)).toBe(true);
  });
});

describe('seed: monthly reports and exports', () => {
  it('queues monthly reports of the past 3 months for the regional organization and TxDOT', async () => {
    const regional = await orgByName(DEMO_ORGS.regional);
    const txdot = await orgByName(DEMO_ORGS.txdot);
    const rows = await db().select().from(jobs).where(eq(jobs.kind, 'monthly_report'));
    // The test clock is 22 November 2026.
    const expected = [regional.id, txdot.id].flatMap((organizationId) =>
      [10, 9, 8].map((month) => ({ organizationId, year: 2026, month })),
    );
    expect(rows.map((r) => r.payload)).toEqual(expect.arrayContaining(expected));
    expect(rows).toHaveLength(expected.length);
  });

  it('exports in every status, requested by the admin, with their jobs', async () => {
    const [admin] = await db().select().from(users).where(eq(users.email, 'admin@lightbar.demo'));
    const rows = await db().select().from(exports);
    const statuses = rows.map((r) => r.status).sort();
    expect(statuses).toEqual(['errored', 'in_progress', 'requested', 'requested']);
    for (const row of rows) {
      expect(row.requestedBy).toBe(admin?.id);
      exportWireSchema.parse({
        id: row.id,
        organization_id: row.organizationId,
        requested_by: row.requestedBy,
        export_type: row.exportType,
        title: row.title,
        export_start_time: row.exportStartTime?.toISOString() ?? null,
        export_end_time: row.exportEndTime?.toISOString() ?? null,
        requested_at: row.requestedAt.toISOString(),
        completed_at: row.completedAt?.toISOString() ?? null,
        file_id: row.fileId,
        status: row.status,
      });
    }
    expect(rows.find((r) => r.status === 'errored')?.error).toBeTruthy();
    const exportJobs = await db().select().from(jobs).where(eq(jobs.kind, 'export'));
    const jobFor = (id: string) => exportJobs.find((j) => j.payload.exportId === id);
    for (const row of rows.filter((r) => r.status === 'requested')) expect(jobFor(row.id)?.runAt.getTime()).toBe(nowMs());
    const inProgress = rows.find((r) => r.status === 'in_progress');
    expect(jobFor(inProgress!.id)?.runAt.getTime()).toBe(nowMs() + 10 * MINUTE_MS);
    expect(jobFor(rows.find((r) => r.status === 'errored')!.id)).toBeUndefined();
  });
});

describe('seed: once, and repeatable', () => {
  it('a second seedDemo answers null and adds nothing', async () => {
    const before = await tableCounts();
    expect(await seedDemo(server.deps, { assets: ASSETS, seed: SEED + 1 })).toBeNull();
    expect(await tableCounts()).toEqual(before);
  });

  it('the same seed gives the same haas ids and positions (the rows written are the plan of that seed)', async () => {
    const refs = await loadDemoReferences(db());
    const input = { assets: ASSETS, seed: SEED, now: server.deps.now(), passwordHash: 'x' };
    const a = planDemo(refs, input);
    const b = planDemo(refs, input);
    const key = (plan: typeof a) => plan.things.map((t) => `${t.haasId} ${t.lat} ${t.lng} ${t.heartbeatAt?.toISOString()}`);
    expect(key(a)).toEqual(key(b));
    expect(a.points).toEqual(b.points);
    const stored = await db()
      .select({ haasId: things.haasId, lat: things.lat, lng: things.lng, heartbeatAt: things.heartbeatAt })
      .from(things);
    expect(stored.map((t) => `${t.haasId} ${t.lat} ${t.lng} ${t.heartbeatAt?.toISOString()}`).sort()).toEqual([...key(a)].sort());
    const other = planDemo(refs, { ...input, seed: SEED + 1 });
    expect(key(other)).not.toEqual(key(a));
  });
});

describe('seed: geography and randomness', () => {
  it('the road network is one connected grid of named streets, arterials and a ring highway', () => {
    const net = buildRoadNetwork();
    expect(net.nodes.length).toBe(21 * 21 + 72);
    const kinds = new Set(net.edges.map((e) => e.kind));
    expect(kinds).toEqual(new Set(['local', 'arterial', 'highway', 'ramp']));
    for (const edge of net.edges) {
      expect(edge.street).toBeTruthy();
      expect(edge.speedLimitMph).toBe(SPEED_LIMITS_MPH[edge.kind]);
    }
    expect(net.streets.some((s) => s.name === RING_HIGHWAY_NAME && s.kind === 'highway')).toBe(true);
    // Every node reaches the centre node.
    const centre = net.gridNode(10, 10);
    for (const node of net.nodes) expect(shortestPath(net, node.id, centre).length).toBeGreaterThan(0);
    expect(distanceM(nodePosition(net, centre), CITY.center)).toBeLessThan(1);
  });

  it('drivePath samples every 10 s, no faster than the limit', () => {
    const net = austinRoadNetwork();
    const path = shortestPath(net, net.gridNode(0, 0), net.gridNode(20, 20));
    const samples = drivePath(net, path, { startMs: 0, intervalMs: 10_000, speedFactor: 1 });
    expect(samples.length).toBeGreaterThan(10);
    for (let i = 1; i < samples.length; i++) {
      expect(samples[i]!.timestamp - samples[i - 1]!.timestamp).toBe(10_000);
      expect(distanceM(samples[i - 1]!, samples[i]!)).toBeLessThanOrEqual(mphToMetresPerSecond(SPEED_LIMITS_MPH.highway) * 10 + 1);
    }
  });

  it('the seeded generator repeats per seed and forks independent streams; SIM_SEED is read as an integer', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, createRandom(seed).next);
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
    const r = createRandom(3);
    expect(r.fork('a').next()).toBe(createRandom(3).fork('a').next());
    expect(r.fork('a').next()).not.toBe(r.fork('b').next());
    expect(r.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(readConfig({ SIM_SEED: '42' }).simSeed).toBe(42);
    expect(readConfig({}).simSeed).toBe(2026);
    expect(() => readConfig({ SIM_SEED: 'abc' })).toThrow('SIM_SEED must be an integer, got "abc"');
  });
});
