/**
 * Geometry types of the dashboard (part 2 §3 "Geometry types: point, line, circle, polygon. A circle
 * has a center and radius.") and the pure helpers the other domain files need: GeoJSON conversion,
 * coordinate truncation (part 2 §9: 7 decimals), distances and polygon area.
 *
 * Client geometry speaks `{ lat, lng }`; GeoJSON speaks `[lng, lat]`. Nothing here needs turf: the
 * few formulas are written out (haversine, spherical excess as turf's `area` computes it).
 */
import { z } from 'zod';
import { COORDINATE_DECIMALS } from './constants';
import { isValidLatLng, truncateCoordinate, type LatLng } from './coordinates';

/**
 * A position on the map (client side). One type and one truncation for the whole domain: both
 * live in coordinates.ts (the coordinate search box and the map menu use them too) and are
 * re-exported here so geometry users need one import.
 */
export { isValidLatLng, truncateCoordinate, type LatLng };

/** A position as the area write payload and lineStringArray name it (part 2 §3: "lat, lon"). */
export interface LatLon {
  lat: number;
  lon: number;
}

export type GeometryKind = 'point' | 'line' | 'circle' | 'polygon';

export interface PointGeometry {
  kind: 'point';
  position: LatLng;
}
export interface LineGeometry {
  kind: 'line';
  path: LatLng[];
}
/** part 2 §3: a circle has a center and a radius (metres). */
export interface CircleGeometry {
  kind: 'circle';
  center: LatLng;
  radius: number;
}
/** A polygon's ring is kept open (the first point is not repeated at the end). */
export interface PolygonGeometry {
  kind: 'polygon';
  ring: LatLng[];
}
export type Geometry = PointGeometry | LineGeometry | CircleGeometry | PolygonGeometry;

// ── GeoJSON wire shapes ──────────────────────────────────────────────────────

/** A GeoJSON position: [lng, lat] (an altitude, if sent, is ignored). */
export const geoJsonPositionSchema = z.array(z.number()).min(2);
export type GeoJsonPosition = z.infer<typeof geoJsonPositionSchema>;

export const geoJsonPointSchema = z.object({ type: z.literal('Point'), coordinates: geoJsonPositionSchema });
export const geoJsonLineStringSchema = z.object({
  type: z.literal('LineString'),
  coordinates: z.array(geoJsonPositionSchema).min(2),
});
export const geoJsonPolygonSchema = z.object({
  type: z.literal('Polygon'),
  coordinates: z.array(z.array(geoJsonPositionSchema)).min(1),
});
export const geoJsonGeometrySchema = z.discriminatedUnion('type', [geoJsonPointSchema, geoJsonLineStringSchema, geoJsonPolygonSchema]);
export type GeoJsonPoint = z.infer<typeof geoJsonPointSchema>;
export type GeoJsonLineString = z.infer<typeof geoJsonLineStringSchema>;
export type GeoJsonPolygon = z.infer<typeof geoJsonPolygonSchema>;
export type GeoJsonGeometry = z.infer<typeof geoJsonGeometrySchema>;

/**
 * A GeoJSON Feature carrying one geometry. GeoJSON has no circle: a circle travels as a Point
 * whose `properties.radius` holds the radius in metres (the convention of drawing tools), so the
 * round trip through `toGeoJsonFeature` / `fromGeoJsonFeature` is lossless.
 */
export const geoJsonFeatureSchema = z.object({
  type: z.literal('Feature'),
  geometry: geoJsonGeometrySchema,
  properties: z.record(z.string(), z.unknown()).nullish(),
});
export type GeoJsonFeature = z.infer<typeof geoJsonFeatureSchema>;

// ── coordinates ──────────────────────────────────────────────────────────────

/** part 2 §9: both parts of a position truncated (not rounded) to 7 decimals. */
export function truncateLatLng(p: LatLng, decimals: number = COORDINATE_DECIMALS): LatLng {
  return { lat: truncateCoordinate(p.lat, decimals), lng: truncateCoordinate(p.lng, decimals) };
}

