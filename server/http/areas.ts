import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  isAvAreaType,
  pointGeomSchema,
  sortAreaTypes,
  toAreaTypeWire,
  type AreaTypeWire,
  type AreaWire,
} from '../../src/domain/area';
import { POLYGON_MAX_SQ_MILES, SQ_METRES_PER_SQ_MILE, METRES_PER_MILE } from '../../src/domain/constants';
import { geoJsonPolygonSchema, polygonAreaSqM, polygonFromGeoJson, truncateCoordinate, type GeoJsonPolygon } from '../../src/domain/geometry';
import { canAddArea, canDeleteArea, canEditArea, section, type Permission } from '../../src/domain/permissions';
import { areaFormSchema } from '../../src/domain/validation/area';
import { requireAny, requireCaller, type Caller } from '../auth/context';
import { canSeeOrg, requestedOrgIds } from '../auth/scope';
import type { Db } from '../db/connection';
import { areas, areaTypes, organizations } from '../db/schema';
import type { ServerDeps } from '../deps';
import { forbidden, notFound, parse, parseForm, unprocessable } from './errors';
import { listParam, uuidParam } from './query';

/**
 * Areas: stations, exclusions and points of interest (part 2 §3 Area, §5 Area, §6 areas rows,
 * §7 exclusion_zone calls, §8 Area save / Area delete), and GET /ez_types.
 *
 * The answers are `areaWireSchema` of src/domain/area.ts. The server holds the rules the form
 * holds (the domain's `areaFormSchema`), the owner and is_av_type rules (`canAddArea`,
 * `canEditArea`, `canDeleteArea`), and two of its own: the shape must be a simple closed ring
 * (else 422 'Exclusion shape is invalid') and its area (the domain's `polygonAreaSqM`, turf's formula) under 0.5 sq mi (else 422
 * 'Polygon area is too large, please keep area under .5 square miles').
 *
 * It also holds three helpers the other map-object modules share (closures, zones, trips, hazards,
 * R2R search): `parseForm` (a domain form schema over a request, 422 naming the wire field),
 * `listOrgIds` (the `org_ids[]` rule of the lists) and `visibleOrganization`.
 */

// ── the §8 messages the client's catalogue reads (errorText('areaSave')) ────
/** Contains 'invalid' → 'Exclusion shape is invalid'. */
export const SHAPE_INVALID_MESSAGE = 'Exclusion shape is invalid';
/** Contains 'too large'; written as the catalogue writes it. */
export const AREA_TOO_LARGE_MESSAGE = 'Polygon area is too large, please keep area under .5 square miles';

const POLYGON_MAX_SQ_M = POLYGON_MAX_SQ_MILES * SQ_METRES_PER_SQ_MILE;
/** A drawn shape has a handful of corners; this only keeps the O(n²) ring check cheap. */
const RING_POSITIONS_MAX = 1_000;

const AREA_VIEW: readonly Permission[] = section('areas').anyOf;
/** part 2 §6: create, update and delete are each satisfied by manage; haas:manage is the super permission. */
const AREA_CREATE: readonly Permission[] = ['exclusion:create', 'exclusion:manage', 'haas:manage'];
const AREA_UPDATE: readonly Permission[] = ['exclusion:update', 'exclusion:manage', 'haas:manage'];
const AREA_DELETE: readonly Permission[] = ['exclusion:delete', 'exclusion:manage', 'haas:manage'];

// ── form errors named by their wire field ────────────────────────────────────


// ── the shape ────────────────────────────────────────────────────────────────

type Position = readonly [number, number];

function sameSpot(a: Position, b: Position): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** Sign of the turn a → b → c (planar; fine at area scale). */
function turn(a: Position, b: Position, c: Position): number {
  const cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return cross > 0 ? 1 : cross < 0 ? -1 : 0;
}

function within(a: Position, b: Position, p: Position): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1])
  );
}

/** Whether segments p1p2 and p3p4 meet (touching and collinear overlap included). */
export function segmentsMeet(p1: Position, p2: Position, p3: Position, p4: Position): boolean {
  const d1 = turn(p3, p4, p1);
  const d2 = turn(p3, p4, p2);
  const d3 = turn(p1, p2, p3);
  const d4 = turn(p1, p2, p4);
  if (d1 !== d2 && d3 !== d4) return true;
  return (
    (d1 === 0 && within(p3, p4, p1)) ||
    (d2 === 0 && within(p3, p4, p2)) ||
    (d3 === 0 && within(p1, p2, p3)) ||
    (d4 === 0 && within(p1, p2, p4))
  );
}

