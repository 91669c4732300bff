/**
 * The standalone map's streets (docs/map.md "Basemap"): vector tiles drawn by deck.gl's MVTLayer with
 * one style (./basemap-style) — roads by class, water, land use, buildings at high zoom, and street
 * and place names — from the source the server names at GET /tiles/basemap.json:
 * - `demo`: the server's tiles of the demo road network (built on demand, no file, no network);
 * - `pmtiles`: a self-hosted PMTiles file (BASEMAP_PMTILES) read with HTTP range requests.
 * Tiles are parsed off the main thread, in the app's own worker (./tile-parse: loaders.gl's would be
 * fetched from a CDN, which neither the CSP nor a closed network allows), or on the page where no
 * worker runs. A tile that fails draws nothing and its parent stays
 * (`best-available`): no holes; the offline outlines below always show.
 */
import { MVTLayer } from '@deck.gl/geo-layers';
import { GeoJsonLayer, TextLayer } from '@deck.gl/layers';
import { CollisionFilterExtension, type CollisionFilterExtensionProps } from '@deck.gl/extensions';
import type { Layer } from '@deck.gl/core';
import { MVTLoader } from '@loaders.gl/mvt';
import { PMTiles } from 'pmtiles';
import { tileParser } from './tile-parse';
import type { Feature, Geometry, Position } from 'geojson';
import {
  BASEMAP_STYLES,
  BUILDING_MIN_ZOOM,
  PARK_KINDS,
  PLACE_LABEL_MAX_ZOOM,
  PLACE_LABEL_MIN_ZOOM,
  ROAD_STYLE,
  STREET_LABEL_MIN_ZOOM,
  WATER_LINE_WIDTH_PX,
  roadClass,
  type BasemapStyle,
} from './basemap-style';

/** What the server says to draw (server/http/tiles/routes.ts answers it). */
export type VectorBasemapSource = { kind: 'demo'; tiles: string; minZoom: number; maxZoom: number } | { kind: 'pmtiles'; url: string };

export const BASEMAP_SOURCE_URL = '/tiles/basemap.json';
const PMTILES_TEMPLATE = 'pmtiles://{z}/{x}/{y}';

let sourceLoading: Promise<VectorBasemapSource> | null = null;

