/**
 * API keys against the real seeded server (part 2 §2 "API keys and integrations", §3 API key): an
 * Org Admin creates a key on the accounts page's API Keys tab, copies it from the one-time view,
 * a device posts a point to POST /ingest with it and is accepted; the key is revoked on the same
 * tab and the next post is refused with 401. Screenshots of the API Keys and Device Configuration tabs.
 * Then the Integrations tab: a provider configured, listed masked by the real server, deleted (the
 * connection test against a fake provider is in tests/server/integrations.test.ts).
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './server-fixture';
import { apiGet, openSignedIn, signInBeforeLoad } from './sign-in';
import { expectNoSeriousViolations } from './axe';

const SLOW_MS = 30_000;

/** A device's post of one point (the ingest's own format) with `key` in x-api-key. */
function postPoint(request: APIRequestContext, base: string, key: string, haasId: string) {
  return request.post(`${base}/ingest`, {
    headers: { 'x-api-key': key },
    data: {
      messages: [
        {
          type: 'point',
          haas_id: haasId,
          timestamp: new Date().toISOString(),
          lat: 30.2672,
          lng: -97.7431,
          speed: 0,
          course: 90,
          accuracy: 5,
        },
      ],
    },
  });
}

test('part2 §2 API keys: create in the UI, a device posts with it, revoke in the UI, the next post is refused (401)', async ({
  page,
  context,
  request,
  demoServer: server,
}, testInfo) => {
  test.setTimeout(240_000);
  const url = server.url;
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  await page.setViewportSize({ width: 1366, height: 800 });
  const { token } = await signInBeforeLoad(page, url, 'orgadmin@lightbar.demo');

  // An asset of the Org Admin's organization, to report for.
  const things = await request.get(`${url}/organization/things?page=1&per_page=5`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(things.status()).toBe(200);
  const haasId = ((await things.json()) as { data: { haas_id: string }[] }).data[0]!.haas_id;

  await page.goto(`${url}/dashboard/accounts?tab=api_key`);
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('heading', { name: 'API Keys' })).toBeVisible({ timeout: SLOW_MS });
  await panel.getByRole('button', { name: 'Create' }).click();
  const form = page.getByRole('form', { name: 'Create API Key' });
  await form.getByRole('textbox', { name: 'Description *' }).fill('Yard gateway e2e');
  await form.getByRole('button', { name: 'Create' }).click();

  const shown = page.getByRole('dialog', { name: 'New API Key' });
  await expect(shown).toBeVisible({ timeout: SLOW_MS });
  await expect(shown.getByText('Copy the key now: it will not be shown again.')).toBeVisible();
  const key = (await shown.getByLabel('Key').textContent()) ?? '';
  expect(key).toMatch(/^lb_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await shown.getByRole('button', { name: 'Done' }).click();

  // The list shows the key masked; the whole key is on the page no more.
  const row = panel.getByRole('row', { name: /Yard gateway e2e/ });
  await expect(row).toBeVisible({ timeout: SLOW_MS });
  await expect(row).toContainText(`${key.slice(0, 11)}••••••••`);
  expect(await page.content()).not.toContain(key);
  await expectNoSeriousViolations(page, '.drawer');
  await page.screenshot({ path: testInfo.outputPath('accounts-api-keys.png') });

  const accepted = await postPoint(request, url, key, haasId);
  expect(accepted.status()).toBe(200);
  expect(((await accepted.json()) as { accepted: number }).accepted).toBe(1);

  await row.getByRole('button', { name: 'Revoke Yard gateway e2e' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke Yard gateway e2e?' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(confirm).toBeHidden({ timeout: SLOW_MS });
  await expect(row).toBeHidden({ timeout: SLOW_MS });

  const refused = await postPoint(request, url, key, haasId);
  expect(refused.status()).toBe(401);

  // The Device Configuration tab (its calls and rules are covered by the component and server tests).
  await page.getByRole('tab', { name: 'Device Configuration' }).click();
  await expect(page).toHaveURL(/\?tab=device_config$/);
  await expect(panel.getByRole('heading', { name: 'Device Configuration' })).toBeVisible({ timeout: SLOW_MS });
  await panel.getByRole('button', { name: 'Add Configuration' }).click();
  await expect(page.getByRole('form', { name: 'Add Device Configuration' })).toBeVisible();
  await expectNoSeriousViolations(page, '.drawer');
  await page.screenshot({ path: testInfo.outputPath('accounts-device-configuration.png') });
  expect(pageErrors).toEqual([]);
});

test('part2 §2 integrations: an Org Admin configures Geotab on the Integrations tab; it is listed masked, then deleted', async ({
  page,
  demoServer: server,
}, testInfo) => {
  test.setTimeout(180_000);
  const url = server.url;
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1366, height: 800 });
  await openSignedIn(page, url, 'orgadmin@lightbar.demo', '/dashboard/accounts?tab=integration');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('heading', { name: 'Integrations' })).toBeVisible({ timeout: SLOW_MS });
  const geotab = panel.getByRole('row', { name: /Geotab/ });
  await expect(geotab).toContainText('Not configured', { timeout: SLOW_MS });
  await geotab.getByRole('button', { name: 'Configure Geotab' }).click();
  const form = page.getByRole('form', { name: 'Configure Geotab' });
  await form.getByRole('textbox', { name: 'Server *' }).fill('my.geotab.com');
  await form.getByRole('textbox', { name: 'Database *' }).fill('travis_fleet');
  await form.getByRole('textbox', { name: 'User Name *' }).fill('dispatch@travis.example');
  await form.getByLabel('Password *').fill('geotab-e2e-pass-4321');
  await expectNoSeriousViolations(page, '.modal');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden({ timeout: SLOW_MS });

  // Listed by the real server: configured, the password masked to its last 4 characters.
  await expect(geotab).toContainText('Configured', { timeout: SLOW_MS });
  await expect(geotab).toContainText('travis_fleet');
  await expect(geotab).toContainText('••••4321');
  expect(await page.content()).not.toContain('geotab-e2e-pass');
  await expectNoSeriousViolations(page, '.drawer');
  await page.screenshot({ path: testInfo.outputPath('accounts-integrations.png') });

  // Mended in place (PUT): the form opens with its settings, the password blank; a new one replaces it.
  await geotab.getByRole('button', { name: 'Configure Geotab' }).click();
  await expect(form.getByRole('textbox', { name: 'Database *' })).toHaveValue('travis_fleet');
  await expect(form.getByLabel('Password *')).toHaveValue('');
  await form.getByLabel('Password *').fill('geotab-e2e-new-9876');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden({ timeout: SLOW_MS });
  await expect(geotab).toContainText('••••9876', { timeout: SLOW_MS });

  // The server's list holds it: the settings as typed, the password masked.
  const listed = (await apiGet(page, url, '/organization/integrations')) as { provider: string; settings: Record<string, string> }[];
  expect(listed.find((one) => one.provider === 'geotab')?.settings).toEqual({
    server: 'my.geotab.com',
    database: 'travis_fleet',
    user_name: 'dispatch@travis.example',
    password: '••••9876',
  });

  await panel.getByRole('button', { name: 'Delete Integration Geotab' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete the Geotab integration?' });
  await confirm.getByRole('button', { name: 'Delete Integration' }).click();
  await expect(confirm).toBeHidden({ timeout: SLOW_MS });
  await expect(panel.getByRole('row', { name: /Geotab/ })).toContainText('Not configured', { timeout: SLOW_MS });
  expect(pageErrors).toEqual([]);
});
