/**
 * The closures section on the real server in Chromium (part 2 §2 Closures, §4, §5, §8): a road
 * agency (TxDOT Austin District, a WZDx organization in the demo) draws a closure between two
 * points, the offline router makes it follow the streets, it is published and read back from the
 * public WZDx feed (valid against the official 4.2 schema), deactivated from the list (gone from
 * the feed); a schedule starting in the past is active after save; a feed closure cannot be edited.
 * Screenshots of each screen; axe on each.
 */
import { WebMercatorViewport } from '@deck.gl/core';
import type { Page } from '@playwright/test';
import type { LatLng } from '../src/domain/geometry';
import type { WorkZoneFeed } from '../src/domain/wzdx';
import { austinRoadNetwork, nodePosition, offsetMetres } from '../server/region/geography';
import { RoadIndex } from '../server/region/road-index';
import { CLOSURE_STYLE } from '../src/map/layers/closures-style';
import { wzdxFeedValidator } from '../tests/support/wzdx-schema';
import { decodePng, pixelsNear } from './pixels';
import { animationFrames, drawingClick, drawingReady } from './frames';
import { toMinuteInput } from '../src/domain/time';
import { expectMapCentredAt, mapView } from './map-view';
import { expect, test } from './server-fixture';
import { expectNoSeriousViolations } from './axe';
import { apiGet, signInBeforeLoad } from './sign-in';

const SLOW = { timeout: 60_000 };
const network = austinRoadNetwork();
const roads = new RoadIndex(network);

async function shot(
  page: Page,
  testInfo: { outputPath(name: string): string; attach(name: string, o: object): Promise<void> },
  name: string,
) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** Opens `path` signed in as the agency's admin; its token, organization and time zone for the spec's own calls. */
async function signInAgency(page: Page, url: string, path: string): Promise<{ token: string; orgId: string; timeZone: string | null }> {
  const { token } = await signInBeforeLoad(page, url, 'txdot.admin@lightbar.demo');
  const profile = (await apiGet(page, url, '/profile', token)) as { organization_id: string; timezone?: string | null };
  await page.goto(`${url}${path}`);
  return { token, orgId: profile.organization_id, timeZone: profile.timezone ?? null };
}

/**
 * deck.gl's complaints about the layers it is given (part 2 §2: the form draws its path beside the
 * list's closures): two layers with one id in one list ('Multiple new layers with same id'), and a
 * layer handed over again after it was dropped ('assertion failed'). Collected from `page` on.
 */
function deckLayerComplaints(page: Page): string[] {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (/layers with same id|assertion failed/i.test(message.text())) complaints.push(message.text());
  });
  return complaints;
}

