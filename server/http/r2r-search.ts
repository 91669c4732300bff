import { and, asc, eq, gte, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { primaryDisplayName } from '../../src/domain/asset';
import { section, type Permission } from '../../src/domain/permissions';
import { r2rWindow } from '../../src/domain/trip';
import { R2R_POSITION_TOLERANCE_MS, r2rAlertWireSchema, r2rSearchWireSchema, type R2RSearchWire } from '../../src/domain/r2r-search';
import { r2rSearchSchema } from '../../src/domain/validation/reports';
import { thingVisibleSql } from '../auth/scope';
import { points, r2rAlerts, things } from '../db/schema';
import type { Db } from '../db/connection';
import type { ServerDeps } from '../deps';
import { errorAnswer, parseForm, unprocessable } from '../core/errors';
import { requiredTimeValue, sinceParam } from './query';
import { documentedObject } from './route-validation';
import { visibleThing } from './trips';

/**
 * R2R search (part 2 §2 R2R "Search by asset run date, alert time and asset"; §5 R2R: asset and
 * start time required, the end is start plus 15 minutes, no future dates). The spec shows no path:
 *
 * GET /r2r?thing_id={uuid}&start_time={ISO or epoch} — the R2R alerts the asset raised in
 * [start, start + 15 min], oldest first, each with the other asset's name (when the caller may see
 * it) and the distance between them. Needs engineer:test (the r2r section).
 *
 * For the map (part 2 §2 R2R, the alerting vehicle and its receivers at that moment): `lat`/`lng`
 * are where the alerting vehicle was, as stored with the alert, else its nearest trip point; each
 * alert also carries `other_lat`/`other_lng`, the receiver's nearest trip point (a visible
 * receiver only). "Nearest" is the trip point (a point of a run) closest in time to the alert,
 * within R2R_POSITION_TOLERANCE_MS; none → null.
 */

const R2R_VIEW: readonly Permission[] = section('r2r').anyOf;

export { r2rAlertWireSchema, r2rSearchWireSchema };
export type { R2RSearchWire };

interface TimedPosition {
  at: number;
  lat: number;
  lng: number;
}

/** The trip points of the assets around the window, per asset in time order. */
async function tripPositions(db: Db, thingIds: readonly string[], start: number, end: number): Promise<Map<string, TimedPosition[]>> {
  const found =
    thingIds.length === 0
      ? []
      : await db
          .select({ thingId: points.thingId, lat: points.lat, lng: points.lng, timestamp: points.timestamp })
          .from(points)
          .where(
            and(
              inArray(points.thingId, [...thingIds]),
              isNotNull(points.runId),
              gte(points.timestamp, new Date(start - R2R_POSITION_TOLERANCE_MS)),
              lte(points.timestamp, new Date(end + R2R_POSITION_TOLERANCE_MS)),
            ),
          )
          .orderBy(asc(points.timestamp), asc(points.id));
  const byThing = new Map<string, TimedPosition[]>();
  for (const point of found) {
    const list = byThing.get(point.thingId) ?? [];
    list.push({ at: point.timestamp.getTime(), lat: point.lat, lng: point.lng });
    byThing.set(point.thingId, list);
  }
  return byThing;
}

/** The position closest in time to `at` (within the tolerance), or null. */
export function nearestPosition(list: readonly TimedPosition[] | undefined, at: number): { lat: number; lng: number } | null {
  if (!list || list.length === 0) return null;
  let low = 0;
  let high = list.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (list[middle]!.at < at) low = middle + 1;
    else high = middle;
  }
  const candidates = [list[low - 1], list[low]].filter((p): p is TimedPosition => p !== undefined);
  const best = candidates.reduce((a, b) => (Math.abs(b.at - at) < Math.abs(a.at - at) ? b : a));
  return Math.abs(best.at - at) <= R2R_POSITION_TOLERANCE_MS ? { lat: best.lat, lng: best.lng } : null;
}