/**
 * A simple polygon ring as GeoJSON writes it ([lng, lat], closed: the last position repeats the
 * first): every position in range, at least 3 distinct corners, no repeated consecutive corner, no
 * edge that doubles back on the previous one, and no two non-adjacent edges that meet.
 */
export function isSimpleRing(ring: readonly (readonly number[])[]): boolean {
  const positions = ring.map((p): Position => [p[0] ?? Number.NaN, p[1] ?? Number.NaN]);
  if (positions.some(([lng, lat]) => !Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lng) > 180 || Math.abs(lat) > 90)) {
    return false;
  }
  const first = positions[0];
  const last = positions[positions.length - 1];
  if (!first || !last || !sameSpot(first, last)) return false;
  const corners = positions.slice(0, -1);
  const n = corners.length;
  if (n < 3) return false;
  const at = (i: number): Position => corners[((i % n) + n) % n]!;
  for (let i = 0; i < n; i += 1) {
    const a = at(i - 1);
    const b = at(i);
    const c = at(i + 1);
    if (sameSpot(b, c)) return false;
    // A spike: the next edge runs back along the previous one.
    if (turn(a, b, c) === 0 && (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]) < 0) return false;
  }
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 2; j < n; j += 1) {
      if (i === 0 && j === n - 1) continue; // the closing edge is adjacent to the first
      if (segmentsMeet(at(i), at(i + 1), at(j), at(j + 1))) return false;
    }
  }
  return true;
}

/** 422 'Exclusion shape is invalid' or 'Polygon area is too large, …' (part 2 §5, §8). */
function checkShape(polygon: GeoJsonPolygon): GeoJsonPolygon {
  const [outer, ...holes] = polygon.coordinates;
  // The dashboard draws and reads one outer ring (src/domain/area.ts); a hole is not a shape it can edit.
  if (!outer || holes.length > 0 || !isSimpleRing(outer)) throw unprocessable(`area_geom: ${SHAPE_INVALID_MESSAGE}`, 'invalid_shape');
  const truncated: GeoJsonPolygon = {
    type: 'Polygon',
    coordinates: [outer.map((p) => [truncateCoordinate(p[0] ?? 0), truncateCoordinate(p[1] ?? 0)])],
  };
  const sqM = polygonAreaSqM(polygonFromGeoJson(truncated));
  if (!(sqM > 0)) throw unprocessable(`area_geom: ${SHAPE_INVALID_MESSAGE}`, 'invalid_shape');
  if (sqM >= POLYGON_MAX_SQ_M) throw unprocessable(`area_geom: ${AREA_TOO_LARGE_MESSAGE}`, 'too_large');
  return truncated;
}

// ── wire ─────────────────────────────────────────────────────────────────────

type AreaRow = typeof areas.$inferSelect;
type AreaTypeRow = typeof areaTypes.$inferSelect;

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
  };
}

const textField = z.string().max(10_000).nullish();
const polygonBody = z.object({
  type: z.literal('Polygon'),
  coordinates: z.array(z.array(z.array(z.number()).min(2).max(3)).max(RING_POSITIONS_MAX)).min(1).max(10),
});

/** POST/PUT body: part 2 §3 "Write payload" (radius_dist, miles, added for stations). */
const areaBody = z.object({
  id: z.string().max(100).optional(),
  organization_id: z.uuid({ error: 'must be a uuid' }),
  name: textField,
  desc: textField,
  ez_type_id: z.string().max(100).nullish(),
  area_geom: polygonBody.nullish(),
  point_geom: z.object({ lat: z.number(), lon: z.number() }).nullish(),
  /** Miles (part 2 §3); a circle too is held to the 0.5 sq mi limit. */
  radius_dist: z.number().positive().nullish(),
  address1: textField,
  address2: textField,
  city: textField,
  state: textField,
  postal_code: textField,
  country_code: textField,
});
type AreaBody = z.infer<typeof areaBody>;

const FORM_WIRE_NAMES = {
  name: 'name',
  description: 'desc',
  ezTypeId: 'ez_type_id',
  position: 'point_geom',
  lineStringArray: 'area_geom',
  address1: 'address1',
  address2: 'address2',
  city: 'city',
  state: 'state',
  postalCode: 'postal_code',
  countryCode: 'country_code',
} as const;

