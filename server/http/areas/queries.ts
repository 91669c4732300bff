import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { pointGeomSchema, sortAreaTypes, toAreaTypeWire, type AreaTypeWire, type AreaWire } from '../../../src/domain/area';
import { geoJsonPolygonSchema } from '../../../src/domain/geometry';
import type { Caller } from '../../auth/context';
import { canSeeOrg } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { areas, areaTypes, organizations } from '../../db/schema';
import { nextVersion, sameVersion } from '../../db/rows';
import { notFound, unprocessable } from '../../core/errors';
import { preconditionFailed } from '../versioning';
import type { validArea } from './schema';

/** The area calls' reads and writes, and the wire objects (`areaWireSchema` of src/domain/area.ts). */

// ── wire ─────────────────────────────────────────────────────────────────────

type AreaRow = typeof areas.$inferSelect;
type AreaTypeRow = typeof areaTypes.$inferSelect;
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

const joinedToWire = (row: AreaJoinedRow): AreaWire => areaToWire(row.area, row.type, row.organizationName);

// ── reads ────────────────────────────────────────────────────────────────────

/** GET /ez_types: every area type, in the order of part 2 §4. */
export async function listAreaTypes(db: Db): Promise<AreaTypeWire[]> {
  return sortAreaTypes(await db.select().from(areaTypes)).map(areaTypeToWire);
}

/** The area type a write names, or 422 'ez_type_id: unknown area type'. */
export async function findAreaType(db: Db, id: string): Promise<AreaTypeRow> {
  const parsed = z.uuid().safeParse(id);
  const [type] = parsed.success ? await db.select().from(areaTypes).where(eq(areaTypes.id, parsed.data)).limit(1) : [];
  if (!type) throw unprocessable('ez_type_id: unknown area type');
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

/** A live area the caller may see, or 404 'Area not found' (never 403: nothing leaks). */
export async function visibleArea(db: Db, caller: Caller, id: string): Promise<AreaJoinedRow> {
  const [row] = await selectAreas(db, eq(areas.id, id));
  if (!row || !canSeeOrg(caller.scope, row.area.organizationId)) throw notFound('Area');
  return row;
}

export const visibleAreaWire = async (db: Db, caller: Caller, id: string): Promise<AreaWire> =>
  joinedToWire(await visibleArea(db, caller, id));

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
 * Updates a live area, one version on; 404 'Area not found' when it was deleted meanwhile, 412 when
 * `expected` (the save's If-Match) is no longer its version.
 */
export async function updateArea(
  db: Db,
  existing: AreaJoinedRow,
  type: AreaTypeRow,
  values: AreaValues,
  now: Date,
  expected: number | null = null,
): Promise<AreaWire> {
  const live = and(eq(areas.id, existing.area.id), isNull(areas.deletedAt));
  const [updated] = await db
    .update(areas)
    .set({ ...values, ezTypeId: type.id, updatedAt: now, version: nextVersion(areas.version) })
    .where(and(live, sameVersion(areas.version, expected)))
    .returning();
  if (!updated) {
    const [still] = await db.select({ id: areas.id }).from(areas).where(live);
    throw still ? preconditionFailed('area') : notFound('Area');
  }
  return areaToWire(updated, type, existing.organizationName);
}

/** Soft-deletes a live area; its id, or 404 'Area not found' when it is gone already. */
export async function deleteArea(db: Db, id: string, now: Date): Promise<{ id: string }> {
  const [deleted] = await db
    .update(areas)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(areas.id, id), isNull(areas.deletedAt)))
    .returning({ id: areas.id });
  if (!deleted) throw notFound('Area');
  return { id: deleted.id };
}
