/**
 * The dashboard map's layers control (docs/map.md "Layers") on the real seeded server in Chromium,
 * in one page load: on Live, a road agency's admin turns 'Active closures' on; the closures'
 * layers join the map's `data-layers` and the legend names their colours; a click on an active
 * closure's path pins its popup, whose link opens the closure's page; there the section draws its
 * own closures and the control's copy is off the map (nothing drawn twice). The fleet is hidden
 * ('Display Assets' off) so no asset icon lies over the path.
 */
import type { Locator } from '@playwright/test';
import { z } from 'zod';
import { closureWireSchema, fromClosureWire } from '../src/domain/closure';
import { expectNoSeriousViolations } from './axe';
import { animationFrames } from './frames';
import { expectMapCentredAt } from './map-view';
import { expect, test } from './server-fixture';
import { apiGet, signInBeforeLoad } from './sign-in';

const SLOW = { timeout: 60_000 };

/** The ids the map hands deck.gl, as it writes them on its element. */
async function drawnIds(map: Locator): Promise<string[]> {
  return ((await map.getAttribute('data-layers')) ?? '').split(' ').filter(Boolean);
}

test('on Live the closures layer turns on: drawn, in the legend, and a closure’s popup links to its page', async ({
  page,
  demoServer: server,
}) => {
  // A ceiling for a busy machine (software WebGL, every click a redraw).
  test.setTimeout(600_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1400, height: 800 });
  const { token } = await signInBeforeLoad(page, server.url, 'txdot.admin@lightbar.demo');
  const closures = z
    .object({ data: z.array(closureWireSchema) })
    .parse(await apiGet(page, server.url, '/organization/closure', token))
    .data.map((wire) => fromClosureWire(wire, Date.now()));
  const closure = closures.find((c) => c.closureType === 'manual' && c.status === 'active' && c.routePath.length >= 2 && c.description);
  expect(closure, 'the demo has an active manual closure with a route').toBeDefined();

  await page.goto(`${server.url}/dashboard/things`);
  const map = page.getByTestId('dashboard-map');
  await expect(map.locator('canvas').first()).toBeVisible(SLOW);
  await expect.poll(() => drawnIds(map), SLOW).toContain('events');
  expect((await drawnIds(map)).some((id) => id.startsWith('closures-'))).toBe(false);

  await page.getByRole('checkbox', { name: 'Display Assets' }).uncheck();
  // The other layers fold under 'Layers' on desktop (closed at first: the panel stays small).
  await expect(page.getByRole('checkbox', { name: 'Active closures' })).toBeHidden();
  await page.getByTestId('map-layers-more').locator('summary').click();
  await page.getByRole('checkbox', { name: 'Active closures' }).check();
  await expect(page.getByTestId('map-layers-more').locator('summary')).toHaveText(/^Layers \(\d+ on\)$/);
  await expect.poll(() => drawnIds(map), SLOW).toEqual(expect.arrayContaining(['closures-paths', 'closures-markers']));
  await expect(page.locator('[data-legend="closures"]')).toContainText('Closure start');
  await expectNoSeriousViolations(page, '.map-display');

  // Centre on the closure's middle point (a point of its path; the pinned popup stands there) and click it.
  const middle = closure!.routePath[Math.floor(closure!.routePath.length / 2)]!;
  const search = page.getByPlaceholder('lat, lng');
  await search.fill(`${middle.lat.toFixed(6)}, ${middle.lng.toFixed(6)}`);
  await search.press('Enter');
  await expectMapCentredAt(page, middle, SLOW.timeout);
  await animationFrames(page);
  const box = (await map.boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const dialog = page.getByRole('dialog', { name: closure!.description });
  // Folded again, the panel leaves the map's centre clear: the click reaches the map there.
  await page.getByTestId('map-layers-more').locator('summary').click();
  expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y) instanceof HTMLCanvasElement, centre)).toBe(true);
  // On a loaded machine the map can read a press and release far apart as no click: click again.
  await expect(async () => {
    await page.mouse.click(centre.x, centre.y);
    await expect(dialog).toBeVisible({ timeout: 15_000 });
  }).toPass({ timeout: 180_000 });
  await expect(dialog).toContainText('Active');
  await expectNoSeriousViolations(page, '.overlay-popup');
  const link = dialog.getByRole('link', { name: 'Open closure' });
  await expect(link).toHaveAttribute('href', `/dashboard/closures/${closure!.id}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/closures/${closure!.id}$`), SLOW);
  await expect(page.getByRole('heading', { level: 1, name: closure!.description })).toBeVisible(SLOW);
  // The closures page draws its own closures now: the control's copy is off, each id once.
  await expect.poll(async () => (await drawnIds(map)).filter((id) => id === 'closures-paths').length, SLOW).toBe(1);
  expect(pageErrors).toEqual([]);
});
