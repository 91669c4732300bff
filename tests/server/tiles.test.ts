/**
 * The vector basemap's server side (docs/map.md "Basemap"): MVT tiles of the demo road network built on
 * demand, and a self-hosted PMTiles file answered with range requests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import geojsonvt from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import { PMTiles, type Source } from 'pmtiles';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';
import { writePmtiles } from '../support/pmtiles-writer';
import { buildServer } from '../../server/app';
import { readConfig } from '../../server/config';
import {
  austinRoadNetwork,
  CITY,
  EAST_WEST_STREETS,
  lakeOutline,
  NORTH_SOUTH_STREETS,
  RING_HIGHWAY_NAME,
} from '../../server/region/geography';

/** The web-mercator tile holding a point. */
function tileAt(lng: number, lat: number, z: number): { z: number; x: number; y: number } {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    z,
    x: Math.floor(((lng + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}

function decode(body: Buffer): VectorTile {
  return new VectorTile(new PbfReader(new Uint8Array(body)));
}

function roadsOf(tile: VectorTile): { kind: string; name: string; type: number }[] {
  const layer = tile.layers.roads;
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, i) => {
    const feature = layer.feature(i);
    return { kind: String(feature.properties.kind), name: String(feature.properties.name), type: feature.type };
  });
}

const STREET_NAMES = new Set<string>([...NORTH_SOUTH_STREETS, ...EAST_WEST_STREETS, RING_HIGHWAY_NAME]);

describe('demo road network tiles', () => {
  let app: FastifyInstance;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-tiles-'));
  beforeAll(async () => {
    app = await buildServer(readConfig({ ...NO_LOAD_SHEDDING, DIST_DIR: dir, DATA_DIR: dir }));
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tells the browser to draw the demo network when no BASEMAP_PMTILES is set', async () => {
    const response = await app.inject({ method: 'GET', url: '/tiles/basemap.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ kind: 'demo', tiles: '/tiles/demo/{z}/{x}/{y}.mvt', minZoom: 8, maxZoom: 16 });
  });

  it.each([10, 12, 14, 15, 16])('answers a valid MVT with named roads over the city at zoom %i', async (z) => {
    const { x, y } = tileAt(CITY.center.lng, CITY.center.lat, z);
    const response = await app.inject({ method: 'GET', url: `/tiles/demo/${z}/${x}/${y}.mvt` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    const roads = roadsOf(decode(response.rawPayload));
    expect(roads.length).toBeGreaterThan(0);
    for (const road of roads) {
      expect(road.type).toBe(2); // LineString
      expect(['highway', 'major_road', 'minor_road']).toContain(road.kind);
      expect(STREET_NAMES.has(road.name)).toBe(true);
    }
  });

  it('has every class and the ring highway by name at city zoom, and the city as a place', async () => {
    const { x, y } = tileAt(CITY.center.lng, CITY.center.lat, 10);
    const tile = decode((await app.inject({ method: 'GET', url: `/tiles/demo/10/${x}/${y}.mvt` })).rawPayload);
    const roads = roadsOf(tile);
    expect(new Set(roads.map((r) => r.kind))).toEqual(new Set(['highway', 'major_road', 'minor_road']));
    expect(roads.map((r) => r.name)).toContain(RING_HIGHWAY_NAME);
    expect(roads.map((r) => r.name)).toContain('Congress Ave');
    expect(tile.layers.places?.feature(0).properties).toEqual({ kind: 'locality', name: 'Austin' });
  });

  it('puts a street where the seed has it: Congress Ave runs through the city centre at zoom 15', async () => {
    const { x, y } = tileAt(CITY.center.lng, CITY.center.lat, 15);
    const tile = decode((await app.inject({ method: 'GET', url: `/tiles/demo/15/${x}/${y}.mvt` })).rawPayload);
    const congress = roadsOf(tile).find((r) => r.name === 'Congress Ave');
    expect(congress).toBeDefined();
  });

  it('has the lake as water (a polygon, under the roads) where the seed puts it', async () => {
    const ring = lakeOutline(austinRoadNetwork());
    const lat = ring.reduce((sum, p) => sum + p.lat, 0) / ring.length;
    const { x, y } = tileAt(CITY.center.lng, lat, 13);
    const tile = decode((await app.inject({ method: 'GET', url: `/tiles/demo/13/${x}/${y}.mvt` })).rawPayload);
    const water = tile.layers.water;
    expect(water?.length).toBe(1);
    expect(water!.feature(0).type).toBe(3); // Polygon
    expect(water!.feature(0).properties).toEqual({ kind: 'water', name: 'Lady Bird Lake' });
  });

  it('answers 204 No Content for a valid tile outside the network', async () => {
    const { x, y } = tileAt(-74.006, 40.7128, 14); // New York
    const response = await app.inject({ method: 'GET', url: `/tiles/demo/14/${x}/${y}.mvt` });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
  });

  it.each([
    '/tiles/demo/17/1/1.mvt',
    '/tiles/demo/7/0/0.mvt',
    '/tiles/demo/10/1024/0.mvt',
    '/tiles/demo/10/1/1.png',
    '/tiles/demo/a/1/1.mvt',
  ])('answers 404 outside the served zooms or the tile pyramid: %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'Tile not found' });
  });

  it('keeps the security headers on tiles (CSP, nosniff)', async () => {
    const { x, y } = tileAt(CITY.center.lng, CITY.center.lat, 14);
    const response = await app.inject({ method: 'GET', url: `/tiles/demo/14/${x}/${y}.mvt` });
    expect(response.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('has no region file to give without BASEMAP_PMTILES', async () => {
    expect((await app.inject({ method: 'GET', url: '/tiles/region.pmtiles' })).statusCode).toBe(404);
  });
});

describe('a self-hosted PMTiles basemap (BASEMAP_PMTILES)', () => {
  let app: FastifyInstance;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-pmtiles-'));
  const file = path.join(dir, 'region.pmtiles');
  const center = tileAt(CITY.center.lng, CITY.center.lat, 14);
  let bytes: Uint8Array;

  beforeAll(async () => {
    // Two roads across the centre tile, built into MVT the way any tile tool does.
    const { lng, lat } = CITY.center;
    const index = new geojsonvt(
      {
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { kind: 'major_road', name: 'Test Avenue' },
            geometry: {
              type: 'LineString',
              coordinates: [
                [lng - 0.01, lat],
                [lng + 0.01, lat],
              ],
            },
          },
          {
            type: 'Feature',
            properties: { kind: 'minor_road', name: 'Sample Street' },
            geometry: {
              type: 'LineString',
              coordinates: [
                [lng, lat - 0.01],
                [lng, lat + 0.01],
              ],
            },
          },
        ],
      },
      { maxZoom: 14 },
    );
    const tiles = [13, 14].map((z) => {
      const { x, y } = tileAt(lng, lat, z);
      return { z, x, y, data: fromGeojsonVt({ roads: index.getTile(z, x, y)! }, { version: 2 }) };
    });
    bytes = writePmtiles(tiles, { west: lng - 0.1, south: lat - 0.1, east: lng + 0.1, north: lat + 0.1 }, { name: 'test' });
    fs.writeFileSync(file, bytes);
    app = await buildServer(readConfig({ ...NO_LOAD_SHEDDING, DIST_DIR: dir, DATA_DIR: dir, BASEMAP_PMTILES: file }));
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tells the browser to read the region file', async () => {
    expect((await app.inject({ method: 'GET', url: '/tiles/basemap.json' })).json()).toEqual({
      kind: 'pmtiles',
      url: '/tiles/region.pmtiles',
    });
  });

  it('answers a byte range with 206 and exactly those bytes', async () => {
    const response = await app.inject({ method: 'GET', url: '/tiles/region.pmtiles', headers: { range: 'bytes=100-199' } });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['content-type']).toBe('application/vnd.pmtiles');
    expect(response.headers.etag).toMatch(/^".+"$/);
    expect(new Uint8Array(response.rawPayload)).toEqual(bytes.subarray(100, 200));
  });

  it('clamps a range past the end (the reader asks for 16 kB at first) and answers suffix ranges', async () => {
    const first = await app.inject({ method: 'GET', url: '/tiles/region.pmtiles', headers: { range: 'bytes=0-16383' } });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-${bytes.length - 1}/${bytes.length}`);
    expect(new Uint8Array(first.rawPayload)).toEqual(bytes);
    const last = await app.inject({ method: 'GET', url: '/tiles/region.pmtiles', headers: { range: 'bytes=-10' } });
    expect(new Uint8Array(last.rawPayload)).toEqual(bytes.subarray(bytes.length - 10));
  });

  it('answers the whole file without a Range, and 416 for a range past its end', async () => {
    const whole = await app.inject({ method: 'GET', url: '/tiles/region.pmtiles' });
    expect(whole.statusCode).toBe(200);
    expect(new Uint8Array(whole.rawPayload)).toEqual(bytes);
    const past = await app.inject({ method: 'GET', url: '/tiles/region.pmtiles', headers: { range: `bytes=${bytes.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it('is read by the PMTiles reader through range requests: the tile holds the roads and their names', async () => {
    const source: Source = {
      getKey: () => '/tiles/region.pmtiles',
      getBytes: async (offset, length) => {
        const response = await app.inject({
          method: 'GET',
          url: '/tiles/region.pmtiles',
          headers: { range: `bytes=${offset}-${offset + length - 1}` },
        });
        expect(response.statusCode).toBe(206);
        const body = new Uint8Array(response.rawPayload);
        return {
          data: body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
          etag: response.headers.etag as string,
        };
      },
    };
    const reader = new PMTiles(source);
    const tile = await reader.getZxy(center.z, center.x, center.y);
    expect(tile).toBeDefined();
    const roads = roadsOf(new VectorTile(new PbfReader(new Uint8Array(tile!.data))));
    expect(roads.map((r) => r.name).sort()).toEqual(['Sample Street', 'Test Avenue']);
  });
});

describe('a missing or corrupt BASEMAP_PMTILES', () => {
  it.each([
    ['missing', null, 'cannot open'],
    ['corrupt', 'not a map at all, just some text that is longer than a PMTiles header is: '.repeat(3), 'is not a PMTiles file'],
  ])('%s: logged once at start, and the map draws the demo network', async (_name, content, reason) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-pmtiles-bad-'));
    const file = path.join(dir, 'region.pmtiles');
    if (content !== null) fs.writeFileSync(file, content);
    const lines: string[] = [];
    const app = await buildServer(readConfig({ ...NO_LOAD_SHEDDING, DIST_DIR: dir, DATA_DIR: dir, BASEMAP_PMTILES: file }), {
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/tiles/basemap.json' })).json()).toMatchObject({ kind: 'demo' });
      await app.inject({ method: 'GET', url: '/tiles/basemap.json' });
      const warnings = lines.filter((line) => line.includes('BASEMAP_PMTILES'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(reason);
      expect((await app.inject({ method: 'GET', url: '/tiles/region.pmtiles' })).statusCode).toBe(404);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
