/**
 * Drawing on the map in Chromium (src/map/draw): the real standalone map and the editable layer,
 * driven by the mouse. No section form draws yet: e2e/draw-page stands in for one (it starts a
 * drawing as a form does, `startDrawing`, and keeps what it is told). Each shape's positions are
 * checked against the pixels clicked, unprojected with deck.gl's own viewport.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { WebMercatorViewport } from '@deck.gl/core';
import type { Geometry, LatLng } from '../src/domain/geometry';
import type { DrawLogEntry } from './draw-page/main';
import { animationFrames, drawingClick, drawingReady } from './frames';
import { serveBuiltPage, type PageServer } from '../bench/map-page/serve';

const WIDTH = 800;
const HEIGHT = 600;
const VIEW = { longitude: -97.7431, latitude: 30.2672, zoom: 14 };
const viewport = new WebMercatorViewport({ width: WIDTH, height: HEIGHT, ...VIEW });
/** At zoom 14 a pixel is ~8 m; a click lands on its pixel: 2e-5° is under 3 px. */
const TOLERANCE_DEG = 2e-5;

let server: PageServer;

// The page as built (serveBuiltPage), not from Vite's dev server (docs/testing.md).
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await serveBuiltPage(path.join(import.meta.dirname, 'draw-page', 'vite.config.ts'));
});
test.afterAll(async () => {
  await server?.close();
});

function at(x: number, y: number): LatLng {
  const [lng, lat] = viewport.unproject([x, y]) as [number, number];
  return { lat, lng };
}

function expectNear(actual: LatLng | undefined, expected: LatLng): void {
  expect(actual).toBeDefined();
  expect(Math.abs(actual!.lat - expected.lat)).toBeLessThan(TOLERANCE_DEG);
  expect(Math.abs(actual!.lng - expected.lng)).toBeLessThan(TOLERANCE_DEG);
}

async function log(page: Page): Promise<DrawLogEntry[]> {
  return page.evaluate(() => window.lightbarDraw.log);
}

async function lastDone(page: Page): Promise<Geometry> {
  await expect.poll(async () => (await log(page)).some((entry) => entry.event === 'done')).toBe(true);
  const entries = await log(page);
  const done = entries.filter((entry) => entry.event === 'done').at(-1);
  return done!.shape!;
}

async function start(page: Page, kind: string, initial?: Geometry): Promise<void> {
  await page.evaluate(
    ({ kind, initial }) => {
      window.lightbarDraw.log = [];
      window.lightbarDraw.start(kind as 'point', initial);
    },
    { kind, initial },
  );
  // The drawing layer is mounted (its sub-layers are drawn) before the first click.
  await drawingReady(page, page.getByTestId('draw-map'), kind);
}

/** A click of the drawing, waited for until the drawing took it: clicks are never a double click. */
const click = (page: Page, x: number, y: number) => drawingClick(page, page.getByTestId('draw-map'), x, y);

/** The drawing's count of edits (the page writes it on the map's element). */
const edits = async (page: Page) => Number(await page.getByTestId('draw-map').getAttribute('data-drawing-edits'));

/** Opens the drawing page and waits until its map and the drawing code are there. */
async function open(page: Page): Promise<void> {
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelectorAll('canvas').length >= 2 && window.lightbarDraw?.loaded === true);
  await animationFrames(page);
}

test.beforeEach(async ({ page }) => {
  await open(page);
});

