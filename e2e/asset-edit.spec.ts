/**
 * The asset detail and edit pages against the real seeded server (part 1 §2 "Asset detail",
 * asset routes; §5 asset edit rules; §7 PUT /things/{id}; §8 asset save errors). An asset of the
 * admin's own organization is chosen from GET /organization/things with the page's token.
 */
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './server-fixture';
import { apiGet, signInBeforeLoad } from './sign-in';

/** First loads (profile, section chunk, fleet) on a busy machine. */
const LOAD_MS = 60_000;
/** The headless browser draws the map in software: on a shared machine every step may wait. */
const expect = baseExpect.configure({ timeout: LOAD_MS });
test.use({ actionTimeout: LOAD_MS, navigationTimeout: LOAD_MS });

interface ThingRow {
  id: string;
  nickname: string | null;
  haas_id: string;
  lat: number | null;
  lng: number | null;
  organization: { id: string } | null;
}

/** Positioned, nicknamed assets of the admin's own organization (they may be edited); the admin is signed in for the next page load. */
async function signInForOwnAssets(page: Page, url: string): Promise<ThingRow[]> {
  const { token } = await signInBeforeLoad(page, url, 'admin@lightbar.demo');
  const profile = (await apiGet(page, url, '/profile', token)) as { organization_id: string };
  const { data } = (await apiGet(page, url, '/organization/things?per_page=500', token)) as { data: ThingRow[] };
  return data.filter((t) => t.nickname && t.lat !== null && t.lng !== null && t.organization?.id === profile.organization_id);
}

test.describe('part1 §2 asset detail and edit', () => {
  test('the detail shows the asset; its nickname is edited, an invalid VIN refused, and the new name survives a reload', async ({
    page,
    demoServer,
  }, testInfo) => {
    test.slow();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1366, height: 860 });
    const [asset] = await signInForOwnAssets(page, demoServer.url);
    expect(asset).toBeTruthy();
    const name = asset!.nickname!;

    await page.goto(`${demoServer.url}/dashboard/things/${asset!.id}`);
    const drawer = page.locator('main.drawer');
    await expect(drawer.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(drawer.getByRole('region', { name: 'Status' })).toBeVisible();
    await expect(drawer.getByRole('region', { name: 'Profile' })).toContainText(asset!.haas_id.toUpperCase());
    await expect(drawer.getByRole('region', { name: 'Organization Access' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('asset-detail.png') });

    await drawer.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/things/${asset!.id}/edit$`));
    await expect(drawer.getByRole('tab', { name: 'Profile', selected: true })).toBeVisible();
    const save = drawer.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();
    await page.screenshot({ path: testInfo.outputPath('asset-edit.png') });

    // part 1 §5: VIN only letters and digits.
    const vin = drawer.getByLabel('VIN', { exact: true });
    const vinBefore = await vin.inputValue();
    await vin.fill('1FT-FW1');
    await vin.blur();
    await expect(drawer.getByText('Please only use numbers or letters')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('asset-edit-invalid-vin.png') });
    await vin.fill(vinBefore);
    await vin.blur();
    await expect(drawer.getByText('Please only use numbers or letters')).toBeHidden();

    const renamed = `${name} E2E`.slice(0, 50);
    await drawer.getByLabel('Nickname *').fill(renamed);
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/things/${asset!.id}$`));
    await expect(drawer.getByRole('heading', { level: 1, name: renamed })).toBeVisible();

    await page.reload();
    await expect(drawer.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    expect(pageErrors).toEqual([]);
  });

  test("a nickname another asset of the organization has shows 'Asset nickname cannot be updated'", async ({
    page,
    demoServer,
  }, testInfo) => {
    test.slow();
    await page.setViewportSize({ width: 1366, height: 860 });
    const assets = await signInForOwnAssets(page, demoServer.url);
    const [target, other] = assets.slice(-2);
    expect(target && other).toBeTruthy();

    await page.goto(`${demoServer.url}/dashboard/things/${target!.id}/edit`);
    const drawer = page.locator('main.drawer');
    const nickname = drawer.getByLabel('Nickname *');
    await expect(nickname).toHaveValue(target!.nickname!);
    await nickname.fill(other!.nickname!);
    await drawer.getByRole('button', { name: 'Save' }).click();
    const alert = drawer.getByRole('form', { name: 'Profile' }).getByRole('alert');
    await expect(alert).toHaveText('Asset nickname cannot be updated');
    await expect(page).toHaveURL(new RegExp(`/dashboard/things/${target!.id}/edit$`));
    await page.screenshot({ path: testInfo.outputPath('asset-edit-server-error.png') });
  });
});
