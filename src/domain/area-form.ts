/**
 * The area form's model (part 2 §2 Areas, §3 Area, §5 Area, §9 "Area and geometry"): which shape
 * an area has on the map, its size in square miles, the form's values, their check (the domain's
 * `areaFormSchema`, so the form and the server hold one rule set) and the write payload.
 *
 * Shapes (decided here; §3 names `area_geom`, `point_geom` and `radius_dist` but not how a circle
 * travels): a polygon is `area_geom` (its marker `point_geom` is the ring's centre); a circle is
 * `point_geom` (its centre) with `radius_dist` in miles and no `area_geom`; a point of interest is
 * `point_geom` alone (part 2 §2 "A point of interest has a point but no shape"); a legacy area has
 * neither point nor shape.
 */
import { z } from 'zod';
import { toAddressPayload } from './address';
import type { Area, AreaAddress, AreaPayload } from './area';
import { METRES_PER_MILE, SQ_METRES_PER_SQ_MILE } from './constants';
import { latLonToLatLng, polygonAreaSqM, polygonToGeoJson, ringCenter, truncateCoordinate, type Geometry, type LatLng } from './geometry';
import { normalizePostalCode } from './postal-code';
import { areaFormSchema } from './validation/area';
import { optionalAddressShape } from './validation/address';

/** The shapes an area is drawn as (part 2 §2: point of interest, polygon, circle). */
export const AREA_SHAPE_KINDS = ['polygon', 'circle', 'point'] as const;
export type AreaShapeKind = (typeof AREA_SHAPE_KINDS)[number];

/** part 2 §2 "The default new area is an exclusion zone": an exclusion is drawn as a polygon first. */
export const DEFAULT_AREA_SHAPE_KIND: AreaShapeKind = 'polygon';

/** The area's shape on the map as the drawing tool takes it; null for a legacy area (part 2 §2). */
export function areaGeometry(area: Pick<Area, 'lineStringArray' | 'position' | 'radius'>): Geometry | null {
  if (area.lineStringArray.length > 0) return { kind: 'polygon', ring: area.lineStringArray.map(latLonToLatLng) };
  if (!area.position) return null;
  const center: LatLng = { lat: area.position.lat, lng: area.position.lng };
  if (area.radius != null && area.radius > 0) return { kind: 'circle', center, radius: area.radius };
  return { kind: 'point', position: center };
}

/** The shape kind an existing area opens with (a legacy area: the default). */
export function areaShapeKind(area: Pick<Area, 'lineStringArray' | 'position' | 'radius'>): AreaShapeKind {
  const geometry = areaGeometry(area);
  return geometry && geometry.kind !== 'line' ? geometry.kind : DEFAULT_AREA_SHAPE_KIND;
}

/** The ground a shape covers, in square miles (the live readout while drawing; §9 "Polygon max 0.5 sq miles"). */
export function geometrySqMiles(geometry: Geometry | null): number {
  if (!geometry) return 0;
  if (geometry.kind === 'polygon') return polygonAreaSqM(geometry.ring) / SQ_METRES_PER_SQ_MILE;
  if (geometry.kind === 'circle') return (Math.PI * geometry.radius * geometry.radius) / SQ_METRES_PER_SQ_MILE;
  return 0;
}

/** The readout's text: two decimals, three below 0.1 so a small shape does not read 0.00. */
export function sqMilesText(sqMiles: number): string {
  const decimals = sqMiles > 0 && sqMiles < 0.1 ? 3 : 2;
  return `${sqMiles.toFixed(decimals)} sq mi`;
}

/** Where the area's marker (`point_geom`) sits for a shape: the point, the circle's centre, the ring's centre. */
export function geometryPosition(geometry: Geometry | null): LatLng | null {
  if (!geometry) return null;
  switch (geometry.kind) {
    case 'point':
      return geometry.position;
    case 'circle':
      return geometry.center;
    case 'polygon':
      return ringCenter(geometry.ring);
    default:
      return null;
  }
}

/** The form's values: the text fields, the chosen shape kind and the drawn shape (null: none yet). */
export interface AreaFormValues extends AreaAddress {
  name: string;
  description: string;
  ezTypeId: string;
  shapeKind: AreaShapeKind;
  shape: Geometry | null;
}