const SEARCH_WIRE_NAMES = { thingId: 'thing_id', startTime: 'start_time' } as const;

export function r2rSearchRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The query (thing_id, start_time) is read by the handler with the search form's rules and
   * messages (part 2 §5 R2R): documented only.
   */
  api.get(
    '/r2r',
    {
      config: { access: R2R_VIEW },
      schema: {
        summary: 'The R2R alerts an asset raised in the 15 minutes from start_time, with where both assets were',
        querystring: documentedObject({
          thing_id: z
            .string()
            .meta({ description: "The asset, a uuid (absent or malformed: 422; one the caller cannot see: 404 'Asset not found')." }),
          start_time: requiredTimeValue('The start of the 15 minutes searched, in the past.'),
        }),
        response: { 200: r2rSearchWireSchema, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request): Promise<R2RSearchWire> => {
      const { caller } = request;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const now = deps.now().getTime();
      const rawThingId = typeof query['thing_id'] === 'string' ? query['thing_id'] : undefined;
      const form = parseForm(
        r2rSearchSchema({ now }),
        { thingId: rawThingId, startTime: sinceParam(query, 'start_time')?.getTime() ?? null },
        SEARCH_WIRE_NAMES,
      );
      const thingId = z.uuid().safeParse(String(form.thingId));
      if (!thingId.success) throw unprocessable('thing_id: must be a uuid');
      const thing = await visibleThing(db, caller, thingId.data);
      const window = r2rWindow(form.startTime!);
      const alerts = await db
        .select()
        .from(r2rAlerts)
        .where(
          and(
            eq(r2rAlerts.thingId, thing.id),
            gte(r2rAlerts.alertTime, new Date(window.start)),
            lte(r2rAlerts.alertTime, new Date(window.end)),
          ),
        )
        .orderBy(asc(r2rAlerts.alertTime), asc(r2rAlerts.id));
      const otherIds = [...new Set(alerts.flatMap((alert) => (alert.otherThingId ? [alert.otherThingId] : [])))];
      const visibleOrgs = caller.scope.visibleOrgIds === null ? null : [...caller.scope.visibleOrgIds];
      const others =
        otherIds.length === 0
          ? []
          : await db
              .select({ id: things.id, haasId: things.haasId, nickname: things.nickname })
              .from(things)
              .where(and(inArray(things.id, otherIds), isNull(things.deletedAt), thingVisibleSql(caller.scope, visibleOrgs)));
      const names = new Map(others.map((other) => [other.id, primaryDisplayName(other.haasId, other.nickname?.trim())]));
      const positions = await tripPositions(db, [thing.id, ...names.keys()], window.start, window.end);
      return {
        thing_id: thing.id,
        thing_name: primaryDisplayName(thing.haasId, thing.nickname?.trim()),
        start_time: new Date(window.start).toISOString(),
        end_time: new Date(window.end).toISOString(),
        alerts: alerts.map((alert) => {
          const at = alert.alertTime.getTime();
          const own = alert.lat === null || alert.lng === null ? nearestPosition(positions.get(thing.id), at) : null;
          const visibleOther = alert.otherThingId && names.has(alert.otherThingId) ? alert.otherThingId : null;
          const other = visibleOther ? nearestPosition(positions.get(visibleOther), at) : null;
          return {
            id: alert.id,
            alert_time: alert.alertTime.toISOString(),
            // An asset the caller may not see stays anonymous, and so does where it was.
            other_thing_id: visibleOther,
            other_thing_name: alert.otherThingId ? (names.get(alert.otherThingId) ?? null) : null,
            distance_m: alert.distanceM,
            lat: alert.lat ?? own?.lat ?? null,
            lng: alert.lng ?? own?.lng ?? null,
            is_test: alert.isTest,
            delivered: alert.delivered,
            other_lat: other?.lat ?? null,
            other_lng: other?.lng ?? null,
          };
        }),
      };
    },
  );
}
