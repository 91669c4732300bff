import { describe, expect, it } from 'vitest';
import { COORDINATE_DECIMALS, SQ_METRES_PER_SQ_MILE } from '../../src/domain/constants';
import {
  boundsOf,
  circleToRing,
  closeRing,
  distanceM,
  fromGeoJsonFeature,
  geoJsonFeatureSchema,
  geometryPositions,
  isInCircle,
  isInPolygon,
  MERCATOR_MAX_LAT,
  mercatorY,
  worldPixel,
  isValidLatLng,
  openRing,
  polygonAreaSqM,
  polygonFromGeoJson,
  polygonToGeoJson,
  ringCenter,
  toGeoJsonFeature,
  truncateCoordinate,
  truncateLatLng,
  type Geometry,
  type LatLng,
} from '../../src/domain/geometry';

describe('part2 §9 coordinates truncated to 7 decimals', () => {
  it('uses 7 decimals by default', () => {
    expect(COORDINATE_DECIMALS).toBe(7);
  });

  it.each([
    [1.12345678, 1.1234567],
    [1.12345679999, 1.1234567], // truncated, not rounded
    [-1.12345679999, -1.1234567], // toward zero
    [1.1234567, 1.1234567], // exactly 7 decimals stays (no 1e7 float drift)
    [0.1234567, 0.1234567],
    [39.7392358, 39.7392358],
    [9.7592425, 9.7592425], // Math.trunc(v * 1e7) / 1e7 would give 9.7592424
    [-89.2625308, -89.2625308],
    [1.005, 1.005], // ... and 1.0049999 here
    [-104.990251, -104.990251],
    [12, 12],
    [1.5, 1.5],
    [0.00000001, 0], // exponent form
    [-0.00000009, 0], // no -0
    [0.000000123, 0.0000001],
  ])('truncateCoordinate(%s) = %s', (value, expected) => {
    const result = truncateCoordinate(value);
    expect(result).toBe(expected);
    expect(Object.is(result, -0)).toBe(false);
  });

  it.each([
    [1.987654321, 0, 1],
    [1.987654321, 2, 1.98],
    [-1.987654321, 5, -1.98765],
  ])('truncateCoordinate(%s, %s) = %s', (value, decimals, expected) => {
    expect(truncateCoordinate(value, decimals)).toBe(expected);
  });

  it('keeps non-finite values', () => {
    expect(truncateCoordinate(Number.NaN)).toBeNaN();
    expect(truncateCoordinate(Infinity)).toBe(Infinity);
  });

  it('truncates both parts of a position', () => {
    expect(truncateLatLng({ lat: 39.123456789, lng: -104.987654321 })).toEqual({ lat: 39.1234567, lng: -104.9876543 });
  });
});

describe('part2 §3 geometry types and GeoJSON', () => {
  const a: LatLng = { lat: 39, lng: -105 };
  const b: LatLng = { lat: 39.01, lng: -105 };
  const c: LatLng = { lat: 39.01, lng: -104.99 };

  it.each<[string, Geometry]>([
    ['point', { kind: 'point', position: a }],
    ['line', { kind: 'line', path: [a, b, c] }],
    ['circle', { kind: 'circle', center: a, radius: 250 }],
    ['polygon', { kind: 'polygon', ring: [a, b, c] }],
  ])('%s survives a GeoJSON round trip', (_name, geometry) => {
    const feature = toGeoJsonFeature(geometry);
    expect(geoJsonFeatureSchema.parse(feature)).toEqual(feature);
    expect(fromGeoJsonFeature(feature)).toEqual(geometry);
  });

  it('writes [lng, lat] and closes polygon rings', () => {
    const polygon = polygonToGeoJson([a, b, c]);
    expect(polygon.coordinates[0]).toEqual([
      [-105, 39],
      [-105, 39.01],
      [-104.99, 39.01],
      [-105, 39],
    ]);
    expect(polygonFromGeoJson(polygon)).toEqual([a, b, c]);
  });

  it('a circle is a Point with a radius property', () => {
    const feature = toGeoJsonFeature({ kind: 'circle', center: a, radius: 100 });
    expect(feature.geometry).toEqual({ type: 'Point', coordinates: [-105, 39] });
    expect(feature.properties).toEqual({ radius: 100 });
  });

  it.each([[0], [-5], ['100']])('a Point with radius %j is a point', (radius) => {
    expect(fromGeoJsonFeature({ type: 'Feature', geometry: { type: 'Point', coordinates: [-105, 39] }, properties: { radius } }).kind).toBe(
      'point',
    );
  });

  it('open and close rings', () => {
    expect(closeRing([a, b, c])).toEqual([a, b, c, a]);
    expect(closeRing([a, b, c, a])).toEqual([a, b, c, a]);
    expect(openRing([a, b, c, a])).toEqual([a, b, c]);
    expect(openRing([a, b, c])).toEqual([a, b, c]);
    expect(closeRing([])).toEqual([]);
  });

  it('lists positions', () => {
    expect(geometryPositions({ kind: 'circle', center: a, radius: 1 })).toEqual([a]);
    expect(geometryPositions({ kind: 'line', path: [a, b] })).toEqual([a, b]);
  });

  it.each([
    [{ lat: 0, lng: 0 }, true],
    [{ lat: 90, lng: 180 }, true],
    [{ lat: 90.0000001, lng: 0 }, false],
    [{ lat: 0, lng: -180.0000001 }, false],
    [{ lat: Number.NaN, lng: 0 }, false],
  ])('isValidLatLng(%j) = %s', (p, expected) => {
    expect(isValidLatLng(p)).toBe(expected);
  });
});

