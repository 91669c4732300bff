import { and, asc, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { primaryDisplayName } from '../../src/domain/asset';
import { section, type Permission } from '../../src/domain/permissions';
import { r2rWindow } from '../../src/domain/trip';
import { r2rSearchSchema } from '../../src/domain/validation/reports';
import { thingVisibleSql } from '../auth/scope';
import { r2rAlerts, things } from '../db/schema';
import type { ServerDeps } from '../deps';
import { parseForm } from './errors';
import { unprocessable } from './errors';
import { sinceParam } from './query';
import { visibleThing } from './trips';

/**
 * R2R search (part 2 §2 R2R "Search by asset run date, alert time and asset"; §5 R2R: asset and
 * start time required, the end is start plus 15 minutes, no future dates). The spec shows no path:
 *
 * GET /r2r?thing_id={uuid}&start_time={ISO or epoch} — the R2R alerts the asset raised in
 * [start, start + 15 min], oldest first, each with the other asset's name (when the caller may see
 * it) and the distance between them. Needs engineer:test (the r2r section).
 */

const R2R_VIEW: readonly Permission[] = section('r2r').anyOf;

export const r2rAlertWireSchema = z.object({
  id: z.string(),
  alert_time: z.string(),
  other_thing_id: z.string().nullable(),
  other_thing_name: z.string().nullable(),
  distance_m: z.number().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  is_test: z.boolean(),
  delivered: z.boolean(),
});

export const r2rSearchWireSchema = z.object({
  thing_id: z.string(),
  thing_name: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  alerts: z.array(r2rAlertWireSchema),
});
export type R2RSearchWire = z.infer<typeof r2rSearchWireSchema>;

const SEARCH_WIRE_NAMES = { thingId: 'thing_id', startTime: 'start_time' } as const;

export function r2rSearchRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;

  app.get('/r2r', { config: { access: R2R_VIEW } }, async (request): Promise<R2RSearchWire> => {
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
    return {
      thing_id: thing.id,
      thing_name: primaryDisplayName(thing.haasId, thing.nickname?.trim()),
      start_time: new Date(window.start).toISOString(),
      end_time: new Date(window.end).toISOString(),
      alerts: alerts.map((alert) => ({
        id: alert.id,
        alert_time: alert.alertTime.toISOString(),
        // An asset the caller may not see stays anonymous.
        other_thing_id: alert.otherThingId && names.has(alert.otherThingId) ? alert.otherThingId : null,
        other_thing_name: alert.otherThingId ? (names.get(alert.otherThingId) ?? null) : null,
        distance_m: alert.distanceM,
        lat: alert.lat,
        lng: alert.lng,
        is_test: alert.isTest,
        delivered: alert.delivered,
      })),
    };
  });
}
