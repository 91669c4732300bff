/**
 * Streets without a network (docs/map.md "Basemap"): against the real seeded server and the built app,
 * with every request that does not go to the server refused, the dashboard map at street zoom over
 * the demo city draws the demo road network (from the server's vector tiles) and names its
 * streets; with BASEMAP_PMTILES it draws the file's roads instead, read with range requests.
 * Pixels are read back from a screenshot (e2e/pixels.ts): a road's class colour along a street's
 * projected line, and the names' dark text where the labels of the tiles in view go.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { WebMercatorViewport } from '@deck.gl/core';
import { MVTLoader } from '@loaders.gl/mvt';
import geojsonvt from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import type { Feature, Geometry } from 'geojson';
import { CITY, offsetMetres } from '../server/region/geography';
import { createDemoTileSource } from '../server/region/demo-tiles';
import { BASEMAP_STYLES, ROAD_STYLE, type MapTheme } from '../src/map/basemap-style';
import { tileLabels, type BasemapLabel } from '../src/map/vector-basemap';
import { colourAt, colourNear, decodePng, pixelsNear } from './pixels';
import { DEMO_ENV, expect, startServer, test } from './server-fixture';
import { signIn } from './sign-in';
import { writePmtiles } from '../tests/support/pmtiles-writer';
import { settledMapView, type MapView } from './map-view';

const WIDTH = 1000;
const HEIGHT = 700;
const DRAWN = { timeout: 240_000, intervals: [2_000, 3_000, 5_000] };

let server: Awaited<ReturnType<typeof startServer>>;
test.beforeAll(async () => {
  // A small fleet: the page's software WebGL has fewer icons to draw.
  server = await startServer({ ...DEMO_ENV, SIM_ASSETS: '5' });
});
test.afterAll(async () => {
  await server?.stop();
});

async function saveShot(testInfo: TestInfo, name: string, shot: Buffer): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  fs.writeFileSync(file, shot);
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

type TileFeature = Feature<Geometry, Record<string, unknown>>;

/** The labels of the demo tiles around a point at zoom 15, as the page computes them, placed in lng/lat. */
async function expectedLabels(lng: number, lat: number): Promise<{ text: string; lng: number; lat: number }[]> {
  const z = 15;
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  const cx = Math.floor(((lng + 180) / 360) * n);
  const cy = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  const source = createDemoTileSource();
  const out: { text: string; lng: number; lat: number }[] = [];
  for (let x = cx - 1; x <= cx + 1; x++) {
    for (let y = cy - 1; y <= cy + 1; y++) {
      const bytes = source.tile(z, x, y);
      if (!bytes) continue;
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const features = (await MVTLoader.parse(buffer, {
        mvt: { shape: 'geojson', coordinates: 'local', layerProperty: 'layerName' },
      })) as TileFeature[];
      for (const label of tileLabels(features, z) as BasemapLabel[]) {
        const [lx, ly] = label.position;
        const worldY = (y + ly) / n;
        out.push({
          text: label.text,
          lng: ((x + lx) / n) * 360 - 180,
          lat: (Math.atan(Math.sinh(Math.PI * (1 - 2 * worldY))) * 180) / Math.PI,
        });
      }
    }
  }
  return out;
}

/** The dashboard, signed in, offline (only the server answers), the fleet hidden, at zoom 15 centred on `at`. */
async function streetZoom(page: Page, url: string, at: { lat: number; lng: number }) {
  const origin = new URL(url).origin;
  await page.route(
    (requested) => requested.origin !== origin,
    (route) => route.abort('internetdisconnected'),
  );
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  await page.goto(url);
  await signIn(page, 'admin@lightbar.demo');
  await expect(page).toHaveURL(/\/dashboard\/things$/, { timeout: 60_000 });
  const map = page.getByTestId('dashboard-map');
  await expect(map.locator('canvas').first()).toBeVisible({ timeout: 60_000 });
  // The fleet off: no asset icon lies on the road sampled.
  const assetsToggle = page.getByLabel('Display Assets');
  await assetsToggle.click();
  await expect(assetsToggle).not.toBeChecked({ timeout: 60_000 });
  // The coordinates search centres at zoom 16 at least; one step out gives 15.
  const search = page.getByPlaceholder('lat, lng');
  await search.fill(`${at.lat.toFixed(6)}, ${at.lng.toFixed(6)}`);
  await search.press('Enter');
  // The search's flight lands first: a zoom step during it zooms out from where the flight was
  // (a run of the whole suite settled at 13.3 that way).
  const centred = (v: MapView) => Math.abs(v.longitude - at.lng) < 1e-4 && Math.abs(v.latitude - at.lat) < 1e-4 && v.zoom > 15.99;
  await settledMapView(page, { accept: centred, timeout: DRAWN.timeout });
  await page.getByRole('button', { name: 'Zoom out' }).click();
  const { longitude, latitude, zoom } = await settledMapView(page, { accept: (v) => Math.round(v.zoom) === 15, timeout: DRAWN.timeout });
  const view = { longitude, latitude, zoom };
  const box = (await map.boundingBox())!;
  const viewport = new WebMercatorViewport({ width: box.width, height: box.height, ...view });
  const toPage = (lng: number, lat: number) => {
    const [x, y] = viewport.project([lng, lat]) as [number, number];
    return { x: box.x + x, y: box.y + y };
  };
  return { view, box, toPage };
}

/** Of these points, how many have a pixel of `color` within 2 px. */
function hits(shot: Buffer, points: { x: number; y: number }[], color: readonly number[]): number {
  const pixels = decodePng(shot);
  return points.filter((p) => pixelsNear(pixels, p.x, p.y, 2, color, 30) > 0).length;
}

