/**
 * Night mode (docs/map.md "Night mode"), on the real server and the built app: a dispatcher picks Night
 * in the profile card; the shell and the map's basemap turn dark (pixels of the night land colour,
 * none of the day's), axe finds no serious violation — colour contrast included — in the Live and
 * Incidents sections, the choice survives a reload, and the sign-in page follows the system's
 * dark preference.
 */
import fs from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { BASEMAP_STYLES } from '../src/map/basemap-style';
import { colourAt, colourNear, decodePng } from './pixels';
import { DEMO_ENV, expect, startServer, test } from './server-fixture';
import { signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';

let server: Awaited<ReturnType<typeof startServer>>;
test.beforeAll(async () => {
  server = await startServer({ ...DEMO_ENV, SIM_ASSETS: '8' });
});
test.afterAll(async () => {
  await server?.stop();
});

async function saveShot(testInfo: TestInfo, name: string, shot: Buffer): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  fs.writeFileSync(file, shot);
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/**
 * Pixels of the map (sampled every 4 px) near the night land colours and near the day land colours
 * (a few edge pixels of light badges and names can come near a land colour: one theme's land is
 * shown when the other's is under a fiftieth of it).
 */
async function landPixels(page: Page): Promise<{ night: number; day: number; shot: Buffer }> {
  const shot = await page.getByTestId('dashboard-map').screenshot();
  const pixels = decodePng(shot);
  let night = 0;
  let day = 0;
  for (let y = 0; y < pixels.height; y += 4) {
    for (let x = 0; x < pixels.width; x += 4) {
      const c = colourAt(pixels, x, y);
      if (colourNear(c, BASEMAP_STYLES.night.areas.earth, 6) || colourNear(c, BASEMAP_STYLES.night.areas.landuse, 6)) night += 1;
      if (colourNear(c, BASEMAP_STYLES.day.areas.earth, 6) || colourNear(c, BASEMAP_STYLES.day.areas.landuse, 6)) day += 1;
    }
  }
  return { night, day, shot };
}

const DRAWN = { timeout: 120_000, intervals: [2_000, 3_000, 5_000] };

test('Night in the profile card darkens the shell and the map, stays after a reload, and keeps contrast', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  await signIn(page, 'admin@lightbar.demo');
  await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible({ timeout: 90_000 });
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'day');
  await expect.poll(async () => (await landPixels(page)).day, DRAWN).toBeGreaterThan(100);

  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('group', { name: 'Appearance' }).getByRole('radio', { name: 'Night' }).check();
  await expect(html).toHaveAttribute('data-theme', 'night');
  // The page's own colours: the panel behind the section is dark.
  const panel = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(panel).toBe('rgb(16, 22, 31)');
  let seen: { night: number; day: number; shot: Buffer } = { night: 0, day: 0, shot: Buffer.alloc(0) };
  await expect
    .poll(async () => {
      seen = await landPixels(page);
      return seen.night > 100 && seen.day * 50 < seen.night;
    }, DRAWN)
    .toBe(true);
  await saveShot(testInfo, 'night-live', seen.shot);
  await page.keyboard.press('Escape');
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: testInfo.outputPath('night-live-page.png') });

  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: /Incidents|Events/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /Incidents|Events/ })).toBeVisible({ timeout: 90_000 });
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: testInfo.outputPath('night-incidents.png') });

  // Remembered for this user: night again after a reload, before anything is clicked.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /Incidents|Events/ })).toBeVisible({ timeout: 90_000 });
  await expect(html).toHaveAttribute('data-theme', 'night');

  // Back to day: the map's land is the day colour again.
  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('group', { name: 'Appearance' }).getByRole('radio', { name: 'Day' }).check();
  await expect(html).toHaveAttribute('data-theme', 'day');
  await expect
    .poll(async () => {
      seen = await landPixels(page);
      return seen.day > 100 && seen.night * 50 < seen.day;
    }, DRAWN)
    .toBe(true);
});

test('signed out, the sign-in page follows the system’s dark preference and keeps contrast', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${server.url}/welcome/signin`);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'night');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: testInfo.outputPath('night-sign-in.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'day');
});
