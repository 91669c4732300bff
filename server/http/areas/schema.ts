import { z } from 'zod';
import { areaTypeWireSchema, areaWireSchema } from '../../../src/domain/area';
import { POLYGON_MAX_SQ_MILES, SQ_METRES_PER_SQ_MILE, METRES_PER_MILE } from '../../../src/domain/constants';
import { polygonAreaSqM, polygonFromGeoJson, truncateCoordinate, type GeoJsonPolygon } from '../../../src/domain/geometry';
import { areaFormSchema } from '../../../src/domain/validation/area';
import { parseForm, unprocessable } from '../../core/errors';
import { ADDRESS_WIRE_NAMES } from '../address-body';

/**
 * The area calls' bodies and rules (part 2 §3 Area "Write payload", §5 Area, §8 Area save): the
 * domain's `areaFormSchema` over the body, and the server's own two: the shape must be a simple
 * closed ring (else 422 'Exclusion shape is invalid') and its area (the domain's `polygonAreaSqM`,
 * turf's formula) under 0.5 sq mi (else 422 'Polygon area is too large, please keep area under .5
 * square miles').
 */

// ── the §8 messages the client's catalogue reads (errorText('areaSave')) ────
/** Contains 'invalid' → 'Exclusion shape is invalid'. */
export const SHAPE_INVALID_MESSAGE = 'Exclusion shape is invalid';
/** Contains 'too large'; written as the catalogue writes it. */
export const AREA_TOO_LARGE_MESSAGE = 'Polygon area is too large, please keep area under .5 square miles';

const POLYGON_MAX_SQ_M = POLYGON_MAX_SQ_MILES * SQ_METRES_PER_SQ_MILE;
/** A drawn shape has a handful of corners; this only keeps the O(n²) ring check cheap. */
const RING_POSITIONS_MAX = 1_000;

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
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
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

// ── the body ──────────────────────────────────────────────────────────────────

const textField = z.string().max(10_000).nullish();
const polygonBody = z.object({
  type: z.literal('Polygon'),
  coordinates: z
    .array(z.array(z.array(z.number()).min(2).max(3)).max(RING_POSITIONS_MAX))
    .min(1)
    .max(10),
});

/** POST/PUT body: part 2 §3 "Write payload" (radius_dist, miles, added for stations). */
export const areaBody = z.object({
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
export type AreaBody = z.infer<typeof areaBody>;

// ── the answers ───────────────────────────────────────────────────────────────

/** An area as every area call answers it (part 2 §3 Area (server)): the dashboard's own wire schema. */
export const areaAnswer = areaWireSchema;
/** GET /ez_types (part 2 §7): the area types, in the order of part 2 §4. */
export const areaTypesAnswer = z.array(areaTypeWireSchema);
export const areasAnswer = z.array(areaWireSchema);
/** DELETE (part 2 §7: "Response reads id"). */

const FORM_WIRE_NAMES = {
  name: 'name',
  description: 'desc',
  ezTypeId: 'ez_type_id',
  position: 'point_geom',
  lineStringArray: 'area_geom',
  ...ADDRESS_WIRE_NAMES,
} as const;

const orUndefined = (value: string | null | undefined): string | undefined => value ?? undefined;

/** The domain's area rules over a write body; the values to store. */
export function validArea(body: AreaBody) {
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
