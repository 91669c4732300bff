/**
 * The command palette in Chromium against the seeded demo server (docs/accessibility.md
 * "Keyboard"): one page load; Ctrl+K from the map opens 'Go to' as a modal dialog with focus in its
 * combobox and no serious axe violation; the first Live row's asset typed by name is the first
 * option, and Enter opens it, targets it and centres the map; Escape gives focus back.
 */
import { expect, test } from './server-fixture';
import { signInBeforeLoad } from './sign-in';
import { expectNoSeriousViolations } from './axe';

/** Headless Chromium draws the map in software and the machine may be busy: generous waits. */
const SLOW = { timeout: 60_000 };

test.describe('command palette (Ctrl+K)', () => {
  test('opens from the map, finds an asset by name, Enter opens it and centres the map; Escape gives focus back', async ({
    page,
    demoServer,
  }, testInfo) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1100, height: 700 });
    await signInBeforeLoad(page, demoServer.url, 'admin@lightbar.demo');
    await page.goto(`${demoServer.url}/dashboard/things`);
    const drawer = page.locator('.things-list');
    const list = drawer.getByRole('list', { name: 'Assets' });
    await expect(list.getByRole('button').first()).toBeVisible(SLOW);
    await expect(drawer.getByRole('progressbar')).toHaveCount(0, SLOW);
    const firstRow = list.getByRole('button').first();
    const name = (await firstRow.locator('.asset-row-name').textContent()) ?? '';
    const id = await firstRow.getAttribute('data-asset-id');
    expect(name).not.toBe('');

    // From the map: focus in the combobox of a modal dialog.
    const map = page.getByTestId('dashboard-map');
    await map.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Go to' });
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((node) => node.matches(':modal'))).toBe(true);
    const input = dialog.getByRole('combobox', { name: 'Find an asset, incident, area, section or lat, lng' });
    await expect(input).toBeFocused();

    await input.fill(name);
    const first = dialog.getByRole('option').first();
    await expect(first.locator('.palette-label')).toHaveText(name, SLOW);
    await expect(input).toHaveAttribute('aria-expanded', 'true');
    await expect(input).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id')) ?? 'none');
    await expectNoSeriousViolations(page, '.modal');
    await page.screenshot({ path: testInfo.outputPath('palette-open.png') });

    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/dashboard/things/${id}$`), SLOW);
    await expect(map).toHaveAttribute('data-target', `asset:${id}`, SLOW);
    await expect(map).toHaveAttribute('data-camera', /^-?\d+\.\d{5},-?\d+\.\d{5},16\.00$/, SLOW);

    // Escape closes and focus goes back where it was (the side nav's Support button).
    const back = page.getByRole('button', { name: 'Support' });
    await back.focus();
    await page.keyboard.press('Control+k');
    await expect(input).toBeFocused();
    // The choice is offered first, before typing.
    await expect(dialog.getByRole('option').first().locator('.palette-label')).toHaveText(name);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(back).toBeFocused();
    expect(pageErrors).toEqual([]);
  });
});
