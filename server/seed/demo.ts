/**
 * The demo organization a newcomer explores on first start: a regional organization in Austin, Texas with child
 * organizations, a WZDx organization that manages part of it, an accessor county, an acs
 * organization and a large (polling) organization; one user per role; a fleet of every asset type
 * whose heartbeats are of varied age, so every status shows from the first minute; incidents,
 * stations, exclusions, points of interest, closures of all three types, alerting zones, two
 * days of trips with hazards and R2R alerts, and queued monthly reports and exports.
 *
 * `planDemo` is pure: the same references, options, seed and time give the same rows (ids
 * included), which is what makes `SIM_SEED` repeatable. `seedDemo` writes the plan in one
 * transaction with multi-row inserts, only when the database has no organization yet.
 */
import { count, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { computeAssetStatus, displayStatus, type AssetStatus } from '../../src/domain/asset-status';
import {
  ASSET_TYPES,
  DAY_MS,
  HAZARD_SEVERITIES,
  HAZARD_TYPES,
  HOUR_MS,
  LIGHT_INTENSITY_OPTIONS,
  MINUTE_MS,
  R2R_ALERT_DISTANCE_M,
  R2R_CAPABLE_TYPES,
  R2R_DEVICE_TYPES,
  SECOND_MS,
  type AssetType,
} from '../../src/domain/constants';
import { polygonToGeoJson, toGeoJsonFeature, type LatLng } from '../../src/domain/geometry';
import { roleLabel } from '../../src/domain/role';
import { hashPassword } from '../auth/secrets';
import type { Db } from '../db/connection';
import { insertRecords } from '../db/rows';
import {
  alertingZones,
  alertingZoneThings,
  areas,
  areaTypes,
  closures,
  exports,
  hazards,
  integrationConfigurations,
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
} from '../db/schema';
import type { ServerDeps } from '../deps';
import {
  austinRoadNetwork,
  CITY,
  densify,
  drivePath,
  edgeOf,
  intersectionName,
  nodePosition,
  offsetMetres,
  positionOnEdge,
  randomRoadPosition,
  RING_HIGHWAY_NAME,
  shortestPath,
  streetByName,
  streetSection,
  type RoadNetwork,
  type RoadPosition,
} from '../region/geography';
import { createRandom, DEFAULT_SIM_SEED, type Random } from '../region/random';

// ── public shapes ────────────────────────────────────────────────────────────

/** One password for every demo account; it meets the password rules of part 1 §5. */
export const DEMO_PASSWORD = 'Lightbar#2026';
/** `SIM_ASSETS` default. */
export const DEFAULT_DEMO_ASSETS = 2_000;
export const DEMO_ORGS = {
  regional: 'Travis County Regional',
  fire: 'Austin Fire Department',
  ems: 'Austin-Travis County EMS',
  police: 'Austin Police Department',
  publicWorks: 'Travis County Public Works',
  txdot: 'TxDOT Austin District',
  williamson: 'Williamson County',
  acs: 'Lightbar Integrations',
  capmetro: 'Capital Metro Large Fleet',
} as const;
export type DemoOrgKey = keyof typeof DEMO_ORGS;

export interface DemoAccount {
  email: string;
  /** The role's server name. */
  role: string;
  /** The role as the dashboard shows it (Media, User, Admin, Org Admin, ENGINEER). */
  roleLabel: string;
  organization: string;
}

export interface DemoSummary {
  password: string;
  seed: number;
  accounts: DemoAccount[];
  organizations: { id: string; name: string }[];
  /** Rows written per table. */
  counts: Record<string, number>;
  elapsedMs: number;
}

export interface DemoOptions {
  /** Assets of the regional organization's family and TxDOT; Capital Metro gets up to 50 more. */
  assets: number;
  seed?: number;
}

/** Ids of the reference data (server/db/reference-data.ts) the plan points at. */
export interface DemoReferences {
  roleIds: Readonly<Record<string, number>>;
  thingTypeIds: Readonly<Record<AssetType, string>>;
  /** By asset type, then by subtype name ('truck_mounted'). */
  subtypeIds: Readonly<Record<AssetType, Readonly<Record<string, string>>>>;
  /** By db_name ('station'). */
  areaTypeIds: Readonly<Record<string, string>>;
  /** By name ('ACS'). */
  orgTypeIds: Readonly<Record<string, string>>;
}

type Insert<T extends PgTable> = T['$inferInsert'];

/** Every row the seed writes, in insert order (foreign keys first). */
export interface DemoPlan {
  organizations: Insert<typeof organizations>[];
  organizationRelationships: Insert<typeof organizationRelationships>[];
  users: Insert<typeof users>[];
  integrationConfigurations: Insert<typeof integrationConfigurations>[];
  areas: Insert<typeof areas>[];
  things: Insert<typeof things>[];
  thingExternalIdentifiers: Insert<typeof thingExternalIdentifiers>[];
  thingRelationships: Insert<typeof thingRelationships>[];
  locations: Insert<typeof locations>[];
  locationThings: Insert<typeof locationThings>[];
  closures: Insert<typeof closures>[];
  alertingZones: Insert<typeof alertingZones>[];
  alertingZoneThings: Insert<typeof alertingZoneThings>[];
  runs: Insert<typeof runs>[];
  points: Insert<typeof points>[];
  hazards: Insert<typeof hazards>[];
  r2rAlerts: Insert<typeof r2rAlerts>[];
  exports: Insert<typeof exports>[];
  jobs: Insert<typeof jobs>[];
  accounts: DemoAccount[];
}

// ── the seed ─────────────────────────────────────────────────────────────────

/** An arbitrary constant: one seeding at a time across processes sharing a Postgres. */
const SEED_LOCK_KEY = 73_402_026;

/**
 * Seeds the demo on an empty database. Does nothing and answers null when any organization
 * exists. The password is hashed once and the hash reused for every account.
 */
export async function seedDemo(deps: ServerDeps, opts: DemoOptions): Promise<DemoSummary | null> {
  const started = performance.now();
  if (await hasOrganizations(deps.db)) return null;
  const seed = opts.seed ?? DEFAULT_SIM_SEED;
  const refs = await loadDemoReferences(deps.db);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const plan = planDemo(refs, { assets: opts.assets, seed, now: deps.now(), passwordHash });
  const wrote = await deps.db.transaction(async (tx) => {
    // Two processes starting on one empty Postgres: the second waits here, then sees the orgs.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (await hasOrganizations(tx)) return false;
    await insertPlan(tx, plan);
    return true;
  });
  if (!wrote) return null;
  return {
    password: DEMO_PASSWORD,
    seed,
    accounts: plan.accounts,
    organizations: plan.organizations.map((org) => ({ id: org.id as string, name: org.name })),
    counts: planCounts(plan),
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** The lines main.ts prints on first start. */
export function formatDemoSummary(summary: DemoSummary): string[] {
  const width = Math.max(...summary.accounts.map((a) => a.email.length));
  return [
    `Demo data seeded in ${summary.elapsedMs} ms (seed ${summary.seed}): ${summary.counts.things ?? 0} assets in ${summary.organizations.length} organizations.`,
    `Demo accounts, all with the password ${summary.password}:`,
    ...summary.accounts.map((a) => `  ${a.email.padEnd(width)}  ${a.roleLabel.padEnd(9)}  ${a.organization}`),
  ];
}

type Executor = Pick<Db, 'select' | 'execute'>;

async function hasOrganizations(db: Executor): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(organizations);
  return (row?.n ?? 0) > 0;
}

async function insertPlan(db: Executor, plan: DemoPlan): Promise<void> {
  await insertRecords(db, organizations, plan.organizations);
  await insertRecords(db, organizationRelationships, plan.organizationRelationships);
  await insertRecords(db, users, plan.users);
  await insertRecords(db, integrationConfigurations, plan.integrationConfigurations);
  await insertRecords(db, areas, plan.areas);
  await insertRecords(db, things, plan.things);
  await insertRecords(db, thingExternalIdentifiers, plan.thingExternalIdentifiers);
  await insertRecords(db, thingRelationships, plan.thingRelationships);
  await insertRecords(db, locations, plan.locations);
  await insertRecords(db, locationThings, plan.locationThings);
  await insertRecords(db, closures, plan.closures);
  await insertRecords(db, alertingZones, plan.alertingZones);
  await insertRecords(db, alertingZoneThings, plan.alertingZoneThings);
  await insertRecords(db, runs, plan.runs);
  await insertRecords(db, points, plan.points);
  await insertRecords(db, hazards, plan.hazards);
  await insertRecords(db, r2rAlerts, plan.r2rAlerts);
  await insertRecords(db, exports, plan.exports);
  await insertRecords(db, jobs, plan.jobs);
}

function planCounts(plan: DemoPlan): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [key, value] of Object.entries(plan)) if (key !== 'accounts' && Array.isArray(value)) counts[key] = value.length;
  return counts;
}