/** The server's basemap source, fetched once per page (a failure is retried on the next call). */
export function loadVectorBasemapSource(
  fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<VectorBasemapSource> {
  sourceLoading ??= (async () => {
    const response = await fetcher(BASEMAP_SOURCE_URL);
    if (!response.ok) throw new Error(`basemap source: HTTP ${response.status}`);
    return (await response.json()) as VectorBasemapSource;
  })();
  sourceLoading.catch(() => {
    sourceLoading = null;
  });
  return sourceLoading;
}

type TileFeature = Feature<Geometry, Record<string, unknown>>;

/** Reads one tile's bytes; null: no tile there (204, 404, or absent from the file). */
export type TileReader = (url: string, signal?: AbortSignal) => Promise<ArrayBuffer | null>;

/** Tile bytes over HTTP from a {z}/{x}/{y} URL (the demo tiles). */
export const httpTileReader: TileReader = async (url, signal) => {
  const response = await globalThis.fetch(url, signal ? { signal } : {});
  if (response.status === 204 || response.status === 404) return null;
  if (!response.ok) throw new Error(`tile ${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
};

/** Tile bytes from a PMTiles archive (range requests to its URL; the reader decompresses). */
export function pmtilesTileReader(archive: PMTiles): TileReader {
  return async (url, signal) => {
    const [z, x, y] = url.slice('pmtiles://'.length).split('/').map(Number) as [number, number, number];
    const tile = await archive.getZxy(z, x, y, signal);
    return tile?.data ?? null;
  };
}

const layerName = (f: TileFeature): unknown => f.properties.layerName;

/** The features the GeoJSON sub-layer draws at a tile zoom (points are names, drawn as text). */
export function drawnFeatures(features: TileFeature[], z: number): TileFeature[] {
  return features.filter((f) => {
    if (f.geometry.type === 'Point' || f.geometry.type === 'MultiPoint') return false;
    const layer = layerName(f);
    if (layer === 'roads') return z >= ROAD_STYLE[roadClass(f.properties.kind)].minZoom;
    if (layer === 'buildings') return z >= BUILDING_MIN_ZOOM;
    return layer === 'water' || layer === 'earth' || layer === 'landuse' || layer === 'landcover';
  });
}

function fillColor(f: TileFeature, style: BasemapStyle): [number, number, number, number] {
  const areas = style.areas;
  switch (layerName(f)) {
    case 'water':
      return areas.water;
    case 'earth':
      return areas.earth;
    case 'buildings':
      return areas.building;
    default:
      return PARK_KINDS.has(String(f.properties.kind)) ? areas.park : areas.landuse;
  }
}

/** A line's look: a road by its class; a river or stream (lines of the `water` layer) in the water colour. */
export function lineStyle(
  f: TileFeature,
  style: BasemapStyle = BASEMAP_STYLES.day,
): { color: [number, number, number, number]; widthPx: number } {
  if (layerName(f) === 'water') return { color: style.areas.water, widthPx: WATER_LINE_WIDTH_PX };
  return style.roads[roadClass(f.properties.kind)];
}

export interface BasemapLabel {
  text: string;
  /** Tile-local position (the MVT layer's coordinates). */
  position: [number, number];
  /** Degrees counter-clockwise on screen, kept upright. */
  angle: number;
  kind: 'street' | 'place';
  /** Higher wins a collision: places, then highways, major, minor roads. */
  priority: number;
}

const ROAD_PRIORITY: Record<ReturnType<typeof roadClass>, number> = { highway: 3, major_road: 2, minor_road: 1, other: 0 };

/** The longest segment of a (multi)line: the label sits at its middle, along it. */
function longestSegment(geometry: Geometry): [Position, Position] | null {
  const parts = geometry.type === 'LineString' ? [geometry.coordinates] : geometry.type === 'MultiLineString' ? geometry.coordinates : [];
  let best: [Position, Position] | null = null;
  let bestLength = -1;
  for (const part of parts) {
    for (let i = 1; i < part.length; i++) {
      const a = part[i - 1] as Position;
      const b = part[i] as Position;
      const length = Math.hypot((b[0] ?? 0) - (a[0] ?? 0), (b[1] ?? 0) - (a[1] ?? 0));
      if (length > bestLength) {
        bestLength = length;
        best = [a, b];
      }
    }
  }
  return best;
}

/**
 * Names in one tile: each named road once (at the middle of its longest segment, along it) from
 * STREET_LABEL_MIN_ZOOM, and places from PLACE_LABEL_MIN_ZOOM to PLACE_LABEL_MAX_ZOOM. Tile-local y points down the screen.
 */
export function tileLabels(features: TileFeature[], z: number): BasemapLabel[] {
  const labels: BasemapLabel[] = [];
  const named = new Set<string>();
  for (const f of features) {
    const name = f.properties.name;
    if (typeof name !== 'string' || name === '') continue;
    const layer = layerName(f);
    if (layer === 'places' && f.geometry.type === 'Point' && z >= PLACE_LABEL_MIN_ZOOM && z <= PLACE_LABEL_MAX_ZOOM) {
      const [x = 0, y = 0] = f.geometry.coordinates;
      labels.push({ text: name, position: [x, y], angle: 0, kind: 'place', priority: 10 });
    } else if (layer === 'roads' && z >= STREET_LABEL_MIN_ZOOM && !named.has(name)) {
      const segment = longestSegment(f.geometry);
      if (!segment) continue;
      const [[ax = 0, ay = 0], [bx = 0, by = 0]] = segment;
      let angle = (Math.atan2(-(by - ay), bx - ax) * 180) / Math.PI;
      if (angle > 90) angle -= 180;
      if (angle <= -90) angle += 180;
      named.add(name);
      labels.push({
        text: name,
        position: [(ax + bx) / 2, (ay + by) / 2],
        angle,
        kind: 'street',
        priority: ROAD_PRIORITY[roadClass(f.properties.kind)],
      });
    }
  }
  return labels;
}

const LABEL_COLLISIONS = new CollisionFilterExtension();

/** The MVT layer of the vector basemap, from a source and its tile reader. */
export function vectorBasemapLayer(
  source: VectorBasemapSource,
  read: TileReader,
  zoomRange: { minZoom: number; maxZoom: number },
  style: BasemapStyle = BASEMAP_STYLES.day,
): MVTLayer {
  const labelStyle = style.labels;
  // A theme switch redraws the tiles' features and names in the new colours (no tile is fetched again).
  const restyle = { getFillColor: style, getLineColor: style, getColor: style };
  return new MVTLayer({
    id: 'basemap-vector',
    data: source.kind === 'demo' ? source.tiles : PMTILES_TEMPLATE,
    minZoom: zoomRange.minZoom,
    maxZoom: zoomRange.maxZoom,
    binary: false,
    pickable: false,
    loaders: [MVTLoader],
    loadOptions: { worker: false },
    refinementStrategy: 'best-available',
    fetch: async (url: string, { loadOptions, signal }: { loadOptions?: Record<string, unknown>; signal?: AbortSignal }) => {
      const bytes = await read(url, signal);
      if (!bytes || bytes.byteLength === 0) return null;
      const mvt = (loadOptions?.mvt ?? {}) as Record<string, unknown>;
      // Only the MVT options travel (the tile's index and coordinates): the rest of the layer's
      // load options may hold functions no worker can receive.
      return tileParser().parse(bytes, { mvt: { layerProperty: 'layerName', ...mvt, shape: 'geojson' } });
    },
    onTileError: () => {
      // A missing or failed tile: its parent (or the outlines below) keeps the place drawn.
    },
    renderSubLayers: (sub) => {
      const features = (sub.data as TileFeature[] | null) ?? [];
      if (features.length === 0) return null;
      const z = sub.tile.index.z;
      const shared = {
        modelMatrix: sub.modelMatrix,
        coordinateOrigin: sub.coordinateOrigin,
        coordinateSystem: sub.coordinateSystem,
        extensions: sub.extensions,
      };
      const labels = tileLabels(features, z);
      const layers: Layer[] = [
        new GeoJsonLayer<Record<string, unknown>>({
          ...shared,
          id: `${sub.id}-features`,
          data: drawnFeatures(features, z),
          filled: true,
          stroked: false,
          getFillColor: (f) => fillColor(f as TileFeature, style),
          getLineColor: (f) => lineStyle(f as TileFeature, style).color,
          getLineWidth: (f) => lineStyle(f as TileFeature, style).widthPx,
          updateTriggers: restyle,
          lineWidthUnits: 'pixels',
          lineCapRounded: true,
          lineJointRounded: true,
          pickable: false,
        }),
      ];
      if (labels.length > 0) {
        layers.push(
          new TextLayer<BasemapLabel, CollisionFilterExtensionProps<BasemapLabel>>({
            ...shared,
            // Labels are not clipped at the tile's edge (a name may cross it); collisions keep one of overlapping names.
            extensions: [LABEL_COLLISIONS],
            id: `${sub.id}-names`,
            data: labels,
            getPosition: (label) => label.position,
            getText: (label) => label.text,
            getAngle: (label) => label.angle,
            getSize: (label) => (label.kind === 'place' ? labelStyle.place.sizePx : labelStyle.street.sizePx),
            getColor: (label) => (label.kind === 'place' ? labelStyle.place.color : labelStyle.street.color),
            updateTriggers: restyle,
            fontFamily: labelStyle.fontFamily,
            fontWeight: 600,
            fontSettings: { sdf: true },
            outlineWidth: labelStyle.haloWidth,
            outlineColor: labelStyle.halo,
            collisionGroup: 'basemap-names',
            getCollisionPriority: (label: BasemapLabel) => label.priority,
            pickable: false,
          }),
        );
      }
      return layers;
    },
  });
}

/** The source's zooms: the demo's from the server, a file's from its header. */
export async function openVectorBasemap(source: VectorBasemapSource): Promise<{ read: TileReader; minZoom: number; maxZoom: number }> {
  if (source.kind === 'demo') return { read: httpTileReader, minZoom: source.minZoom, maxZoom: source.maxZoom };
  const archive = new PMTiles(source.url);
  const header = await archive.getHeader();
  return { read: pmtilesTileReader(archive), minZoom: header.minZoom, maxZoom: header.maxZoom };
}
