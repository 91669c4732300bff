import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { CoverageWire, TripRunWire } from '../../../src/domain/trip';
import { thingVisibleSql, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { organizations, points, runs, things } from '../../db/schema';

/**
 * The trips calls' reads and their wire objects (`tripWireSchema`, `coverageWireSchema` of
 * src/domain/trip.ts). A trip answer holds the runs that have points of the asset in the range,
 * each with those points in time order. Points recorded outside any run are not part of a trip.
 * run_duration is in seconds; a run still going counts up to now.
 */

const visibleOrgsOf = (scope: OrgScope): string[] | null => (scope.visibleOrgIds === null ? null : [...scope.visibleOrgIds]);

/** An asset a trips or R2R call names, with its organization's time zone. */
export interface VisibleThing {
  id: string;
  haasId: string;
  nickname: string | null;
  timezone: string;
}

/** The visible, live asset with its organization's time zone, or undefined. */
export async function findVisibleThing(db: Db, scope: OrgScope, id: string): Promise<VisibleThing | undefined> {
  const [thing] = await db
    .select({ id: things.id, haasId: things.haasId, nickname: things.nickname, timezone: organizations.timezone })
    .from(things)
    .innerJoin(organizations, eq(organizations.id, things.organizationId))
    .where(and(eq(things.id, id), isNull(things.deletedAt), thingVisibleSql(scope, visibleOrgsOf(scope))))
    .limit(1);
  return thing;
}

/** The runs of an asset that have points in [startTime, endTime], each with those points in time order. */
export async function listTripRuns(db: Db, thingId: string, startTime: number, endTime: number, now: number): Promise<TripRunWire[]> {
  const found = await db
    .select({
      runId: points.runId,
      lat: points.lat,
      lng: points.lng,
      course: points.course,
      speed: points.speed,
      timestamp: points.timestamp,
    })
    .from(points)
    .where(
      and(
        eq(points.thingId, thingId),
        gte(points.timestamp, new Date(startTime)),
        lte(points.timestamp, new Date(endTime)),
        sql`${points.runId} is not null`,
      ),
    )
    .orderBy(asc(points.timestamp), asc(points.id));
  const byRun = new Map<string, TripRunWire['points']>();
  for (const point of found) {
    const list = byRun.get(point.runId!) ?? [];
    list.push({ lat: point.lat, lng: point.lng, course: point.course, speed: point.speed, timestamp: point.timestamp.toISOString() });
    byRun.set(point.runId!, list);
  }
  if (byRun.size === 0) return [];
  const runRows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.thingId, thingId), inArray(runs.id, [...byRun.keys()])))
    .orderBy(asc(runs.runStart), asc(runs.id));
  return runRows.map((run) => ({
    run_id: run.id,
    run_start: run.runStart.toISOString(),
    run_end: run.runEnd?.toISOString() ?? null,
    run_duration: Math.max(0, Math.round(((run.runEnd?.getTime() ?? now) - run.runStart.getTime()) / 1000)),
    is_active: run.isActive,
    points: byRun.get(run.id) ?? [],
  }));
}

/**
 * For each asset of `ids` the scope sees (live), in the order of `ids`: the time span of its
 * recorded points and its run count. Unknown and invisible assets are left out: the answer never
 * confirms they exist.
 */
export async function listCoverage(db: Db, scope: OrgScope, ids: readonly string[]): Promise<CoverageWire[]> {
  const visible = await db
    .select({ id: things.id })
    .from(things)
    .where(and(inArray(things.id, [...ids]), isNull(things.deletedAt), thingVisibleSql(scope, visibleOrgsOf(scope))));
  const visibleIds = new Set(visible.map((row) => row.id));
  if (visibleIds.size === 0) return [];
  const spans = await db
    .select({
      thingId: points.thingId,
      first: sql<string | Date | null>`min(${points.timestamp})`,
      last: sql<string | Date | null>`max(${points.timestamp})`,
      runCount: sql<number>`count(distinct ${points.runId})::int`,
    })
    .from(points)
    .where(inArray(points.thingId, [...visibleIds]))
    .groupBy(points.thingId);
  const byThing = new Map(spans.map((span) => [span.thingId, span]));
  const toIso = (value: string | Date | null | undefined): string | null => (value == null ? null : new Date(value).toISOString());
  return ids
    .filter((id) => visibleIds.has(id))
    .map((id) => {
      const span = byThing.get(id);
      return { thing_id: id, first_point_at: toIso(span?.first), last_point_at: toIso(span?.last), run_count: span?.runCount ?? 0 };
    });
}