export function areaFormValues(area: Area): AreaFormValues {
  return {
    name: area.displayName,
    description: area.description,
    ezTypeId: area.ezTypeId,
    shapeKind: areaShapeKind(area),
    shape: areaGeometry(area),
    address1: area.address1,
    address2: area.address2,
    city: area.city,
    state: area.state,
    postalCode: area.postalCode,
    countryCode: area.countryCode,
  };
}

/** The shape the form holds, kept only when it is of the chosen kind. */
function shapeOf(values: Pick<AreaFormValues, 'shape' | 'shapeKind'>): Geometry | null {
  return values.shape && values.shape.kind === values.shapeKind ? values.shape : null;
}

/** The values as the domain's area rules read them (validation/area.ts). */
function areaFormInput(values: AreaFormValues) {
  const shape = shapeOf(values);
  return {
    name: values.name,
    description: values.description,
    ezTypeId: values.ezTypeId,
    isPoi: values.shapeKind !== 'polygon',
    position: geometryPosition(shape),
    lineStringArray: shape?.kind === 'polygon' ? shape.ring : [],
    address1: values.address1,
    address2: values.address2,
    city: values.city,
    state: values.state,
    postalCode: values.postalCode,
    countryCode: values.countryCode,
  };
}

const GEOMETRY_PATHS = new Set(['position', 'lineStringArray']);

/**
 * The form's check: the domain's `areaFormSchema` over the values; its position and corner issues
 * ('ERROR: Please set new map location…', 'Exclusions must have at least 3 points') land on `shape`.
 */
export const areaFormValuesSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    ezTypeId: z.string(),
    shapeKind: z.enum(AREA_SHAPE_KINDS),
    shape: z.custom<Geometry | null>(),
    ...optionalAddressShape(),
  })
  .superRefine((values, ctx) => {
    const result = areaFormSchema.safeParse(areaFormInput(values as AreaFormValues));
    if (result.success) return;
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      ctx.addIssue({ code: 'custom', path: [GEOMETRY_PATHS.has(field) ? 'shape' : field], message: issue.message });
    }
  });

/** POST/PUT body of the form (part 2 §3 "Write payload"; a circle adds `radius_dist`, miles). */
export function areaPayloadFromForm(values: AreaFormValues, orgId: string, id?: string): AreaPayload & { radius_dist: number | null } {
  const shape = shapeOf(values);
  const position = geometryPosition(shape);
  const ring = shape?.kind === 'polygon' ? shape.ring.map((p) => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) })) : [];
  const payload: AreaPayload & { radius_dist: number | null } = {
    organization_id: orgId,
    name: values.name.trim(),
    desc: values.description.trim(),
    ez_type_id: values.ezTypeId,
    area_geom: ring.length > 0 ? polygonToGeoJson(ring) : null,
    point_geom: position ? { lat: truncateCoordinate(position.lat), lon: truncateCoordinate(position.lng) } : null,
    radius_dist: shape?.kind === 'circle' ? shape.radius / METRES_PER_MILE : null,
    ...toAddressPayload({
      address1: values.address1.trim(),
      address2: values.address2.trim(),
      city: values.city.trim(),
      state: values.state.trim(),
      // part 2 §5 "zip is uppercased".
      postalCode: normalizePostalCode(values.postalCode),
      countryCode: values.countryCode.trim().toUpperCase(),
    }),
  };
  if (id) payload.id = id;
  return payload;
}

/** part 2 §2 area type filter: every type, or one type's id. */
export const ALL_AREA_TYPES = '';

/** The list's rows: areas of the chosen type whose name or description holds the search (case-insensitive). */
export function filterAreas<T extends Pick<Area, 'displayName' | 'description' | 'ezTypeId'>>(
  areas: readonly T[],
  search: string,
  typeId: string,
): T[] {
  const needle = search.trim().toLowerCase();
  return areas.filter(
    (area) =>
      (typeId === ALL_AREA_TYPES || area.ezTypeId === typeId) &&
      (!needle || area.displayName.toLowerCase().includes(needle) || area.description.toLowerCase().includes(needle)),
  );
}