describe('geometry measures', () => {
  it('one degree of latitude is about 111.2 km', () => {
    expect(distanceM({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_195, -1);
    expect(distanceM({ lat: 10, lng: 10 }, { lat: 10, lng: 10 })).toBe(0);
  });

  it('circle membership includes the edge', () => {
    const center = { lat: 39, lng: -105 };
    const edge = { lat: 39.001, lng: -105 };
    const d = distanceM(center, edge);
    expect(isInCircle(edge, center, d)).toBe(true);
    expect(isInCircle(edge, center, d - 0.01)).toBe(false);
  });

  it('point in polygon', () => {
    const square = [
      { lat: 0, lng: 0 },
      { lat: 0, lng: 1 },
      { lat: 1, lng: 1 },
      { lat: 1, lng: 0 },
    ];
    expect(isInPolygon({ lat: 0.5, lng: 0.5 }, square)).toBe(true);
    expect(isInPolygon({ lat: 1.5, lng: 0.5 }, square)).toBe(false);
    expect(isInPolygon({ lat: 0.5, lng: 0.5 }, closeRing(square))).toBe(true);
  });

  it('polygon area of a 1 mile square near the equator is about 1 sq mile', () => {
    // 1 mile = 1609.344 m; at the equator 1 degree ≈ 111 195 m on the sphere.
    const deg = 1609.344 / 111_195;
    const square = [
      { lat: 0, lng: 0 },
      { lat: 0, lng: deg },
      { lat: deg, lng: deg },
      { lat: deg, lng: 0 },
    ];
    expect(polygonAreaSqM(square) / SQ_METRES_PER_SQ_MILE).toBeCloseTo(1, 2);
    expect(polygonAreaSqM(square.slice(0, 2))).toBe(0);
  });

  it('circleToRing stays at the radius', () => {
    const center = { lat: 45, lng: 7 };
    const ring = circleToRing(center, 500, 16);
    expect(ring).toHaveLength(16);
    for (const p of ring) expect(distanceM(center, p)).toBeCloseTo(500, 3);
  });

  it('center and bounds', () => {
    const pts = [
      { lat: 0, lng: 0 },
      { lat: 2, lng: 4 },
    ];
    expect(ringCenter(pts)).toEqual({ lat: 1, lng: 2 });
    expect(ringCenter([])).toBeNull();
    expect(boundsOf(pts)).toEqual({ south: 0, west: 0, north: 2, east: 4 });
    expect(boundsOf([])).toBeNull();
  });
});

describe('Web Mercator pixels as the maps draw (deck.gl: a 512 px world at zoom 0)', () => {
  it('the centre, the corners, and a zoom level doubling every distance', () => {
    expect(worldPixel(0, 0, 0)).toEqual([256, 256]);
    const [x, y] = worldPixel(-180, 90, 0); // the latitude is clamped to the projection's limit
    expect(x).toBe(0);
    expect(y).toBeCloseTo(0, 4);
    expect(worldPixel(180, -MERCATOR_MAX_LAT, 1)[1]).toBeCloseTo(1024, 4);
    const a = worldPixel(-97.7, 30.3, 12);
    const b = worldPixel(-97.6, 30.2, 12);
    const a2 = worldPixel(-97.7, 30.3, 13);
    const b2 = worldPixel(-97.6, 30.2, 13);
    expect(b2[0] - a2[0]).toBeCloseTo(2 * (b[0] - a[0]), 6);
    expect(b2[1] - a2[1]).toBeCloseTo(2 * (b[1] - a[1]), 6);
    expect(mercatorY(0)).toBeCloseTo(0, 12);
  });
});
