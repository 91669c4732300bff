/**
 * Vector tiles (Mapbox Vector Tile, MVT) of the demo road network — the one the seed places the
 * fleet on and the simulator drives (./geography) — so `npm start` draws streets and their
 * names with no basemap file and no network (docs/map.md "Basemap").
 *
 * Tiles are cut on demand by geojson-vt from one GeoJSON of the network and encoded by vt-pbf;
 * each answer is kept (a small LRU), so a tile is built once per process.
 *
 * The layers and properties follow the Protomaps basemap schema that a regional PMTiles file has
 * (`water`, `roads` with `kind` and `name`, `places`), so the browser draws both with one style.
 */
import geojsonvt, { type LegacyTile } from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import type { Feature, FeatureCollection, LineString, Point, Polygon } from 'geojson';
import { austinRoadNetwork, CITY, LAKE_NAME, lakeOutline, type RoadKind, type RoadNetwork } from './geography';

/** Road classes in the Protomaps basemap's words (its `roads.kind`); a ramp is a highway link. */
export const ROAD_KIND: Readonly<Record<RoadKind, 'highway' | 'major_road' | 'minor_road'>> = {
  highway: 'highway',
  ramp: 'highway',
  arterial: 'major_road',
  local: 'minor_road',
};

/** Zooms served: below DEMO_MIN_ZOOM the network is a dot (the state outlines do that job); above DEMO_MAX_ZOOM the browser overzooms. */
export const DEMO_MIN_ZOOM = 8;
export const DEMO_MAX_ZOOM = 16;
export const MVT_EXTENT = 4096;
/** Built tiles kept in memory (an MVT of the demo network is a few kB at most). */
const CACHE_TILES = 4096;

export interface DemoTileSource {
  /** The tile's MVT bytes; null: a valid tile with nothing in it (outside the network). */
  tile(z: number, x: number, y: number): Uint8Array | null;
}

/** The network as GeoJSON: one line per street (with its class and name), the lake, and the city as a place. */
export function networkGeoJson(network: RoadNetwork): {
  roads: FeatureCollection<LineString>;
  water: FeatureCollection<Polygon>;
  places: FeatureCollection<Point>;
} {
  const roads: Feature<LineString>[] = network.streets.map((street) => ({
    type: 'Feature',
    properties: {
      kind: ROAD_KIND[street.kind],
      ...(street.kind === 'ramp' ? { is_link: true } : {}),
      name: street.name,
      speed_limit_mph: street.speedLimitMph,
    },
    geometry: { type: 'LineString', coordinates: street.path.map((p) => [p.lng, p.lat]) },
  }));
  const places: Feature<Point>[] = [
    {
      type: 'Feature',
      properties: { kind: 'locality', name: CITY.name },
      geometry: { type: 'Point', coordinates: [network.center.lng, network.center.lat] },
    },
  ];
  const water: Feature<Polygon>[] = [
    {
      type: 'Feature',
      properties: { kind: 'water', name: LAKE_NAME },
      geometry: { type: 'Polygon', coordinates: [lakeOutline(network).map((p) => [p.lng, p.lat])] },
    },
  ];
  return {
    roads: { type: 'FeatureCollection', features: roads },
    water: { type: 'FeatureCollection', features: water },
    places: { type: 'FeatureCollection', features: places },
  };
}

/** A tile address inside the web-mercator pyramid at a served zoom. */
export function isServedTile(z: number, x: number, y: number): boolean {
  if (![z, x, y].every(Number.isInteger)) return false;
  if (z < DEMO_MIN_ZOOM || z > DEMO_MAX_ZOOM) return false;
  const n = 2 ** z;
  return x >= 0 && x < n && y >= 0 && y < n;
}

export function createDemoTileSource(network: RoadNetwork = austinRoadNetwork()): DemoTileSource {
  const { roads, water, places } = networkGeoJson(network);
  const options = { maxZoom: DEMO_MAX_ZOOM, indexMaxZoom: 10, extent: MVT_EXTENT, buffer: 64, tolerance: 3 };
  const roadIndex = new geojsonvt(roads, options);
  const waterIndex = new geojsonvt(water, options);
  const placeIndex = new geojsonvt(places, options);
  const cache = new Map<string, Uint8Array | null>();
  return {
    tile(z, x, y) {
      const key = `${z}/${x}/${y}`;
      const kept = cache.get(key);
      if (kept !== undefined) {
        // Most recently used last: Map keeps insertion order.
        cache.delete(key);
        cache.set(key, kept);
        return kept;
      }
      // Drawn bottom to top in this order (water under roads).
      const layers: Record<string, LegacyTile> = {};
      for (const [name, index] of [
        ['water', waterIndex],
        ['roads', roadIndex],
        ['places', placeIndex],
      ] as const) {
        const tile = index.getTile(z, x, y);
        if (tile && tile.features.length > 0) layers[name] = tile;
      }
      const bytes = Object.keys(layers).length > 0 ? fromGeojsonVt(layers, { version: 2, extent: MVT_EXTENT }) : null;
      cache.set(key, bytes);
      if (cache.size > CACHE_TILES) cache.delete(cache.keys().next().value as string);
      return bytes;
    },
  };
}