const orUndefined = (value: string | null | undefined): string | undefined => value ?? undefined;

/** The domain's area rules over a write body; the values to store. */
function validArea(body: AreaBody) {
  const outer = body.area_geom?.coordinates[0] ?? [];
  const form = parseForm(
    areaFormSchema,
    {
      name: orUndefined(body.name),
      description: orUndefined(body.desc),
      ezTypeId: orUndefined(body.ez_type_id),
      // A point of interest has a point but no shape (part 2 §2).
      isPoi: body.area_geom == null,
      position: body.point_geom ? { lat: body.point_geom.lat, lng: body.point_geom.lon } : null,
      lineStringArray: outer.map((p) => ({ lat: p[1], lng: p[0] })),
      address1: orUndefined(body.address1),
      address2: orUndefined(body.address2),
      city: orUndefined(body.city),
      state: orUndefined(body.state),
      postalCode: orUndefined(body.postal_code),
      countryCode: orUndefined(body.country_code),
    },
    FORM_WIRE_NAMES,
  );
  const areaGeom = body.area_geom ? checkShape(body.area_geom) : null;
  if (body.radius_dist != null) {
    const metres = body.radius_dist * METRES_PER_MILE;
    if (Math.PI * metres * metres >= POLYGON_MAX_SQ_M) throw unprocessable(`radius_dist: ${AREA_TOO_LARGE_MESSAGE}`, 'too_large');
  }
  const position = form.position!; // the form requires it
  const lat = truncateCoordinate(position.lat);
  const lng = truncateCoordinate(position.lng);
  const blankToNull = (value: string | undefined): string | null => (value ? value : null);
  return {
    ezTypeId: String(form.ezTypeId),
    values: {
      name: form.name,
      desc: blankToNull(form.description),
      lat,
      lng,
      pointGeom: { lat, lon: lng },
      areaGeom,
      radiusDist: body.radius_dist ?? null,
      address1: blankToNull(form.address1),
      address2: blankToNull(form.address2),
      city: blankToNull(form.city),
      state: blankToNull(form.state),
      postalCode: blankToNull(form.postalCode),
      countryCode: form.countryCode ? form.countryCode.toUpperCase() : null,
    },
  };
}

// ── queries ──────────────────────────────────────────────────────────────────

async function findAreaType(db: Db, id: string): Promise<AreaTypeRow> {
  const parsed = z.uuid().safeParse(id);
  const [type] = parsed.success ? await db.select().from(areaTypes).where(eq(areaTypes.id, parsed.data)).limit(1) : [];
  if (!type) throw unprocessable('ez_type_id: unknown area type');
  return type;
}

async function selectAreas(db: Db, where: ReturnType<typeof and>) {
  return db
    .select({ area: areas, type: areaTypes, organizationName: organizations.name })
    .from(areas)
    .innerJoin(areaTypes, eq(areaTypes.id, areas.ezTypeId))
    .innerJoin(organizations, eq(organizations.id, areas.organizationId))
    .where(and(isNull(areas.deletedAt), where))
    .orderBy(sql`lower(${areas.name})`, areas.id);
}

/** A live area the caller may see, or 404 'Area not found' (never 403: nothing leaks). */
async function visibleArea(db: Db, caller: Caller, params: unknown) {
  const { id } = parse(uuidParam, params);
  const [row] = await selectAreas(db, eq(areas.id, id));
  if (!row || !canSeeOrg(caller.scope, row.area.organizationId)) throw notFound('Area');
  return row;
}

/** A live organization the caller may see, or 404 'Organization not found'. */
export async function visibleOrganization(db: Db, caller: Caller, id: string) {
  const [org] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), isNull(organizations.deletedAt)))
    .limit(1);
  if (!org || !canSeeOrg(caller.scope, org.id)) throw notFound('Organization');
  return org;
}

/**
 * The organizations a list covers. part 2 §8 "Lists and organization: 404 'Organization not
 * found'": `org_ids[]` naming only organizations the caller cannot see (or that do not exist)
 * answers 404; absent, every visible organization (null: all, for haas:manage).
 */
