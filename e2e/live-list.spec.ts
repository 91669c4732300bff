/**
 * The Live list in Chromium against the seeded demo server and its 50 simulated assets (part 1 §2
 * "Asset list", §4 "Sorting and filtering"): the list shows the fleet, a filter
 * changes the counts, a row click opens /dashboard/things/{id}, targets the asset and pans the map.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './server-fixture';
import { signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';

/** 'n of m assets' as numbers. */
async function sizeLine(drawer: Locator): Promise<{ listed: number; total: number }> {
  const text = (await drawer.getByText(/^\d+ of \d+ assets$/).textContent()) ?? '';
  const [, listed, total] = /^(\d+) of (\d+) assets$/.exec(text) ?? [];
  return { listed: Number(listed), total: Number(total) };
}

/** Headless Chromium draws the map in software and the machine may be busy: generous waits. */
const SLOW = { timeout: 60_000 };

function chip(drawer: Locator, label: string): Locator {
  return drawer
    .getByRole('list', { name: 'Assets by status' })
    .getByRole('listitem')
    .filter({ has: drawer.page().locator('.things-count-label', { hasText: new RegExp(`^${label}$`) }) });
}

test.describe('part1 §2 Asset list (Live)', () => {
  test('the list shows the fleet; a filter changes the counts; a row click opens the asset and pans the map', async ({
    page,
    demoServer,
  }, testInfo) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Small: the map is drawn in software.
    await page.setViewportSize({ width: 1100, height: 700 });
    await page.goto(demoServer.url);
    await signIn(page, 'admin@lightbar.demo');
    // The pointer off the map: no hover popup or picking while the map is compared below.
    await page.mouse.move(5, 5);
    await expect(page).toHaveURL(/\/dashboard\/things$/, SLOW);
    const drawer = page.locator('.things-list');
    await expect(drawer.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible(SLOW);

    // The fleet loads (the progress bar goes) and the list shows rows in the worker's order.
    const list = drawer.getByRole('list', { name: 'Assets' });
    await expect(list.getByRole('button').first()).toBeVisible(SLOW);
    await expect(drawer.getByRole('progressbar')).toHaveCount(0, SLOW);
    const before = await sizeLine(drawer);
    expect(before.total).toBeGreaterThan(0);
    expect(before.listed).toBe(before.total);
    // Virtualized: far fewer rows drawn than listed.
    expect(await list.getByRole('button').count()).toBeLessThan(before.listed);

    await expectNoSeriousViolations(page, '.things-list');
    await page.screenshot({ path: testInfo.outputPath('live-list.png') });
    await testInfo.attach('live-list', { path: testInfo.outputPath('live-list.png'), contentType: 'image/png' });

    // A filter changes the counts: without Offline the Offline chip reads 0 and fewer are listed.
    const offline = Number((await chip(drawer, 'Offline').locator('.things-count-value').textContent()) ?? 'NaN');
    expect(offline).toBeGreaterThan(0);
    await drawer.getByRole('button', { name: 'Filters' }).click();
    const panel = drawer.getByRole('region', { name: 'Filters' });
    await panel.getByRole('checkbox', { name: 'Offline' }).uncheck();
    await panel.getByRole('button', { name: 'Apply' }).click();
    await expect(chip(drawer, 'Offline')).toHaveText('Offline 0', SLOW);
    // The button says the list is filtered.
    await expect(drawer.getByRole('button', { name: 'Filters 1 active', exact: true })).toBeVisible();
    const filtered = await sizeLine(drawer);
    expect(filtered.listed).toBeLessThanOrEqual(before.total - offline);
    await page.screenshot({ path: testInfo.outputPath('live-list-filtered.png') });
    // Clear restores the default filter.
    await drawer.getByRole('button', { name: 'Filters' }).click();
    await drawer.getByRole('region', { name: 'Filters' }).getByRole('button', { name: 'Clear' }).click();
    await expect(chip(drawer, 'Offline')).toHaveText(`Offline ${offline}`, SLOW);

    // Search narrows the list to the first row's asset.
    const firstRow = list.getByRole('button').first();
    const name = (await firstRow.locator('.asset-row-name').textContent()) ?? '';
    await drawer.getByRole('searchbox', { name: 'Search assets' }).fill(name);
    await expect.poll(async () => (await sizeLine(drawer)).listed, SLOW).toBeLessThan(before.total);
    await expect(list.getByRole('button').first().locator('.asset-row-name')).toHaveText(name, SLOW);

    // A row click: the detail's URL, the map's target and a camera request at the centring zoom.
    const map = page.getByTestId('dashboard-map');
    const mapBefore = await map.screenshot();
    const row = list.getByRole('button').first();
    const id = await row.getAttribute('data-asset-id');
    expect(id).toBeTruthy();
    await row.click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/things/${id}$`), SLOW);
    await expect(map).toHaveAttribute('data-target', `asset:${id}`);
    await expect(map).toHaveAttribute('data-camera', /^-?\d+\.\d{5},-?\d+\.\d{5},16\.00$/);
    // The fly-to plays (600 ms); the map drawn afterwards differs from before (waited for, a frame
    // taking seconds in software WebGL here, not a fixed time).
    await expect.poll(async () => (await map.screenshot()).equals(mapBefore), { timeout: 30_000 }).toBe(false);
    await page.screenshot({ path: testInfo.outputPath('live-row-clicked.png') });
    expect(pageErrors).toEqual([]);
  });
});