export async function loadDemoReferences(db: Db): Promise<DemoReferences> {
  const roleRows = await db.select({ id: roles.id, name: roles.name }).from(roles);
  const typeRows = await db.select({ id: thingTypes.id, name: thingTypes.name }).from(thingTypes);
  const subtypeRows = await db
    .select({ id: thingSubtypes.id, name: thingSubtypes.name, typeId: thingSubtypes.thingTypeId })
    .from(thingSubtypes);
  const areaTypeRows = await db.select({ id: areaTypes.id, dbName: areaTypes.dbName }).from(areaTypes);
  const orgTypeRows = await db.select({ id: organizationTypes.id, name: organizationTypes.name }).from(organizationTypes);
  const thingTypeIds = {} as Record<AssetType, string>;
  const subtypeIds = {} as Record<AssetType, Record<string, string>>;
  for (const type of ASSET_TYPES) {
    const row = typeRows.find((t) => t.name === type);
    if (!row) throw new Error(`reference data lacks the thing type ${type}: run ensureReferenceData first`);
    thingTypeIds[type] = row.id;
    subtypeIds[type] = Object.fromEntries(subtypeRows.filter((s) => s.typeId === row.id).map((s) => [s.name, s.id]));
  }
  return {
    roleIds: Object.fromEntries(roleRows.map((r) => [r.name, r.id])),
    thingTypeIds,
    subtypeIds,
    areaTypeIds: Object.fromEntries(areaTypeRows.map((r) => [r.dbName, r.id])),
    orgTypeIds: Object.fromEntries(orgTypeRows.map((r) => [r.name, r.id])),
  };
}

// ── the plan ─────────────────────────────────────────────────────────────────

/**
 * What an asset is doing when the seed runs. Statuses follow from these facts through
 * `computeAssetStatus` (src/domain/asset-status.ts); the seed never stores a status.
 */
type AssetState = 'active' | 'standby' | 'station' | 'stationary' | 'pending' | 'offline' | 'oos' | 'location' | 'closure';

/** Share of the fleet in each starting state (location and closure are taken out of these later). */
const STATE_SHARE: Readonly<Record<'active' | 'standby' | 'stationary' | 'pending' | 'offline' | 'oos', number>> = {
  active: 0.18,
  standby: 0.32,
  stationary: 0.2,
  pending: 0.12,
  offline: 0.12,
  oos: 0.06,
};

const TYPE_SHARE: Readonly<Record<AssetType, number>> = {
  police: 0.28,
  fire: 0.12,
  ambulance: 0.12,
  arrow_board: 0.1,
  maintenance: 0.16,
  tow: 0.08,
  waste: 0.14,
};

/** Who owns the i-th asset of a type: cycles through the pattern (TxDOT gets the first arrow boards). */
const OWNERS: Readonly<Record<AssetType, readonly DemoOrgKey[]>> = {
  police: ['police'],
  fire: ['fire'],
  ambulance: ['ems'],
  arrow_board: ['txdot', 'txdot', 'txdot', 'publicWorks', 'regional', 'publicWorks', 'txdot', 'publicWorks'],
  maintenance: ['publicWorks', 'txdot', 'publicWorks', 'regional', 'publicWorks', 'txdot'],
  tow: ['publicWorks', 'txdot', 'publicWorks'],
  waste: ['publicWorks'],
};
const CAPMETRO_TYPES: readonly AssetType[] = ['maintenance', 'maintenance', 'tow', 'police', 'maintenance', 'arrow_board'];

/** Subtype weights, by subtype name. */
const SUBTYPE_WEIGHTS: Readonly<Record<AssetType, Readonly<Record<string, number>>>> = {
  police: { patrol_car: 6, suv: 3, motorcycle: 1 },
  fire: { engine: 6, ladder: 2, rescue: 2 },
  ambulance: { als: 7, bls: 3 },
  arrow_board: { trailer: 6, truck_mounted: 4 },
  maintenance: { plow: 2, sweeper: 3, attenuator_truck: 4 },
  tow: { flatbed: 5, wrecker: 5 },
  waste: { rear_loader: 5, side_loader: 5 },
};

/** Nickname words by subtype and where the numbering starts ('Engine 12', 'Medic 7'). */
const NICKNAMES: Readonly<Record<string, readonly [word: string, first: number]>> = {
  patrol_car: ['Patrol', 101],
  suv: ['Unit', 201],
  motorcycle: ['Motor', 1],
  engine: ['Engine', 1],
  ladder: ['Ladder', 1],
  rescue: ['Rescue', 1],
  als: ['Medic', 1],
  bls: ['Medic', 51],
  trailer: ['Arrow Board', 1],
  truck_mounted: ['Arrow Truck', 1],
  plow: ['Plow', 1],
  sweeper: ['Sweeper', 1],
  attenuator_truck: ['TMA', 1],
  flatbed: ['Flatbed', 1],
  wrecker: ['Wrecker', 1],
  rear_loader: ['Refuse', 101],
  side_loader: ['Refuse', 301],
};
const NICKNAME_PREFIX: Partial<Record<DemoOrgKey, string>> = {
  txdot: 'TxDOT ',
  publicWorks: 'PW ',
  regional: 'Regional ',
  capmetro: 'CapMetro ',
};
const REGISTRY_PREFIX: Readonly<Record<DemoOrgKey, string>> = {
  regional: 'TCR',
  fire: 'AFD',
  ems: 'ATCEMS',
  police: 'APD',
  publicWorks: 'TCPW',
  txdot: 'TXDOT',
  williamson: 'WILCO',
  acs: 'LBI',
  capmetro: 'CMTA',
};
/** Vehicle makers' world manufacturer identifiers for VINs by type (Ford, Pierce, Freightliner...). */
const VIN_WMI: Readonly<Record<AssetType, readonly string[]>> = {
  police: ['1FM', '2C3', '1GN'],
  fire: ['4P1', '1FV'],
  ambulance: ['1FD', '3C7'],
  arrow_board: ['5KT', '1FT'],
  maintenance: ['1FV', '1HT'],
  tow: ['1FD', '1HT'],
  waste: ['1M2', '3BP'],
};
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const PLATE_LETTERS = 'BCDFGHJKLMNPRSTVWXYZ';
const DEVICE_TYPE_WEIGHTS = { ha5: 55, ha7: 35, api: 10 } as const;
type DeviceType = keyof typeof DEVICE_TYPE_WEIGHTS;
const PROVIDER_BY_ORG: Readonly<Record<DemoOrgKey, 'samsara' | 'geotab'>> = {
  regional: 'samsara',
  fire: 'samsara',
  ems: 'samsara',
  police: 'samsara',
  publicWorks: 'geotab',
  txdot: 'geotab',
  williamson: 'samsara',
  acs: 'samsara',
  capmetro: 'geotab',
};
/** The WZDx feed TxDOT's arrow boards report into. */
export const TXDOT_FEED_ID = 'txdot-austin-wzdx';
/** Station radius (part 2 §3 radius_dist is in miles): about 100 m. */
const STATION_RADIUS_MI = 0.06;
const TRIP_SAMPLE_MS = 10 * SECOND_MS;
const TRIP_HISTORY_MS = 2 * DAY_MS;
const MAX_TRIP_ASSETS = 50;
const INACTIVE_LOCATIONS = 30;

interface PlannedThing {
  row: Insert<typeof things> & { id: string; haasId: string };
  type: AssetType;
  org: DemoOrgKey;
  state: AssetState;
  deviceType: DeviceType;
}

interface PlanInput {
  assets: number;
  seed: number;
  now: Date;
  passwordHash: string;
}

