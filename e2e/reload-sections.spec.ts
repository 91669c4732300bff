/**
 * part 1 §2, §4 in Chromium against the real server: every section comes back after a reload. The
 * Live list, the events panel, an asset page and an event page are each loaded from another section
 * and then reloaded, as a user moving between them and reloading; each time, no 'Loading...' may
 * stay: the section shows its content within LIVENESS_MS. That bound is a liveness check (the
 * worker answers, the section's chunk arrives), not a speed requirement.
 */
import type { Page } from '@playwright/test';
import { DEMO_ENV, expect, startServer, test, type RunningServer } from './server-fixture';
import { signIn } from './sign-in';

/** How long a 'Loading...' may stay before it counts as stuck (generous: the map draws in software here). */
const LIVENESS_MS = 60_000;
const LIVE = { timeout: LIVENESS_MS };
/** A small fleet: the map draws in software here. */
const FLEET = { ...DEMO_ENV, SIM_ASSETS: '12' };
/** The waiting texts of the dashboard: the profile, a section's chunk, the events panel and an asset page. */
const WAITING = /^(Loading\.\.\.|Loading asset\.\.\.|Loading your profile\.\.\.)$/;

let server: (RunningServer & { stop(): Promise<void> }) | null = null;
test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startServer(FLEET);
});
test.afterAll(async () => {
  await server?.stop();
});

/** Waits until the page shows `ready` and no waiting text is left. */
async function settles(page: Page, ready: () => Promise<void>): Promise<void> {
  await ready();
  await expect(page.getByText(WAITING)).toHaveCount(0, LIVE);
}

test.describe('part1 §2 each section comes back after a reload', () => {
  test(`things, events, an asset and an event, each opened from another section and reloaded: no 'Loading...' stays`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(900_000);
    const url = server!.url;
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(`${url}/welcome/signin`);
    await signIn(page, 'admin@lightbar.demo');
    await expect(page).toHaveURL(/\/dashboard\/things$/, LIVE);

    // An asset and an event to reload: the first of each list. (Read, not clicked: a click pans the
    // map, whose software-drawn frames can hold the page for long on a busy machine.)
    const assetRow = page.locator('.things-list').getByRole('list', { name: 'Assets' }).getByRole('button').first();
    await expect(assetRow).toBeVisible(LIVE);
    const assetPath = `/dashboard/things/${(await assetRow.getAttribute('data-asset-id')) ?? ''}`;
    await page.goto(`${url}/dashboard/events`);
    const eventRow = page.locator('.event-row').first();
    await expect(eventRow).toBeVisible(LIVE);
    const eventPath = `/dashboard/events/${(await eventRow.getAttribute('data-event-id')) ?? ''}`;

    const sections: { path: string; ready: () => Promise<void> }[] = [
      {
        path: '/dashboard/things',
        ready: () =>
          expect(page.locator('.things-list').getByRole('list', { name: 'Assets' }).getByRole('button').first()).toBeVisible(LIVE),
      },
      { path: assetPath, ready: () => expect(page.getByRole('heading', { level: 1 })).toBeVisible(LIVE) },
      {
        path: '/dashboard/events',
        ready: () => expect(page.getByTestId('event-counts')).toHaveText(/^Active Events \d+ \| Recent Events \d+$/, LIVE),
      },
      { path: eventPath, ready: () => expect(page.getByTestId('event-coordinates')).toBeVisible(LIVE) },
    ];
    // Each section loaded from the one before it, then once more as the browser's reload button does.
    // (Loading them all again proves nothing more: `--repeat-each` is the repetition check.)
    for (const section of sections) {
      await page.goto(`${url}${section.path}`);
      await settles(page, section.ready);
      await page.reload();
      await settles(page, section.ready);
    }
    await page.screenshot({ path: testInfo.outputPath('last-section.png') });
    expect(pageErrors).toEqual([]);
  });
});
