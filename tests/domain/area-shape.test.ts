import { describe, expect, it } from 'vitest';
import { fromAreaWire, type AreaWire } from '../../src/domain/area';
import { areaMarkerPosition, areaShape, areaShapeBox, areaShapeSchema, isInAreaShape } from '../../src/domain/area-shape';
import { METRES_PER_MILE, STATION_RADIUS_DEFAULT_M } from '../../src/domain/constants';
import { distanceM } from '../../src/domain/geometry';

const TYPE = { id: 'type-1', db_name: 'work_yard', display_name: 'Work Yard', is_station_view: false };

function wire(overrides: Partial<AreaWire>): AreaWire {
  return { id: 'area-1', organization_id: 'org-1', name: 'Yard', ez_type: TYPE, ...overrides };
}

/** A square about (30.25, -97.75), 0.01° a side, closed as GeoJSON writes it. */
const SQUARE = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [-97.755, 30.245],
      [-97.745, 30.245],
      [-97.745, 30.255],
      [-97.755, 30.255],
      [-97.755, 30.245],
    ],
  ],
};

describe('part1 §2 Map area markers: the shape an area covers', () => {
  it('a drawn ring becomes a polygon (opened), whatever point the area also has', () => {
    const area = fromAreaWire(wire({ area_geom: SQUARE, point_geom: { lat: 30.25, lon: -97.75 } }));
    const shape = areaShape(area);
    expect(shape).toEqual({
      id: 'area-1',
      kind: 'polygon',
      ring: [
        { lat: 30.245, lng: -97.755 },
        { lat: 30.245, lng: -97.745 },
        { lat: 30.255, lng: -97.745 },
        { lat: 30.255, lng: -97.755 },
      ],
    });
    expect(areaShapeSchema.parse(shape)).toEqual(shape);
  });

  it('a point with a radius (miles on the wire) becomes a circle of that many metres', () => {
    const area = fromAreaWire(wire({ point_geom: { lat: 30.3, lon: -97.7 }, radius_dist: 0.12 }));
    expect(areaShape(area)).toEqual({ id: 'area-1', kind: 'circle', center: { lat: 30.3, lng: -97.7 }, radius: 0.12 * METRES_PER_MILE });
  });

  it.each([
    ['no radius', null],
    ['a zero radius', 0],
  ])('a point with %s covers the station default (part1 §9: 100 m)', (_label, radius) => {
    const area = fromAreaWire(wire({ point_geom: { lat: 30.3, lon: -97.7 }, radius_dist: radius }));
    expect(areaShape(area)).toMatchObject({ kind: 'circle', radius: STATION_RADIUS_DEFAULT_M });
  });

  it('a legacy area (no point, no ring) has no shape and no marker', () => {
    const area = fromAreaWire(wire({}));
    expect(area.isLegacy).toBe(true);
    expect(areaShape(area)).toBeNull();
    expect(areaMarkerPosition(area)).toBeNull();
  });

  it('the marker sits at the point, else at the centre of the ring', () => {
    expect(areaMarkerPosition(fromAreaWire(wire({ area_geom: SQUARE, point_geom: { lat: 30.2501, lon: -97.7502 } })))).toEqual({
      lat: 30.2501,
      lng: -97.7502,
    });
    const centre = areaMarkerPosition(fromAreaWire(wire({ area_geom: SQUARE })));
    expect(centre?.lat).toBeCloseTo(30.25, 9);
    expect(centre?.lng).toBeCloseTo(-97.75, 9);
  });

  it('inside tests: polygon by its ring, circle by great-circle distance', () => {
    const polygon = areaShape(fromAreaWire(wire({ area_geom: SQUARE })))!;
    expect(isInAreaShape({ lat: 30.25, lng: -97.75 }, polygon)).toBe(true);
    expect(isInAreaShape({ lat: 30.2449, lng: -97.75 }, polygon)).toBe(false);
    expect(isInAreaShape({ lat: 30.25, lng: -97.7449 }, polygon)).toBe(false);
    const circle = { id: 'c', kind: 'circle' as const, center: { lat: 30.3, lng: -97.7 }, radius: 100 };
    const near = { lat: 30.3008, lng: -97.7 };
    const far = { lat: 30.301, lng: -97.7 };
    expect(distanceM(circle.center, near)).toBeLessThan(100);
    expect(distanceM(circle.center, far)).toBeGreaterThan(100);
    expect(isInAreaShape(near, circle)).toBe(true);
    expect(isInAreaShape(far, circle)).toBe(false);
  });

  it('the box of a shape holds every point inside it', () => {
    const circle = { id: 'c', kind: 'circle' as const, center: { lat: 30.3, lng: -97.7 }, radius: 500 };
    const [west, south, east, north] = areaShapeBox(circle);
    for (let bearing = 0; bearing < 360; bearing += 15) {
      const rad = (bearing * Math.PI) / 180;
      const p = {
        lat: 30.3 + (499 / 111_320) * Math.cos(rad),
        lng: -97.7 + (499 / (111_320 * Math.cos((30.3 * Math.PI) / 180))) * Math.sin(rad),
      };
      expect(isInAreaShape(p, circle)).toBe(true);
      expect(p.lng >= west && p.lng <= east && p.lat >= south && p.lat <= north).toBe(true);
    }
    const polygon = areaShape(fromAreaWire(wire({ area_geom: SQUARE })))!;
    expect(areaShapeBox(polygon)).toEqual([-97.755, 30.245, -97.745, 30.255]);
  });

  it('the worker message schema refuses a ring of two corners and a non-positive radius', () => {
    expect(
      areaShapeSchema.safeParse({
        id: 'p',
        kind: 'polygon',
        ring: [
          { lat: 1, lng: 1 },
          { lat: 2, lng: 2 },
        ],
      }).success,
    ).toBe(false);
    expect(areaShapeSchema.safeParse({ id: 'c', kind: 'circle', center: { lat: 1, lng: 1 }, radius: 0 }).success).toBe(false);
  });
});
