/**
 * The offline basemap: land, countries, US states and counties from the bundled
 * world-atlas and us-atlas TopoJSON, and the raster tile template (VITE_BASEMAP_TILES).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Topology, GeometryCollection } from 'topojson-specification';
import { basemapFromTopology, basemapTilesTemplate, DEFAULT_BASEMAP_TILES, offlineBasemapLayers, tileUrl } from '../../src/map/basemap';
import { BASEMAP_STYLES, COUNTY_MIN_ZOOM } from '../../src/map/basemap-style';

const read = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../node_modules', file), 'utf8')) as Topology<
    Record<string, GeometryCollection>
  >;
const basemap = basemapFromTopology(read('world-atlas/countries-50m.json'), read('us-atlas/counties-10m.json'));

describe('offline basemap from the bundled TopoJSON', () => {
  it('has land polygons and country, state and county borders', () => {
    expect(basemap.land.features.length).toBeGreaterThan(0);
    expect(basemap.land.features[0]!.geometry.type).toMatch(/Polygon/);
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

  it('builds land, county, state and country layers; counties only from COUNTY_MIN_ZOOM', () => {
    const far = offlineBasemapLayers(basemap, COUNTY_MIN_ZOOM - 1);
    expect(far.map((layer) => layer.id)).toEqual(['basemap-land', 'basemap-counties', 'basemap-states', 'basemap-countries']);
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
