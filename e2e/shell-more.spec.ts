/**
 * More of the shell against the real server (part 1 §2): the acs organization chooser of the
 * seeded engineer, and the version alert when the server's version changes while a page is open
 * (the server restarted on the same data and port with another LIGHTBAR_VERSION, as a deploy does).
 */
import fs from 'node:fs';
import { VERSION_FIRST_CHECK_MS, VERSION_POLL_MS } from '../src/domain/constants';
import { spawnServer, type SpawnedServer } from '../tests/support/spawn-server';
import { DEMO_ENV, expect, test } from './server-fixture';
import { templateDataDir } from '../tests/support/spawn-server';
import { signIn } from './sign-in';

/** A first start (migrations and seed) on a busy machine can take longer than the shared fixture waits. */
const START_TIMEOUT_MS = 150_000;
/** Sign-in and the profile load on a busy machine (the shared CI box runs several suites at once). */
const SLOW_MS = 30_000;

/** The seeded demo (a small fleet) on its own data directory; `port` and `dataDir` given: a restart. */
async function startDemo(version?: string, port = '0', dataDir = templateDataDir('lightbar-e2e-shell-more-')) {
  const server = await spawnServer(
    { ...DEMO_ENV, SIM_ASSETS: '10', DATA_DIR: dataDir, PORT: port, ...(version ? { LIGHTBAR_VERSION: version } : {}) },
    START_TIMEOUT_MS,
  );
  return { server, dataDir };
}

test.describe('part1 §2 the organization chooser', () => {
  let demo: { server: SpawnedServer; dataDir: string } | null = null;
  const demoServer = { url: '' };
  test.beforeAll(async () => {
    test.setTimeout(START_TIMEOUT_MS + 10_000);
    demo = await startDemo();
    demoServer.url = demo.server.url;
  });
  test.afterAll(async () => {
    await demo?.server.stop();
    if (demo) fs.rmSync(demo.dataDir, { recursive: true, force: true });
  });

  test('the acs engineer chooses another organization: the top bar shows it and the live data follow it', async ({ page }, testInfo) => {
    // Headless Chromium draws the deck.gl map in software: on a busy machine every step is slow.
    test.setTimeout(240_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Desktop (the top bar's chooser), kept small: fewer pixels for the software-drawn map.
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.goto(demoServer.url);
    await signIn(page, 'engineer@lightbar.demo');
    await expect(page).toHaveURL(/\/dashboard\/things$/, { timeout: SLOW_MS });

    const chooser = page.getByRole('combobox', { name: 'Organization' });
    await expect(chooser).toBeVisible({ timeout: SLOW_MS });
    // The engineer's own organization first, then every organization the server lets them see.
    expect(await chooser.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe('Lightbar Integrations');
    await expect(chooser.locator('option', { hasText: 'Travis County Regional' })).toHaveCount(1, { timeout: 15_000 });
    const names = await chooser.locator('option').allTextContents();
    expect(names[0]).toBe('Lightbar Integrations');
    expect(names).toEqual(expect.arrayContaining(['Travis County Regional', 'TxDOT Austin District', 'Williamson County']));
    expect(new Set(names).size).toBe(names.length);

    // Switching: the worker asks for the chosen organization's assets and the top bar shows it.
    const regionalId = await chooser.locator('option', { hasText: 'Travis County Regional' }).getAttribute('value');
    const refetch = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/organization/things' && url.searchParams.getAll('org_ids[]').includes(regionalId ?? '');
    });
    await chooser.selectOption({ label: 'Travis County Regional' });
    await refetch;
    await expect(chooser).toHaveValue(regionalId ?? '', { timeout: SLOW_MS });
    expect(await chooser.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe('Travis County Regional');
    await page.screenshot({ path: testInfo.outputPath('organization-chooser.png') });
    expect(pageErrors).toEqual([]);
  });

  test('a user without the acs flag sees the organization name and no chooser', async ({ page }) => {
    await page.goto(demoServer.url);
    await signIn(page, 'admin@lightbar.demo');
    await expect(page.getByTestId('organization-name')).toHaveText('Travis County Regional', { timeout: SLOW_MS });
    await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveCount(0);
  });
});

test.describe('part1 §2 the version poll', () => {
  test("the server's version changes while the page is open: 'Update Notification', and OK reloads", async ({ page }, testInfo) => {
    test.setTimeout(2 * START_TIMEOUT_MS + 60_000);
    const started = await startDemo('2026.11.1');
    const { dataDir } = started;
    let server = started.server;
    try {
      const { port } = new URL(server.url);
      // The page's clock: the poll's 10 s and 10 minutes pass without waiting for them.
      await page.clock.install();
      await page.goto(server.url);
      await signIn(page, 'admin@lightbar.demo');
      await expect(page).toHaveURL(/\/dashboard\/things$/, { timeout: SLOW_MS });

      // The first check, 10 s after the shell opened, learns the version this page runs.
      const first = page.waitForResponse((response) => new URL(response.url()).pathname === '/version');
      await page.clock.fastForward(VERSION_FIRST_CHECK_MS);
      expect(await (await first).json()).toEqual({ version: '2026.11.1' });

      // A deploy: the same data and port, another version.
      await server.stop();
      server = (await startDemo('2026.11.2', port, dataDir)).server;
      const second = page.waitForResponse((response) => new URL(response.url()).pathname === '/version');
      await page.clock.fastForward(VERSION_POLL_MS);
      expect(await (await second).json()).toEqual({ version: '2026.11.2' });

      const dialog = page.getByRole('alertdialog', { name: 'Update Notification' });
      await expect(dialog).toBeVisible({ timeout: SLOW_MS });
      await expect(dialog).toContainText('A new version is available. Click OK to continue.');
      await page.screenshot({ path: testInfo.outputPath('update-notification.png') });

      // OK reloads the page: still signed in, on the same section, without the alert.
      const reloaded = page.waitForEvent('load');
      await dialog.getByRole('button', { name: 'OK' }).click();
      await reloaded;
      await expect(page).toHaveURL(/\/dashboard\/things$/, { timeout: SLOW_MS });
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: SLOW_MS });
      await expect(page.getByRole('alertdialog', { name: 'Update Notification' })).toHaveCount(0);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
