/**
 * Event and area markers on the dashboard map (part 1 §2 Map "Area markers show asset
 * counts", "Hover and pin popups exist") against the real seeded server and the built app in
 * Chromium. The map is centred on a known area and a known event with the coordinates search box;
 * the marker is then at the map's centre: its colour is read back from a screenshot, hovering it
 * shows its popup, clicking it opens its page and pins the popup, a click on empty map closes it.
 * The fleet is hidden ('Display Assets' off) so no asset icon lies over a marker.
 */
import fs from 'node:fs';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { z } from 'zod';
import { areaWireSchema, fromAreaWire } from '../src/domain/area';
import { areaMarkerPosition } from '../src/domain/area-shape';
import { fromLocationWire, locationWireSchema } from '../src/domain/location';
import { CENTERING_MIN_ZOOM } from '../src/domain/constants';
import { eventMarkerPosition } from '../src/map/layers/events-layer';
import { AREA_BADGE_BORDER_COLOR, AREA_BADGE_COLOR, EVENT_ACTIVE_COLOR, TARGET_COLOR } from '../src/map/layers/overlay-style';
import { decodePng, pixelsNear } from './pixels';
import { expect, test } from './server-fixture';
import { apiGet, signIn } from './sign-in';
import { worldPixel } from '../src/domain/geometry';

/** A GET of the API with the signed-in session's token, sent from the test (the page is busy drawing). */

/** How far a marker's drawn colour may be from its style colour (antialiasing, blending). */
const MARKER_TOLERANCE = 28;

/** Centres the map on a point with the coordinates search box (part 1 §2: zoom 16 at least). */
async function centreOn(page: Page, lat: number, lng: number): Promise<void> {
  const search = page.getByPlaceholder('lat, lng');
  await search.fill(`${lat.toFixed(6)}, ${lng.toFixed(6)}`);
  await search.press('Enter');
}

