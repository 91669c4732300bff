import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { geoJsonFeatureSchema } from '../../src/domain/geometry';
import { z } from 'zod';
import { alertingZoneWireSchema, type AlertingZoneWire } from '../../src/domain/alerting-zone';
import { section, type Permission } from '../../src/domain/permissions';
import type { Caller } from '../auth/context';
import { canSeeOrg, thingVisibleSql } from '../auth/scope';
import type { Db } from '../db/connection';
import { alertingZones, alertingZoneThings, things } from '../db/schema';
import type { ServerDeps } from '../deps';
import { listOrgIds, orgIdsQuery } from './organization-scope';
import { errorAnswer, notFound } from '../core/errors';
import { uuidParam } from './query';
import { documentedObject } from './route-validation';

/**
 * Alerting zones (part 2 §3 Alerting zone, §7 GET /organization/alerting_zones, §8 Zones fetch):
 * `alertingZoneWireSchema` of src/domain/alerting-zone.ts. `active_things` lists the zone's assets
 * the caller may see; features are GeoJSON features (a stored feature that is not valid GeoJSON is
 * left out rather than failing the list).
 */

const ZONE_VIEW: readonly Permission[] = section('zones').anyOf;

type ZoneRow = typeof alertingZones.$inferSelect;

async function zonesToWire(db: Db, caller: Caller, rows: readonly ZoneRow[]): Promise<AlertingZoneWire[]> {
  if (rows.length === 0) return [];
  const visibleOrgs = caller.scope.visibleOrgIds === null ? null : [...caller.scope.visibleOrgIds];
  const members = await db
    .select({ zoneId: alertingZoneThings.zoneId, id: things.id, haasId: things.haasId, nickname: things.nickname })
    .from(alertingZoneThings)
    .innerJoin(things, eq(things.id, alertingZoneThings.thingId))
    .where(
      and(
        inArray(
          alertingZoneThings.zoneId,
          rows.map((row) => row.id),
        ),
        isNull(things.deletedAt),
        thingVisibleSql(caller.scope, visibleOrgs),
      ),
    )
    .orderBy(things.haasId);
  const byZone = new Map<string, NonNullable<AlertingZoneWire['active_things']>>();
  for (const member of members) {
    const list = byZone.get(member.zoneId) ?? [];
    list.push({ id: member.id, haas_id: member.haasId, nickname: member.nickname });
    byZone.set(member.zoneId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    external_id: row.externalId,
    alerting_zone_type_name: row.typeName,
    alert_message: row.alertMessage,
    description: row.description,
    features: row.features.flatMap((feature) => {
      const parsed = geoJsonFeatureSchema.safeParse(feature);
      return parsed.success ? [parsed.data] : [];
    }),
    is_active: row.isActive,
    active_things: byZone.get(row.id) ?? [],
    active_locations: { default_expiry: row.defaultExpiry },
  }));
}

/** part 2 §7: GET /organization/alerting_zones (and a zone's detail, a path the spec does not show). */
export function zoneRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;

  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The query `org_ids[]` is read by listOrgIds (part 2 §8 "Lists and organization": its own 422 and 404): documented only. */
  api.get(
    '/organization/alerting_zones',
    {
      config: { access: ZONE_VIEW },
      schema: {
        summary: "The alerting zones of the caller's organizations or of org_ids[], active first",
        querystring: documentedObject({ ...orgIdsQuery }),
        response: { 200: z.array(alertingZoneWireSchema), 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const orgIds = await listOrgIds(db, caller, request.query);
      if (orgIds !== null && orgIds.length === 0) return [];
      const rows = await db
        .select()
        .from(alertingZones)
        .where(orgIds === null ? undefined : inArray(alertingZones.organizationId, orgIds))
        // part 2 §4: zones are sorted by the active flag (active first).
        .orderBy(desc(alertingZones.isActive), sql`lower(coalesce(${alertingZones.description}, ''))`, alertingZones.id);
      return zonesToWire(db, caller, rows);
    },
  );

  api.get(
    '/organization/alerting_zones/:id',
    {
      config: { access: ZONE_VIEW },
      schema: {
        summary: 'One alerting zone, with the assets in it the caller may see',
        params: uuidParam,
        response: { 200: alertingZoneWireSchema, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      const [row] = await db.select().from(alertingZones).where(eq(alertingZones.id, id)).limit(1);
      if (!row || !canSeeOrg(caller.scope, row.organizationId)) throw notFound('Alerting zone');
      const [zone] = await zonesToWire(db, caller, [row]);
      return zone;
    },
  );
}
