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
 * transaction with multi-row inserts, only when the database has no organization yet. The parts of
 * the plan live beside this file, one file per part of the demo: demo-organizations.ts,
 * demo-fleet.ts, demo-map-objects.ts, demo-incidents.ts, demo-closures.ts, demo-history.ts, with
 * what they share in demo-context.ts.
 */
import { count, sql } from 'drizzle-orm';
import { computeAssetStatus, displayStatus, type AssetStatus } from '../../src/domain/asset-status';
import { ASSET_TYPES, type AssetType } from '../../src/domain/constants';
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
import { austinRoadNetwork } from '../region/geography';
import { createRandom, DEFAULT_SIM_SEED } from '../region/random';
import type { DemoReferences, Insert, PlanContext, PlanInput } from './demo-context';
import { planClosures } from './demo-closures';
import { assignStates, placeFleet, planFleet, planIntegrations, planShares } from './demo-fleet';
import { planHazards, planReportsAndExports, planTrips } from './demo-history';
import { planIncidents } from './demo-incidents';
import { planAlertingZones, planAreas } from './demo-map-objects';
import { planOrganizations, planUsers, type DemoAccount } from './demo-organizations';

export { DEMO_ORGS, type DemoOrgKey, type DemoReferences } from './demo-context';
export type { DemoAccount } from './demo-organizations';

// ── public shapes ────────────────────────────────────────────────────────────

/** One password for every demo account; it meets the password rules of part 1 §5. */
export const DEMO_PASSWORD = 'Lightbar#2026';
/** `SIM_ASSETS` default. */
export const DEFAULT_DEMO_ASSETS = 2_000;

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

/** An arbitrary constant: one seeding (demo or first administrator) at a time across processes sharing a Postgres. */
export const SEED_LOCK_KEY = 73_402_026;

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

/** Whether the database has any organization (a seeding runs only on an empty one). */
export async function hasOrganizations(db: Executor): Promise<boolean> {
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
 * The whole demo, part by part. Each part draws from its own fork of the seed; they run in this
 * order because the later ones move the assets the earlier ones placed (incidents, closures, trips).
 */
export function planDemo(refs: DemoReferences, input: PlanInput): DemoPlan {
  const nowMs = input.now.getTime();
  const ctx: PlanContext = { refs, input, now: input.now, nowMs, net: austinRoadNetwork(), ago: (ms) => new Date(nowMs - ms) };
  const root = createRandom(input.seed);
  const orgs = planOrganizations(ctx, root.fork('organizations'));
  const { orgIds } = orgs;
  const people = planUsers(ctx, root.fork('users'), orgIds);
  const plannedThings = planFleet(ctx, root.fork('things'), orgIds);
  assignStates(root.fork('states'), plannedThings);
  const areaPlan = planAreas(ctx, root.fork('areas'), orgIds, plannedThings);
  placeFleet(ctx, root.fork('live'), plannedThings, areaPlan.stationsByOrg);
  const incidents = planIncidents(ctx, root.fork('locations'), plannedThings);
  const closureRows = planClosures(ctx, root.fork('closures'), orgIds, plannedThings);
  const shareRandom = root.fork('shares');
  const thingRelationshipRows = planShares(shareRandom, orgIds, plannedThings);
  const integrations = planIntegrations(ctx, shareRandom, orgIds, plannedThings);
  const trips = planTrips(ctx, root.fork('trips'), plannedThings);
  const hazardRows = planHazards(ctx, root.fork('hazards'), orgIds, plannedThings);
  const zones = planAlertingZones(ctx, root.fork('zones'), orgIds, plannedThings);
  const adminId = people.userIds.get('admin@lightbar.demo') as string;
  const queued = planReportsAndExports(ctx, root.fork('data'), orgIds, adminId, plannedThings);
  return {
    organizations: orgs.organizations,
    organizationRelationships: orgs.organizationRelationships,
    users: people.users,
    integrationConfigurations: integrations.integrationConfigurations,
    areas: areaPlan.areas,
    things: plannedThings.map((t) => t.row),
    thingExternalIdentifiers: integrations.thingExternalIdentifiers,
    thingRelationships: thingRelationshipRows,
    locations: incidents.locations,
    locationThings: incidents.locationThings,
    closures: closureRows,
    alertingZones: zones.alertingZones,
    alertingZoneThings: zones.alertingZoneThings,
    runs: trips.runs,
    points: trips.points,
    hazards: hazardRows,
    r2rAlerts: trips.r2rAlerts,
    exports: queued.exports,
    jobs: queued.jobs,
    accounts: people.accounts,
  };
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