export function planDemo(refs: DemoReferences, input: PlanInput): DemoPlan {
  const nowMs = input.now.getTime();
  const now = input.now;
  const root = createRandom(input.seed);
  const net = austinRoadNetwork();
  const at = (ms: number): Date => new Date(ms);
  const ago = (ms: number): Date => new Date(nowMs - ms);

  // ── organizations ──
  const orgRandom = root.fork('organizations');
  const orgIds = Object.fromEntries((Object.keys(DEMO_ORGS) as DemoOrgKey[]).map((key) => [key, orgRandom.uuid()])) as Record<
    DemoOrgKey,
    string
  >;
  const orgType = (name: string): string | null => refs.orgTypeIds[name] ?? null;
  const orgBase = (key: DemoOrgKey, values: Partial<Insert<typeof organizations>>): Insert<typeof organizations> => ({
    id: orgIds[key],
    name: DEMO_ORGS[key],
    countryCode: CITY.countryCode,
    city: CITY.name,
    state: CITY.state,
    timezone: CITY.timezone,
    createdAt: now,
    updatedAt: now,
    ...values,
  });
  const regionalChild = { parentId: orgIds.regional, organizationTypeId: orgType('Public Safety') };
  const organizationRows: Insert<typeof organizations>[] = [
    orgBase('regional', {
      organizationTypeId: orgType('Public Safety'),
      email: 'operations@travis-regional.example',
      phoneNumber: '(512) 555-0100',
      contactName: 'Regional Operations Center',
      address1: '700 Lavaca St',
      postalCode: '78701',
      lat: 30.2716,
      lng: -97.7452,
      showInfiniteTimeoutOption: true,
      billingId: 'BILL-TCR-0001',
      maxioCustId: 'cus_demo_travis_regional',
    }),
    orgBase('fire', {
      ...regionalChild,
      email: 'fleet@afd.example',
      phoneNumber: '(512) 555-0111',
      address1: '4201 Ed Bluestein Blvd',
      postalCode: '78721',
      lat: 30.2781,
      lng: -97.6862,
    }),
    orgBase('ems', {
      ...regionalChild,
      email: 'fleet@atcems.example',
      phoneNumber: '(512) 555-0122',
      address1: '15 Waller St',
      postalCode: '78702',
      lat: 30.2597,
      lng: -97.7301,
    }),
    orgBase('police', {
      ...regionalChild,
      email: 'fleet@apd.example',
      phoneNumber: '(512) 555-0133',
      address1: '715 E 8th St',
      postalCode: '78701',
      lat: 30.268,
      lng: -97.7355,
    }),
    orgBase('publicWorks', {
      ...regionalChild,
      email: 'fleet@tcpw.example',
      phoneNumber: '(512) 555-0144',
      address1: '5501 Airport Blvd',
      postalCode: '78751',
      lat: 30.3148,
      lng: -97.7113,
    }),
    orgBase('txdot', {
      organizationTypeId: orgType('Department of Transportation'),
      isWzdxOrg: true,
      email: 'aus-workzones@txdot.example',
      phoneNumber: '(512) 555-0155',
      contactName: 'Austin District Traffic Operations',
      address1: '7901 N IH-35',
      postalCode: '78753',
      lat: 30.3418,
      lng: -97.6953,
    }),
    orgBase('williamson', {
      organizationTypeId: orgType('Public Safety'),
      email: 'dispatch@wilco.example',
      phoneNumber: '(512) 555-0166',
      address1: '710 S Main St',
      city: 'Georgetown',
      postalCode: '78626',
      lat: 30.6333,
      lng: -97.677,
    }),
    orgBase('acs', {
      organizationTypeId: orgType('ACS'),
      email: 'integrations@lightbar.example',
      phoneNumber: '(512) 555-0177',
      address1: '500 W 2nd St',
      postalCode: '78701',
      lat: 30.2655,
      lng: -97.7497,
    }),
    orgBase('capmetro', {
      organizationTypeId: orgType('Department of Transportation'),
      isLargeOrg: true,
      email: 'fleet@capmetro.example',
      phoneNumber: '(512) 555-0188',
      address1: '2910 E 5th St',
      postalCode: '78702',
      lat: 30.2573,
      lng: -97.7096,
    }),
  ];
  const organizationRelationshipRows: Insert<typeof organizationRelationships>[] = [
    { organizationId: orgIds.regional, relatedOrganizationId: orgIds.txdot, relationshipType: 'manager', createdAt: now },
    { organizationId: orgIds.regional, relatedOrganizationId: orgIds.williamson, relationshipType: 'accessor', createdAt: now },
  ];

  // ── users ──
  const userRandom = root.fork('users');
  const people: { email: string; role: string; org: DemoOrgKey; first: string; last: string }[] = [
    { email: 'media@lightbar.demo', role: 'USER (Incidents / Events only)', org: 'regional', first: 'Mina', last: 'Park' },
    { email: 'user@lightbar.demo', role: 'USER', org: 'regional', first: 'Owen', last: 'Garcia' },
    { email: 'admin@lightbar.demo', role: 'ADMIN', org: 'regional', first: 'Alex', last: 'Rivera' },
    { email: 'orgadmin@lightbar.demo', role: 'MANUFACTURER ADMIN', org: 'regional', first: 'Jordan', last: 'Lee' },
    { email: 'engineer@lightbar.demo', role: 'ENGINEER', org: 'acs', first: 'Sam', last: 'Patel' },
    { email: 'txdot.admin@lightbar.demo', role: 'ADMIN', org: 'txdot', first: 'Taylor', last: 'Brooks' },
    { email: 'capmetro.admin@lightbar.demo', role: 'ADMIN', org: 'capmetro', first: 'Casey', last: 'Nguyen' },
    { email: 'wilco.user@lightbar.demo', role: 'USER', org: 'williamson', first: 'Riley', last: 'Chen' },
  ];
  const userIds = new Map<string, string>();
  const userRows: Insert<typeof users>[] = people.map((person) => {
    const roleId = refs.roleIds[person.role];
    if (roleId === undefined) throw new Error(`reference data lacks the role ${person.role}`);
    const id = userRandom.uuid();
    userIds.set(person.email, id);
    return {
      id,
      organizationId: orgIds[person.org],
      email: person.email,
      firstname: person.first,
      lastname: person.last,
      phone: `(512) 555-01${String(userRandom.int(10, 99))}`,
      roleId,
      passwordHash: input.passwordHash,
      passwordChangedAt: now,
      lastActivityAt: now,
      createdAt: now,
      updatedAt: now,
    };
  });
  const accounts: DemoAccount[] = people.map((p) => ({
    email: p.email,
    role: p.role,
    roleLabel: roleLabel(p.role),
    organization: DEMO_ORGS[p.org],
  }));

  // ── areas: stations, yards, hospitals, exclusions, AV zones ──
  const areaRandom = root.fork('areas');
  const areaRows: Insert<typeof areas>[] = [];
  const stationsByOrg = new Map<DemoOrgKey, { id: string; position: LatLng }[]>();
  const areaTypeId = (dbName: string): string => {
    const id = refs.areaTypeIds[dbName];
    if (!id) throw new Error(`reference data lacks the area type ${dbName}`);
    return id;
  };
  const usedNodes = new Set<number>();
  const innerNode = (random: Random): number => {
    for (;;) {
      const row = random.int(2, net.gridSize - 3);
      const col = random.int(2, net.gridSize - 3);
      const id = net.gridNode(row, col);
      if (!usedNodes.has(id)) {
        usedNodes.add(id);
        return id;
      }
    }
  };
  const address = (random: Random, nodeId: number) => ({
    address1: `${random.int(100, 9899)} ${intersectionName(net, nodeId).split(' & ')[0] ?? ''}`,
    city: CITY.name,
    state: CITY.state,
    postalCode: random.pick(CITY.postalCodes),
    countryCode: CITY.countryCode,
  });
  const pointArea = (
    org: DemoOrgKey,
    name: string,
    dbName: string,
    radiusMi: number | null,
    desc: string,
  ): { id: string; position: LatLng } => {
    const nodeId = innerNode(areaRandom);
    // Set back from the corner, off the roadway.
    const position = offsetMetres(nodePosition(net, nodeId), 35, 35);
    const id = areaRandom.uuid();
    areaRows.push({
      id,
      organizationId: orgIds[org],
      name,
      desc,
      ezTypeId: areaTypeId(dbName),
      lat: position.lat,
      lng: position.lng,
      radiusDist: radiusMi,
      pointGeom: { lat: position.lat, lon: position.lng },
      ...address(areaRandom, nodeId),
      createdAt: now,
      updatedAt: now,
    });
    return { id, position };
  };
  const polygonArea = (org: DemoOrgKey, name: string, dbName: string, desc: string, halfNorthM: number, halfEastM: number): LatLng[] => {
    const nodeId = innerNode(areaRandom);
    const c = offsetMetres(nodePosition(net, nodeId), areaRandom.range(-150, 150), areaRandom.range(-150, 150));
    // A pentagon-ish ring, a little irregular, well under 0.5 sq mi (at most ~0.3).
    const ring = [
      offsetMetres(c, -halfNorthM, -halfEastM),
      offsetMetres(c, -halfNorthM, halfEastM),
      offsetMetres(c, halfNorthM * 0.6, halfEastM * 1.1),
      offsetMetres(c, halfNorthM, 0),
      offsetMetres(c, halfNorthM * 0.7, -halfEastM),
    ].map((p) => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) }));
    areaRows.push({
      id: areaRandom.uuid(),
      organizationId: orgIds[org],
      name,
      desc,
      ezTypeId: areaTypeId(dbName),
      areaGeom: polygonToGeoJson(ring),
      ...address(areaRandom, nodeId),
      createdAt: now,
      updatedAt: now,
    });
    return ring;
  };

  // ── things ──
  const thingRandom = root.fork('things');
  const typeCounts = splitCounts(Math.max(0, Math.floor(input.assets)), TYPE_SHARE);
  const plannedThings: PlannedThing[] = [];
  const nicknameCounters = new Map<string, number>();
  const registryCounters = new Map<DemoOrgKey, number>();
  const addThing = (type: AssetType, org: DemoOrgKey): void => {
    const random = thingRandom;
    const subtype = random.weighted(SUBTYPE_WEIGHTS[type]);
    const deviceType = random.weighted(DEVICE_TYPE_WEIGHTS);
    const seq = plannedThings.length + 1;
    const [word, first] = NICKNAMES[subtype] ?? [type, 1];
    const nickKey = `${org}:${word}`;
    const number = (nicknameCounters.get(nickKey) ?? first - 1) + 1;
    nicknameCounters.set(nickKey, number);
    const registry = (registryCounters.get(org) ?? 0) + 1;
    registryCounters.set(org, registry);
    const emergency = R2R_CAPABLE_TYPES.includes(type);
    const r2rHardware = (R2R_DEVICE_TYPES as readonly string[]).includes(deviceType);
    const isR2rEnabled = emergency && r2rHardware && random.chance(0.6);
    const row: PlannedThing['row'] = {
      id: random.uuid(),
      organizationId: orgIds[org],
      haasId: `${deviceType.toUpperCase()}-${String(seq).padStart(6, '0')}`,
      // A few assets have no nickname: the dashboard then shows the upper-cased haas id.
      nickname: random.chance(0.07) ? null : `${NICKNAME_PREFIX[org] ?? ''}${word} ${number}`,
      thingTypeId: refs.thingTypeIds[type],
      thingSubtypeId: refs.subtypeIds[type][subtype] ?? null,
      vinNumber: vin(random, type),
      licensePlateNumber: random.chance(0.9) ? plate(random) : null,
      registryNumber: random.chance(0.7) ? `${REGISTRY_PREFIX[org]}-${String(registry).padStart(4, '0')}` : null,
      externalId: deviceType === 'api' ? `${PROVIDER_BY_ORG[org] === 'samsara' ? 'SAM' : 'GEO'}-${random.int(100_000, 999_999)}` : null,
      deviceType,
      isResponder: emergency,
      isR2rEnabled,
      isAllowedForTestMode: isR2rEnabled ? random.chance(0.5) : random.chance(0.1),
      isAllowedForClosures: type === 'arrow_board' || type === 'maintenance',
      lightIntensity: deviceType === 'ha5' ? random.pick(LIGHT_INTENSITY_OPTIONS) : null,
      feedSubscriptions: org === 'txdot' && type === 'arrow_board' && random.chance(0.6) ? [TXDOT_FEED_ID] : [],
      accuracy: Math.round(random.range(3, 12) * 10) / 10,
      createdAt: ago(random.range(30, 900) * DAY_MS),
      updatedAt: now,
    };
    plannedThings.push({ row, type, org, state: 'standby', deviceType });
  };
  for (const type of ASSET_TYPES) {
    const owners = OWNERS[type];
    for (let i = 0; i < typeCounts[type]; i++) addThing(type, owners[i % owners.length] as DemoOrgKey);
  }
  const capmetroCount = Math.min(50, Math.ceil(Math.max(0, input.assets) / 10));
  for (let i = 0; i < capmetroCount; i++) addThing(CAPMETRO_TYPES[i % CAPMETRO_TYPES.length] as AssetType, 'capmetro');

  // Starting states, spread evenly across the fleet then shuffled.
  const stateRandom = root.fork('states');
  const stateCounts = splitCounts(plannedThings.length, STATE_SHARE);
  const stateList = stateRandom.shuffle(
    (Object.keys(stateCounts) as (keyof typeof STATE_SHARE)[]).flatMap((state) =>
      Array.from({ length: stateCounts[state] }, () => state as AssetState),
    ),
  );
  plannedThings.forEach((t, i) => {
    t.state = stateList[i] ?? 'standby';
  });

  // Stations for the emergency fleets; standby responders wait at some of them.
  const countOf = (org: DemoOrgKey): number => plannedThings.filter((t) => t.org === org).length;
  const stationNames = (org: DemoOrgKey, n: number): string[] => {
    if (org === 'police')
      return ['APD Headquarters', 'APD North Substation', 'APD South Substation', 'APD East Substation', 'APD West Substation'].slice(0, n);
    const word = org === 'fire' ? 'Fire Station' : 'EMS Station';
    return Array.from({ length: n }, (_, i) => `${word} ${i + 1}`);
  };
  for (const [org, perStation, max] of [
    ['fire', 10, 12],
    ['ems', 12, 8],
    ['police', 40, 5],
  ] as const) {
    const n = clamp(Math.ceil(countOf(org) / perStation), 2, max);
    stationsByOrg.set(
      org,
      stationNames(org, n).map((name) => pointArea(org, name, 'station', STATION_RADIUS_MI, `${DEMO_ORGS[org]} station`)),
    );
  }
  pointArea('publicWorks', 'Public Works Service Center', 'work_yard', 0.12, 'Fleet yard and fuel island');
  pointArea('txdot', 'TxDOT Austin Maintenance Yard', 'work_yard', 0.12, 'Arrow boards and attenuator trucks');
  for (const hospital of [
    'Dell Seton Medical Center',
    "St. David's Medical Center",
    'Ascension Seton Medical Center',
    "Dell Children's Medical Center",
    "St. David's South Austin Medical Center",
    'Heart Hospital of Austin',
  ]) {
    pointArea('ems', hospital, 'hospital', null, 'Emergency department');
  }
  polygonArea('regional', 'Zilker Park', 'other', 'No staging on the great lawn', 380, 420);
  polygonArea('regional', 'State Capitol Grounds', 'other', 'Restricted: state property', 260, 240);
  polygonArea('police', 'Austin High School', 'school_zone', 'School zone 7:00-9:00 and 14:30-16:30', 220, 260);
  polygonArea('publicWorks', 'Downtown Farmers Market', 'other', 'Saturdays 9:00-13:00', 150, 200);
  polygonArea('txdot', 'IH-35 Construction Staging', 'other', 'Contractor staging area', 300, 180);
  polygonArea('regional', 'Congress Ave Bridge', 'no_stop', 'Automated vehicles: do not stop on the bridge', 200, 60);
  polygonArea('regional', 'Capitol Complex Garage', 'no_enter', 'Automated vehicles: do not enter', 120, 120);

  // Positions and heartbeats by state.
  const liveRandom = root.fork('live');
  for (const t of plannedThings) placeThing(t, liveRandom, net, nowMs, stationsByOrg.get(t.org) ?? []);

  // ── locations (incidents) ──
  const locRandom = root.fork('locations');
  const locationRows: Insert<typeof locations>[] = [];
  const locationThingRows: Insert<typeof locationThings>[] = [];
  const emergency = plannedThings.filter((t) => R2R_CAPABLE_TYPES.includes(t.type) && t.org !== 'capmetro');
  const available = (t: PlannedThing): boolean =>
    t.row.inService !== false && (t.state === 'active' || t.state === 'standby' || t.state === 'station');
  const activeLocationCount = clamp(Math.round(input.assets / 250), 3, 8);
  for (let i = 0; i < activeLocationCount; i++) {
    const kind = locRandom.pick(INCIDENT_KINDS);
    const crew: PlannedThing[] = [];
    for (const type of kind.types) {
      const pool = emergency.filter((t) => t.type === type && available(t) && !crew.includes(t));
      if (pool.length > 0) crew.push(locRandom.pick(pool));
    }
    if (crew.length === 0) continue;
    const startMs = nowMs - locRandom.range(6, 75) * MINUTE_MS;
    const scene = incidentScene(net, locRandom);
    const id = locRandom.uuid();
    const lead = crew[0] as PlannedThing;
    locationRows.push({
      id,
      organizationId: lead.row.organizationId,
      externalId: `CAD26-${locRandom.int(100_000, 999_999)}`,
      displayName: kind.name,
      isActive: true,
      lat: scene.position.lat,
      lng: scene.position.lng,
      street: scene.street,
      roadwayHeading: Math.round(scene.heading),
      startTime: at(startMs),
      alertMessage: kind.alert,
      createdAt: at(startMs),
      updatedAt: now,
    });
    crew.forEach((t, k) => {
      const arrived = Math.min(nowMs - MINUTE_MS, startMs + k * locRandom.range(0.5, 6) * MINUTE_MS);
      const spot = offsetMetres(scene.position, locRandom.range(-30, 30), locRandom.range(-30, 30));
      t.state = 'location';
      Object.assign(t.row, {
        lat: spot.lat,
        lng: spot.lng,
        course: scene.heading,
        speed: 0,
        enroute: false,
        lightsOn: true,
        street: null,
        stationId: null,
        stillSince: at(arrived),
        heartbeatAt: ago(locRandom.range(1, 20) * SECOND_MS),
        locationId: id,
      });
      locationThingRows.push({ locationId: id, thingId: t.row.id, startTime: at(arrived), isActive: true });
    });
    // Someone already cleared from the scene.
    const cleared = emergency.filter((t) => t.state !== 'location' && t.row.inService !== false);
    if (cleared.length > 0 && locRandom.chance(0.6)) {
      const t = locRandom.pick(cleared);
      const arrived = startMs + locRandom.range(1, 4) * MINUTE_MS;
      locationThingRows.push({
        locationId: id,
        thingId: t.row.id,
        startTime: at(arrived),
        endTime: at(Math.min(nowMs - MINUTE_MS, arrived + locRandom.range(3, 20) * MINUTE_MS)),
        isActive: false,
      });
    }
  }
  const historyPool = emergency.length > 0 ? emergency : plannedThings;
  for (let i = 0; i < INACTIVE_LOCATIONS && historyPool.length > 0; i++) {
    const kind = locRandom.pick(INCIDENT_KINDS);
    const startMs = nowMs - locRandom.range(2 * HOUR_MS, 7 * DAY_MS - HOUR_MS);
    const endMs = startMs + locRandom.range(15, 150) * MINUTE_MS;
    const scene = incidentScene(net, locRandom);
    const crew = locRandom.sample(
      historyPool.filter((t) => kind.types.includes(t.type)),
      locRandom.int(1, 4),
    );
    if (crew.length === 0) crew.push(locRandom.pick(historyPool));
    const id = locRandom.uuid();
    locationRows.push({
      id,
      organizationId: (crew[0] as PlannedThing).row.organizationId,
      externalId: `CAD26-${locRandom.int(100_000, 999_999)}`,
      displayName: kind.name,
      isActive: false,
      lat: scene.position.lat,
      lng: scene.position.lng,
      street: scene.street,
      roadwayHeading: Math.round(scene.heading),
      startTime: at(startMs),
      endTime: at(endMs),
      alertMessage: kind.alert,
      createdAt: at(startMs),
      updatedAt: now,
    });
    for (const t of crew) {
      const arrived = startMs + locRandom.range(0, 8) * MINUTE_MS;
      const left = Math.max(arrived + MINUTE_MS, endMs - locRandom.range(0, 10) * MINUTE_MS);
      locationThingRows.push({ locationId: id, thingId: t.row.id, startTime: at(arrived), endTime: at(left), isActive: false });
    }
  }

  // ── closures ──
  const closureRandom = root.fork('closures');
  const closureRows: Insert<typeof closures>[] = [];
  const txdotBoards = plannedThings.filter((t) => t.org === 'txdot' && t.type === 'arrow_board');
  const closureBase = (
    org: DemoOrgKey,
    values: Partial<Insert<typeof closures>> & Pick<Insert<typeof closures>, 'closureType' | 'description'>,
    route: RouteSpec,
  ): Insert<typeof closures> => {
    const r = closureRoute(net, route);
    return {
      id: closureRandom.uuid(),
      organizationId: orgIds[org],
      streetStart: r.street,
      streetEnd: r.street,
      userRoute: r.userRoute,
      geocodedRoute: r.geocodedRoute,
      calculatedRoute: r.geocodedRoute,
      createdAt: ago(closureRandom.range(1, 20) * DAY_MS),
      updatedAt: now,
      ...values,
    };
  };
  const published = (externalId: string, vehicleImpact: string, locationMethod: string, groupId: string | null = null) => ({
    externalId,
    isPublishOn: true,
    isWzdxCompliant: true,
    vehicleImpact,
    locationMethod,
    groupId,
  });
  closureRows.push(
    closureBase(
      'txdot',
      {
        closureType: 'manual',
        description: 'Lamar Blvd utility work',
        alertMessage: 'Right lane closed ahead',
        direction: 'N',
        impactedLanes: [2],
        isActive: true,
        startTime: ago(3 * HOUR_MS),
        lastStartTime: ago(3 * HOUR_MS),
        endTime: at(nowMs + 4 * DAY_MS),
        ...published('TXDOT-AUS-2026-0001', 'some-lanes-closed-merge-left', 'channel-device-method', 'LAMAR-UTILITY'),
      },
      { street: 'Lamar Blvd', start: 14, blocks: 1 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'manual',
        description: 'Congress Ave night resurfacing',
        alertMessage: 'Lane shift ahead',
        direction: 'S',
        impactedLanes: [1, 2],
        isActive: false,
        startTime: at(startOfNextHour(nowMs + DAY_MS)),
        endTime: at(startOfNextHour(nowMs + 3 * DAY_MS)),
        ...published('TXDOT-AUS-2026-0002', 'all-lanes-open-shift-left', 'sign-method', 'CONGRESS-RESURFACING'),
      },
      { street: 'Congress Ave', start: 11, blocks: 2 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'manual',
        description: 'Airport Blvd shoulder repair',
        direction: 'N',
        impactedLanes: [3],
        isActive: false,
      },
      { street: 'Airport Blvd', start: 12, blocks: 1 },
    ),
  );
  const automatedSpecs: { description: string; alert: string; route: RouteSpec; direction: 'N' | 'E' | 'S' | 'W'; active: boolean }[] = [
    {
      description: 'Mobile work zone IH-35 Frontage Rd',
      alert: 'Slow moving work zone',
      route: { street: 'IH-35 Frontage Rd', start: 8, blocks: 1 },
      direction: 'S',
      active: true,
    },
    {
      description: 'Arrow board staging Riverside Dr',
      alert: 'Lane closed ahead',
      route: { street: 'Riverside Dr', start: 12, blocks: 1 },
      direction: 'E',
      active: false,
    },
    {
      description: 'Ben White Blvd shoulder closure',
      alert: 'Shoulder closed',
      route: { street: 'Ben White Blvd', start: 9, blocks: 1 },
      direction: 'W',
      active: false,
    },
  ];
  automatedSpecs.forEach((spec, i) => {
    const board = txdotBoards[i];
    if (!board) return;
    const closure = closureBase(
      'txdot',
      {
        closureType: 'automated',
        description: spec.description,
        alertMessage: spec.alert,
        direction: spec.direction,
        impactedLanes: [1],
        thingId: board.row.id,
        isActive: spec.active,
        lastStartTime: spec.active ? ago(40 * MINUTE_MS) : ago(closureRandom.range(1, 6) * DAY_MS),
        ...(spec.active ? published('TXDOT-AUS-2026-0003', 'some-lanes-closed-merge-right', 'channel-device-method') : {}),
      },
      spec.route,
    );
    closureRows.push(closure);
    // The board stands at the start of its closure.
    const start = (closure.userRoute as LatLng[])[0] as LatLng;
    Object.assign(board.row, { lat: start.lat, lng: start.lng, isAllowedForClosures: true });
    if (spec.active) {
      board.state = 'closure';
      Object.assign(board.row, {
        inService: true,
        enroute: false,
        lightsOn: true,
        speed: 0,
        street: spec.route.street,
        stationId: null,
        stillSince: ago(40 * MINUTE_MS),
        heartbeatAt: ago(closureRandom.range(1, 25) * SECOND_MS),
      });
    } else if (board.row.street) {
      board.row.street = spec.route.street;
    }
  });
  closureRows.push(
    closureBase(
      'txdot',
      {
        closureType: 'feed',
        description: 'IH-35 Capital Express Central lane closures',
        direction: 'N',
        impactedLanes: [1, 2],
        isActive: true,
        isDashboardManaged: false,
        isWzdxCompliant: true,
        externalId: 'TXDOT-WZDX-48721',
        startTime: ago(2 * DAY_MS),
        lastStartTime: ago(2 * DAY_MS),
        endTime: at(nowMs + 30 * DAY_MS),
        locationMethod: 'channel-device-method',
        vehicleImpact: 'some-lanes-closed',
        groupId: 'CAPEX-CENTRAL',
      },
      { street: 'IH-35 Frontage Rd', start: 11, blocks: 2 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'feed',
        description: 'Loop 360 bridge inspection',
        direction: 'N',
        impactedLanes: [1],
        isActive: false,
        isDashboardManaged: false,
        isWzdxCompliant: true,
        externalId: 'TXDOT-WZDX-48755',
        startTime: at(startOfNextHour(nowMs + 2 * DAY_MS)),
        endTime: at(startOfNextHour(nowMs + 2 * DAY_MS) + 6 * HOUR_MS),
        locationMethod: 'sign-method',
        vehicleImpact: 'alternating-one-way',
      },
      { street: RING_HIGHWAY_NAME, start: 5, blocks: 2 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'feed',
        description: 'Ben White Blvd widening',
        direction: 'E',
        impactedLanes: [3],
        isActive: true,
        isDashboardManaged: false,
        isWzdxCompliant: true,
        externalId: 'TXDOT-WZDX-48790',
        startTime: ago(12 * DAY_MS),
        lastStartTime: ago(12 * DAY_MS),
        endTime: at(nowMs + 60 * DAY_MS),
        locationMethod: 'junction-method',
        vehicleImpact: 'all-lanes-open-shift-left',
      },
      { street: 'Ben White Blvd', start: 4, blocks: 3 },
    ),
    closureBase(
      'publicWorks',
      {
        closureType: 'manual',
        description: '7th St water main repair',
        alertMessage: 'Road work ahead',
        direction: 'W',
        impactedLanes: [2],
        isActive: true,
        startTime: ago(DAY_MS),
        lastStartTime: ago(DAY_MS),
        endTime: at(nowMs + 2 * DAY_MS),
      },
      { street: '7th St', start: 12, blocks: 1 },
    ),
    closureBase(
      'publicWorks',
      {
        closureType: 'manual',
        description: 'Riverside Dr marathon route',
        alertMessage: 'Road closed for event',
        direction: 'E',
        impactedLanes: [1, 2],
        isActive: false,
        startTime: at(startOfNextHour(nowMs + 5 * DAY_MS)),
        endTime: at(startOfNextHour(nowMs + 5 * DAY_MS) + 8 * HOUR_MS),
      },
      { street: 'Riverside Dr', start: 5, blocks: 3 },
    ),
  );

  // ── things shared one by one ──
  const shareRandom = root.fork('shares');
  const regionalFamily = plannedThings.filter((t) => t.org !== 'txdot' && t.org !== 'capmetro');
  const thingRelationshipRows: Insert<typeof thingRelationships>[] = [
    ...shareRandom
      .sample(
        regionalFamily.filter((t) => t.org === 'publicWorks'),
        5,
      )
      .map((t) => ({ thingId: t.row.id, organizationId: orgIds.txdot, relationshipType: 'manager' as const })),
    ...shareRandom
      .sample(
        regionalFamily.filter((t) => t.org === 'ems' || t.org === 'fire'),
        6,
      )
      .map((t) => ({ thingId: t.row.id, organizationId: orgIds.williamson, relationshipType: 'accessor' as const })),
  ];

  // ── integrations ──
  const integrationRows: Insert<typeof integrationConfigurations>[] = [];
  const externalIdentifierRows: Insert<typeof thingExternalIdentifiers>[] = [];
  const integratedOrgs = new Set<DemoOrgKey>();
  for (const t of plannedThings) {
    if (t.deviceType !== 'api' || !t.row.externalId) continue;
    integratedOrgs.add(t.org);
    externalIdentifierRows.push({
      id: shareRandom.uuid(),
      thingId: t.row.id,
      identifierId: t.row.externalId,
      systemName: PROVIDER_BY_ORG[t.org],
    });
  }
  for (const org of Object.keys(DEMO_ORGS) as DemoOrgKey[]) {
    if (!integratedOrgs.has(org)) continue;
    const provider = PROVIDER_BY_ORG[org];
    integrationRows.push({
      id: shareRandom.uuid(),
      organizationId: orgIds[org],
      provider,
      settings:
        provider === 'samsara'
          ? { organization_id: `demo-${REGISTRY_PREFIX[org].toLowerCase()}` }
          : { database: `demo_${REGISTRY_PREFIX[org].toLowerCase()}` },
      createdAt: ago(90 * DAY_MS),
    });
  }

  // ── past trips, R2R alerts, hazards ──
  const tripRandom = root.fork('trips');
  const runRows: Insert<typeof runs>[] = [];
  const pointRows: Insert<typeof points>[] = [];
  const r2rRows: Insert<typeof r2rAlerts>[] = [];
  const recent = (t: PlannedThing): boolean =>
    t.row.inService !== false && ['active', 'standby', 'station', 'stationary'].includes(t.state);
  const tripCount = clamp(Math.round(input.assets / 40), 5, MAX_TRIP_ASSETS);
  const tripEmergency = tripRandom.sample(
    plannedThings
      .filter((t) => recent(t) && R2R_CAPABLE_TYPES.includes(t.type))
      .sort((a, b) => Number(b.row.isR2rEnabled) - Number(a.row.isR2rEnabled))
      .slice(0, tripCount * 2),
    Math.ceil(tripCount * 0.6),
  );
  const tripOthers = tripRandom.sample(
    plannedThings.filter((t) => recent(t) && !R2R_CAPABLE_TYPES.includes(t.type)),
    tripCount - tripEmergency.length,
  );
  const r2rPeers = plannedThings.filter((t) => t.row.isR2rEnabled);
  for (const t of [...tripEmergency, ...tripOthers]) {
    const runCount = tripRandom.int(2, 4);
    const window = (TRIP_HISTORY_MS - HOUR_MS) / runCount;
    const samplesByRun: { runId: string; samples: ReturnType<typeof drivePath> }[] = [];
    for (let k = 0; k < runCount; k++) {
      const startMs = nowMs - TRIP_HISTORY_MS + k * window + tripRandom.range(0, window * 0.5);
      const minutes = tripRandom.range(8, 35);
      const samples = driveSomewhere(net, tripRandom, startMs, Math.round((minutes * MINUTE_MS) / TRIP_SAMPLE_MS));
      if (samples.length < 2) continue;
      const runId = tripRandom.uuid();
      const last = samples[samples.length - 1] as (typeof samples)[number];
      runRows.push({
        id: runId,
        thingId: t.row.id,
        runStart: at(samples[0]?.timestamp ?? startMs),
        runEnd: at(last.timestamp),
        isActive: false,
      });
      samplesByRun.push({ runId, samples });
    }
    if (t.state === 'active') {
      // An active asset is on a run right now; its position is the run's latest point.
      const samples = driveSomewhere(
        net,
        tripRandom,
        nowMs - tripRandom.range(5, 20) * MINUTE_MS,
        Math.round((15 * MINUTE_MS) / TRIP_SAMPLE_MS),
        nowMs,
      );
      const last = samples[samples.length - 1];
      if (last && samples.length >= 2) {
        const runId = tripRandom.uuid();
        const runStart = at(samples[0]?.timestamp ?? nowMs);
        runRows.push({ id: runId, thingId: t.row.id, runStart, isActive: true });
        samplesByRun.push({ runId, samples });
        Object.assign(t.row, {
          lat: last.lat,
          lng: last.lng,
          course: Math.round(last.course),
          speed: Math.round(last.speedMph),
          runId,
          runStartTime: runStart,
          runPointsCount: samples.length,
          heartbeatAt: at(Math.max(last.timestamp, nowMs - 10 * SECOND_MS)),
        });
      }
    }
    for (const { runId, samples } of samplesByRun) {
      for (const s of samples) {
        pointRows.push({
          thingId: t.row.id,
          runId,
          lat: truncateCoordinate(s.lat),
          lng: truncateCoordinate(s.lng),
          course: Math.round(s.course),
          speed: Math.round(s.speedMph * 10) / 10,
          accuracy: Math.round(tripRandom.range(3, 10) * 10) / 10,
          timestamp: at(s.timestamp),
        });
      }
      const peers = r2rPeers.filter((p) => p !== t);
      if (t.row.isR2rEnabled && peers.length > 0 && tripRandom.chance(0.5)) {
        const s = tripRandom.pick(samples);
        r2rRows.push({
          id: tripRandom.uuid(),
          organizationId: t.row.organizationId,
          thingId: t.row.id,
          otherThingId: tripRandom.pick(peers).row.id,
          isTest: false,
          delivered: tripRandom.chance(0.9),
          distanceM: Math.round(tripRandom.range(60, R2R_ALERT_DISTANCE_M)),
          lat: truncateCoordinate(s.lat),
          lng: truncateCoordinate(s.lng),
          alertTime: at(s.timestamp),
        });
      }
    }
  }
  // R2R test alerts (the asset panel's 'R2R test alert' action), on assets allowed for test mode.
  for (const t of tripRandom.sample(
    plannedThings.filter((p) => p.row.isR2rEnabled && p.row.isAllowedForTestMode && p.row.heartbeatAt),
    3,
  )) {
    r2rRows.push({
      id: tripRandom.uuid(),
      organizationId: t.row.organizationId,
      thingId: t.row.id,
      isTest: true,
      delivered: true,
      lat: t.row.lat ?? null,
      lng: t.row.lng ?? null,
      alertTime: ago(tripRandom.range(1, 36) * HOUR_MS),
    });
  }

  const hazardRandom = root.fork('hazards');
  const reporters = plannedThings.filter(
    (t) => t.org !== 'capmetro' && (t.type === 'maintenance' || t.type === 'police' || t.type === 'tow'),
  );
  const hazardCount = clamp(Math.round(input.assets / 30), HAZARD_TYPES.length * HAZARD_SEVERITIES.length, 80);
  const hazardRows: Insert<typeof hazards>[] = [];
  for (let i = 0; i < hazardCount; i++) {
    // Every type × severity pair at least once, then at random.
    const combo = i < HAZARD_TYPES.length * HAZARD_SEVERITIES.length;
    const hazardType = combo ? (HAZARD_TYPES[Math.floor(i / HAZARD_SEVERITIES.length)] as string) : hazardRandom.pick(HAZARD_TYPES);
    const severity = combo
      ? (HAZARD_SEVERITIES[i % HAZARD_SEVERITIES.length] as (typeof HAZARD_SEVERITIES)[number])
      : hazardRandom.pick(HAZARD_SEVERITIES);
    const reporter = reporters.length > 0 && hazardRandom.chance(0.9) ? hazardRandom.pick(reporters) : null;
    const p = randomRoadPosition(net, hazardRandom, true);
    hazardRows.push({
      id: hazardRandom.uuid(),
      organizationId: reporter?.row.organizationId ?? orgIds.publicWorks,
      thingId: reporter?.row.id ?? null,
      hazardType,
      severity,
      lat: truncateCoordinate(p.lat),
      lng: truncateCoordinate(p.lng),
      reportedAt: ago(hazardRandom.range(5 * MINUTE_MS, TRIP_HISTORY_MS)),
    });
  }

  // ── alerting zones ──
  const zoneRandom = root.fork('zones');
  const zoneRows: Insert<typeof alertingZones>[] = [];
  const zoneThingRows: Insert<typeof alertingZoneThings>[] = [];
  const zone = (
    org: DemoOrgKey,
    externalId: string,
    typeName: string,
    description: string,
    alertMessage: string,
    isActive: boolean,
    features: unknown[],
    members: PlannedThing[],
  ): void => {
    const id = zoneRandom.uuid();
    zoneRows.push({
      id,
      organizationId: orgIds[org],
      externalId,
      typeName,
      description,
      alertMessage,
      isActive,
      features,
      defaultExpiry: 3600,
      createdAt: ago(30 * DAY_MS),
      updatedAt: now,
    });
    for (const t of members) zoneThingRows.push({ zoneId: id, thingId: t.row.id });
  };
  const polygonFeature = (c: LatLng, halfNorthM: number, halfEastM: number) =>
    toGeoJsonFeature({
      kind: 'polygon',
      ring: [
        offsetMetres(c, -halfNorthM, -halfEastM),
        offsetMetres(c, -halfNorthM, halfEastM),
        offsetMetres(c, halfNorthM, halfEastM),
        offsetMetres(c, halfNorthM, -halfEastM),
      ].map((p) => ({
        lat: truncateCoordinate(p.lat),
        lng: truncateCoordinate(p.lng),
      })),
    });
  const members = (org: DemoOrgKey, types: readonly AssetType[], n: number): PlannedThing[] =>
    zoneRandom.sample(
      plannedThings.filter((t) => t.org === org && types.includes(t.type) && t.row.inService !== false),
      n,
    );
  const ih35 = streetByName(net, 'IH-35 Frontage Rd', 'arterial');
  const ih35Section = streetSection(ih35, 10, 4).path;
  zone(
    'police',
    'AZ-APD-001',
    'School Zone',
    'Austin High School zone',
    'School zone: 20 mph',
    true,
    [polygonFeature(nodePosition(net, net.gridNode(8, 6)), 250, 300)],
    members('police', ['police'], 3),
  );
  zone(
    'regional',
    'AZ-TCR-002',
    'Special Event',
    'Zilker Park festival traffic',
    'Event traffic ahead',
    false,
    [
      polygonFeature(nodePosition(net, net.gridNode(7, 4)), 500, 450),
      toGeoJsonFeature({ kind: 'circle', center: nodePosition(net, net.gridNode(7, 5)), radius: 300 }),
    ],
    members('ems', ['ambulance'], 2),
  );
  zone(
    'txdot',
    'AZ-TXD-001',
    'Work Zone',
    'IH-35 Capital Express Central',
    'Work zone: merge left',
    true,
    [
      toGeoJsonFeature({
        kind: 'line',
        path: ih35Section.map((p) => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) })),
      }),
      polygonFeature(nodePosition(net, net.gridNode(11, 14)), 900, 120),
    ],
    members('txdot', ['arrow_board', 'maintenance'], 4),
  );
  zone(
    'txdot',
    'AZ-TXD-002',
    'Incident Zone',
    'Loop 360 incident management',
    'Incident ahead',
    false,
    [toGeoJsonFeature({ kind: 'circle', center: nodePosition(net, streetByName(net, RING_HIGHWAY_NAME).nodeIds[9] ?? 0), radius: 800 })],
    [],
  );

  // ── data: monthly reports and exports, queued for the job runner ──
  const dataRandom = root.fork('data');
  const jobRows: Insert<typeof jobs>[] = [];
  for (const org of ['regional', 'txdot'] as const) {
    for (const { year, month } of previousMonths(now, CITY.timezone, 3)) {
      jobRows.push({
        id: dataRandom.uuid(),
        kind: 'monthly_report',
        payload: { organizationId: orgIds[org], year, month },
        runAt: now,
        createdAt: now,
      });
    }
  }
  const adminId = userIds.get('admin@lightbar.demo') as string;
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  const yesterday = startOfUtcDay(nowMs) - DAY_MS;
  const someThings = (types: readonly AssetType[], n: number): string[] =>
    dataRandom
      .sample(
        plannedThings.filter((t) => t.org !== 'txdot' && t.org !== 'capmetro' && types.includes(t.type)),
        n,
      )
      .map((t) => t.row.id);
  const exportRow = (
    values: Partial<Insert<typeof exports>> & Pick<Insert<typeof exports>, 'exportType' | 'title'>,
  ): Insert<typeof exports> => ({
    id: dataRandom.uuid(),
    organizationId: orgIds.regional,
    requestedBy: adminId,
    exportStartTime: at(yesterday),
    exportEndTime: at(yesterday + DAY_MS),
    useUtc: true,
    ...values,
  });
  const exportRows: Insert<typeof exports>[] = [
    exportRow({
      exportType: 'incident',
      title: `Incident Export ${day(yesterday)}`,
      requestedAt: ago(3 * MINUTE_MS),
      status: 'requested',
      options: { thing_uuids: [], include_no_thing_il: true },
    }),
    exportRow({
      exportType: 'thing',
      title: `Asset Export ${day(nowMs)}`,
      exportStartTime: null,
      exportEndTime: null,
      requestedAt: ago(2 * MINUTE_MS),
      status: 'requested',
      options: { thing_uuids: someThings(['police', 'fire', 'ambulance'], 25) },
    }),
    exportRow({
      exportType: 'point',
      title: `Point Export ${day(yesterday - DAY_MS)}`,
      exportStartTime: at(yesterday - DAY_MS),
      exportEndTime: at(yesterday),
      requestedAt: ago(26 * HOUR_MS),
      completedAt: ago(26 * HOUR_MS - 4 * MINUTE_MS),
      status: 'errored',
      error: 'The export took longer than its time limit and was stopped.',
      options: { thing_uuids: someThings(['police'], 5) },
    }),
    exportRow({
      exportType: 'closure',
      title: `Closure Export ${day(yesterday)}`,
      requestedAt: ago(MINUTE_MS),
      status: 'in_progress',
      options: { thing_uuids: [], closures_to_include: ['manual', 'feed'] },
    }),
  ];
  for (const row of exportRows) {
    if (row.status === 'requested')
      jobRows.push({ id: dataRandom.uuid(), kind: 'export', payload: { exportId: row.id }, runAt: now, createdAt: now });
    // Still working for ten more minutes: the In-Progress tab has something in it.
    if (row.status === 'in_progress')
      jobRows.push({
        id: dataRandom.uuid(),
        kind: 'export',
        payload: { exportId: row.id },
        runAt: at(nowMs + 10 * MINUTE_MS),
        createdAt: now,
      });
  }

  return {
    organizations: organizationRows,
    organizationRelationships: organizationRelationshipRows,
    users: userRows,
    integrationConfigurations: integrationRows,
    areas: areaRows,
    things: plannedThings.map((t) => t.row),
    thingExternalIdentifiers: externalIdentifierRows,
    thingRelationships: thingRelationshipRows,
    locations: locationRows,
    locationThings: locationThingRows,
    closures: closureRows,
    alertingZones: zoneRows,
    alertingZoneThings: zoneThingRows,
    runs: runRows,
    points: pointRows,
    hazards: hazardRows,
    r2rAlerts: r2rRows,
    exports: exportRows,
    jobs: jobRows,
    accounts,
  };
}