export async function listOrgIds(db: Db, caller: Caller, query: unknown): Promise<string[] | null> {
  const requested = listParam(query, 'org_ids');
  if (requested.length === 0) return requestedOrgIds(caller.scope, requested);
  // A malformed id names no organization (and must not reach a uuid column).
  const wellFormed = requested.filter((id) => z.uuid().safeParse(id).success);
  // (requestedOrgIds reads an empty list as "none asked", hence the guard.)
  const visible = wellFormed.length === 0 ? [] : (requestedOrgIds(caller.scope, wellFormed) ?? []);
  const existing =
    visible.length === 0
      ? []
      : await db
          .select({ id: organizations.id })
          .from(organizations)
          .where(and(inArray(organizations.id, visible), isNull(organizations.deletedAt)));
  if (existing.length === 0) throw notFound('Organization');
  return existing.map((org) => org.id);
}

// ── routes ───────────────────────────────────────────────────────────────────

/** part 2 §7: exclusion_zone (areas) and ez_types. */
export function areaRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;

  app.get('/ez_types', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, AREA_VIEW);
    return sortAreaTypes(await db.select().from(areaTypes)).map(areaTypeToWire);
  });

  app.get('/organization/exclusion_zone', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, AREA_VIEW);
    const orgIds = await listOrgIds(db, caller, request.query);
    if (orgIds !== null && orgIds.length === 0) return [];
    const rows = await selectAreas(db, orgIds === null ? undefined : inArray(areas.organizationId, orgIds));
    return rows.map((row) => areaToWire(row.area, row.type, row.organizationName));
  });

  /** Area detail (a path the spec does not show; part 2 §7 "zone or area detail"). */
  app.get('/organization/exclusion_zone/:id', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, AREA_VIEW);
    const row = await visibleArea(db, caller, request.params);
    return areaToWire(row.area, row.type, row.organizationName);
  });

  app.post('/organization/exclusion_zone', async (request, reply) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, AREA_CREATE);
    const body = parse(areaBody, request.body);
    const org = await visibleOrganization(db, caller, body.organization_id);
    // part 2 §6: "Add area needs exclusion create or manage, and owner or haas manage".
    if (!canAddArea(caller.permissions, org.id, caller.scope.organizationId)) throw forbidden();
    const { ezTypeId, values } = validArea(body);
    const type = await findAreaType(db, ezTypeId);
    const now = deps.now();
    const [created] = await db
      .insert(areas)
      .values({ ...values, organizationId: org.id, ezTypeId: type.id, createdAt: now, updatedAt: now })
      .returning();
    reply.code(201);
    return areaToWire(created!, type, org.name);
  });

  app.put('/organization/exclusion_zone/:id', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, AREA_UPDATE);
    const existing = await visibleArea(db, caller, request.params);
    const ownership = (isAvType: boolean) => ({ orgId: existing.area.organizationId, isAvType });
    const userOrg = caller.scope.organizationId;
    if (!canEditArea(caller.permissions, ownership(isAvAreaType(existing.type.dbName)), userOrg)) {
      throw forbidden();
    }
    const body = parse(areaBody, request.body);
    if (body.id !== undefined && body.id !== existing.area.id) throw unprocessable('id: does not match the area of the path');
    if (body.organization_id !== existing.area.organizationId) {
      throw unprocessable('organization_id: an area cannot move to another organization');
    }
    const { ezTypeId, values } = validArea(body);
    const type = await findAreaType(db, ezTypeId);
    // Turning an area into an automated-vehicle type needs what editing one needs (part 2 §6).
    if (!canEditArea(caller.permissions, ownership(isAvAreaType(type.dbName)), userOrg)) {
      throw forbidden();
    }
    const [updated] = await db
      .update(areas)
      .set({ ...values, ezTypeId: type.id, updatedAt: deps.now() })
      .where(and(eq(areas.id, existing.area.id), isNull(areas.deletedAt)))
      .returning();
    if (!updated) throw notFound('Area');
    return areaToWire(updated, type, existing.organizationName);
  });

  /** part 2 §7: "Response reads id"; the client treats 404 as already deleted. */
  app.delete('/organization/exclusion_zone/:id', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, AREA_DELETE);
    const existing = await visibleArea(db, caller, request.params);
    const ownership = { orgId: existing.area.organizationId, isAvType: isAvAreaType(existing.type.dbName) };
    if (!canDeleteArea(caller.permissions, ownership, caller.scope.organizationId)) {
      throw forbidden();
    }
    const now = deps.now();
    const [deleted] = await db
      .update(areas)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(areas.id, existing.area.id), isNull(areas.deletedAt)))
      .returning({ id: areas.id });
    if (!deleted) throw notFound('Area');
    return { id: deleted.id };
  });
}
