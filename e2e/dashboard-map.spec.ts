/**
 * The fleet on the dashboard map against the real seeded server (part 1 §2 Map):
 * Chromium drives the built app, signed in as the demo admin. With the group view off, a quiet
 * demo asset is moved by points posted to POST /ingest with an API key (the devices' path): its
 * status colour appears at its projected position, its hover popup names it, and the icon moves
 * when the next point arrives. With the group view on (the default), a cluster — a disc in a status
 * colour with its count in white — is drawn. Headless Chromium draws WebGL in software: pixels
 * are read back from screenshots (e2e/pixels.ts).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { WebMercatorViewport } from '@deck.gl/core';
import { statusLabel, type AssetStatus } from '../src/domain/asset-status';
import { PREFERENCES_STORAGE_KEY } from '../src/app/live/store';
import { STATUS_COLORS } from '../src/map/icon-atlas';
import { colourAt, colourNear, decodePng, pixelsNear, screenshotUntil, type Rgb } from './pixels';
import { DEMO_PASSWORD, expect, test } from './server-fixture';
import { signIn } from './sign-in';
import { settledMapView, type MapView } from './map-view';

const WIDTH = 1000;
const HEIGHT = 720;
const ADMIN = 'admin@lightbar.demo';
/** part 1 §4: pending after 8 hours without a check-in (the simulator leaves such seeded assets quiet). */
const PENDING_AFTER_MS = 8 * 3_600_000;

/** An asset icon's pixels: within this many px of its centre, each channel within this much of its status colour. */
const ICON_RADIUS = 9;
const ICON_TOLERANCE = 24;

async function signInAsAdmin(page: Page) {
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/\/dashboard\/things$/, { timeout: 60_000 });
}

/**
 * The map's box now. The drawer beside the map may change its width (the section loading), so
 * positions are taken from the map's centre, which stays the first view's. Software WebGL on a busy
 * machine holds the page for seconds a frame: generous limits.
 */
async function mapBox(page: Page) {
  const box = await page.getByTestId('dashboard-map').boundingBox({ timeout: 60_000 });
  expect(box).not.toBeNull();
  return box!;
}

/**
 * The map's view once it stood still (e2e/map-view.ts), and unlike `previous` when given.
 * `cameraKind`: the last camera request must be of this kind (the first view of the fleet is a fit:
 * src/app/map/first-view.ts).
 */
function settledView(page: Page, options: { cameraKind?: 'fit' | 'center'; previous?: MapView } = {}): Promise<MapView> {
  const map = page.getByTestId('dashboard-map');
  return settledMapView(page, {
    accept: async (view) =>
      view.text !== options.previous?.text && (!options.cameraKind || (await map.getAttribute('data-camera-kind')) === options.cameraKind),
  });
}

interface ThingRow {
  id: string;
  haas_id: string;
  nickname: string | null;
  lat: number | null;
  lng: number | null;
  in_service?: boolean;
  heartbeat_datetime: string | null;
}

