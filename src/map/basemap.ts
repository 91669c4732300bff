/**
 * The standalone map's basemap (ARCHITECTURE "Embedded default"): an offline
 * layer set built from the bundled TopoJSON of world-atlas (land, countries) and us-atlas (states,
 * counties), so the map is never empty without a network, and raster tiles from a URL template
 * (VITE_BASEMAP_TILES, OpenStreetMap's by default) drawn above it when they load. A tile that fails
 * (no network) is simply not drawn: the offline basemap shows through.
 */
import { GeoJsonLayer, BitmapLayer } from '@deck.gl/layers';
import { TileLayer, type TileLayerProps } from '@deck.gl/geo-layers';
import type { Layer } from '@deck.gl/core';
import type { Feature, FeatureCollection, GeoJsonProperties, Geometry, MultiLineString } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import worldUrl from 'world-atlas/countries-50m.json?url';
import usUrl from 'us-atlas/counties-10m.json?url';
import { BASEMAP_COLORS, BASEMAP_STYLES, COUNTY_MIN_ZOOM, type BasemapStyle } from './basemap-style';

export { BASEMAP_COLORS, COUNTY_MIN_ZOOM };

/** OpenStreetMap's standard tiles (their usage policy applies; README "Configuration"). */
export const DEFAULT_BASEMAP_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const BASEMAP_ATTRIBUTION = '© OpenStreetMap contributors';

export interface BasemapData {
  land: FeatureCollection;
  countries: MultiLineString;
  states: MultiLineString;
  counties: MultiLineString;
}

/** The tile URL template from the environment (VITE_BASEMAP_TILES), or OpenStreetMap's; '' or 'none' turns tiles off. */
export function basemapTilesTemplate(env: Record<string, string | boolean | undefined> = import.meta.env): string | null {
  const value = env.VITE_BASEMAP_TILES;
  if (typeof value !== 'string') return DEFAULT_BASEMAP_TILES;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'none') return null;
  return trimmed;
}

/** A tile URL from a template with {z}, {x}, {y} (and {s} → 'a'). */
export function tileUrl(template: string, x: number, y: number, z: number): string {
  return template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)).replace('{s}', 'a');
}

type Objects = Record<string, GeometryCollection>;

function featureCollection(topology: Topology<Objects>, name: string): FeatureCollection {
  const object = topology.objects[name];
  if (!object) throw new Error(`The basemap has no '${name}'`);
  const result = feature(topology, object) as FeatureCollection | Feature<Geometry, GeoJsonProperties>;
  return result.type === 'FeatureCollection' ? result : { type: 'FeatureCollection', features: [result] };
}

/** Shared borders once (a mesh), not each polygon's ring: half the segments, no double lines. */
function borders(topology: Topology<Objects>, name: string, interior: boolean): MultiLineString {
  const object = topology.objects[name];
  if (!object) throw new Error(`The basemap has no '${name}'`);
  return interior ? mesh(topology, object, (a, b) => a !== b) : mesh(topology, object);
}

/** The offline basemap from the two TopoJSON files (pure: tested with the bundled files). */
export function basemapFromTopology(world: Topology<Objects>, us: Topology<Objects>): BasemapData {
  return {
    land: featureCollection(world, 'land'),
    countries: borders(world, 'countries', true),
    states: borders(us, 'states', true),
    counties: borders(us, 'counties', true),
  };
}

let loading: Promise<BasemapData> | null = null;

/** Fetches the bundled TopoJSON (served with the app, no network beyond it) once per page. */
export function loadBasemap(fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)): Promise<BasemapData> {
  loading ??= (async () => {
    const get = async (url: string) => {
      const response = await fetcher(url);
      if (!response.ok) throw new Error(`basemap ${url}: HTTP ${response.status}`);
      return (await response.json()) as Topology<Objects>;
    };
    const [world, us] = await Promise.all([get(worldUrl), get(usUrl)]);
    return basemapFromTopology(world, us);
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Land, country, state and county outlines; the water is the map's background colour. */
export function offlineBasemapLayers(data: BasemapData, zoom: number, style: BasemapStyle = BASEMAP_STYLES.day): Layer[] {
  const colors = style.outlines;
  const lines = (id: string, geometry: MultiLineString, color: [number, number, number, number], width: number, visible = true) =>
    new GeoJsonLayer({
      id,
      data: { type: 'Feature', geometry, properties: {} } as Feature,
      visible,
      stroked: true,
      filled: false,
      getLineColor: color,
      lineWidthUnits: 'pixels',
      getLineWidth: width,
      pickable: false,
    });
  return [
    new GeoJsonLayer({
      id: 'basemap-land',
      data: data.land,
      filled: true,
      stroked: false,
      getFillColor: colors.land,
      updateTriggers: { getFillColor: colors },
      pickable: false,
    }),
    lines('basemap-counties', data.counties, colors.county, 0.5, zoom >= COUNTY_MIN_ZOOM),
    lines('basemap-states', data.states, colors.state, 1),
    lines('basemap-countries', data.countries, colors.country, 1.2),
  ];
}

/** Raster tiles above the offline basemap; a failed tile draws nothing (`onTileError` keeps it quiet). */
/** Tiles that fail to load (no answer at all) before any loads: the tile server is unreachable. */
export const TILE_FAILURES_UNREACHABLE = 3;

/**
 * Counts tile loads and network failures; tells `onUnreachable` once when TILE_FAILURES_UNREACHABLE
 * tiles failed before any loaded (offline: the offline basemap alone is then drawn, and no failed
 * tile keeps redrawing it).
 */
export function createTileReachability(onUnreachable: () => void): { loaded(): void; failed(): void } {
  let loaded = 0;
  let failed = 0;
  let told = false;
  return {
    loaded() {
      loaded += 1;
    },
    failed() {
      failed += 1;
      if (!told && loaded === 0 && failed >= TILE_FAILURES_UNREACHABLE) {
        told = true;
        onUnreachable();
      }
    },
  };
}

export function rasterTileLayer(
  template: string,
  props: Partial<TileLayerProps> = {},
  reachability?: { loaded(): void; failed(): void },
): TileLayer {
  return new TileLayer({
    id: 'basemap-tiles',
    minZoom: 0,
    maxZoom: 19,
    tileSize: 256,
    maxRequests: 6,
    ...props,
    getTileData: async ({ index, signal }) => {
      let response: Response;
      try {
        response = await fetch(tileUrl(template, index.x, index.y, index.z), { signal: signal ?? null, mode: 'cors' });
      } catch (error) {
        // A cancelled request (the view moved on) says nothing about the server.
        if (!signal?.aborted) reachability?.failed();
        throw error;
      }
      reachability?.loaded();
      if (!response.ok) return null;
      return createImageBitmap(await response.blob());
    },
    onTileError: () => {
      // No network, or the tile server said no: the offline basemap shows through.
    },
    renderSubLayers: (sub) => {
      // A geospatial tile's box: [[west, south], [east, north]].
      const [[west, south], [east, north]] = sub.tile.boundingBox as unknown as [[number, number], [number, number]];
      if (!sub.data) return null;
      return new BitmapLayer({
        id: `${sub.id}-bitmap`,
        image: sub.data as ImageBitmap,
        bounds: [west, south, east, north],
      });
    },
  });
}
