import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { pointGeomSchema, sortAreaTypes, toAreaTypeWire, type AreaTypeWire, type AreaWire } from '../../../src/domain/area';
import { geoJsonPolygonSchema } from '../../../src/domain/geometry';
import { canSeeOrg, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { areas, areaTypes, organizations } from '../../db/schema';
import { nextVersion, sameVersion } from '../../db/rows';
import type { validArea } from './schema';

/**
 * The area calls' reads and writes, and the wire objects (`areaWireSchema` of src/domain/area.ts).
 * A missing record or a refused write is an answer (undefined, null, 'stale'), mapped by ./routes.
 */

// ── wire ─────────────────────────────────────────────────────────────────────

type AreaRow = typeof areas.$inferSelect;
export type AreaTypeRow = typeof areaTypes.$inferSelect;
/** An area with its type and its organization's name, as the lists and the detail read it. */
export interface AreaJoinedRow {
  area: AreaRow;
  type: AreaTypeRow;
  organizationName: string;
}

export function areaTypeToWire(type: AreaTypeRow): AreaTypeWire {
  return toAreaTypeWire({ id: type.id, dbName: type.dbName, displayName: type.displayName, isStationView: type.isStationView });
}

export function areaToWire(row: AreaRow, type: AreaTypeRow, organizationName: string): AreaWire {
  const polygon = geoJsonPolygonSchema.safeParse(row.areaGeom);
  const point = pointGeomSchema.safeParse(row.pointGeom);
  return {
    id: row.id,
    organization_id: row.organizationId,
    organization_name: organizationName,
    thing_id: row.thingId,
    lat: row.lat,
    lng: row.lng,
    desc: row.desc,
    radius_dist: row.radiusDist,
    is_active: row.isActive,
    area_geom: polygon.success ? polygon.data : null,
    point_geom: point.success ? point.data : null,
    name: row.name,
    ez_type: areaTypeToWire(type),
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    state: row.state,
    postal_code: row.postalCode,
    country_code: row.countryCode,
    version: row.version,
  };
}

export const joinedToWire = (row: AreaJoinedRow): AreaWire => areaToWire(row.area, row.type, row.organizationName);

// ── reads ────────────────────────────────────────────────────────────────────

/** GET /ez_types: every area type, in the order of part 2 §4. */
export async function listAreaTypes(db: Db): Promise<AreaTypeWire[]> {
  return sortAreaTypes(await db.select().from(areaTypes)).map(areaTypeToWire);
}

/** The area type a write names (an id that is no uuid names none), else undefined. */
export async function findAreaType(db: Db, id: string): Promise<AreaTypeRow | undefined> {
  const parsed = z.uuid().safeParse(id);
  const [type] = parsed.success ? await db.select().from(areaTypes).where(eq(areaTypes.id, parsed.data)).limit(1) : [];
  return type;
}

async function selectAreas(db: Db, where: SQL | undefined): Promise<AreaJoinedRow[]> {
  return db
    .select({ area: areas, type: areaTypes, organizationName: organizations.name })
    .from(areas)
    .innerJoin(areaTypes, eq(areaTypes.id, areas.ezTypeId))
    .innerJoin(organizations, eq(organizations.id, areas.organizationId))
    .where(and(isNull(areas.deletedAt), where))
    .orderBy(sql`lower(${areas.name})`, areas.id);
}

/** The live areas of the organizations (null: all), by name. */
export async function listAreas(db: Db, orgIds: readonly string[] | null): Promise<AreaWire[]> {
  if (orgIds !== null && orgIds.length === 0) return [];
  const rows = await selectAreas(db, orgIds === null ? undefined : inArray(areas.organizationId, [...orgIds]));
  return rows.map(joinedToWire);
}

/** A live area the scope sees, else undefined (the route answers 404, never 403: nothing leaks). */
export async function findVisibleArea(db: Db, scope: OrgScope, id: string): Promise<AreaJoinedRow | undefined> {
  const [row] = await selectAreas(db, eq(areas.id, id));
  return row && canSeeOrg(scope, row.area.organizationId) ? row : undefined;
}

// ── writes ───────────────────────────────────────────────────────────────────

type AreaValues = ReturnType<typeof validArea>['values'];

export async function insertArea(
  db: Db,
  org: { id: string; name: string },
  type: AreaTypeRow,
  values: AreaValues,
  now: Date,
): Promise<AreaWire> {
  const [created] = await db
    .insert(areas)
    .values({ ...values, organizationId: org.id, ezTypeId: type.id, createdAt: now, updatedAt: now })
    .returning();
  return areaToWire(created!, type, org.name);
}

/**
 * Updates a live area, one version on: its wire object; null when it was deleted meanwhile,
 * 'stale' when `expected` (the save's If-Match) is no longer its version.
 */
export async function updateArea(
  db: Db,
  existing: AreaJoinedRow,
  type: AreaTypeRow,
  values: AreaValues,
  now: Date,
  expected: number | null = null,
): Promise<AreaWire | 'stale' | null> {
  const live = and(eq(areas.id, existing.area.id), isNull(areas.deletedAt));
  const [updated] = await db
    .update(areas)
    .set({ ...values, ezTypeId: type.id, updatedAt: now, version: nextVersion(areas.version) })
    .where(and(live, sameVersion(areas.version, expected)))
    .returning();
  if (!updated) {
    const [still] = await db.select({ id: areas.id }).from(areas).where(live);
    return still ? 'stale' : null;
  }
  return areaToWire(updated, type, existing.organizationName);
}

/** Soft-deletes a live area; its id, or null when it is gone already. */
export async function deleteArea(db: Db, id: string, now: Date): Promise<{ id: string } | null> {
  const [deleted] = await db
    .update(areas)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(areas.id, id), isNull(areas.deletedAt)))
    .returning({ id: areas.id });
  return deleted ? { id: deleted.id } : null;
}