export function toGeoJsonPosition(p: LatLng): [number, number] {
  return [p.lng, p.lat];
}

export function fromGeoJsonPosition(position: readonly number[]): LatLng {
  return { lat: position[1] ?? 0, lng: position[0] ?? 0 };
}

export function latLngToLatLon(p: LatLng): LatLon {
  return { lat: p.lat, lon: p.lng };
}

export function latLonToLatLng(p: LatLon): LatLng {
  return { lat: p.lat, lng: p.lon };
}

function samePosition(a: LatLng, b: LatLng): boolean {
  return a.lat === b.lat && a.lng === b.lng;
}

/** Drops the closing point of a ring when it repeats the first. */
export function openRing(ring: readonly LatLng[]): LatLng[] {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (ring.length > 1 && first && last && samePosition(first, last)) return ring.slice(0, -1);
  return [...ring];
}

/** Repeats the first point at the end (GeoJSON rings are closed). */
export function closeRing(ring: readonly LatLng[]): LatLng[] {
  const open = openRing(ring);
  const first = open[0];
  return first ? [...open, first] : [];
}

// ── GeoJSON conversion ───────────────────────────────────────────────────────

export function polygonToGeoJson(ring: readonly LatLng[]): GeoJsonPolygon {
  return { type: 'Polygon', coordinates: [closeRing(ring).map(toGeoJsonPosition)] };
}

/** The outer ring of a GeoJSON polygon, opened. */
export function polygonFromGeoJson(polygon: GeoJsonPolygon): LatLng[] {
  return openRing((polygon.coordinates[0] ?? []).map(fromGeoJsonPosition));
}

export function lineToGeoJson(path: readonly LatLng[]): GeoJsonLineString {
  return { type: 'LineString', coordinates: path.map(toGeoJsonPosition) };
}

export function toGeoJsonFeature(geometry: Geometry): GeoJsonFeature {
  switch (geometry.kind) {
    case 'point':
      return { type: 'Feature', geometry: { type: 'Point', coordinates: toGeoJsonPosition(geometry.position) }, properties: {} };
    case 'line':
      return { type: 'Feature', geometry: lineToGeoJson(geometry.path), properties: {} };
    case 'circle':
      return {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: toGeoJsonPosition(geometry.center) },
        properties: { radius: geometry.radius },
      };
    case 'polygon':
      return { type: 'Feature', geometry: polygonToGeoJson(geometry.ring), properties: {} };
  }
}

/** A Point with a positive numeric `properties.radius` is a circle; otherwise the geometry's own kind. */
export function fromGeoJsonFeature(feature: GeoJsonFeature): Geometry {
  const g = feature.geometry;
  switch (g.type) {
    case 'Point': {
      const position = fromGeoJsonPosition(g.coordinates);
      const radius = feature.properties?.['radius'];
      if (typeof radius === 'number' && radius > 0) return { kind: 'circle', center: position, radius };
      return { kind: 'point', position };
    }
    case 'LineString':
      return { kind: 'line', path: g.coordinates.map(fromGeoJsonPosition) };
    case 'Polygon':
      return { kind: 'polygon', ring: polygonFromGeoJson(g) };
  }
}

// ── measures ─────────────────────────────────────────────────────────────────

/** Mean Earth radius (WGS84 authalic, the value turf uses), metres. */
export const EARTH_RADIUS_M = 6_371_008.8;

const toRad = (deg: number): number => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceM(a: LatLng, b: LatLng): number {
  const dLat = toRad(b.lat - a.lat);
  const dLng = toRad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function isInCircle(p: LatLng, center: LatLng, radiusM: number): boolean {
  return distanceM(p, center) <= radiusM;
}

/** Ray casting on the ring (planar in degrees; fine at area scale). Points on an edge may go either way. */
export function isInPolygon(p: LatLng, ring: readonly LatLng[]): boolean {
  const pts = openRing(ring);
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i];
    const b = pts[j];
    if (!a || !b) continue;
    if (a.lat > p.lat !== b.lat > p.lat && p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng) {
      inside = !inside;
    }
  }
  return inside;
}

