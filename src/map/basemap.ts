/**
 * The standalone map's basemap (ARCHITECTURE "Embedded default"): an offline
 * layer set built from the bundled TopoJSON of world-atlas (land, countries) and us-atlas (states,
 * counties), so the map is never empty without a network, and raster tiles from a URL template
 * (VITE_BASEMAP_TILES, OpenStreetMap's by default) drawn above it when they load. A tile that fails
 * (no network) is simply not drawn: the offline basemap shows through.
 */
import { GeoJsonLayer, BitmapLayer, SolidPolygonLayer } from '@deck.gl/layers';
import { TileLayer, type TileLayerProps } from '@deck.gl/geo-layers';
import type { Layer } from '@deck.gl/core';
import type { Feature, MultiLineString } from 'geojson';
import worldUrl from 'world-atlas/countries-50m.json?url';
import usUrl from 'us-atlas/counties-10m.json?url';
import { fetchBasemap, type BasemapData, type BasemapUrls, type BasemapWorkerReply } from './basemap-data';
import { BASEMAP_COLORS, BASEMAP_STYLES, COUNTY_MIN_ZOOM, type BasemapStyle } from './basemap-style';

export { BASEMAP_COLORS, COUNTY_MIN_ZOOM };
export { basemapFromTopology, triangulateLand, type BasemapData, type LandMesh } from './basemap-data';

/** OpenStreetMap's standard tiles (their usage policy applies; docs/configuration.md). */
export const DEFAULT_BASEMAP_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const BASEMAP_ATTRIBUTION = '© OpenStreetMap contributors';

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

/** The basemap worker, in its own chunk (Vite emits a separate file for this exact `new Worker(new URL(…))` form). */
function startBasemapWorker(): Worker {
  return new Worker(new URL('./basemap.worker.ts', import.meta.url), { type: 'module', name: 'lightbar-basemap' });
}

/**
 * Builds the offline basemap from the files at `urls` in a worker of its own, ended once it has
 * answered, so the page's main thread neither parses the two files nor decodes and triangulates
 * them. Where no worker starts (none in this environment, or its script fails to load) the page
 * builds it itself; a file that does not load rejects either way.
 */
export function buildBasemap(
  urls: BasemapUrls,
  startWorker: (() => Worker) | null = typeof Worker === 'undefined' ? null : startBasemapWorker,
): Promise<BasemapData> {
  if (!startWorker) return fetchBasemap(urls);
  let worker: Worker;
  try {
    worker = startWorker();
  } catch {
    return fetchBasemap(urls);
  }
  return new Promise<BasemapData>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<BasemapWorkerReply>) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data.data);
      else reject(new Error(event.data.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      fetchBasemap(urls).then(resolve, reject);
    };
    worker.postMessage(urls);
  });
}

let loading: Promise<BasemapData> | null = null;

