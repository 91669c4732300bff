import { TZDate } from '@date-fns/tz';
import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DAY_MS } from '../../src/domain/constants';
import { section, type Permission } from '../../src/domain/permissions';
import { coverageWireSchema, tripWireSchema, type CoverageWire, type TripRunWire, type TripWire } from '../../src/domain/trip';
import { inputDate } from '../../src/domain/validation/boundary';
import { MESSAGES } from '../../src/domain/validation/messages';
import { tripsFormSchema } from '../../src/domain/validation/reports';
import type { Caller } from '../auth/context';
import { thingVisibleSql } from '../auth/scope';
import type { Db } from '../db/connection';
import { organizations, points, runs, things } from '../db/schema';
import type { ServerDeps } from '../deps';
import { errorAnswer, notFound, parse, parseForm, unprocessable } from '../core/errors';
import { listParam, listValues, sinceParam, timeValue } from './query';
import { documentedObject } from './route-validation';

/**
 * Trips (part 2 §2 Trips, §3 Trip, §5 "Trips and date-range reports", §7 GET things/{thingId}/trips
 * and GET things/coverage, §8 Trips 404 'Asset not found').
 *
 * A trip answer holds the runs that have points of the asset in the range, each with those points
 * in time order (`tripWireSchema` of src/domain/trip.ts). Points recorded outside any run are not
 * part of a trip. run_duration is in seconds; a run still going counts up to now.
 *
 * The range: `start_time` and `end_time` (ISO or epoch), checked by the domain's trips rules (in
 * the past, different, end after start, at most 24 h); or `run_date=YYYY-MM-DD` alone, the whole
 * day in the asset organization's time zone (today: up to now).
 */

const TRIP_VIEW: readonly Permission[] = section('trips').anyOf;
/** Assets per coverage call: a page of the asset list. */
const COVERAGE_THINGS_MAX = 500;

const RANGE_WIRE_NAMES = { thingIds: 'thing_id', startTime: 'start_time', endTime: 'end_time' } as const;

/** A day of the calendar (2026-02-30 is refused, not read as 2 March) within the input range. */
const runDateParam = inputDate('must be a date YYYY-MM-DD');

/** A thing id from a path or query: a malformed one is a 422 naming the field. */
function thingIdParam(value: unknown, field: string): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw unprocessable(`${field}: must be a uuid`);
  return parsed.data;
}

/** The visible, live asset with its organization's time zone, or 404 'Asset not found'. */
export async function visibleThing(db: Db, caller: Caller, id: string) {
  const visibleOrgs = caller.scope.visibleOrgIds === null ? null : [...caller.scope.visibleOrgIds];
  const [thing] = await db
    .select({ id: things.id, haasId: things.haasId, nickname: things.nickname, timezone: organizations.timezone })
    .from(things)
    .innerJoin(organizations, eq(organizations.id, things.organizationId))
    .where(and(eq(things.id, id), isNull(things.deletedAt), thingVisibleSql(caller.scope, visibleOrgs)))
    .limit(1);
  if (!thing) throw notFound('Asset');
  return thing;
}

/** The asked range in ms, from start/end or from run_date (see the file comment). */
function askedRange(query: unknown, timezone: string, now: number): { startTime: number | null; endTime: number | null } {
  const start = sinceParam(query, 'start_time');
  const end = sinceParam(query, 'end_time');
  const runDate = ((query ?? {}) as Record<string, unknown>)['run_date'];
  if (start || end || runDate === undefined || runDate === '') {
    return { startTime: start?.getTime() ?? null, endTime: end?.getTime() ?? null };
  }
  const day = parse(z.object({ run_date: runDateParam }), { run_date: runDate }).run_date;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const dayStart = new TZDate(year, month - 1, date, timezone).getTime();
  return { startTime: dayStart, endTime: Math.min(dayStart + DAY_MS, now) };
}

async function tripRuns(db: Db, thingId: string, startTime: number, endTime: number, now: number): Promise<TripRunWire[]> {
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

export { coverageWireSchema };
export type { CoverageWire };

/** part 2 §7: GET /things/{thingId}/trips and GET /things/coverage. */
export function tripRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/things/:thingId/trips',
    // The query (start_time, end_time or run_date) is read after the asset is found, by the domain's
    // trips rules: documented only, so no 404 turns into a 422.
    {
      config: { access: TRIP_VIEW },
      schema: {
        summary: "An asset's trips in a time range or on a day: its runs with their points",
        params: z.object({ thingId: z.string() }),
        querystring: documentedObject({
          start_time: timeValue(
            'The start of the range (with end_time; or run_date alone): in the past, at most 24 hours before end_time.',
          ),
          end_time: timeValue('The end of the range: in the past, after start_time.'),
          run_date: z.string().optional().meta({
            description:
              "Without start_time and end_time: the whole day YYYY-MM-DD in the asset organization's time zone (today: up to now); not a calendar day in range: 422.",
          }),
        }),
        response: { 200: tripWireSchema, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request): Promise<TripWire> => {
      const { caller } = request;
      const thingId = thingIdParam(request.params.thingId, 'thingId');
      const thing = await visibleThing(db, caller, thingId);
      const now = deps.now().getTime();
      const range = askedRange(request.query, thing.timezone, now);
      parseForm(tripsFormSchema({ now }), { thingIds: [thing.id], ...range }, RANGE_WIRE_NAMES);
      const startTime = range.startTime!;
      const endTime = range.endTime!;
      return {
        thing_id: thing.id,
        start_time: new Date(startTime).toISOString(),
        end_time: new Date(endTime).toISOString(),
        runs: await tripRuns(db, thing.id, startTime, endTime, now),
      };
    },
  );

  // thing_ids[] is read by the shared list helper, whose messages the 422s carry: documented only.
  api.get(
    '/things/coverage',
    {
      config: { access: TRIP_VIEW },
      schema: {
        summary: 'For each asset asked, the time span of its recorded points and its run count',
        querystring: documentedObject({
          'thing_ids[]': listValues(
            `The assets, each a uuid: at least one, at most ${COVERAGE_THINGS_MAX} (else 422); unknown ones and those the caller cannot see are left out of the answer.`,
            z.uuid(),
          ),
        }),
        response: { 200: z.array(coverageWireSchema), 422: errorAnswer },
      },
    },
    async (request): Promise<CoverageWire[]> => {
      const { caller } = request;
      const requested = [...new Set(listParam(request.query, 'thing_ids'))];
      if (requested.length === 0) throw unprocessable(`thing_ids: ${MESSAGES.assetsMin}`);
      if (requested.length > COVERAGE_THINGS_MAX) throw unprocessable(`thing_ids: at most ${COVERAGE_THINGS_MAX} assets`);
      const ids = requested.map((id) => thingIdParam(id, 'thing_ids'));
      const visibleOrgs = caller.scope.visibleOrgIds === null ? null : [...caller.scope.visibleOrgIds];
      const visible = await db
        .select({ id: things.id })
        .from(things)
        .where(and(inArray(things.id, ids), isNull(things.deletedAt), thingVisibleSql(caller.scope, visibleOrgs)));
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
      // Unknown and invisible assets are left out: the answer never confirms they exist.
      return ids
        .filter((id) => visibleIds.has(id))
        .map((id) => {
          const span = byThing.get(id);
          return { thing_id: id, first_point_at: toIso(span?.first), last_point_at: toIso(span?.last), run_count: span?.runCount ?? 0 };
        });
    },
  );
}
