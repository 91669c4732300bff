/**
 * Between the domain's shapes (src/domain/geometry.ts: point, line, circle, polygon — part 2 §3
 * "Geometry types") and the GeoJSON features the editable layer draws and edits. Pure: the
 * drawing session (draw-session.ts) and its tests call it.
 *
 * A circle is drawn as a ring (GeoJSON has none); its feature keeps the centre in
 * `properties.editProperties.center`, as the editable layer's circle modes write it, and its
 * radius is the distance from that centre to the ring (a resize keeps the centre).
 */
import type { Feature, Geometry as GeoJsonGeometry, Position } from 'geojson';
import { RING_MIN_CORNERS } from '../../domain/area-shape';
import {
  circleToRing,
  closeRing,
  distanceM,
  fromGeoJsonPosition,
  openRing,
  ringCenter,
  toGeoJsonPosition,
  truncateLatLng,
  type Geometry,
  type GeometryKind,
  type LatLng,
} from '../../domain/geometry';

/** What a form asks to draw: the domain's geometry kinds. */
export type DrawKind = GeometryKind;

/**
 * The fewest clicks that make each kind: a polygon needs a ring (part 2 §5 "Exclusions must have
 * at least 3 points"), a path two ends (part 2 §5 "user route needs at least 2 points"), a circle
 * its centre and a point on its edge.
 */
export const DRAW_MIN_POINTS: Readonly<Record<DrawKind, number>> = { point: 1, line: 2, circle: 2, polygon: RING_MIN_CORNERS };

/** Steps of a drawn circle's ring (the editable layer's own default). */
export const CIRCLE_STEPS = 64;

/** part 2 §9: coordinates truncated to 7 decimals — the drawn shape is already in that form. */
function latLng(position: Position): LatLng {
  return truncateLatLng(fromGeoJsonPosition(position));
}

/** The shape a sequence of clicks makes, or null while it has too few (the "Enter" of a drawing in progress). */
export function shapeFromClicks(kind: DrawKind, clicks: readonly Position[]): Geometry | null {
  if (clicks.length < DRAW_MIN_POINTS[kind]) return null;
  const points = clicks.map(latLng);
  switch (kind) {
    case 'point':
      return { kind: 'point', position: points[0]! };
    case 'line':
      return { kind: 'line', path: points };
    case 'polygon': {
      const ring = openRing(points);
      return ring.length >= RING_MIN_CORNERS ? { kind: 'polygon', ring } : null;
    }
    case 'circle': {
      const center = points[0]!;
      const radius = distanceM(center, points[1]!);
      return radius > 0 ? { kind: 'circle', center, radius } : null;
    }
  }
}

function circleCenterOf(feature: Feature): Position | null {
  const editProperties: unknown = feature.properties?.['editProperties'];
  if (editProperties && typeof editProperties === 'object' && 'center' in editProperties) {
    const center = (editProperties as { center: unknown }).center;
    if (Array.isArray(center) && center.length >= 2 && center.every((n) => typeof n === 'number')) return center as Position;
  }
  return null;
}

/** The domain shape of a drawn or edited feature, or null when it is not (or no longer) one of `kind`. */
export function shapeFromFeature(kind: DrawKind, feature: Feature | undefined): Geometry | null {
  const geometry: GeoJsonGeometry | undefined = feature?.geometry;
  if (!feature || !geometry) return null;
  switch (kind) {
    case 'point':
      return geometry.type === 'Point' ? shapeFromClicks('point', [geometry.coordinates]) : null;
    case 'line':
      return geometry.type === 'LineString' ? shapeFromClicks('line', geometry.coordinates) : null;
    case 'polygon':
      return geometry.type === 'Polygon' ? shapeFromClicks('polygon', geometry.coordinates[0] ?? []) : null;
    case 'circle': {
      if (geometry.type !== 'Polygon') return null;
      const ring = (geometry.coordinates[0] ?? []).map(fromGeoJsonPosition);
      const edge = ring[0];
      const stored = circleCenterOf(feature);
      const center = stored ? fromGeoJsonPosition(stored) : ringCenter(ring);
      if (!center || !edge) return null;
      const radius = distanceM(center, edge);
      return radius > 0 ? { kind: 'circle', center: truncateLatLng(center), radius } : null;
    }
  }
}

/** The feature the editable layer edits for a shape (an existing area, zone or closure path). */
export function featureFromShape(shape: Geometry): Feature {
  switch (shape.kind) {
    case 'point':
      return { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: toGeoJsonPosition(shape.position) } };
    case 'line':
      return { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: shape.path.map(toGeoJsonPosition) } };
    case 'polygon':
      return {
        type: 'Feature',
        properties: {},
        geometry: { type: 'Polygon', coordinates: [closeRing(shape.ring).map(toGeoJsonPosition)] },
      };
    case 'circle': {
      const center = toGeoJsonPosition(shape.center);
      return {
        type: 'Feature',
        properties: { shape: 'Circle', editProperties: { shape: 'Circle', center } },
        geometry: {
          type: 'Polygon',
          coordinates: [closeRing(circleToRing(shape.center, shape.radius, CIRCLE_STEPS)).map(toGeoJsonPosition)],
        },
      };
    }
  }
}