/** Points every 60 px along a vertical (or horizontal) screen line through `centre`, inside the map. */
function along(centre: { x: number; y: number }, box: { x: number; y: number; width: number; height: number }, axis: 'x' | 'y') {
  return [-240, -180, -120, -60, 60, 120, 180, 240]
    .map((d) => (axis === 'y' ? { x: centre.x, y: centre.y + d } : { x: centre.x + d, y: centre.y }))
    .filter((p) => p.x > box.x + 20 && p.x < box.x + box.width - 20 && p.y > box.y + 20 && p.y < box.y + box.height - 20);
}

test('offline, at zoom 15 over the demo city the map draws the streets and their names, by day and by night', async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  // Congress Ave runs north–south through the city centre (an arterial: the major-road colour); centred on it mid-block.
  const midBlock = offsetMetres(CITY.center, 400, 0);
  const { view, box, toPage } = await streetZoom(page, server.url, midBlock);
  const congress = along(toPage(CITY.center.lng, midBlock.lat), box, 'y');
  // The labels of the demo tiles in view, where the page puts them.
  const labels = (await expectedLabels(view.longitude, view.latitude))
    .map((label) => ({ ...label, at: toPage(label.lng, label.lat) }))
    .filter(({ at }) => at.x > box.x + 60 && at.x < box.x + box.width - 60 && at.y > box.y + 30 && at.y < box.y + box.height - 30);
  expect(labels.length, 'labels of the demo tiles fall in view').toBeGreaterThan(0);

  async function expectStreetsAndNames(theme: MapTheme): Promise<void> {
    const style = BASEMAP_STYLES[theme];
    // Road pixels: points of Congress Ave every 60 px of the screen's height, in the theme's major-road colour.
    let shot: Buffer = Buffer.alloc(0);
    await expect
      .poll(async () => {
        shot = await page.screenshot();
        return hits(shot, congress, style.roads.major_road.color);
      }, DRAWN)
      .toBeGreaterThanOrEqual(Math.ceil(congress.length / 2));
    await saveShot(testInfo, `streets-zoom-15-${theme}`, shot);
    // A street name: the labels' text colour (on its halo) where the tiles in view put a name.
    await expect
      .poll(async () => {
        shot = await page.screenshot();
        const pixels = decodePng(shot);
        return labels
          .filter(({ at }) => {
            // A square around the label's centre: names run level or vertical on the grid.
            let text = 0;
            for (let dy = -40; dy <= 40; dy++) {
              for (let dx = -40; dx <= 40; dx++) {
                const c = colourAt(pixels, Math.round(at.x) + dx, Math.round(at.y) + dy);
                if (colourNear(c, style.labels.street.color, 40)) text += 1;
              }
            }
            return text > 15;
          })
          .map((l) => l.text);
      }, DRAWN)
      .not.toEqual([]);
    await saveShot(testInfo, `street-names-${theme}`, shot);
  }

  await expectStreetsAndNames('day');
  // Night (docs/map.md "Night mode"): the same screen in the night style, read as well.
  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('group', { name: 'Appearance' }).getByRole('radio', { name: 'Night' }).check();
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'night');
  await expectStreetsAndNames('night');
});

test('a self-hosted PMTiles file (BASEMAP_PMTILES) is read with range requests and drawn instead of the demo network', async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  // A file with one highway, east–west, 200 m north of the city centre, at zooms 14–16.
  const road = offsetMetres(CITY.center, 200, 0);
  const index = new geojsonvt(
    {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { kind: 'highway', name: 'Test Parkway' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [road.lng - 0.05, road.lat],
              [road.lng + 0.05, road.lat],
            ],
          },
        },
      ],
    },
    { maxZoom: 16 },
  );
  const tiles = [14, 15, 16].flatMap((z) => {
    const n = 2 ** z;
    const rad = (road.lat * Math.PI) / 180;
    const cy = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
    const cx = Math.floor(((road.lng + 180) / 360) * n);
    const out = [];
    for (let x = cx - 3; x <= cx + 3; x++) {
      for (let y = cy - 3; y <= cy + 3; y++) {
        const tile = index.getTile(z, x, y);
        if (tile) out.push({ z, x, y, data: fromGeojsonVt({ roads: tile }, { version: 2 }) });
      }
    }
    return out;
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-e2e-pmtiles-'));
  const file = path.join(dir, 'region.pmtiles');
  fs.writeFileSync(
    file,
    writePmtiles(tiles, { west: road.lng - 0.05, south: road.lat - 0.01, east: road.lng + 0.05, north: road.lat + 0.01 }),
  );
  const regional = await startServer({ ...DEMO_ENV, SIM_ASSETS: '5', BASEMAP_PMTILES: file });
  try {
    const ranges: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/tiles/region.pmtiles')) ranges.push(response.status());
    });
    const { box, toPage } = await streetZoom(page, regional.url, CITY.center);
    const highway = along(toPage(road.lng, road.lat), box, 'x');
    let shot: Buffer = Buffer.alloc(0);
    await expect
      .poll(async () => {
        shot = await page.screenshot();
        return hits(shot, highway, ROAD_STYLE.highway.color);
      }, DRAWN)
      .toBeGreaterThanOrEqual(Math.ceil(highway.length / 2));
    await saveShot(testInfo, 'pmtiles-zoom-15', shot);
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((status) => status === 206)).toBe(true);
    // The file replaces the demo network: Congress Ave (in the demo tiles only) is not drawn.
    const congress = along(toPage(CITY.center.lng, CITY.center.lat + 0.002), box, 'y');
    expect(hits(shot, congress, ROAD_STYLE.major_road.color)).toBe(0);
  } finally {
    await regional.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