async function centreOf(map: Locator): Promise<{ x: number; y: number }> {
  const box = (await map.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Clicks a marker until its page opens: on a loaded machine the map can take the press and the
 * release so far apart that it reads no click (a press, not a tap); clicks seconds apart are no
 * double click.
 */
async function clickUntil(page: Page, at: { x: number; y: number }, url: RegExp): Promise<void> {
  await expect(async () => {
    await page.mouse.click(at.x, at.y);
    await expect(page).toHaveURL(url, { timeout: 20_000 });
  }).toPass({ timeout: 120_000 });
}

/** Spots below the centred marker (its pinned popup opens above it); those under a control are skipped. */
const EMPTY_SPOT_OFFSETS: readonly [number, number][] = [
  [0, 170],
  [-140, 150],
  [140, 150],
  [-90, 80],
  [90, 80],
  [-150, 60],
  [150, 60],
  [0, 230],
];

/**
 * A spot of the map, centred on `at` at `zoom`, where a click reaches the map (no control over it)
 * and no event or area marker lies near: of the candidate offsets, the one farthest (in screen
 * pixels, web-mercator) from every marker.
 */
async function emptySpot(
  page: Page,
  centre: { x: number; y: number },
  at: { lat: number; lng: number },
  zoom: number,
  markers: readonly [number, number][],
): Promise<{ x: number; y: number }> {
  const project = (lng: number, lat: number) => worldPixel(lng, lat, zoom);
  const [cx, cy] = project(at.lng, at.lat);
  const onScreen = markers.map(([lng, lat]) => {
    const [x, y] = project(lng, lat);
    return [x - cx, y - cy] as const;
  });
  const onMap = await page.evaluate(
    (spots) => spots.map(([x, y]) => document.elementFromPoint(x, y) instanceof HTMLCanvasElement),
    EMPTY_SPOT_OFFSETS.map(([dx, dy]) => [centre.x + dx, centre.y + dy] as [number, number]),
  );
  let best: readonly [number, number] | null = null;
  let bestGap = -1;
  EMPTY_SPOT_OFFSETS.forEach(([dx, dy], i) => {
    if (!onMap[i]) return;
    const gap = Math.min(Infinity, ...onScreen.map(([x, y]) => Math.hypot(x - dx, y - dy)));
    if (gap > bestGap) {
      best = [dx, dy];
      bestGap = gap;
    }
  });
  expect(best, 'a spot of the map with no control over it').not.toBeNull();
  expect(bestGap, 'a spot with no marker within 40 px').toBeGreaterThan(40);
  const [dx, dy] = best!;
  return { x: centre.x + dx, y: centre.y + dy };
}

/** Keeps a screenshot in the test's output folder (kept after a pass) and attaches it to the report. */
async function saveShot(testInfo: TestInfo, name: string, shot: Buffer): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  fs.writeFileSync(file, shot);
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** Headless Chromium draws WebGL in software, slowly on a busy machine: wait for what should show. */
const DRAWN = { timeout: 180_000, intervals: [1_000, 2_000, 3_000] };

test('an area marker with its asset count and an event marker are drawn, with hover and pinned popups', async ({
  page,
  demoServer: server,
}, testInfo) => {
  // A ceiling for a busy machine (software WebGL, every click a redraw); about a minute when idle.
  test.setTimeout(900_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1100, height: 700 });
  await page.goto(server.url);
  await signIn(page, 'admin@lightbar.demo');
  await expect(page).toHaveURL(/\/dashboard\/things$/, { timeout: 60_000 });
  const map = page.getByTestId('dashboard-map');
  await expect(map.locator('canvas').first()).toBeVisible({ timeout: 60_000 });

  // A drawn area (a ring, no point: its marker sits at the ring's centre) and an active event. The
  // map shows the current organization's areas (part 2 §7 `org_ids[]`): ask as it does.
  const { organization_id: orgId } = z.object({ organization_id: z.string() }).parse(await apiGet(page, server.url, '/profile'));
  const areas = z
    .array(areaWireSchema)
    .parse(await apiGet(page, server.url, `/organization/exclusion_zone?org_ids[]=${encodeURIComponent(orgId)}`))
    .map(fromAreaWire);
  const area = areas.find((a) => a.lineStringArray.length >= 3 && !a.position);
  expect(area, 'the demo has a drawn area').toBeDefined();
  const events = z
    .object({ data: z.array(locationWireSchema) })
    .parse(await apiGet(page, server.url, '/locations'))
    .data.map(fromLocationWire);
  const event = events.find((e) => e.isActive && !e.isGeoMarker);
  expect(event, 'the demo has an active event').toBeDefined();

  // The fleet off: no asset icon is drawn over the markers.
  const assetsToggle = page.getByLabel('Display Assets');
  await assetsToggle.click();
  await expect(assetsToggle).not.toBeChecked({ timeout: 60_000 });

  // ── the area: a white badge with the area colour around it, at the centre ──
  const at = areaMarkerPosition(area!)!;
  await centreOn(page, at.lat, at.lng);
  const centre = await centreOf(map);
  let shot: Buffer = Buffer.alloc(0);
  await expect
    .poll(async () => {
      shot = await page.screenshot();
      const pixels = decodePng(shot);
      return Math.min(
        pixelsNear(pixels, centre.x, centre.y, 14, AREA_BADGE_COLOR, 10),
        pixelsNear(pixels, centre.x, centre.y, 20, AREA_BADGE_BORDER_COLOR, MARKER_TOLERANCE),
      );
    }, DRAWN)
    .toBeGreaterThan(10);
  await saveShot(testInfo, 'area-marker', shot);
  await page.mouse.move(centre.x, centre.y);
  const areaTip = page.getByRole('tooltip', { name: area!.displayName });
  await expect(areaTip).toBeVisible({ timeout: 60_000 });
  await expect(areaTip).toContainText(area!.ezTypeName);
  // The worker's count (part 1 §2 "Area markers show asset counts").
  await expect(areaTip.locator('dt', { hasText: 'Assets' }).locator('xpath=following-sibling::dd')).toHaveText(/^\d+$/, {
    timeout: 30_000,
  });
  await clickUntil(page, centre, new RegExp(`/dashboard/areas/${area!.id}$`));
  const areaDialog = page.getByRole('dialog', { name: area!.displayName });
  await expect(areaDialog).toBeVisible({ timeout: 30_000 });
  await areaDialog.getByRole('button', { name: 'Close popup' }).click();
  await expect(areaDialog).toBeHidden({ timeout: 30_000 });

  // ── the event: red (the location status colour) at the centre ──
  await centreOn(page, event!.lat, event!.lng);
  await expect
    .poll(async () => {
      shot = await page.screenshot();
      return pixelsNear(decodePng(shot), centre.x, centre.y, 8, EVENT_ACTIVE_COLOR, MARKER_TOLERANCE);
    }, DRAWN)
    .toBeGreaterThan(40);
  await saveShot(testInfo, 'event-marker', shot);
  await page.mouse.move(centre.x, centre.y);
  const eventTip = page.getByRole('tooltip', { name: event!.displayName });
  await expect(eventTip).toBeVisible({ timeout: 60_000 });
  await expect(eventTip).toContainText('Active');
  await expect(eventTip).toContainText('Active vehicles');
  await clickUntil(page, centre, new RegExp(`/dashboard/events/${event!.id}$`));
  // The click pinned the event's popup: it stays when the pointer leaves.
  await page.mouse.move(centre.x + 150, centre.y + 120);
  const eventDialog = page.getByRole('dialog', { name: event!.displayName });
  await expect(eventDialog).toBeVisible({ timeout: 30_000 });
  // The targeted event's ring (the focus colour).
  await expect
    .poll(async () => {
      shot = await page.screenshot();
      return pixelsNear(decodePng(shot), centre.x, centre.y, 18, TARGET_COLOR, MARKER_TOLERANCE);
    }, DRAWN)
    .toBeGreaterThan(30);
  await saveShot(testInfo, 'event-targeted', shot);

  // A click on empty map closes the pinned popup; the event stays targeted and open.
  const camera = (await map.getAttribute('data-camera'))?.split(',')[2];
  const zoom = camera ? Number(camera) : CENTERING_MIN_ZOOM;
  const markers = [
    ...events.map(eventMarkerPosition),
    ...areas.flatMap((a) => {
      const p = areaMarkerPosition(a);
      return p ? [[p.lng, p.lat] as [number, number]] : [];
    }),
  ];
  const empty = await emptySpot(page, centre, { lat: event!.lat, lng: event!.lng }, zoom, markers);
  await expect(async () => {
    await page.mouse.click(empty.x, empty.y);
    await expect(eventDialog).toBeHidden({ timeout: 20_000 });
  }).toPass({ timeout: 120_000 });
  await expect(page).toHaveURL(new RegExp(`/dashboard/events/${event!.id}$`));
  await expect(map).toHaveAttribute('data-target', `event:${event!.id}`);

  // 'Display Incidents' / 'Display Events' off: the event marker goes.
  const eventsToggle = page.getByLabel(/^Display (Incidents|Events)$/);
  await eventsToggle.click();
  await expect(eventsToggle).not.toBeChecked({ timeout: 60_000 });
  await expect
    .poll(async () => {
      shot = await page.screenshot();
      return pixelsNear(decodePng(shot), centre.x, centre.y, 8, EVENT_ACTIVE_COLOR, MARKER_TOLERANCE);
    }, DRAWN)
    .toBeLessThan(5);
  await saveShot(testInfo, 'events-hidden', shot);
  expect(pageErrors).toEqual([]);
});
