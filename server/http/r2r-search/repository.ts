import { and, asc, eq, gte, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { primaryDisplayName } from '../../../src/domain/asset';
import { R2R_POSITION_TOLERANCE_MS } from '../../../src/domain/r2r-search';
import { thingVisibleSql, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { points, r2rAlerts, things } from '../../db/schema';
import { nearestPosition, type R2RSearchWire, type TimedPosition } from './schema';

/**
 * The R2R search's reads and its alert wires (`r2rAlertWireSchema` of src/domain/r2r-search.ts):
 * `lat`/`lng` are where the alerting vehicle was, as stored with the alert, else its nearest trip
 * point; `other_lat`/`other_lng` the receiver's nearest trip point (a visible receiver only).
 */

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

/** The display names of the live assets among `ids` the scope sees. */
async function visibleThingNames(db: Db, scope: OrgScope, ids: readonly string[]): Promise<Map<string, string>> {
  const visibleOrgs = scope.visibleOrgIds === null ? null : [...scope.visibleOrgIds];
  const others =
    ids.length === 0
      ? []
      : await db
          .select({ id: things.id, haasId: things.haasId, nickname: things.nickname })
          .from(things)
          .where(and(inArray(things.id, [...ids]), isNull(things.deletedAt), thingVisibleSql(scope, visibleOrgs)));
  return new Map(others.map((other) => [other.id, primaryDisplayName(other.haasId, other.nickname?.trim())]));
}

/**
 * The R2R alerts the asset raised in the window, oldest first, each with the other asset's name
 * (when the scope sees it), the distance between them and where both were.
 */
export async function listR2RAlerts(
  db: Db,
  scope: OrgScope,
  thingId: string,
  window: { start: number; end: number },
): Promise<R2RSearchWire['alerts']> {
  const alerts = await db
    .select()
    .from(r2rAlerts)
    .where(
      and(eq(r2rAlerts.thingId, thingId), gte(r2rAlerts.alertTime, new Date(window.start)), lte(r2rAlerts.alertTime, new Date(window.end))),
    )
    .orderBy(asc(r2rAlerts.alertTime), asc(r2rAlerts.id));
  const otherIds = [...new Set(alerts.flatMap((alert) => (alert.otherThingId ? [alert.otherThingId] : [])))];
  const names = await visibleThingNames(db, scope, otherIds);
  const positions = await tripPositions(db, [thingId, ...names.keys()], window.start, window.end);
  return alerts.map((alert) => {
    const at = alert.alertTime.getTime();
    const own = alert.lat === null || alert.lng === null ? nearestPosition(positions.get(thingId), at) : null;
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
  });
}
