/**
 * The offline basemap: land, countries, US states and counties from the bundled
 * world-atlas and us-atlas TopoJSON, and the raster tile template (VITE_BASEMAP_TILES).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Topology, GeometryCollection } from 'topojson-specification';
import { WebMercatorViewport } from '@deck.gl/core';
import type { Feature, FeatureCollection, MultiLineString, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import {
  basemapFromTopology,
  basemapTilesTemplate,
  cellRangeOf,
  type CellRange,
  DEFAULT_BASEMAP_TILES,
  offlineBasemapLayers,
  OUTLINE_CELL_DEG,
  outlinesWithin,
  tileUrl,
  triangulateLand,
  type LandMesh,
} from '../../src/map/basemap';
import { viewCells } from '../../src/map/map-view';
import { BASEMAP_STYLES, COUNTY_MIN_ZOOM } from '../../src/map/basemap-style';

const read = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../node_modules', file), 'utf8')) as Topology<
    Record<string, GeometryCollection>
  >;
/** The polygon of a mesh vertex: the last polygon starting at or before it. */
function polygonOf(startIndices: Uint32Array, vertex: number): number {
  let low = 0;
  let high = startIndices.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (startIndices[mid]! <= vertex) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The area of a mesh's `t`-th triangle (planar, in square degrees). */
function triangleArea({ positions, indices }: LandMesh, t: number): number {
  const [a, b, c] = [indices[t * 3]! * 2, indices[t * 3 + 1]! * 2, indices[t * 3 + 2]! * 2];
  return (
    Math.abs(
      (positions[b]! - positions[a]!) * (positions[c + 1]! - positions[a + 1]!) -
        (positions[c]! - positions[a]!) * (positions[b + 1]! - positions[a + 1]!),
    ) / 2
  );
}

/** The summed area of a mesh's triangles. */
function meshArea(mesh: LandMesh): number {
  let area = 0;
  for (let t = 0; t < mesh.indices.length / 3; t += 1) area += triangleArea(mesh, t);
  return area;
}
const basemap = basemapFromTopology(read('world-atlas/countries-50m.json'), read('us-atlas/counties-10m.json'));

describe('offline basemap from the bundled TopoJSON', () => {
  it('has the land triangulated and country, state and county borders', () => {
    const { polygons, startIndices, positions, indices } = basemap.land;
    const vertices = positions.length / 2;
    expect(polygons).toBeGreaterThan(100);
    expect(startIndices.length).toBe(polygons);
    expect(indices.length % 3).toBe(0);
    expect(indices.length).toBeGreaterThan(vertices);
    // Each triangle's three corners are vertices of one polygon.
    for (let i = 0; i < indices.length; i += 3) {
      expect(indices[i]! < vertices && indices[i + 1]! < vertices && indices[i + 2]! < vertices).toBe(true);
      const polygon = polygonOf(startIndices, indices[i]!);
      if (polygonOf(startIndices, indices[i + 1]!) !== polygon || polygonOf(startIndices, indices[i + 2]!) !== polygon)
        throw new Error(`triangle ${i / 3} spans two polygons`);
    }
    for (const lines of [basemap.countries, basemap.states, basemap.counties]) {
      expect(lines.type).toBe('MultiLineString');
      expect(lines.coordinates.length).toBeGreaterThan(10);
    }
    // Counties are finer than states.
    expect(basemap.counties.coordinates.length).toBeGreaterThan(basemap.states.coordinates.length);
  });

  it('covers Austin: a state border line passes within Texas longitudes', () => {
    const inTexas = basemap.states.coordinates.some((line) =>
      line.some(([lng, lat]) => lng! > -107 && lng! < -93 && lat! > 25 && lat! < 37),
    );
    expect(inTexas).toBe(true);
  });

  it("the triangles cover the land exactly: each polygon's triangles have its area (outer ring less holes)", () => {
    const world = read('world-atlas/countries-50m.json');
    const land = feature(world, world.objects.land!) as unknown as FeatureCollection<Polygon | MultiPolygon>;
    const polygons = land.features.flatMap(({ geometry }) => (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates));
    expect(polygons.length).toBe(basemap.land.polygons);
    const ringArea = (ring: Position[]) => {
      let twice = 0;
      for (let i = 0; i < ring.length - 1; i += 1) twice += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!;
      return Math.abs(twice) / 2;
    };
    const { startIndices, indices } = basemap.land;
    const triangleAreas = new Float64Array(polygons.length);
    for (let t = 0; t < indices.length / 3; t += 1) {
      const polygon = polygonOf(startIndices, indices[t * 3]!);
      triangleAreas[polygon] = triangleAreas[polygon]! + triangleArea(basemap.land, t);
    }
    // The few polygons the data cuts at the antimeridian (Eurasia, Antarctica, Fiji, Wrangel Island)
    // run along ±180° and are not simple rings in the plane: left out of the comparison.
    let compared = 0;
    polygons.forEach((rings, polygon) => {
      if (rings[0]!.some(([lng]) => Math.abs(lng!) === 180)) return;
      compared += 1;
      const expected = ringArea(rings[0]!) - rings.slice(1).reduce((sum, hole) => sum + ringArea(hole), 0);
      if (Math.abs(triangleAreas[polygon]! - expected) > 1e-9 * Math.max(1, expected))
        throw new Error(`polygon ${polygon}: triangles ${triangleAreas[polygon]} against ${expected}`);
    });
    expect(compared).toBeGreaterThan(polygons.length - 10);
  });

  it('triangulates a polygon with a hole and a multipolygon into one mesh', () => {
    const square = (x: number, y: number, side: number): Position[] => [
      [x, y],
      [x + side, y],
      [x + side, y + side],
      [x, y + side],
      [x, y],
    ];
    const mesh = triangulateLand({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [square(0, 0, 10), square(4, 4, 2)] } },
        { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: [[square(20, 0, 3)], [square(30, 0, 1)]] } },
        {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
        },
      ],
    });
    expect(mesh.polygons).toBe(3);
    expect([...mesh.startIndices]).toEqual([0, 10, 15]);
    expect(mesh.positions.length).toBe(20 * 2);
    expect(meshArea(mesh)).toBeCloseTo(100 - 4 + 9 + 1, 9);
  });

  it('builds land, county, state and country layers; counties only from COUNTY_MIN_ZOOM', () => {
    const far = offlineBasemapLayers(basemap, COUNTY_MIN_ZOOM - 1);
    expect(far.map((layer) => layer.id)).toEqual(['basemap-land', 'basemap-counties', 'basemap-states', 'basemap-countries']);
    // The land is drawn from its mesh as it is: deck.gl neither normalizes nor triangulates it again.
    const land = far[0]!.props as unknown as { data: { length: number; attributes: { indices: Uint32Array } }; _normalize: boolean };
    expect(land.data.length).toBe(basemap.land.polygons);
    expect(land.data.attributes.indices).toBe(basemap.land.indices);
    expect(land._normalize).toBe(false);
    expect(far[1]!.props.visible).toBe(false);
    expect(offlineBasemapLayers(basemap, COUNTY_MIN_ZOOM)[1]!.props.visible).toBe(true);
  });

  it('README "Night mode": the land and outlines take the theme’s colours (day by default)', () => {
    const props = (layer: unknown) => (layer as { props: { getFillColor?: unknown; getLineColor?: unknown } }).props;
    const colours = (layers: ReturnType<typeof offlineBasemapLayers>) => [
      props(layers[0]).getFillColor,
      ...layers.slice(1).map((layer) => props(layer).getLineColor),
    ];
    const { land, county, state, country } = BASEMAP_STYLES.night.outlines;
    expect(colours(offlineBasemapLayers(basemap, COUNTY_MIN_ZOOM, BASEMAP_STYLES.night))).toEqual([land, county, state, country]);
    const day = BASEMAP_STYLES.day.outlines;
    expect(colours(offlineBasemapLayers(basemap, COUNTY_MIN_ZOOM))).toEqual([day.land, day.county, day.state, day.country]);
    // Night is dark: the land's brightness under a fifth of day's.
    const brightness = (rgb: readonly number[]) => (rgb[0]! + rgb[1]! + rgb[2]!) / 3;
    expect(brightness(land)).toBeLessThan(brightness(day.land) / 5 + 10);
  });
});