// ── helpers of the plan ──────────────────────────────────────────────────────

const INCIDENT_KINDS: readonly { name: string; types: readonly AssetType[]; alert: string }[] = [
  { name: 'Structure fire', types: ['fire', 'fire', 'ambulance', 'police'], alert: 'Fire apparatus ahead' },
  { name: 'Vehicle collision', types: ['police', 'ambulance', 'fire'], alert: 'Crash ahead: move over' },
  { name: 'Medical emergency', types: ['ambulance', 'fire'], alert: 'EMS on scene' },
  { name: 'Traffic stop', types: ['police'], alert: 'Police ahead: move over' },
  { name: 'Hazardous materials spill', types: ['fire', 'fire', 'police'], alert: 'Hazmat scene: avoid area' },
  { name: 'Disabled vehicle', types: ['police'], alert: 'Stopped vehicle ahead' },
  { name: 'Gas leak', types: ['fire', 'police'], alert: 'Emergency crews ahead' },
];

/** Integer counts per key, proportional to the shares, summing to `total` (largest remainders). */
function splitCounts<K extends string>(total: number, shares: Readonly<Record<K, number>>): Record<K, number> {
  const keys = Object.keys(shares) as K[];
  const sum = keys.reduce((acc, k) => acc + shares[k], 0);
  const exact = keys.map((k) => (total * shares[k]) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((v, i) => [v - Math.floor(v), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    left -= 1;
  }
  return Object.fromEntries(keys.map((k, i) => [k, counts[i] ?? 0])) as Record<K, number>;
}

/**
 * Generated coordinates kept to 7 decimals (part 2 §9's precision). Rounded arithmetically: the
 * string-exact truncation of the domain is for what users type, and too slow for 100k points.
 */
function truncateCoordinate(value: number): number {
  return Math.round(value * 1e7) / 1e7;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function vin(random: Random, type: AssetType): string {
  let body = '';
  for (let i = 0; i < 14; i++) body += VIN_CHARS[random.int(0, VIN_CHARS.length - 1)];
  return `${random.pick(VIN_WMI[type])}${body}`;
}

function plate(random: Random): string {
  let letters = '';
  for (let i = 0; i < 3; i++) letters += PLATE_LETTERS[random.int(0, PLATE_LETTERS.length - 1)];
  return `${letters}-${random.int(1000, 9999)}`;
}

/**
 * Position, heartbeat and motion of an asset by its starting state. The status rule reads these
 * facts: an enroute asset with a recent heartbeat is active; a recent one without a street is
 * standby, with a street (set after 10 still minutes) stationary; 8 h to 96 h of silence is
 * pending; more is offline.
 */
function placeThing(
  t: PlannedThing,
  random: Random,
  net: RoadNetwork,
  nowMs: number,
  stations: readonly { id: string; position: LatLng }[],
): void {
  const ago = (ms: number): Date => new Date(nowMs - ms);
  let state = t.state;
  if (state === 'standby' && stations.length > 0 && random.chance(0.5)) state = 'station';
  t.state = state;
  const road: RoadPosition = randomRoadPosition(net, random, true);
  const base = {
    lat: truncateCoordinate(road.lat),
    lng: truncateCoordinate(road.lng),
    course: Math.round(road.course),
    speed: 0,
    enroute: false,
    lightsOn: false,
    street: null as string | null,
    stillSince: null as Date | null,
    stationId: null as string | null,
    inService: true,
  };
  switch (state) {
    case 'active':
      Object.assign(t.row, base, {
        enroute: true,
        lightsOn: true,
        speed: Math.round(random.range(0.5, 0.95) * road.speedLimitMph),
        heartbeatAt: ago(random.range(1, 20) * SECOND_MS),
      });
      break;
    case 'station': {
      const station = random.pick(stations);
      const spot = offsetMetres(station.position, random.range(-20, 20), random.range(-20, 20));
      Object.assign(t.row, base, {
        lat: truncateCoordinate(spot.lat),
        lng: truncateCoordinate(spot.lng),
        stationId: station.id,
        heartbeatAt: ago(random.range(1, 180) * SECOND_MS),
      });
      break;
    }
    case 'standby':
      Object.assign(t.row, base, { stillSince: ago(random.range(0.5, 9) * MINUTE_MS), heartbeatAt: ago(random.range(1, 180) * SECOND_MS) });
      break;
    case 'stationary':
      Object.assign(t.row, base, {
        street: road.street,
        stillSince: ago(random.range(12, 240) * MINUTE_MS),
        heartbeatAt: ago(random.range(1, 120) * SECOND_MS),
      });
      break;
    case 'pending': {
      const heartbeat = random.range(8.5, 90) * HOUR_MS;
      Object.assign(t.row, base, {
        street: random.chance(0.5) ? road.street : null,
        stillSince: ago(heartbeat + random.range(1, 120) * MINUTE_MS),
        heartbeatAt: ago(heartbeat),
      });
      break;
    }
    case 'offline': {
      const heartbeat = random.range(100, 40 * 24) * HOUR_MS;
      Object.assign(t.row, base, { stillSince: ago(heartbeat + random.range(1, 120) * MINUTE_MS), heartbeatAt: ago(heartbeat) });
      break;
    }
    case 'oos': {
      const heartbeat = random.chance(0.5) ? random.range(1, 120) * SECOND_MS : random.range(1, 20 * 24) * HOUR_MS;
      Object.assign(t.row, base, { inService: false, stillSince: ago(heartbeat + HOUR_MS), heartbeatAt: ago(heartbeat) });
      break;
    }
    case 'location':
    case 'closure':
      // Set where the incident or closure is planned.
      break;
  }
  // A few quiet assets have alerting switched off; it turns back on within the hour.
  if (t.row.inService !== false && !t.row.lightsOn && random.chance(0.03)) {
    t.row.isPubliclyAlerting = false;
    t.row.alertingOffAt = ago(random.range(5, 50) * MINUTE_MS);
  }
  if (t.row.isAllowedForTestMode && random.chance(0.05)) t.row.isTestModeOn = true;
}

function incidentScene(net: RoadNetwork, random: Random): { position: LatLng; street: string; heading: number } {
  const row = random.int(1, net.gridSize - 2);
  const col = random.int(1, net.gridSize - 2);
  const nodeId = net.gridNode(row, col);
  const edgeId = random.pick(net.adjacency[nodeId] ?? [0]);
  const edge = edgeOf(net, edgeId);
  const p = positionOnEdge(net, edgeId, random.range(0.02, 0.12), edge.to === nodeId);
  return {
    position: { lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) },
    street: intersectionName(net, nodeId),
    heading: p.course,
  };
}

interface RouteSpec {
  street: string;
  /** Index of the first intersection along the street. */
  start: number;
  /** Blocks covered. */
  blocks: number;
}

/**
 * A closure's routes along a street: the user's route is the intersections (and block
 * midpoints) as drawn; the geocoded route follows the road every 40 m.
 */
function closureRoute(net: RoadNetwork, spec: RouteSpec): { street: string; userRoute: LatLng[]; geocodedRoute: LatLng[] } {
  const street = net.streets.find((s) => s.name === spec.street && s.kind !== 'ramp') ?? streetByName(net, spec.street);
  const section = streetSection(street, spec.start, spec.blocks + 1).path;
  const trunc = (p: LatLng): LatLng => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) });
  const user: LatLng[] = [];
  section.forEach((p, i) => {
    const prev = section[i - 1];
    if (prev) user.push({ lat: (prev.lat + p.lat) / 2, lng: (prev.lng + p.lng) / 2 });
    user.push(p);
  });
  return { street: street.name, userRoute: user.map(trunc), geocodedRoute: densify(section, 40).map(trunc) };
}

