/**
 * The vector basemap in the browser: the demo network's tiles parsed the way the page parses them
 * (MVTLoader on the main thread), what is drawn at which zoom, and where the street names go.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MVTLoader } from '@loaders.gl/mvt';
import type { Feature, Geometry } from 'geojson';
import { createDemoTileSource } from '../../server/region/demo-tiles';
import { CITY } from '../../server/region/geography';
import {
  drawnFeatures,
  httpTileReader,
  lineStyle,
  loadVectorBasemapSource,
  tileLabels,
  vectorBasemapLayer,
  type VectorBasemapSource,
} from '../../src/map/vector-basemap';
import { AREA_COLORS, BASEMAP_STYLES, ROAD_STYLE, STREET_LABEL_MIN_ZOOM } from '../../src/map/basemap-style';

type TileFeature = Feature<Geometry, Record<string, unknown>>;

const demo = createDemoTileSource();
function tileAt(lng: number, lat: number, z: number) {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    z,
    x: Math.floor(((lng + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}
async function parsedDemoTile(z: number): Promise<TileFeature[]> {
  const { x, y } = tileAt(CITY.center.lng, CITY.center.lat, z);
  const bytes = demo.tile(z, x, y)!;
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return (await MVTLoader.parse(buffer, { mvt: { shape: 'geojson', coordinates: 'local', layerProperty: 'layerName' } })) as TileFeature[];
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('vector basemap tiles in the browser', () => {
  it('draws every road of a street-zoom tile as a line, and names each street once along it', async () => {
    const features = await parsedDemoTile(15);
    const drawn = drawnFeatures(features, 15);
    expect(drawn.length).toBe(features.filter((f) => f.properties.layerName === 'roads').length);
    const labels = tileLabels(features, 15);
    expect(labels.map((l) => l.text)).toContain('Congress Ave');
    // At street zoom the streets say where you are: no city name over them.
    expect(labels.map((l) => l.text)).not.toContain('Austin');
    expect(new Set(labels.map((l) => l.text)).size).toBe(labels.length);
    for (const label of labels) {
      // Inside the tile (local coordinates 0–1), upright, on a grid street: level or vertical.
      expect(label.position.every((c) => c >= 0 && c <= 1)).toBe(true);
      expect(Math.abs(label.angle)).toBeLessThanOrEqual(90);
      expect([0, 90].some((a) => Math.abs(Math.abs(label.angle) - a) < 1)).toBe(true);
    }
  });

  it('names no street below street zoom, but names the city', async () => {
    const features = await parsedDemoTile(10);
    const labels = tileLabels(features, 10);
    expect(10).toBeLessThan(STREET_LABEL_MIN_ZOOM);
    expect(labels).toEqual([expect.objectContaining({ text: 'Austin', kind: 'place' })]);
  });

  it('leaves minor roads out at low zoom, and draws the lake', async () => {
    const features = await parsedDemoTile(10);
    const drawn = drawnFeatures(features, 10);
    const roadKinds = new Set(drawn.filter((f) => f.properties.layerName === 'roads').map((f) => f.properties.kind));
    expect(10).toBeLessThan(ROAD_STYLE.minor_road.minZoom);
    expect(roadKinds).toEqual(new Set(['highway', 'major_road']));
    expect(drawn.filter((f) => f.properties.layerName === 'water').map((f) => [f.geometry.type, f.properties.name])).toEqual([
      ['Polygon', 'Lady Bird Lake'],
    ]);
  });

  it('styles lines by layer: roads by class, a river of a regional file in the water colour', () => {
    const line = (layerName: string, kind: string): TileFeature => ({
      type: 'Feature',
      properties: { layerName, kind },
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    });
    expect(lineStyle(line('roads', 'highway'))).toEqual(ROAD_STYLE.highway);
    expect(lineStyle(line('roads', 'path'))).toEqual(ROAD_STYLE.other);
    expect(lineStyle(line('water', 'river')).color).toEqual(AREA_COLORS.water);
    // At night the same classes in the night style's colours.
    expect(lineStyle(line('roads', 'highway'), BASEMAP_STYLES.night)).toEqual(BASEMAP_STYLES.night.roads.highway);
    expect(lineStyle(line('water', 'river'), BASEMAP_STYLES.night).color).toEqual(BASEMAP_STYLES.night.areas.water);
    expect(BASEMAP_STYLES.night.roads.highway.color).not.toEqual(ROAD_STYLE.highway.color);
  });

  it('reads a 204 (a tile outside the network) as no tile, and fails on a server error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(httpTileReader('/tiles/demo/14/1/1.mvt')).resolves.toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('no', { status: 500 })),
    );
    await expect(httpTileReader('/tiles/demo/14/1/1.mvt')).rejects.toThrow('HTTP 500');
  });

  it('asks the server which source to draw', async () => {
    const source: VectorBasemapSource = { kind: 'demo', tiles: '/tiles/demo/{z}/{x}/{y}.mvt', minZoom: 8, maxZoom: 16 };
    const fetcher = vi.fn(async () => Response.json(source));
    await expect(loadVectorBasemapSource(fetcher as unknown as typeof fetch)).resolves.toEqual(source);
    expect(fetcher).toHaveBeenCalledWith('/tiles/basemap.json');
  });

  it("builds one MVT layer over the source's zooms, parsing on the page (no loader worker)", () => {
    const layer = vectorBasemapLayer({ kind: 'demo', tiles: '/tiles/demo/{z}/{x}/{y}.mvt', minZoom: 8, maxZoom: 16 }, httpTileReader, {
      minZoom: 8,
      maxZoom: 16,
    });
    expect(layer.id).toBe('basemap-vector');
    expect(layer.props).toMatchObject({
      data: '/tiles/demo/{z}/{x}/{y}.mvt',
      minZoom: 8,
      maxZoom: 16,
      binary: false,
      loadOptions: { worker: false },
    });
  });
});