describe('only the outlines near the view are drawn', () => {
  const WINDOW = { width: 1440, height: 900 };
  /** The view's own bounds, as deck.gl computes them. */
  const viewBounds = (longitude: number, latitude: number, zoom = 11) =>
    new WebMercatorViewport({ longitude, latitude, zoom, ...WINDOW }).getBounds() as [number, number, number, number];
  /** A cell range in degrees [west, south, east, north]. */
  const degrees = (range: CellRange) =>
    [range.west, range.south, range.east + 1, range.north + 1].map((cell, i) => cell * OUTLINE_CELL_DEG - (i % 2 === 0 ? 180 : 90)) as [
      number,
      number,
      number,
      number,
    ];
  /** Austin at street zoom, as the dashboard opens. */
  const austin = viewCells({ longitude: -97.7431, latitude: 30.2672, zoom: 11 }, WINDOW);

  it('a city view touches a few grid cells that hold its bounds; a world view or one across the antimeridian none (all drawn)', () => {
    expect(austin).not.toBeNull();
    const [west, south, east, north] = degrees(austin!);
    const [vw, vs, ve, vn] = viewBounds(-97.7431, 30.2672);
    expect([west <= vw, south <= vs, east >= ve, north >= vn]).toEqual([true, true, true, true]);
    expect((austin!.east - austin!.west + 1) * (austin!.north - austin!.south + 1)).toBeLessThanOrEqual(4);
    expect(viewCells({ longitude: 0, latitude: 0, zoom: 1 }, WINDOW)).toBeNull();
    expect(cellRangeOf([179, 10, 181, 12])).toBeNull();
    expect(cellRangeOf(null)).toBeNull();
    // A tilted camera sees far past its box: everything is drawn.
    expect(viewCells({ longitude: -97.7, latitude: 30.3, zoom: 11, pitch: 40 }, WINDOW)).toBeNull();
  });

  it.each([
    ['counties', 'Austin', -97.7431, 30.2672],
    ['states', 'the Texas–Louisiana line', -93.9, 31.5],
    ['countries', 'El Paso and Juárez', -106.45, 31.76],
  ] as const)('%s over %s: every line with a point in view is kept, far fewer than the whole mesh', (name, _place, longitude, latitude) => {
    const mesh = basemap[name];
    const range = viewCells({ longitude, latitude, zoom: 9 }, WINDOW);
    const [west, south, east, north] = viewBounds(longitude, latitude, 9);
    const near = outlinesWithin(mesh, range);
    const expected = mesh.coordinates.filter((line) =>
      line.some(([lng, lat]) => lng! >= west && lng! <= east && lat! >= south && lat! <= north),
    );
    expect(expected.length).toBeGreaterThan(0);
    const kept = new Set(near.coordinates);
    expect(expected.filter((line) => !kept.has(line))).toEqual([]);
    expect(near.coordinates.length).toBeLessThan(mesh.coordinates.length / 10);
    // The whole mesh, the same object (nothing rebuilt), when no cells are given.
    expect(outlinesWithin(mesh, null)).toBe(mesh);
  });

  it('the layers take the near outlines; the same cells give the same lines', () => {
    const lineCount = (layers: ReturnType<typeof offlineBasemapLayers>, i: number) =>
      ((layers[i]!.props as unknown as { data: Feature<MultiLineString> }).data.geometry as MultiLineString).coordinates.length;
    const near = offlineBasemapLayers(basemap, 11, BASEMAP_STYLES.day, austin);
    const all = offlineBasemapLayers(basemap, 11);
    expect(lineCount(near, 1)).toBeGreaterThan(0);
    expect(lineCount(near, 1)).toBeLessThan(lineCount(all, 1));
    expect(lineCount(all, 1)).toBe(basemap.counties.coordinates.length);
    expect(lineCount(offlineBasemapLayers(basemap, 11, BASEMAP_STYLES.day, austin), 1)).toBe(lineCount(near, 1));
  });
});

describe('raster tiles (VITE_BASEMAP_TILES)', () => {
  it.each([
    [{}, DEFAULT_BASEMAP_TILES],
    [{ VITE_BASEMAP_TILES: 'https://tiles.example/{z}/{x}/{y}.png' }, 'https://tiles.example/{z}/{x}/{y}.png'],
    [{ VITE_BASEMAP_TILES: '' }, null],
    [{ VITE_BASEMAP_TILES: 'none' }, null],
  ])('%j → %s', (env, template) => {
    expect(basemapTilesTemplate(env)).toBe(template);
  });

  it('fills the template', () => {
    expect(tileUrl(DEFAULT_BASEMAP_TILES, 3, 5, 4)).toBe('https://tile.openstreetmap.org/4/3/5.png');
    expect(tileUrl('https://{s}.tiles.example/{z}/{x}/{y}', 1, 2, 3)).toBe('https://a.tiles.example/3/1/2');
  });
});
