/**
 * The alerting zones section against the real seeded server in Chromium (part 2 §2 Alerting zones,
 * §4, §7): the admin opens /dashboard/zones, sees the organization's zones counted, filters by
 * status down to the empty state, switches to the map, opens a zone's popup, and sees its status
 * change from Active to Standby (or back) once the simulator flips it (SIM_ZONE_FLIP_MS short
 * here) and the page's 15 s refetch brings it. axe finds no serious violation on the list or the
 * map mode. Screenshots at 1366×800 are attached as artifacts.
 */
import { WebMercatorViewport } from '@deck.gl/core';
import type { Page, TestInfo } from '@playwright/test';
import { z } from 'zod';
import { alertingZoneWireSchema, fromAlertingZoneWire, type AlertingZone } from '../src/domain/alerting-zone';
import { ringCenter } from '../src/domain/geometry';
import { DEMO_ENV, expect, SERVER_START_MS, startServer, test as base, type RunningServer } from './server-fixture';
import { apiGet, signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';
import { mapView, settledMapView } from './map-view';
import { animationFrames } from './frames';

/** The demo server with a zone flipped every 2.5 s (the demo's four zones: each about every 10 s). */
const test = base.extend<object, { zonesServer: RunningServer }>({
  zonesServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ...DEMO_ENV, SIM_ZONE_FLIP_MS: '2500' });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: SERVER_START_MS + 60_000 },
  ],
});

/** Software WebGL and a busy machine make redraws slow. */
const soon = expect.configure({ timeout: 30_000 });

/** The zones of the signed-in user's organization, as the page asks for them (part 2 §7 `org_ids[]`). */
async function zones(page: Page, url: string): Promise<AlertingZone[]> {
  const { organization_id: orgId } = z.object({ organization_id: z.string() }).parse(await apiGet(page, url, '/profile'));
  return z
    .array(alertingZoneWireSchema)
    .parse(await apiGet(page, url, `/organization/alerting_zones?org_ids[]=${encodeURIComponent(orgId)}`))
    .map(fromAlertingZoneWire);
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

/** Where a zone's first shape lies on the screen now (the map's `data-view`: lng, lat, zoom). */
async function zoneOnScreen(page: Page, zone: AlertingZone): Promise<{ x: number; y: number }> {
  const map = page.getByTestId('dashboard-map');
  const { longitude, latitude, zoom } = await mapView(page);
  const box = (await map.boundingBox())!;
  const viewport = new WebMercatorViewport({ width: box.width, height: box.height, longitude, latitude, zoom });
  const shape = zone.features.find((f) => f.kind === 'polygon' || f.kind === 'circle')!;
  const at = shape.kind === 'polygon' ? ringCenter(shape.ring)! : shape.kind === 'circle' ? shape.center : null;
  const [x, y] = viewport.project([at!.lng, at!.lat]) as [number, number];
  return { x: box.x + x, y: box.y + y };
}

test.describe('part2 §2 alerting zones', () => {
  test('list with counts, status filter to empty, map mode with a popup whose status follows the simulator', async ({
    page,
    zonesServer: server,
  }, testInfo) => {
    test.setTimeout(240_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${server.url}/dashboard/zones`);
    await signIn(page, 'admin@lightbar.demo');
    await soon(page).toHaveURL(/\/dashboard\/zones$/);
    await soon(page.getByRole('heading', { level: 1, name: 'Alerting zones' })).toBeVisible();

    // The list: every zone of the organization, counted.
    const all = await zones(page, server.url);
    expect(all.length, 'the demo organization has alerting zones').toBeGreaterThan(0);
    const total = all.length;
    await soon(page.getByText(`Showing (${total}/${total})`)).toBeVisible();
    await soon(page.locator('.zone-row-slot')).toHaveCount(total);
    await expect(page.getByRole('checkbox', { name: 'Active', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Standby', exact: true })).toBeChecked();
    await shot(page, testInfo, 'zones-list');
    await expectNoSeriousViolations(page, '.zones-list');

    // Status filter: only standby zones, then none (the empty state), then both again. Right after a
    // refetch, so that none lands meanwhile (a zone flipped by the simulator keeps its place until
    // the next filter change, docs/sections.md).
    await page.waitForResponse((r) => r.url().includes('/organization/alerting_zones') && r.request().method() === 'GET', {
      timeout: 30_000,
    });
    await page.getByRole('checkbox', { name: 'Active', exact: true }).uncheck();
    await soon(page.getByText(new RegExp(`^Showing \\(\\d+/${total}\\)$`))).toBeVisible();
    await expect(page.locator('.zone-row-slot .zone-status[data-status="active"]')).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Standby', exact: true }).uncheck();
    await soon(page.getByText('No zones match.')).toBeVisible();
    await expect(page.getByText(`Showing (0/${total})`)).toBeVisible();
    await shot(page, testInfo, 'zones-filtered-empty');
    await page.getByRole('checkbox', { name: 'Active', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Standby', exact: true }).check();
    await soon(page.getByText(`Showing (${total}/${total})`)).toBeVisible();

    // Map mode: the list collapses to the filters, the map fits the zones.
    await page.getByRole('group', { name: 'View' }).getByRole('radio', { name: 'Map' }).check();
    await soon(page.locator('.zone-row-slot')).toHaveCount(0);
    await expect(page.getByText('The shown zones are drawn on the map; hover or click one for its details.')).toBeVisible();
    const map = page.getByTestId('dashboard-map');
    await soon(map.locator('canvas').first()).toBeVisible();
    // The fit has landed once the view stood still for three reads a second apart.
    await settledMapView(page, { timeout: 30_000 });
    await shot(page, testInfo, 'zones-map');
    await expectNoSeriousViolations(page, '.zones-list');

    // A click on the zone pins its popup; the simulator flips it and the refetch shows the new status.
    // The assets and events are drawn over the zones: hidden, a click on the zone reaches the zone.
    await page.getByRole('checkbox', { name: 'Display Assets' }).uncheck();
    await page.getByRole('checkbox', { name: 'Display Events' }).uncheck();
    // The map no longer has their layers (its data-layers), and a frame without them is drawn.
    await expect
      .poll(async () => ((await map.getAttribute('data-layers')) ?? '').split(' ').filter((id) => /^(assets|asset-|events)/.test(id)), {
        timeout: 30_000,
      })
      .toEqual([]);
    await animationFrames(page);
    const zone = all[0]!;
    const title = zone.description || zone.id;
    const at = await zoneOnScreen(page, zone);
    await page.mouse.click(at.x, at.y);
    const popup = page.getByRole('dialog', { name: title });
    await soon(popup).toBeVisible();
    const status = popup.locator('.overlay-popup-fact', { hasText: 'Status' }).locator('dd');
    const before = (await status.textContent()) ?? '';
    expect(['Active', 'Standby']).toContain(before);
    await shot(page, testInfo, 'zones-map-popup');
    await expect(status).toHaveText(before === 'Active' ? 'Standby' : 'Active', { timeout: 60_000 });
    await shot(page, testInfo, 'zones-map-popup-flipped');
    // The server agrees (or has flipped it back since: its status is one of the two, and the page follows).
    expect(['active', 'standby']).toContain((await zones(page, server.url)).find((z) => z.id === zone.id)!.status);

    // The remembered choice: a reload opens the map mode again.
    await page.reload();
    await soon(page.getByRole('group', { name: 'View' }).getByRole('radio', { name: 'Map' })).toBeChecked();
    expect(pageErrors).toEqual([]);
  });
});
