/**
 * The WZDx feed import on the real server in Chromium (beyond the spec; part 2 §2 Closures, §4
 * closure types): a road agency (TxDOT Austin District in the demo) subscribes to another
 * agency's feed — the official example feed, served by a local HTTP server on 127.0.0.1 with its
 * dates moved to now — fetches it with 'Refresh now', and its work zones show as read-only feed
 * closures in the closures list. axe on the feeds page; screenshots attached.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './server-fixture';
import { expectNoSeriousViolations } from './axe';
import { openSignedIn } from './sign-in';

const SLOW = { timeout: 60_000 };
const DAY_MS = 86_400_000;

test.describe('WZDx feeds', () => {
  let feedServer: http.Server;
  let feedUrl = '';

  test.beforeAll(async () => {
    const feed = JSON.parse(
      readFileSync(new URL('../tests/fixtures/ex_scenario1_simple_linestring_example.geojson', import.meta.url), 'utf8'),
    ) as {
      features: { properties: Record<string, unknown> }[];
    };
    for (const feature of feed.features) {
      feature.properties.start_date = new Date(Date.now() - DAY_MS).toISOString();
      feature.properties.end_date = new Date(Date.now() + 7 * DAY_MS).toISOString();
    }
    const body = JSON.stringify(feed);
    feedServer = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/geo+json' }).end(body));
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/wzdx.geojson`;
  });
  test.afterAll(async () => {
    feedServer.closeAllConnections();
    await new Promise((resolve) => feedServer.close(resolve));
  });

  test('a subscription is added, refreshed, and its work zones are feed closures', async ({ page, demoServer }, testInfo) => {
    test.setTimeout(300_000);
    await openSignedIn(page, demoServer.url, 'txdot.admin@lightbar.demo', '/dashboard/closures');
    await page.getByRole('link', { name: 'WZDx feeds' }).click();
    await expect(page.getByRole('heading', { name: 'WZDx feeds' })).toBeVisible(SLOW);

    await page.getByRole('button', { name: 'Add feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add WZDx feed' });
    await dialog.getByLabel(/Poll interval/).fill('30');
    await dialog.getByLabel(/Poll interval/).blur();
    await expect(dialog.getByText('Must be at least 60 seconds')).toBeVisible();
    await dialog.getByLabel(/Poll interval/).fill('600');
    await dialog.getByLabel(/Feed URL/).fill(feedUrl);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0, SLOW);

    const item = page.locator('.wzdx-feed', { hasText: feedUrl });
    await expect(item).toBeVisible(SLOW);
    await item.getByRole('button', { name: 'Refresh now' }).click();
    await expect(item.locator('dt', { hasText: 'Work zones' }).locator('+ dd')).toHaveText('5', SLOW);
    await expect(item.locator('dt', { hasText: 'Last error' }).locator('+ dd')).toHaveText('OK');
    await expectNoSeriousViolations(page, '.wzdx-feeds');
    const file = testInfo.outputPath('wzdx-feeds.png');
    await page.screenshot({ path: file });
    await testInfo.attach('wzdx-feeds', { path: file, contentType: 'image/png' });

    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('searchbox', { name: 'Search closures' }).fill('Single-direction work zone represented');
    await expect(page.locator('.closure-row')).toHaveCount(3, SLOW);
    await page.locator('.closure-row-open').first().click();
    await expect(page.getByRole('note')).toHaveText('This closure is managed by the WZDx feed and cannot be edited or deleted.', SLOW);
  });
});