/** Area of a ring in square metres on the sphere (the formula and radius of turf's `area`); the server holds areas under 0.5 sq mi with it (part 2 §8). */
export function polygonAreaSqM(ring: readonly LatLng[]): number {
  const pts = openRing(ring);
  const n = pts.length;
  if (n < 3) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const lower = pts[i];
    const middle = pts[(i + 1) % n];
    const upper = pts[(i + 2) % n];
    if (!lower || !middle || !upper) continue;
    total += (toRad(upper.lng) - toRad(lower.lng)) * Math.sin(toRad(middle.lat));
  }
  return Math.abs((total * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** The mean of the ring's vertices: a marker position for a shape. */
export function ringCenter(ring: readonly LatLng[]): LatLng | null {
  const pts = openRing(ring);
  if (pts.length === 0) return null;
  const sum = pts.reduce((acc, p) => ({ lat: acc.lat + p.lat, lng: acc.lng + p.lng }), { lat: 0, lng: 0 });
  return { lat: sum.lat / pts.length, lng: sum.lng / pts.length };
}

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

export function boundsOf(points: readonly LatLng[]): Bounds | null {
  if (points.length === 0) return null;
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const p of points) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
    west = Math.min(west, p.lng);
    east = Math.max(east, p.lng);
  }
  return { south, west, north, east };
}

/** A circle drawn as an open ring of `steps` points (for maps that have no circle primitive). */
export function circleToRing(center: LatLng, radiusM: number, steps = 64): LatLng[] {
  const ring: LatLng[] = [];
  const angular = radiusM / EARTH_RADIUS_M;
  const lat1 = toRad(center.lat);
  const lng1 = toRad(center.lng);
  for (let i = 0; i < steps; i++) {
    const bearing = (2 * Math.PI * i) / steps;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angular) + Math.cos(lat1) * Math.sin(angular) * Math.cos(bearing));
    const lng2 =
      lng1 + Math.atan2(Math.sin(bearing) * Math.sin(angular) * Math.cos(lat1), Math.cos(angular) - Math.sin(lat1) * Math.sin(lat2));
    ring.push({ lat: (lat2 * 180) / Math.PI, lng: (lng2 * 180) / Math.PI });
  }
  return ring;
}

/** Every position of a geometry (a circle gives its center). */
export function geometryPositions(geometry: Geometry): LatLng[] {
  switch (geometry.kind) {
    case 'point':
      return [geometry.position];
    case 'line':
      return geometry.path;
    case 'circle':
      return [geometry.center];
    case 'polygon':
      return geometry.ring;
  }
}

// ── Web Mercator, as the maps draw (deck.gl's world: 512 px wide at zoom 0) ─────────────
/** The latitude limit of Web Mercator. */
export const MERCATOR_MAX_LAT = 85.051129;
/** deck.gl's world width at zoom 0, px. */
export const WORLD_SIZE_PX = 512;

/** The Mercator y of a latitude (radians of the projection; north is larger), clamped to the projection's limit. */
export function mercatorY(lat: number): number {
  const clamped = Math.max(-MERCATOR_MAX_LAT, Math.min(MERCATOR_MAX_LAT, lat));
  return Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360));
}

/** A position's pixel on the whole world at `zoom` ([0, 0] the north-west corner), as deck.gl counts zoom. */
export function worldPixel(lng: number, lat: number, zoom: number): [number, number] {
  const size = WORLD_SIZE_PX * 2 ** zoom;
  return [((lng + 180) / 360) * size, ((Math.PI - mercatorY(lat)) / (2 * Math.PI)) * size];
}