async function api(request: APIRequestContext, base: string) {
  const tokenAnswer = await request.post(`${base}/user_token`, {
    data: { grant_type: 'password', application: 'dashboard', username: ADMIN, password: DEMO_PASSWORD },
  });
  expect(tokenAnswer.status()).toBe(200);
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}` };
  const keyAnswer = await request.post(`${base}/api_keys`, { headers, data: { description: 'dashboard map e2e device' } });
  expect(keyAnswer.status()).toBe(201);
  // The key is answered once, on creation (server/http/api-keys/).
  const { token: deviceKey } = (await keyAnswer.json()) as { token: string };
  expect(deviceKey).toMatch(/^lb_/);
  const things: ThingRow[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await request.get(`${base}/organization/things?page=${page}&per_page=500`, { headers });
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as { data: ThingRow[]; meta: { total: number } };
    things.push(...body.data);
    if (body.data.length === 0 || things.length >= body.meta.total) break;
  }
  return {
    things,
    async point(haasId: string, lng: number, lat: number) {
      const answer = await request.post(`${base}/ingest`, {
        headers: { 'x-api-key': deviceKey },
        data: {
          messages: [{ type: 'point', haas_id: haasId, timestamp: new Date().toISOString(), lat, lng, speed: 0, course: 90, accuracy: 5 }],
        },
      });
      expect(answer.status()).toBe(200);
      expect(((await answer.json()) as { accepted: number }).accepted).toBe(1);
    },
  };
}

/**
 * Finds cluster markers in a screenshot: a point whose ring of radius 11 px is one status colour all
 * round (an icon at this zoom is 18 px wide, a cluster disc at least 28 px) with white (the count)
 * near its centre. Answers the centres found (page coordinates).
 */
function clustersIn(shot: Buffer, box: { x: number; y: number; width: number; height: number }): { x: number; y: number }[] {
  const pixels = decodePng(shot);
  const at = (x: number, y: number) => colourAt(pixels, x, y);
  const found: { x: number; y: number }[] = [];
  for (let y = Math.ceil(box.y) + 14; y < box.y + box.height - 14; y += 2) {
    for (let x = Math.ceil(box.x) + 14; x < box.x + box.width - 14; x += 2) {
      const colour = STATUS_COLORS.find((k) => colourNear(at(x + 11, y), k, 30));
      if (!colour) continue;
      let ring = true;
      for (let k = 0; k < 16 && ring; k += 1) {
        const a = (k / 16) * 2 * Math.PI;
        ring = colourNear(at(Math.round(x + 11 * Math.cos(a)), Math.round(y + 11 * Math.sin(a))), colour, 30);
      }
      if (!ring) continue;
      let white = false;
      for (let dy = -5; dy <= 5 && !white; dy += 1)
        for (let dx = -5; dx <= 5 && !white; dx += 1) white = colourNear(at(x + dx, y + dy), [255, 255, 255], 40);
      if (white && !found.some((f) => Math.hypot(f.x - x, f.y - y) < 20)) found.push({ x, y });
    }
  }
  return found;
}

/** The status colour of a popup's status text (part 1 §4 labels, responder mix 'all' as the map uses). */
function colourOfStatusText(text: string): Rgb {
  for (let code = 0; code < STATUS_COLORS.length; code += 1) {
    if (text.includes(statusLabel(code as AssetStatus, 'all'))) return STATUS_COLORS[code]!;
  }
  throw new Error(`no status in "${text}"`);
}

test.describe('the fleet on the dashboard map', () => {
  test('group view off: an asset’s status colour shows at its position and moves with the points posted for it', async ({
    page,
    demoServer,
    request,
  }, testInfo) => {
    test.setTimeout(420_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    await page.addInitScript(
      ([key, value]) => window.localStorage.setItem(key!, value!),
      [PREFERENCES_STORAGE_KEY, JSON.stringify({ groupView: false })],
    );
    await page.goto(demoServer.url);
    await signInAsAdmin(page);
    const server = await api(request, demoServer.url);

    // A quiet asset (the seed left it pending or offline: the simulator does not move it).
    const now = Date.now();
    const quiet = server.things.find(
      (t) =>
        t.in_service !== false &&
        t.lat !== null &&
        t.lng !== null &&
        (t.heartbeat_datetime === null || now - Date.parse(t.heartbeat_datetime) > PENDING_AFTER_MS),
    );
    expect(quiet, 'a pending or offline demo asset').toBeTruthy();
    const name = quiet!.nickname ?? quiet!.haas_id.toUpperCase();

    // WebGL draws in software here (SwiftShader): both map canvases were made without multisampling.
    const contexts = await page.evaluate(() =>
      [...document.querySelectorAll('.lightbar-map-canvases canvas')].map(
        (canvas) => (canvas as HTMLCanvasElement).getContext('webgl2')?.getContextAttributes()?.antialias ?? null,
      ),
    );
    expect(contexts).toEqual([false, false]);

    // Spots are offsets from the map's centre (the first view's centre, whatever the drawer's width
    // does to the map's box): two empty ones (no other asset within 60 px), about 200 px apart.
    await mapBox(page);
    const SIDE = 1_000;
    // The first view shows the whole fleet (a fit once it loaded); two steps out leave room around it.
    const fitted = await settledView(page, { cameraKind: 'fit' });
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    const { longitude, latitude, zoom } = await settledView(page, { previous: fitted });
    expect(zoom).toBeLessThan(fitted.zoom - 1);
    const viewport = new WebMercatorViewport({ width: SIDE, height: SIDE, longitude, latitude, zoom });
    const offsetOf = (lng: number, lat: number) => {
      const [x, y] = viewport.project([lng, lat]) as [number, number];
      return [x - SIDE / 2, y - SIDE / 2] as const;
    };
    const others = server.things.filter((t) => t.id !== quiet!.id && t.lat !== null && t.lng !== null).map((t) => offsetOf(t.lng!, t.lat!));
    const empty: [number, number][] = [];
    for (let dy = -120; dy <= 120; dy += 20) {
      for (let dx = -160; dx <= 160; dx += 20) {
        if (others.every(([ox, oy]) => Math.hypot(ox - dx, oy - dy) > 60)) empty.push([dx, dy]);
      }
    }
    const first = empty[0];
    const second = empty.find(([x, y]) => first && Math.hypot(x - first[0], y - first[1]) > 180);
    expect(first && second, 'two empty spots on the map').toBeTruthy();
    /** Where an offset lies on the page now. */
    const onPage = async ([dx, dy]: readonly [number, number]) => {
      const box = await mapBox(page);
      return { x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 + dy };
    };

    const placeAt = async (offset: [number, number]) => {
      const [lng, lat] = viewport.unproject([SIDE / 2 + offset[0], SIDE / 2 + offset[1]]) as [number, number];
      await server.point(quiet!.haas_id, lng, lat);
      // Its hover popup names it once the socket's batch reached the map.
      let jiggle = 0;
      await expect
        .poll(
          async () => {
            jiggle = (jiggle + 1) % 3;
            const at = await onPage(offset);
            await page.mouse.move(at.x + jiggle, at.y);
            return page.getByRole('tooltip', { name }).isVisible();
          },
          { timeout: 90_000, intervals: [500] },
        )
        .toBe(true);
      const colour = colourOfStatusText((await page.getByRole('tooltip', { name }).textContent()) ?? '');
      // Pointer away (the popup goes); the screen is then read until software WebGL drew the frame.
      await page.mouse.move(2, HEIGHT - 2);
      await expect(page.getByRole('tooltip', { name })).toBeHidden({ timeout: 30_000 });
      return colour;
    };
    const colourA = await placeAt(first!);
    const atA = await onPage(first!);
    const hitsAt = (shot: Buffer) => pixelsNear(decodePng(shot), atA.x, atA.y, ICON_RADIUS, colourA, ICON_TOLERANCE);
    const shotA = await screenshotUntil(page, (shot) => hitsAt(shot) > 10);
    const hitsA = hitsAt(shotA);
    await testInfo.attach('asset at A', { body: shotA, contentType: 'image/png' });
    expect(hitsA).toBeGreaterThan(10);

    const colourB = await placeAt(second!);
    const [spotB, spotA] = [await onPage(second!), await onPage(first!)];
    const moved = (shot: Buffer) => {
      const pixelsB = decodePng(shot);
      return {
        atB: pixelsNear(pixelsB, spotB.x, spotB.y, ICON_RADIUS, colourB, ICON_TOLERANCE),
        leftA: pixelsNear(pixelsB, spotA.x, spotA.y, ICON_RADIUS, colourA, ICON_TOLERANCE),
      };
    };
    const shotB = await screenshotUntil(page, (shot) => {
      const seen = moved(shot);
      return seen.atB > 10 && seen.leftA < seen.atB / 2;
    });
    const { atB, leftA } = moved(shotB);
    await page.screenshot({ path: testInfo.outputPath('dashboard-map-group-off.png') });
    await testInfo.attach('asset moved to B', { body: shotB, contentType: 'image/png' });
    expect(atB).toBeGreaterThan(10);
    // It left A: the old spot no longer shows it.
    expect(leftA).toBeLessThan(atB / 2);
    expect(pageErrors).toEqual([]);
  });

  test('group view on (the default): cluster markers with their counts are drawn', async ({ page, demoServer }, testInfo) => {
    test.setTimeout(300_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    await page.goto(demoServer.url);
    await signInAsAdmin(page);
    const box = await mapBox(page);
    let found: { x: number; y: number }[] = [];
    let shot: Buffer = Buffer.alloc(0);
    await expect
      .poll(
        async () => {
          shot = await page.screenshot();
          found = clustersIn(shot, box);
          return found.length;
        },
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBeGreaterThan(0);
    await page.screenshot({ path: testInfo.outputPath('dashboard-map-group-on.png') });
    await testInfo.attach('clusters', { body: shot, contentType: 'image/png' });
    expect(pageErrors).toEqual([]);
  });
});