/**
 * Drives from a random grid node to another 2-8 km away along the fastest roads, one sample
 * every 10 s, at most `maxSamples` and never past `endMs`.
 */
function driveSomewhere(
  net: RoadNetwork,
  random: Random,
  startMs: number,
  maxSamples: number,
  endMs = Infinity,
): ReturnType<typeof drivePath> {
  const pick = (): number => net.gridNode(random.int(0, net.gridSize - 1), random.int(0, net.gridSize - 1));
  const from = pick();
  let to = pick();
  for (
    let tries = 0;
    tries < 20 &&
    (to === from ||
      Math.abs((to % net.gridSize) - (from % net.gridSize)) + Math.abs(Math.floor(to / net.gridSize) - Math.floor(from / net.gridSize)) <
        4);
    tries++
  )
    to = pick();
  const path = shortestPath(net, from, to);
  const limit = Number.isFinite(endMs) ? Math.min(maxSamples, Math.floor((endMs - startMs) / TRIP_SAMPLE_MS) + 1) : maxSamples;
  return drivePath(net, path, {
    startMs,
    intervalMs: TRIP_SAMPLE_MS,
    speedFactor: random.range(0.6, 0.95),
    maxSamples: Math.max(0, limit),
  });
}

/** The `count` calendar months before the current one, in a time zone, newest first. */
function previousMonths(now: Date, timeZone: string, n: number): { year: number; month: number }[] {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric' }).formatToParts(now);
  const year = Number(parts.find((p) => p.type === 'year')?.value);
  const month = Number(parts.find((p) => p.type === 'month')?.value);
  const out: { year: number; month: number }[] = [];
  for (let i = 1; i <= n; i++) {
    const index = year * 12 + (month - 1) - i;
    out.push({ year: Math.floor(index / 12), month: (index % 12) + 1 });
  }
  return out;
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

function startOfNextHour(ms: number): number {
  return Math.ceil(ms / HOUR_MS) * HOUR_MS;
}

// ── status check, shared by the seed's test and the log ─────────────────────

/**
 * The displayed status of each planned or stored asset at `now`, computed with the domain's own
 * rule from the same facts the server sends (heartbeat, enroute, street, incident, active
 * automated closures, in service).
 */
export function demoStatuses(
  thingRows: readonly Pick<Insert<typeof things>, 'id' | 'heartbeatAt' | 'enroute' | 'street' | 'locationId' | 'inService'>[],
  closureRows: readonly Pick<Insert<typeof closures>, 'id' | 'closureType' | 'isActive' | 'thingId'>[],
  nowMs: number,
): Map<string, AssetStatus> {
  const active = new Map<string, string[]>();
  for (const c of closureRows) {
    if (c.closureType === 'automated' && c.isActive && c.thingId) active.set(c.thingId, [...(active.get(c.thingId) ?? []), c.id ?? '']);
  }
  const out = new Map<string, AssetStatus>();
  for (const t of thingRows) {
    const status = computeAssetStatus(
      {
        heartbeatTime: t.heartbeatAt ? t.heartbeatAt.getTime() : null,
        enroute: t.enroute ?? false,
        street: t.street ?? null,
        isOnIncident: Boolean(t.locationId),
        activeClosures: active.get(t.id ?? '') ?? [],
      },
      nowMs,
    );
    out.set(t.id ?? '', displayStatus(status, t.inService ?? true));
  }
  return out;
}