/** The bundled TopoJSON (served with the app, no network beyond it), built once per page. */
export function loadBasemap(): Promise<BasemapData> {
  loading ??= buildBasemap({ world: new URL(worldUrl, location.href).href, us: new URL(usUrl, location.href).href });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/**
 * The outlines near the view, not the world's. Each of the three meshes is hundreds of thousands
 * of path vertices, and a path layer shades every one of them at every basemap redraw: over a city
 * at street zoom all of them but a few hundred lie off screen. Where WebGL draws in software that
 * was most of a page's first seconds (docs/decisions/design.md). The lines are bucketed once by a
 * grid of OUTLINE_CELL_DEG cells; a view draws the lines of the cells it touches. Pure.
 */
export const OUTLINE_CELL_DEG = 2;
const CELL_COLUMNS = 360 / OUTLINE_CELL_DEG;
const CELL_ROWS = 180 / OUTLINE_CELL_DEG;
/** Above this share of a mesh's lines the whole mesh is drawn (the same object: nothing rebuilt). */
const WHOLE_MESH_SHARE = 0.5;

/** A block of grid cells, inclusive: columns from -180°, rows from -90°. */
export interface CellRange {
  west: number;
  south: number;
  east: number;
  north: number;
}

const column = (lng: number) => Math.min(CELL_COLUMNS - 1, Math.max(0, Math.floor((lng + 180) / OUTLINE_CELL_DEG)));
const row = (lat: number) => Math.min(CELL_ROWS - 1, Math.max(0, Math.floor((lat + 90) / OUTLINE_CELL_DEG)));

/**
 * The cells a view's bounds [west, south, east, north] touch; null when it crosses the
 * antimeridian or spans half the world or more (draw everything).
 */
export function cellRangeOf(bounds: readonly [number, number, number, number] | null): CellRange | null {
  if (!bounds) return null;
  const [west, south, east, north] = bounds;
  if (![west, south, east, north].every(Number.isFinite) || west < -180 || east > 180 || east - west > 180) return null;
  return { west: column(west), south: row(south), east: column(east), north: row(north) };
}

interface OutlineIndex {
  lines: number[][][];
  /** Cell (row × CELL_COLUMNS + column) → the lines whose box touches it. */
  cells: Map<number, number[]>;
}

const outlineIndexes = new WeakMap<MultiLineString, OutlineIndex>();

function outlineIndex(mesh: MultiLineString): OutlineIndex {
  const known = outlineIndexes.get(mesh);
  if (known) return known;
  const lines = mesh.coordinates as number[][][];
  const cells = new Map<number, number[]>();
  lines.forEach((line, index) => {
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (const [lng, lat] of line as [number, number][]) {
      west = Math.min(west, lng);
      east = Math.max(east, lng);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
    for (let r = row(south); r <= row(north); r += 1) {
      for (let c = column(west); c <= column(east); c += 1) {
        const key = r * CELL_COLUMNS + c;
        const bucket = cells.get(key);
        if (bucket) bucket.push(index);
        else cells.set(key, [index]);
      }
    }
  });
  const index = { lines, cells };
  outlineIndexes.set(mesh, index);
  return index;
}

/** The lines of `mesh` whose box touches `range` (every line when null, or when most would be). */
export function outlinesWithin(mesh: MultiLineString, range: CellRange | null): MultiLineString {
  if (!range) return mesh;
  const { lines, cells } = outlineIndex(mesh);
  const picked = new Set<number>();
  for (let r = range.south; r <= range.north; r += 1) {
    for (let c = range.west; c <= range.east; c += 1) {
      for (const index of cells.get(r * CELL_COLUMNS + c) ?? []) picked.add(index);
    }
  }
  if (picked.size > lines.length * WHOLE_MESH_SHARE) return mesh;
  return { type: 'MultiLineString', coordinates: [...picked].sort((a, b) => a - b).map((index) => lines[index]!) };
}

/**
 * Land, country, state and county outlines; the water is the map's background colour. `cells`:
 * the grid cells the view touches (cellRangeOf); the outlines elsewhere are left out.
 */
export function offlineBasemapLayers(
  data: BasemapData,
  zoom: number,
  style: BasemapStyle = BASEMAP_STYLES.day,
  cells: CellRange | null = null,
): Layer[] {
  const colors = style.outlines;
  const lines = (id: string, geometry: MultiLineString, color: [number, number, number, number], width: number, visible = true) =>
    new GeoJsonLayer({
      id,
      data: { type: 'Feature', geometry: outlinesWithin(geometry, cells), properties: {} } as Feature,
      visible,
      stroked: true,
      filled: false,
      getLineColor: color,
      lineWidthUnits: 'pixels',
      getLineWidth: width,
      pickable: false,
    });
  return [
    // Triangulated once (basemap-data.ts): deck.gl draws the binary mesh as it is, no tessellation.
    new SolidPolygonLayer({
      id: 'basemap-land',
      data: {
        length: data.land.polygons,
        startIndices: data.land.startIndices,
        attributes: { getPolygon: { value: data.land.positions, size: 2 }, indices: data.land.indices },
      },
      _normalize: false,
      positionFormat: 'XY',
      filled: true,
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
