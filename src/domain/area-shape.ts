/**
 * The ground an area covers on the map (part 1 §2 Map: "Area markers show asset counts"): the
 * shape drawn lightly filled, where its marker sits, and whether a position lies inside it. The
 * main thread converts its areas to shapes once; the live worker counts the fleet's assets in
 * them (src/workers/area-counts.ts) with the same `isInAreaShape`.
 */
import { z } from 'zod';
import type { Area } from './area';
import { STATION_RADIUS_DEFAULT_M } from './constants';
import { isInCircle, isInPolygon, openRing, ringCenter, type LatLng } from './geometry';

/** A ring needs this many corners to enclose anything. */
export const RING_MIN_CORNERS = 3;

const latLngSchema = z.object({ lat: z.number().finite(), lng: z.number().finite() });

/** The worker message's shape of an area (parsed at the worker boundary, CONVENTIONS §5). */
export const areaShapeSchema = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), kind: z.literal('circle'), center: latLngSchema, radius: z.number().positive() }),
  z.object({ id: z.string(), kind: z.literal('polygon'), ring: z.array(latLngSchema).min(RING_MIN_CORNERS) }),
]);
export type AreaShape = z.infer<typeof areaShapeSchema>;

type ShapedArea = Pick<Area, 'id' | 'position' | 'radius' | 'lineStringArray'>;

/**
 * An area's shape: its ring when it has one; otherwise a circle of its radius about its position —
 * a point area without a radius covers STATION_RADIUS_DEFAULT_M, as the station check reads it
 * (part 1 §9 "Station radius default 100 m"); a legacy area (no point, no ring) has none.
 */
export function areaShape(area: ShapedArea): AreaShape | null {
  const ring = openRing(area.lineStringArray.map((p) => ({ lat: p.lat, lng: p.lon })));
  if (ring.length >= RING_MIN_CORNERS) return { id: area.id, kind: 'polygon', ring };
  if (!area.position) return null;
  const radius = area.radius != null && area.radius > 0 ? area.radius : STATION_RADIUS_DEFAULT_M;
  return { id: area.id, kind: 'circle', center: { lat: area.position.lat, lng: area.position.lng }, radius };
}

/** Where an area's marker sits: its point, else the centre of its ring; null for a legacy area. */
export function areaMarkerPosition(area: ShapedArea): LatLng | null {
  if (area.position) return { lat: area.position.lat, lng: area.position.lng };
  return ringCenter(area.lineStringArray.map((p) => ({ lat: p.lat, lng: p.lon })));
}

export function isInAreaShape(p: LatLng, shape: AreaShape): boolean {
  return shape.kind === 'circle' ? isInCircle(p, shape.center, shape.radius) : isInPolygon(p, shape.ring);
}

/** Metres per degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320;

/** A box [west, south, east, north] holding the shape (a circle's is slightly generous). */
export function areaShapeBox(shape: AreaShape): [number, number, number, number] {
  if (shape.kind === 'circle') {
    const { lat, lng } = shape.center;
    const dLat = shape.radius / METRES_PER_DEGREE;
    const dLng = shape.radius / (METRES_PER_DEGREE * Math.max(Math.cos((lat * Math.PI) / 180), 1e-6));
    // 1 % margin: the box is a pre-filter, the exact test is isInAreaShape.
    return [lng - dLng * 1.01, lat - dLat * 1.01, lng + dLng * 1.01, lat + dLat * 1.01];
  }
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const p of shape.ring) {
    if (p.lng < west) west = p.lng;
    if (p.lng > east) east = p.lng;
    if (p.lat < south) south = p.lat;
    if (p.lat > north) north = p.lat;
  }
  return [west, south, east, north];
}
