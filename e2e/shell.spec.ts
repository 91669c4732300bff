/**
 * Sign-in, session and shell against the real seeded server (part 1 §2, §4, §8): Chromium drives
 * the built app; reset links are read from the server's log, where the mailer writes every mail.
 */
import { DEMO_PASSWORD, expect, test } from './server-fixture';
import { signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';

test.describe('part1 §2 sign-in and shell', () => {
  test('admin signs in and lands on the first allowed section inside the shell', async ({ page, demoServer }, testInfo) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(demoServer.url);
    await expect(page).toHaveURL(/\/welcome\/signin$/);
    await expectNoSeriousViolations(page);
    await page.screenshot({ path: testInfo.outputPath('sign-in.png') });
    await signIn(page, 'admin@lightbar.demo');
    await expect(page).toHaveURL(/\/dashboard\/things$/);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Live' })).toBeVisible();
    // The section loads lazily while the map's first frames draw in software WebGL here (a second each).
    await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('organization-name')).toHaveText('Travis County Regional');
    await expect(page.getByTestId('asset-count')).toContainText('Assets');
    await expectNoSeriousViolations(page);
    await page.screenshot({ path: testInfo.outputPath('shell-desktop.png') });
    // The live worker started with the token and the profile's organization: the offline notice reads its counts.
    await expect(page.getByText(/Some of your assets are offline/)).toBeVisible();
    expect(pageErrors).toEqual([]);

    // A second click on the current section toggles the drawer.
    await nav.getByRole('link', { name: 'Live' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeHidden();
    await nav.getByRole('link', { name: 'Live' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();

    // Sign-out from the profile card returns to sign-in; the dashboard then asks to sign in again.
    await page.getByRole('button', { name: /Profile menu/ }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/welcome\/signin$/);
    await page.goto(`${demoServer.url}/dashboard`);
    await expect(page).toHaveURL(/\/welcome\/signin$/);
  });

  test("a wrong password shows 'Email and/or password incorrect.'", async ({ page, demoServer }) => {
    await page.goto(`${demoServer.url}/welcome/signin`);
    await signIn(page, 'user@lightbar.demo', 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Email and/or password incorrect.');
  });

  test("a locked-out user sees the server's description", async ({ page, demoServer }) => {
    // Four failures from this address, then the fifth through the form: it locks the account for
    // this address (docs/decisions/design.md, sign-in lockout) and answers locked_out.
    for (let i = 0; i < 4; i += 1) {
      await page.request.post(`${demoServer.url}/user_token`, {
        data: { grant_type: 'password', application: 'dashboard', username: 'wilco.user@lightbar.demo', password: 'wrong' },
      });
    }
    await page.goto(`${demoServer.url}/welcome/signin`);
    await signIn(page, 'wilco.user@lightbar.demo', 'still-wrong');
    await expect(page.getByRole('alert')).toContainText('Your account is locked after 5 failed sign-in attempts.');
  });

  test('a deep link survives sign-in', async ({ page, demoServer }) => {
    await page.goto(`${demoServer.url}/dashboard/areas`);
    await expect(page).toHaveURL(/\/welcome\/signin$/);
    await signIn(page, 'user@lightbar.demo');
    await expect(page).toHaveURL(/\/dashboard\/areas$/);
    // The section's chunk loads first (seconds on a busy machine).
    await expect(page.getByRole('heading', { level: 1, name: 'Areas' })).toBeVisible({ timeout: 60_000 });
  });

  test('a Media user sees only Incidents/Events and no Live section, and the page asks nothing the server refuses', async ({
    page,
    demoServer,
  }) => {
    // part 1 §6: the pages call only what the user's permissions open: no answer is a 403, and the
    // lists of the sections the user lacks (asked with the events when they were asked) are not asked.
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
    });
    const notAllowed = /^\/organization\/(things|exclusion_zone|closure)(\/|$)/;
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (notAllowed.test(pathname)) refused.push(`asked ${request.method()} ${pathname}`);
    });
    await page.goto(`${demoServer.url}/welcome/signin`);
    await signIn(page, 'media@lightbar.demo');
    await expect(page).toHaveURL(/\/dashboard\/events$/);
    const links = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('listitem');
    await expect(links).toHaveCount(1);
    await expect(links.first()).toHaveText(/^(Incidents|Events)$/);
    // The events are shown: the worker's first load has asked its lists.
    await expect(page.getByTestId('event-counts')).toHaveText(/^Active (Events|Incidents) \d+ \| Recent (Events|Incidents) \d+$/, {
      timeout: 60_000,
    });
    expect(refused).toEqual([]);
    await page.goto(`${demoServer.url}/dashboard/things`);
    await expect(page.getByRole('heading', { name: 'Sorry, you are not currently authorized to access this page.' })).toBeVisible();
  });

  test('sign-in and section navigation work by keyboard alone', async ({ page, demoServer }) => {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${demoServer.url}/welcome/signin`);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type('user@lightbar.demo');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/things$/);
    const areas = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Areas' });
    await areas.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/areas$/);
  });

  test('a 390 × 844 viewport shows the mobile top bar and a bottom nav of four items', async ({ page, demoServer }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${demoServer.url}/welcome/signin`);
    await signIn(page, 'admin@lightbar.demo');
    const bottom = page.getByRole('navigation', { name: 'Sections' });
    await expect(bottom.getByRole('link')).toHaveCount(4);
    await expect(bottom.getByRole('link')).toHaveText(['Live', /^(Incidents|Events)$/, 'Areas', 'Closures']);
    await expectNoSeriousViolations(page);
    await page.screenshot({ path: testInfo.outputPath('shell-mobile.png') });
    // The list and the map take the screen in turn.
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Map' }).click();
    await expect(page.getByRole('region', { name: 'Map' }).locator('canvas').first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toHaveCount(0);
    // The map's toggles fold under their title on a phone.
    await expect(page.getByRole('switch', { name: 'Group view' })).toBeHidden();
    await page.getByText('Map views', { exact: true }).click();
    await expect(page.getByRole('switch', { name: 'Group view' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('shell-mobile-map.png') });
    await page.goto(`${demoServer.url}/dashboard/zones`);
    await expect(page.getByRole('heading', { name: "This page isn't available on mobile devices." })).toBeVisible();
  });

  test('unknown URL shows the not-found page with its button', async ({ page, demoServer }) => {
    await page.goto(`${demoServer.url}/welcome/signin`);
    await signIn(page, 'user@lightbar.demo');
    await expect(page).toHaveURL(/\/dashboard\/things$/);
    await page.goto(`${demoServer.url}/dashboard/nowhere`);
    await expect(page.getByRole('heading', { name: 'Sorry, the requested URL was not found here.' })).toBeVisible();
    await page.getByRole('link', { name: 'Take me back to the main page' }).click();
    await expect(page).toHaveURL(/\/dashboard\/things$/);
  });

  test('forgot and reset through the mail the server logs, then sign in with the new password', async ({ page, demoServer }) => {
    const email = 'orgadmin@lightbar.demo';
    await page.goto(`${demoServer.url}/welcome/signin`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/welcome\/forgot$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('status')).toHaveText("You'll receive an email if account was found");

    let link = '';
    await expect
      .poll(() => {
        const matches = [...demoServer.output().matchAll(/https?:\/\/[^\s"\\]+\/welcome\/reset\/[^\s"\\]+/g)];
        link = matches.at(-1)?.[0] ?? '';
        return link;
      })
      .not.toBe('');
    const resetPath = new URL(link).pathname;
    await page.goto(`${demoServer.url}${resetPath}`);
    await expect(page.getByText('Password expires after 90 days')).toBeVisible();
    const newPassword = 'Brand-new#2027';
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Save Password' }).click();
    await expect(page.getByRole('status')).toHaveText("Success! You're being redirected...");
    await expect(page).toHaveURL(/\/welcome\/signin$/, { timeout: 5_000 });
    await signIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/dashboard\//);
  });

  test('two tabs share one session: sign-in reaches the other tab, sign-out signs both out', async ({ context, demoServer }) => {
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto(`${demoServer.url}/welcome/signin`);
    await second.goto(`${demoServer.url}/welcome/signin`);
    await signIn(first, 'user@lightbar.demo');
    await expect(first).toHaveURL(/\/dashboard\/things$/);
    await expect(second).toHaveURL(/\/dashboard\/things$/);
    await second.getByRole('button', { name: /Profile menu/ }).click();
    await second.getByRole('button', { name: 'Sign Out' }).click();
    await expect(second).toHaveURL(/\/welcome\/signin$/);
    await expect(first).toHaveURL(/\/welcome\/signin$/);
  });

  test("a stored session already expired at page load shows 'Session Expired' on sign-in", async ({ page, demoServer }) => {
    await page.goto(`${demoServer.url}/welcome/signin`);
    await page.evaluate(() =>
      localStorage.setItem(
        'lightbar.session',
        JSON.stringify({ token: 't', refreshToken: 'r', expiresIn: 60, expiresAt: Date.now() - 1000 }),
      ),
    );
    await page.goto(`${demoServer.url}/dashboard`);
    await expect(page).toHaveURL(/\/welcome\/signin$/);
    await expect(page.getByRole('alertdialog', { name: 'Session Expired' })).toBeVisible();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByRole('alertdialog')).toBeHidden();
  });

  test('unlock through the link the server mails after five failed sign-ins', async ({ page, demoServer }) => {
    const email = 'txdot.admin@lightbar.demo';
    for (let i = 0; i < 5; i += 1) {
      await page.request.post(`${demoServer.url}/user_token`, {
        data: { grant_type: 'password', application: 'dashboard', username: email, password: 'wrong' },
      });
    }
    let link = '';
    await expect
      .poll(() => {
        const pattern = new RegExp(
          `https?://[^\\s"\\\\]+/welcome/unlock/${encodeURIComponent(email).replace(/[.]/g, '\\.')}/[^\\s"\\\\]+`,
          'g',
        );
        link = [...demoServer.output().matchAll(pattern)].at(-1)?.[0] ?? '';
        return link;
      })
      .not.toBe('');
    await page.goto(`${demoServer.url}${new URL(link).pathname}`);
    await expect(page.getByRole('heading', { name: 'Unlock your account' })).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Unlock and Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\//);
  });
});
