/**
 * The areas layer's pure parts (part1 §2 Map): markers
 * from the organization's areas with the worker's counts, the outline of each shape, the badge
 * text, and the targeted area drawn in the focus colour.
 */
import { describe, expect, it } from 'vitest';
import { fromAreaWire, type AreaWire } from '../../src/domain/area';
import { METRES_PER_MILE } from '../../src/domain/constants';
import { distanceM, worldPixel } from '../../src/domain/geometry';
import { AREA_BADGE_BORDER_COLOR, AREA_LINE_COLOR, AREA_TARGET_LINE_COLOR } from '../../src/map/layers/overlay-style';
import {
  AREA_COUNT_PENDING,
  areaCountLabel,
  areaMarkers,
  areasLayers,
  AREA_BADGE_SPACING_PX,
  CIRCLE_STEPS,
  shapeOutline,
  visibleBadges,
  type AreaMarker,
} from '../../src/map/layers/areas-layer';

const TYPE = { id: 'type-1', db_name: 'station', display_name: 'Station', is_station_view: true };

function area(id: string, overrides: Partial<AreaWire>) {
  return fromAreaWire({ id, organization_id: 'org-1', name: `Area ${id}`, ez_type: TYPE, ...overrides });
}

const station = area('s', { point_geom: { lat: 30.3, lon: -97.7 }, radius_dist: 0.06 });
const park = area('p', {
  area_geom: {
    type: 'Polygon',
    coordinates: [
      [
        [-97.78, 30.26],
        [-97.77, 30.26],
        [-97.77, 30.27],
        [-97.78, 30.26],
      ],
    ],
  },
});
const legacy = area('l', {});

interface TextProps {
  id: string;
  data: AreaMarker[];
  getText: (m: AreaMarker) => string;
  getPosition: (m: AreaMarker) => [number, number];
  getBorderColor: (m: AreaMarker) => number[];
  characterSet: string;
  pickable: boolean;
}
interface PolygonProps {
  id: string;
  data: AreaMarker[];
  getPolygon: (m: AreaMarker) => [number, number][];
  getLineColor: (m: AreaMarker) => number[];
  pickable: boolean;
}

describe('part1 §2 Map "Area markers show asset counts"', () => {
  it('a marker per area that has somewhere to sit, with its count (null before the first count)', () => {
    const markers = areaMarkers([station, park, legacy], { s: 4, p: 0 });
    expect(markers.map((m) => [m.id, m.count])).toEqual([
      ['s', 4],
      ['p', 0],
    ]);
    expect(markers[0]!.position).toEqual([-97.7, 30.3]);
    expect(areaMarkers([station], null)[0]!.count).toBeNull();
    expect(areaMarkers([station], {})[0]!.count).toBeNull();
  });

  it('the badge reads the count, or a dash before the first count', () => {
    expect(areaCountLabel(12)).toBe('12');
    expect(areaCountLabel(0)).toBe('0');
    expect(areaCountLabel(null)).toBe(AREA_COUNT_PENDING);
  });

  it('a circle is drawn as a ring of its radius; a polygon by its own corners', () => {
    const [circle, polygon] = areaMarkers([station, park], null);
    const ring = shapeOutline(circle!.shape!);
    expect(ring).toHaveLength(CIRCLE_STEPS);
    for (const [lng, lat] of ring) expect(distanceM({ lat, lng }, { lat: 30.3, lng: -97.7 })).toBeCloseTo(0.06 * METRES_PER_MILE, 0);
    expect(shapeOutline(polygon!.shape!)).toEqual([
      [-97.78, 30.26],
      [-97.77, 30.26],
      [-97.77, 30.27],
    ]);
  });

  it('shapes (not pickable) and pickable count badges, as two layers; the targeted area is outlined in the focus colour', () => {
    const markers = areaMarkers([station, park], { s: 3, p: 1 });
    const layers = areasLayers({ markers, targetId: 'p', zoom: 14 });
    // Apart, so the map can draw the shapes under the fleet and the badges over it (dashboard-map).
    expect([layers.shapes.id, layers.badges.id]).toEqual(['area-shapes', 'area-markers']);
    const shapes = layers.shapes.props as unknown as PolygonProps;
    const badges = layers.badges.props as unknown as TextProps;
    expect(shapes.pickable).toBe(false);
    expect(badges.pickable).toBe(true);
    expect(badges.data.map((m) => badges.getText(m))).toEqual(['3', '1']);
    for (const m of badges.data) for (const ch of badges.getText(m)) expect(badges.characterSet).toContain(ch);
    expect(shapes.data.map((m) => shapes.getLineColor(m))).toEqual([AREA_LINE_COLOR, AREA_TARGET_LINE_COLOR]);
    expect(badges.data.map((m) => badges.getBorderColor(m))).toEqual([AREA_BADGE_BORDER_COLOR, AREA_TARGET_LINE_COLOR]);
  });

  it('zoomed out, badges that would overlap are thinned out: the targeted one, then the larger count, then the first; panning changes nothing', () => {
    // Three stations 300 m apart along a street, one 5 km away.
    const at = (id: string, lat: number, lng: number) => area(id, { point_geom: { lat, lon: lng }, radius_dist: 0.06 });
    const areas = [at('a', 30.3, -97.7), at('b', 30.3, -97.6969), at('c', 30.3, -97.6938), at('far', 30.345, -97.7)];
    const markers = areaMarkers(areas, { a: 2, b: 7, c: 0, far: 1 });
    const ids = (zoom: number, target: string | null = null) => visibleBadges(markers, zoom, target).map((m) => m.id);
    expect(ids(16)).toEqual(['a', 'b', 'c', 'far']);
    expect(ids(10)).toEqual(['b', 'far']);
    expect(ids(10, 'c')).toEqual(['c', 'far']);
    // no two badges drawn overlap, at any zoom
    for (let zoom = 8; zoom <= 16; zoom += 0.25) {
      const drawn = visibleBadges(markers, zoom, null).map((m) => worldPixel(m.position[0], m.position[1], zoom));
      for (const [i, p] of drawn.entries())
        for (const q of drawn.slice(i + 1))
          expect(Math.abs(p[0] - q[0]) >= AREA_BADGE_SPACING_PX.x || Math.abs(p[1] - q[1]) >= AREA_BADGE_SPACING_PX.y).toBe(true);
    }
    // the badge layer draws the thinned-out list
    const badges = areasLayers({ markers, targetId: null, zoom: 10 }).badges.props as unknown as TextProps;
    expect(badges.data.map((m) => badges.getText(m))).toEqual(['7', '1']);
  });
});
