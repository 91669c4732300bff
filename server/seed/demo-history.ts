/**
 * The demo's past: two days of trips with their points and R2R alerts, a few R2R test alerts,
 * hazards reported along the roads, and the monthly reports and exports queued for the job runner.
 */
import {
  DAY_MS,
  HAZARD_SEVERITIES,
  HAZARD_TYPES,
  HOUR_MS,
  MINUTE_MS,
  R2R_ALERT_DISTANCE_M,
  R2R_CAPABLE_TYPES,
  SECOND_MS,
  type AssetType,
} from '../../src/domain/constants';
import type { exports, hazards, jobs, points, r2rAlerts, runs } from '../db/schema';
import { CITY, drivePath, randomRoadPosition, shortestPath, type RoadNetwork } from '../region/geography';
import type { Random } from '../region/random';
import { at, clamp, truncateCoordinate, type Insert, type OrgIds, type PlanContext } from './demo-context';
import type { PlannedThing } from './demo-fleet';

const TRIP_SAMPLE_MS = 10 * SECOND_MS;
const TRIP_HISTORY_MS = 2 * DAY_MS;
const MAX_TRIP_ASSETS = 50;

export interface DemoTrips {
  runs: Insert<typeof runs>[];
  points: Insert<typeof points>[];
  r2rAlerts: Insert<typeof r2rAlerts>[];
}

/** Past trips and their R2R alerts, for up to MAX_TRIP_ASSETS recent assets, responders first. */
export function planTrips(ctx: PlanContext, tripRandom: Random, plannedThings: readonly PlannedThing[]): DemoTrips {
  const { input } = ctx;
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
  const trips: DemoTrips = { runs: [], points: [], r2rAlerts: [] };
  for (const t of [...tripEmergency, ...tripOthers]) planAssetTrips(ctx, tripRandom, t, r2rPeers, trips);
  trips.r2rAlerts.push(...planR2rTestAlerts(ctx, tripRandom, plannedThings));
  return trips;
}

/** Two to four runs of one asset over the two days, and its run now when it is active. */
function planAssetTrips(ctx: PlanContext, tripRandom: Random, t: PlannedThing, r2rPeers: readonly PlannedThing[], trips: DemoTrips): void {
  const { net, nowMs } = ctx;
  const { runs: runRows, points: pointRows, r2rAlerts: r2rRows } = trips;
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

/** R2R test alerts (the asset panel's 'R2R test alert' action), on assets allowed for test mode. */
function planR2rTestAlerts(ctx: PlanContext, tripRandom: Random, plannedThings: readonly PlannedThing[]): Insert<typeof r2rAlerts>[] {
  const { ago } = ctx;
  const r2rRows: Insert<typeof r2rAlerts>[] = [];
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
  return r2rRows;
}

/** Hazards along the roads, reported by the assets that patrol them. */
export function planHazards(
  ctx: PlanContext,
  hazardRandom: Random,
  orgIds: OrgIds,
  plannedThings: readonly PlannedThing[],
): Insert<typeof hazards>[] {
  const { input, net, ago } = ctx;
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
  return hazardRows;
}

export interface DemoQueuedData {
  exports: Insert<typeof exports>[];
  jobs: Insert<typeof jobs>[];
}

/** Data: monthly reports and exports, queued for the job runner; the admin requested the exports. */
export function planReportsAndExports(
  ctx: PlanContext,
  dataRandom: Random,
  orgIds: OrgIds,
  adminId: string,
  plannedThings: readonly PlannedThing[],
): DemoQueuedData {
  const reportJobs = planMonthlyReports(ctx, dataRandom, orgIds);
  const queued = planExports(ctx, dataRandom, orgIds, adminId, plannedThings);
  return { exports: queued.exports, jobs: [...reportJobs, ...queued.jobs] };
}

/** The last three months' reports of the regional organization and TxDOT. */
function planMonthlyReports(ctx: PlanContext, dataRandom: Random, orgIds: OrgIds): Insert<typeof jobs>[] {
  const { now } = ctx;
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
  return jobRows;
}

/** Exports in every state the Exports page shows, with the jobs of those still to run. */
function planExports(
  ctx: PlanContext,
  dataRandom: Random,
  orgIds: OrgIds,
  adminId: string,
  plannedThings: readonly PlannedThing[],
): DemoQueuedData {
  const { now, nowMs, ago } = ctx;
  const jobRows: Insert<typeof jobs>[] = [];
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
  return { exports: exportRows, jobs: jobRows };
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
