/**
 * The map in Chromium (bench/README.md): the bench page runs the real live worker engine,
 * bridge and store over a synthetic network and draws the assets layer on the standalone map.
 * Headless Chromium draws WebGL2 in software here: a small fleet. Pixels are read back from a
 * screenshot: the offline basemap is drawn (land colour present, not one flat colour), a known
 * asset's status colour appears at its projected position, and it follows the asset when it moves.
 */
import { expect, test, type Page } from '@playwright/test';
import { startMapPage, type PageServer } from '../bench/map-page/serve';
import { BASEMAP_COLORS } from '../src/map/basemap-style';
import { colourAt, colourNear, decodePng, pixelsNear, screenshotUntil, type Rgb } from './pixels';

let server: PageServer;
const WIDTH = 1000;
const HEIGHT = 700;

// The page as built, as the map bench serves it (docs/testing.md).
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startMapPage();
});
test.afterAll(async () => {
  await server?.close();
});

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => window.lightbarBench?.ready() === true, undefined, { timeout: 45_000 });
}

interface Spot {
  x: number;
  y: number;
  color: Rgb;
}

/** An asset icon's pixels: within this many px of its centre, each channel within this much of its status colour. */
const ICON_RADIUS = 9;
const ICON_TOLERANCE = 24;

/**
 * Decodes a screenshot and counts: pixels of the land colour, distinct colours (sampled every 4 px),
 * and per spot the pixels of its colour near it.
 */
function readPixels(shot: Buffer, spots: Spot[]) {
  const pixels = decodePng(shot);
  let landPixels = 0;
  const colours = new Set<number>();
  for (let y = 0; y < pixels.height; y += 4) {
    for (let x = 0; x < pixels.width; x += 4) {
      const c = colourAt(pixels, x, y);
      colours.add((c[0] << 16) | (c[1] << 8) | c[2]);
      if (colourNear(c, BASEMAP_COLORS.land, 6)) landPixels += 1;
    }
  }
  const hits = spots.map((p) => pixelsNear(pixels, p.x, p.y, ICON_RADIUS, p.color, ICON_TOLERANCE));
  return { landPixels, colours: colours.size, hits };
}

test('part1 §2 Map: the offline basemap is drawn and an asset shows its status colour at its position', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  // No network here: the raster tiles (OpenStreetMap's by default) fail, and that must be harmless.
  await page.goto(`${server.url}?assets=12&rate=0&zoom=12&spread=0.12`);
  await ready(page);
  const probe = await page.evaluate(([w, h]) => window.lightbarBench!.probe(w!, h!), [WIDTH, HEIGHT]);
  expect(probe).not.toBeNull();
  // The asset's spot, and a corner with no asset in the same colour: read from the screen until the
  // basemap and the icon are drawn (software WebGL: frames are slow), then held to the rules below.
  const spots = [probe!, { x: 14, y: 14, color: probe!.color }];
  const shot = await screenshotUntil(page, (png) => {
    const seen = readPixels(png, spots);
    return seen.landPixels > 100 && seen.hits[0]! > 10;
  });
  const counts = readPixels(shot, spots);
  await testInfo.attach('map', { body: shot, contentType: 'image/png' });
  // Not blank: the land colour is there, and more than a handful of colours.
  expect(counts.landPixels).toBeGreaterThan(100);
  expect(counts.colours).toBeGreaterThan(5);
  expect(counts.hits[0]).toBeGreaterThan(10);
  expect(counts.hits[1]).toBeLessThan(counts.hits[0]!);
});

test('part1 §2 Map: a moving asset’s icon follows its position', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  // thing-0 makes three steps of 0.01° east, a second apart (about 29 px each at zoom 12); the rest stand still.
  await page.goto(`${server.url}?assets=6&rate=0&zoom=12&spread=0.1&mover=0.01&moves=3&tiles=none`);
  await ready(page);
  let slot = -1;
  await expect
    .poll(async () => (slot = await page.evaluate(() => window.lightbarBench!.slotOfId('thing-0'))), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(0);
  const where = () => page.evaluate(([s, w, h]) => window.lightbarBench!.at(s!, w!, h!), [slot, WIDTH, HEIGHT]);
  const step = (0.01 * (256 * 2 ** 12)) / 360;
  // The three steps are sent; then it stands still for longer than a batch (1 s) and a step's interval.
  await expect.poll(() => page.evaluate(() => window.lightbarBench!.streamed()), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  // Where the worker puts it once it stands still: the same in three reads 1.2 s apart.
  const seen: Awaited<ReturnType<typeof where>>[] = [];
  await expect
    .poll(
      async () => {
        seen.push(await where());
        const last = seen.slice(-3);
        return last.length === 3 && last.every((p) => p.x === last[2]!.x && p.y === last[2]!.y);
      },
      { timeout: 60_000, intervals: [1_200] },
    )
    .toBe(true);
  const end = seen.at(-1)!;
  const origin = { x: end.x - 3 * step, y: end.y, color: end.color };
  // Software WebGL here: the screen is read until the last diff reached it (the icon at its end).
  const shot = await screenshotUntil(page, (png) => readPixels(png, [end, origin]).hits[0]! > 10);
  const counts = readPixels(shot, [end, origin]);
  await testInfo.attach('moved', { body: shot, contentType: 'image/png' });
  expect(counts.hits[0]).toBeGreaterThan(10);
  // Its old spot no longer shows it.
  expect(counts.hits[1]).toBeLessThan(counts.hits[0]! / 2);
});