test('a polygon is drawn with three clicks and Enter, then a vertex is dragged; map clicks open nothing meanwhile', async ({ page }) => {
  await start(page, 'polygon');
  // The first corner lands on the marker: it becomes a vertex, the marker's popup does not open.
  const corners: [number, number][] = [
    [400, 300],
    [520, 300],
    [460, 400],
  ];
  await click(page, ...corners[0]!);
  await click(page, ...corners[1]!);
  // Two points: Enter is refused, the drawing goes on.
  await page.keyboard.press('Enter');
  await animationFrames(page);
  expect((await log(page)).some((entry) => entry.event === 'done')).toBe(false);
  expect(await page.evaluate(() => window.lightbarDraw.drawing())).toBe(true);
  await click(page, ...corners[2]!);
  await page.keyboard.press('Enter');
  const drawn = await lastDone(page);
  expect(drawn.kind).toBe('polygon');
  if (drawn.kind !== 'polygon') return;
  expect(drawn.ring).toHaveLength(3);
  drawn.ring.forEach((p, i) => expectNear(p, at(...corners[i]!)));
  expect(await page.evaluate(() => window.lightbarDraw.markerClicks)).toBe(0);
  expect(await page.evaluate(() => window.lightbarDraw.drawing())).toBe(false);

  // Editing it: the second vertex is dragged 60 px down.
  await start(page, 'polygon', drawn);
  const beforeDrag = await edits(page);
  await page.mouse.move(520, 300);
  // The handle under the pointer is picked in the frames after the move.
  await animationFrames(page);
  await page.mouse.down();
  // Small steps: deck.gl starts a drag a few pixels from the press, still on the handle.
  await page.mouse.move(520, 360, { steps: 20 });
  await page.mouse.up();
  await expect.poll(() => edits(page)).toBeGreaterThan(beforeDrag);
  await page.keyboard.press('Enter');
  const edited = await lastDone(page);
  if (edited.kind !== 'polygon') throw new Error(`edited a ${edited.kind}`);
  expectNear(edited.ring[0], at(400, 300));
  expectNear(edited.ring[1], at(520, 360));
  expectNear(edited.ring[2], at(460, 400));

  // Outside a drawing, the marker opens its popup again.
  await page.mouse.click(400, 300);
  await expect.poll(() => page.evaluate(() => window.lightbarDraw.markerClicks)).toBe(1);
});

test('a point, a circle and a path; Escape cancels', async ({ page }) => {
  await start(page, 'point');
  await click(page, 300, 200);
  await page.keyboard.press('Enter');
  const point = await lastDone(page);
  if (point.kind !== 'point') throw new Error(point.kind);
  expectNear(point.position, at(300, 200));

  await start(page, 'circle');
  await click(page, 400, 300);
  await click(page, 500, 300);
  await page.keyboard.press('Enter');
  const circle = await lastDone(page);
  if (circle.kind !== 'circle') throw new Error(circle.kind);
  expectNear(circle.center, at(400, 300));
  const a = at(400, 300);
  const b = at(500, 300);
  const expectedRadius = Math.abs(b.lng - a.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
  expect(Math.abs(circle.radius - expectedRadius) / expectedRadius).toBeLessThan(0.01);

  await start(page, 'line');
  const path: [number, number][] = [
    [200, 450],
    [350, 420],
    [500, 460],
  ];
  for (const p of path) await click(page, ...p);
  await page.keyboard.press('Enter');
  const line = await lastDone(page);
  if (line.kind !== 'line') throw new Error(line.kind);
  expect(line.path).toHaveLength(3);
  line.path.forEach((p, i) => expectNear(p, at(...path[i]!)));

  await start(page, 'polygon');
  await click(page, 100, 100);
  await page.keyboard.press('Escape');
  await expect.poll(async () => (await log(page)).map((entry) => entry.event)).toEqual(['cancel']);
  expect(await page.evaluate(() => window.lightbarDraw.drawing())).toBe(false);
});

test('a press released 600 ms later, without moving, is still a click: the point is placed (src/map/gestures.ts)', async ({ page }) => {
  // The time a long frame puts between a quick click's press and its release, on a busy machine.
  // The page's clock is Playwright's (installed before the page loads; it runs as usual): the press
  // lasts 600 ms by the page's Date.now, which deck.gl's gestures time, with no real wait.
  await page.clock.install();
  await open(page);
  await start(page, 'point');
  await page.mouse.move(320, 240);
  await page.mouse.down();
  await page.clock.fastForward(600);
  await page.mouse.up();
  await expect.poll(() => edits(page)).toBeGreaterThan(0);
  await page.keyboard.press('Enter');
  const point = await lastDone(page);
  if (point.kind !== 'point') throw new Error(point.kind);
  expectNear(point.position, at(320, 240));
});
