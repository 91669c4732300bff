/**
 * The dashboard map's controls in Chromium against the seeded demo (part 1
 * §2 Map, §5 coordinate search): the coordinate search box rejects "91, 0" and goes to
 * "30.27, -97.74"; a right-click on the map opens the menu with 5-decimal coordinates; the
 * labelled toggles are kept in local storage and survive a reload.
 */
import { expect, test } from './server-fixture';
import { signIn } from './sign-in';
import { animationFrames } from './frames';
import { expectMapCentredAt } from './map-view';

test('part1 §2 Map controls: coordinate search, right-click menu, toggles kept over a reload', async ({ page, demoServer }, testInfo) => {
  // Headless Chromium draws the map's WebGL in software: give the whole walk more time than one page.
  test.setTimeout(300_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto(`${demoServer.url}/welcome/signin`);
  await signIn(page, 'admin@lightbar.demo');
  await expect(page).toHaveURL(/\/dashboard\/things$/);
  const map = page.getByRole('region', { name: 'Map' });
  const controls = map.getByRole('region', { name: 'Map controls' });
  await expect(controls).toBeVisible();

  // part 1 §5: two comma-separated numbers in range, else the box is invalid.
  const search = controls.getByRole('textbox', { name: 'Go to coordinates' });
  await expect(search).toHaveAttribute('placeholder', 'lat, lng');
  await search.fill('91, 0');
  await expect(search).toHaveAttribute('aria-invalid', 'true');
  await search.fill('30.27, -97.74');
  await expect(search).toHaveAttribute('aria-invalid', 'false');
  await search.press('Enter');

  // part 1 §2: the right-click menu at the map's centre — after the fly-to, the searched point.
  await expectMapCentredAt(page, { lat: 30.27, lng: -97.74 });
  await animationFrames(page);
  const surface = map.locator('.lightbar-map');
  const box = (await surface.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
  const menu = page.getByRole('dialog', { name: 'Map point' });
  await expect(menu).toBeVisible();
  const coordinates = menu.getByTestId('menu-coordinates');
  await expect(coordinates).toHaveText(/^-?\d+\.\d{5}, -?\d+\.\d{5}$/);
  const [lat, lng] = (await coordinates.textContent())!.split(', ').map(Number);
  expect(lat).toBeCloseTo(30.27, 3);
  expect(lng).toBeCloseTo(-97.74, 3);
  // No what3words key in the demo build: the lookup-failure text of §8.
  await expect(menu).toContainText('what3words not found...');
  await expect(menu.getByRole('link', { name: 'Directions in Google Maps' })).toHaveAttribute('target', '_blank');
  await page.screenshot({ path: testInfo.outputPath('map-controls.png') });
  await testInfo.attach('map-controls', { path: testInfo.outputPath('map-controls.png'), contentType: 'image/png' });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  // part 1 §2: the toggles (group view on and density view off by default) are kept in local storage.
  const density = controls.getByRole('switch', { name: 'Density view' });
  const group = controls.getByRole('switch', { name: 'Group view' });
  await expect(group).toBeChecked();
  await expect(density).not.toBeChecked();
  await density.check();
  await group.uncheck();
  await expect(density).toBeChecked();
  await page.reload();
  await expect(controls.getByRole('switch', { name: 'Density view' })).toBeChecked();
  await expect(controls.getByRole('switch', { name: 'Group view' })).not.toBeChecked();
  expect(pageErrors).toEqual([]);
});
