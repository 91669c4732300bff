import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AlertingZoneWire } from '../../../src/domain/alerting-zone';
import { geoJsonFeatureSchema } from '../../../src/domain/geometry';
import { canSeeOrg, thingVisibleSql, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { alertingZones, alertingZoneThings, things } from '../../db/schema';

/**
 * The alerting zones' reads and their wire (`alertingZoneWireSchema` of src/domain/alerting-zone.ts).
 * `active_things` lists the zone's assets the scope may see; features are GeoJSON features (a
 * stored feature that is not valid GeoJSON is left out rather than failing the list).
 */

type ZoneRow = typeof alertingZones.$inferSelect;

async function zonesToWire(db: Db, scope: OrgScope, rows: readonly ZoneRow[]): Promise<AlertingZoneWire[]> {
  if (rows.length === 0) return [];
  const visibleOrgs = scope.visibleOrgIds === null ? null : [...scope.visibleOrgIds];
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
        thingVisibleSql(scope, visibleOrgs),
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

/** The zones of the organizations (null: all), active first (part 2 §4), then by description. */
export async function listZones(db: Db, scope: OrgScope, orgIds: readonly string[] | null): Promise<AlertingZoneWire[]> {
  if (orgIds !== null && orgIds.length === 0) return [];
  const rows = await db
    .select()
    .from(alertingZones)
    .where(orgIds === null ? undefined : inArray(alertingZones.organizationId, [...orgIds]))
    // part 2 §4: zones are sorted by the active flag (active first).
    .orderBy(desc(alertingZones.isActive), sql`lower(coalesce(${alertingZones.description}, ''))`, alertingZones.id);
  return zonesToWire(db, scope, rows);
}

/** A zone of an organization the scope sees, as its wire, else undefined (the route answers 404: nothing leaks). */
export async function findVisibleZone(db: Db, scope: OrgScope, id: string): Promise<AlertingZoneWire | undefined> {
  const [row] = await db.select().from(alertingZones).where(eq(alertingZones.id, id)).limit(1);
  if (!row || !canSeeOrg(scope, row.organizationId)) return undefined;
  const [zone] = await zonesToWire(db, scope, [row]);
  return zone;
}
