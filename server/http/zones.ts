import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { geoJsonFeatureSchema } from '../../src/domain/geometry';
import type { AlertingZoneWire } from '../../src/domain/alerting-zone';
import { section, type Permission } from '../../src/domain/permissions';
import { requireAny, requireCaller, type Caller } from '../auth/context';
import { canSeeOrg, thingVisibleSql } from '../auth/scope';
import type { Db } from '../db/connection';
import { alertingZones, alertingZoneThings, things } from '../db/schema';
import type { ServerDeps } from '../deps';
import { areaRoutes, listOrgIds } from './areas';
import { closureRoutes } from './closures';
import { notFound, parse } from './errors';
import { hazardRoutes } from './hazards';
import { uuidParam } from './query';
import { r2rSearchRoutes } from './r2r-search';
import { tripRoutes } from './trips';
import { wzdxFeedRoutes } from './wzdx-feed';

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

  app.get('/organization/alerting_zones', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, ZONE_VIEW);
    const orgIds = await listOrgIds(db, caller, request.query);
    if (orgIds !== null && orgIds.length === 0) return [];
    const rows = await db
      .select()
      .from(alertingZones)
      .where(orgIds === null ? undefined : inArray(alertingZones.organizationId, orgIds))
      // part 2 §4: zones are sorted by the active flag (active first).
      .orderBy(desc(alertingZones.isActive), sql`lower(coalesce(${alertingZones.description}, ''))`, alertingZones.id);
    return zonesToWire(db, caller, rows);
  });

  app.get('/organization/alerting_zones/:id', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, ZONE_VIEW);
    const { id } = parse(uuidParam, request.params);
    const [row] = await db.select().from(alertingZones).where(eq(alertingZones.id, id)).limit(1);
    if (!row || !canSeeOrg(caller.scope, row.organizationId)) throw notFound('Alerting zone');
    const [zone] = await zonesToWire(db, caller, [row]);
    return zone;
  });
}

/**
 * Every route module of part 2 §7's map objects: areas, closures, alerting zones, trips and
 * coverage, hazards, R2R search and the public WZDx feed, so routes.ts registers them in one line.
 * (It lives here, not in areas.ts, because the other modules import areas.ts's shared helpers.)
 */
export function mapObjectRoutes(app: FastifyInstance, deps: ServerDeps): void {
  areaRoutes(app, deps);
  closureRoutes(app, deps);
  zoneRoutes(app, deps);
  tripRoutes(app, deps);
  hazardRoutes(app, deps);
  r2rSearchRoutes(app, deps);
  wzdxFeedRoutes(app, deps);
}