/** Centres the map on `at` (the coordinates search: zoom 16 at least) and waits for it to settle. */
async function centreMap(page: Page, at: LatLng): Promise<{ x: number; y: number }> {
  const search = page.getByPlaceholder('lat, lng');
  await search.fill(`${at.lat.toFixed(6)}, ${at.lng.toFixed(6)}`);
  await search.press('Enter');
  await expectMapCentredAt(page, at, SLOW.timeout);
  // Centred within 10 m: the fly-to is at its end; its last frame is drawn before a click.
  await animationFrames(page);
  const box = (await page.getByTestId('dashboard-map').boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Draws a path on the map: clicks at the points (kept apart as deck.gl counts clicks), then Enter. */
async function drawPath(page: Page, points: { x: number; y: number }[]): Promise<void> {
  await page.getByRole('button', { name: /Draw path on map|Redraw path/ }).click();
  await expect(page.getByText(/Click the map to place the start/)).toBeVisible(SLOW);
  const map = page.getByTestId('dashboard-map');
  await drawingReady(page, map, 'line', SLOW.timeout);
  for (const p of points) await drawingClick(page, map, p.x, p.y, SLOW.timeout);
  await page.keyboard.press('Enter');
}

/** Screen points a quarter and three quarters along the path's longest segment (clear of the arrows at its middle). */
async function pathSamples(page: Page, path: LatLng[]): Promise<{ x: number; y: number }[]> {
  const map = page.getByTestId('dashboard-map');
  const { longitude, latitude, zoom } = await mapView(page);
  const box = (await map.boundingBox())!;
  const viewport = new WebMercatorViewport({ width: box.width, height: box.height, longitude, latitude, zoom });
  const screen = path.map((p) => viewport.project([p.lng, p.lat]) as [number, number]);
  let longest = 0;
  for (let i = 1; i < screen.length; i++) {
    const len = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
    if (len(screen[i - 1]!, screen[i]!) > len(screen[longest]!, screen[longest + 1] ?? screen[longest]!)) longest = i - 1;
  }
  const [a, b] = [screen[longest]!, screen[longest + 1]!];
  return [0.25, 0.75].map((t) => ({ x: box.x + a[0] + (b[0] - a[0]) * t, y: box.y + a[1] + (b[1] - a[1]) * t }));
}

/** How many of the points have a pixel of the colour within 3 px. */
async function pathHits(page: Page, points: { x: number; y: number }[], rgba: readonly number[]): Promise<number> {
  const pixels = decodePng(await page.screenshot());
  return points.filter((p) => pixelsNear(pixels, Math.round(p.x), Math.round(p.y), 3, rgba.slice(0, 3), 40) > 0).length;
}

/** A datetime-local value as the form reads it: the wall time in the user's zone (the profile's), not the browser's. */
function localInput(ms: number, timeZone: string | null): string {
  return toMinuteInput(ms, timeZone);
}

interface ClosureAnswer {
  id: string;
  is_active: boolean;
  calculated_route: LatLng[];
  user_route: LatLng[];
  street_start: string | null;
  street_end: string | null;
}

test.describe('closures on the real server', () => {
  test.describe.configure({ mode: 'serial' });

  test('a routed closure is drawn, published to a valid WZDx feed, and deactivated from the list', async ({
    page,
    demoServer,
  }, testInfo) => {
    test.setTimeout(600_000);
    const url = demoServer.url;
    const complaints = deckLayerComplaints(page);
    const { token, orgId, timeZone } = await signInAgency(page, url, '/dashboard/closures/new');
    const validateFeed = wzdxFeedValidator();

    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible(SLOW);
    // A grid intersection of the demo city; the clicks go ~140 m north-east and south-west of it.
    const corner = nodePosition(network, network.gridNode(6, 6));
    const centre = await centreMap(page, offsetMetres(corner, 40, 40));
    await shot(page, testInfo, 'closure-form-empty');

    // Save with nothing: each §5 text under its field.
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText("ERROR: Please create new Closure on map. Click 'View Instructions' above if needed.")).toBeVisible();
    await expect(page.locator('#closure-direction-error')).toHaveText('Required');
    await shot(page, testInfo, 'closure-form-errors');

    await drawPath(page, [
      { x: centre.x - 60, y: centre.y - 60 },
      { x: centre.x + 60, y: centre.y + 60 },
    ]);
    await expect(page.getByTestId('closure-route-note')).toContainText('Route follows the roads', SLOW);
    await expect(page.getByTestId('closure-street-start')).not.toHaveText('None');
    await expect(page.getByTestId('closure-street-end')).not.toHaveText('None');

    const wzdxId = `E2E-${Date.now()}`;
    await page.getByLabel('Description *').fill('E2E lane closure on the grid');
    await page.getByLabel('Alert message').fill('Left lane closed');
    await page.getByLabel('Direction of travel *').selectOption('N');
    await page.getByRole('checkbox', { name: '2', exact: true }).check();
    await page.getByRole('switch', { name: 'Active now' }).check();
    await page.getByLabel('End time *').fill(localInput(Date.now() + 3 * 24 * 3_600_000, timeZone));
    await page.getByRole('switch', { name: 'Publish to WZDx feed' }).check();
    await page.getByLabel('WZDx ID *').fill(wzdxId);
    await page.getByLabel('Location method *').selectOption('channel-device-method');
    await page.getByLabel('Vehicle impact *').selectOption('some-lanes-closed');
    await expectNoSeriousViolations(page, '.closure-form');
    await shot(page, testInfo, 'closure-form-filled');
    await page.getByRole('button', { name: 'Save' }).click();

    await expect(page).toHaveURL(/\/dashboard\/closures\/[0-9a-f-]{36}$/, SLOW);
    const id = page.url().split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1, name: 'E2E lane closure on the grid' })).toBeVisible(SLOW);
    await expectNoSeriousViolations(page, '.closure-detail');
    await shot(page, testInfo, 'closure-detail');

    // The route follows the streets: every point on a road, more than the two drawn points, turning a corner.
    const saved = (await (
      await page.request.get(`${url}/organization/closure/${id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as ClosureAnswer;
    expect(saved.is_active).toBe(true);
    expect(saved.user_route).toHaveLength(2);
    expect(saved.calculated_route.length).toBeGreaterThan(2);
    for (const p of saved.calculated_route) expect(roads.nearestEdge(p).distanceM).toBeLessThan(1);
    expect(saved.street_start).toBe(roads.nearestEdge(saved.user_route[0]!).edge.street);

    // The public feed has it, valid against the official WZDx 4.2 schema.
    const feed = async () => (await (await page.request.get(`${url}/wzdx/${orgId}/feed`)).json()) as WorkZoneFeed;
    const published = await feed();
    const ok = validateFeed(published);
    expect(validateFeed.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    const feature = published.features.find((f) => f.id === wzdxId);
    expect(feature?.geometry.type).toBe('LineString');
    expect(feature?.properties.core_details.direction).toBe('northbound');

    // Deactivated from the list: the toggle follows, the feed drops it.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/dashboard\/closures$/, SLOW);
    await page.getByRole('searchbox', { name: 'Search closures' }).fill('E2E lane closure');
    const row = page.locator(`[data-closure-id="${id}"]`);
    await expect(row).toBeVisible(SLOW);
    await expectNoSeriousViolations(page, '.closures-list');
    await shot(page, testInfo, 'closures-list');
    const toggle = row.getByRole('switch');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    // On the map the path is drawn in the active colour …
    const samples = await pathSamples(page, saved.calculated_route);
    await expect.poll(() => pathHits(page, samples, CLOSURE_STYLE.status.active), SLOW).toBeGreaterThan(0);
    await toggle.click();
    // It is published: the toggle asks before ending it in the feed.
    const ask = page.getByRole('alertdialog', { name: 'Deactivate E2E lane closure on the grid?' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Deactivate' }).click();
    await expect(row).toHaveAttribute('data-status', 'standby', SLOW);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    // … and in the standby colour once deactivated.
    await expect.poll(() => pathHits(page, samples, CLOSURE_STYLE.status.standby), SLOW).toBeGreaterThan(0);
    expect(await pathHits(page, samples, CLOSURE_STYLE.status.active)).toBe(0);
    await shot(page, testInfo, 'closures-list-deactivated');
    const after = await feed();
    expect(validateFeed(after)).toBe(true);
    expect(after.features.some((f) => f.id === wzdxId)).toBe(false);
    expect(complaints).toEqual([]);
  });

  test("editing a closure draws the form's path beside the list's closures, and deck.gl is given no two layers of one id", async ({
    page,
    demoServer,
  }) => {
    test.setTimeout(300_000);
    const url = demoServer.url;
    const complaints = deckLayerComplaints(page);
    const { token } = await signInAgency(page, url, '/dashboard/closures');
    const list = (await apiGet(page, url, '/organization/closure', token)) as { data: { id: string; closure_type: string }[] };
    const manual = list.data.find((c) => c.closure_type === 'manual')!;
    const map = page.getByTestId('dashboard-map');
    const layerIds = async () => ((await map.getAttribute('data-layers')) ?? '').split(' ');
    await page.goto(`${url}/dashboard/closures/${manual.id}/edit`);
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible(SLOW);
    // The list's closures and the form's own path are both on the map, each set with ids of its own.
    await expect.poll(layerIds, SLOW).toEqual(expect.arrayContaining(['closures-paths', 'closure-form-paths']));
    expect(new Set(await layerIds()).size).toBe((await layerIds()).length);
    // The path hidden and shown again, a drawing begun and given up: every change is a new set of layers.
    const display = page.getByRole('switch', { name: 'Display closure' });
    await display.click();
    await expect.poll(async () => (await layerIds()).includes('closure-form-paths'), SLOW).toBe(false);
    await display.click();
    await expect.poll(async () => (await layerIds()).includes('closure-form-paths'), SLOW).toBe(true);
    await page.getByRole('button', { name: /Draw path on map|Redraw path/ }).click();
    await drawingReady(page, map, 'line', SLOW.timeout);
    await page.keyboard.press('Escape');
    await expect(map).not.toHaveAttribute('data-drawing', /./, SLOW);
    await animationFrames(page);
    expect(complaints).toEqual([]);
  });

  test('a schedule starting in the past is active after save', async ({ page, demoServer }, testInfo) => {
    test.setTimeout(600_000);
    const url = demoServer.url;
    const { timeZone } = await signInAgency(page, url, '/dashboard/closures/new');
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible(SLOW);
    const centre = await centreMap(page, offsetMetres(nodePosition(network, network.gridNode(4, 8)), 30, 0));
    await drawPath(page, [
      { x: centre.x - 80, y: centre.y },
      { x: centre.x + 80, y: centre.y },
    ]);
    await expect(page.getByTestId('closure-route-note')).toBeVisible(SLOW);
    await page.getByLabel('Description *').fill('E2E scheduled from an hour ago');
    await page.getByLabel('Direction of travel *').selectOption('E');
    await page.getByRole('switch', { name: 'Scheduled' }).check();
    await expect(page.getByRole('switch', { name: 'Active now' })).toBeDisabled();
    await page.getByLabel('Start time *').fill(localInput(Date.now() - 3_600_000, timeZone));
    await page.getByLabel('End time *').fill(localInput(Date.now() + 24 * 3_600_000, timeZone));
    await shot(page, testInfo, 'closure-form-scheduled');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/dashboard\/closures\/[0-9a-f-]{36}$/, SLOW);
    const status = page.locator('.closure-fields dt', { hasText: /^Status$/ }).locator('xpath=following-sibling::dd[1]');
    await expect(status).toHaveText('Active', SLOW);
  });

  test('a feed closure is read-only: no Edit or Delete, and its edit page refuses', async ({ page, demoServer }, testInfo) => {
    test.setTimeout(300_000);
    const url = demoServer.url;
    await signInAgency(page, url, '/dashboard/closures');
    await page.getByText('Filters', { exact: true }).click();
    await page.getByRole('group', { name: 'Type' }).getByRole('checkbox', { name: 'Manual' }).uncheck();
    await page.getByRole('group', { name: 'Type' }).getByRole('checkbox', { name: 'Automated' }).uncheck();
    const row = page.locator('.closure-row').first();
    await expect(row).toBeVisible(SLOW);
    await expect(row.getByRole('switch')).toHaveCount(0);
    await row.locator('.closure-row-open').click();
    await expect(page.getByRole('note')).toHaveText('This closure is managed by the WZDx feed and cannot be edited or deleted.', SLOW);
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await shot(page, testInfo, 'closure-detail-feed');
    await page.goto(`${page.url()}/edit`);
    await expect(page.getByText('This closure is managed by the WZDx feed and cannot be edited or deleted.')).toBeVisible(SLOW);
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  });

  test('on a phone the form opens with the mobile closure permissions', async ({ page, demoServer }, testInfo) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const url = demoServer.url;
    await signInAgency(page, url, '/dashboard/closures/new');
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible(SLOW);
    await expect(page.getByText("This page isn't available on mobile devices.")).toHaveCount(0);
    await shot(page, testInfo, 'closure-form-phone');
    // Drawing shows the map in place of the form, which comes back (its values kept) when the path is done.
    await page.getByLabel('Description *').fill('Phone closure');
    await page.getByRole('button', { name: 'Draw path on map' }).click();
    const map = page.getByTestId('dashboard-map');
    await expect(map).toBeVisible(SLOW);
    await drawingReady(page, map, 'line', SLOW.timeout);
    const box = (await map.boundingBox())!;
    await drawingClick(page, map, box.x + box.width / 2 - 60, box.y + box.height / 2, SLOW.timeout);
    await drawingClick(page, map, box.x + box.width / 2 + 60, box.y + box.height / 2 + 40, SLOW.timeout);
    await animationFrames(page);
    await shot(page, testInfo, 'closure-drawing-phone');
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Description *')).toHaveValue('Phone closure', SLOW);
    // Routed along the roads, or the router's message (the straight path kept, its streets 'None'): both may show.
    await expect(page.getByTestId('closure-street-start').or(page.getByTestId('closure-route-error')).first()).toBeVisible(SLOW);
    // The form's last buttons scroll clear of the floating List / Map switch and the bottom nav: a
    // trial click fails when another element would take it.
    for (const name of ['Cancel', 'Save']) {
      const button = page.getByRole('button', { name, exact: true });
      await button.scrollIntoViewIfNeeded();
      await button.click({ trial: true, timeout: 5_000 });
    }
  });
});
