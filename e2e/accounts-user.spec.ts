/**
 * A new user's whole path against the real seeded server (part 2 §2 accounts "Add, edit and
 * delete user", §5 reset password rules, §7 DELETE /users/{id}): an Org Admin adds a user; the
 * set-password mail arrives (the mailer logs it); the new user sets a password meeting the §5
 * rules through the mailed link, signs in and lands on the dashboard; the admin changes the
 * user's role, then deletes the user behind a confirmation, and the deleted user's open session
 * ends ('Session Expired' on the sign-in page, part 1 §4 "Any 401 ... signs out"). Then the Assets tab:
 * the device configuration column and a bulk 'Set type' (part 1 §7 PUT /things/{id}) of one asset
 * to its own type, which the real server accepts. axe on the Users and Assets tabs; screenshots.
 */
import fs from 'node:fs';
import { spawnServer, type SpawnedServer } from '../tests/support/spawn-server';
import { DEMO_ENV, expect, test } from './server-fixture';
import { templateDataDir } from '../tests/support/spawn-server';
import { openSignedIn, signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';

const START_TIMEOUT_MS = 150_000;
const SLOW_MS = 30_000;
const EMAIL = 'riley.e2e@example.com';
/** part 2 §5: 8 or more characters, a digit, upper and lower case and one of *@!#%&()^~{}. */
const NEW_PASSWORD = 'Welcome#Riley7';

let demo: { server: SpawnedServer; dataDir: string } | null = null;

test.beforeAll(async () => {
  test.setTimeout(START_TIMEOUT_MS + 10_000);
  const dataDir = templateDataDir('lightbar-e2e-accounts-user-');
  demo = {
    server: await spawnServer(
      {
        ...DEMO_ENV, // 50 assets: the Org Admin's organization then owns two (an arrow board and a maintenance truck).
        SIM_ASSETS: '50',
        DATA_DIR: dataDir,
        PORT: '0',
      },
      START_TIMEOUT_MS,
    ),
    dataDir,
  };
});
test.afterAll(async () => {
  await demo?.server.stop();
  if (demo) fs.rmSync(demo.dataDir, { recursive: true, force: true });
});

test('part2 §2 accounts: a new user is added, sets a password from the mail, signs in, and is signed out once deleted', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const url = demo!.server.url;
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1366, height: 800 });
  await openSignedIn(page, url, 'orgadmin@lightbar.demo', '/dashboard/accounts?tab=user');

  // The admin adds the user.
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: /Jordan Lee/ })).toBeVisible({ timeout: SLOW_MS });
  await expectNoSeriousViolations(page, '.drawer');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('form', { name: 'Add User' });
  await add.getByLabel('First Name *').fill('Riley');
  await add.getByLabel('Last Name *').fill('Ortiz');
  await add.getByLabel('Email *').fill(EMAIL);
  await add.getByLabel('Role *').selectOption({ label: 'User' });
  await add.getByRole('button', { name: 'Save' }).click();
  const riley = table.getByRole('row', { name: /Riley Ortiz/ });
  await expect(riley).toBeVisible({ timeout: SLOW_MS });
  await expect(riley.getByRole('cell').nth(1)).toHaveText('User');
  await page.screenshot({ path: testInfo.outputPath('user-added.png') });

  // The set-password mail (the mailer logs each mail's text): its link.
  let link = '';
  await expect
    .poll(
      () => {
        const pattern = new RegExp(
          `https?://[^\\s"\\\\]+/welcome/reset/${encodeURIComponent(EMAIL).replace(/[.]/g, '\\.')}/[^\\s"\\\\]+`,
          'g',
        );
        link = [...demo!.server.output().matchAll(pattern)].at(-1)?.[0] ?? '';
        return link;
      },
      { timeout: SLOW_MS },
    )
    .not.toBe('');

  // The new user, in a browser of their own, sets a password through the link and signs in.
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const user = await context.newPage();
  const userErrors: string[] = [];
  user.on('pageerror', (error) => userErrors.push(error.message));
  await user.goto(`${url}${new URL(link).pathname}`);
  await expect(user.getByRole('heading', { name: 'Set a new password' })).toBeVisible({ timeout: SLOW_MS });
  await user.getByLabel('New Password', { exact: true }).fill('weakpass');
  await user.getByLabel('Confirm Password', { exact: true }).fill('weakpass');
  await user.getByRole('button', { name: 'Save Password' }).click();
  // The §5 rules hold the weak one back.
  await expect(user).toHaveURL(/\/welcome\/reset\//);
  await user.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
  await user.getByLabel('Confirm Password', { exact: true }).fill(NEW_PASSWORD);
  await user.getByRole('button', { name: 'Save Password' }).click();
  await expect(user).toHaveURL(/\/welcome\/signin/, { timeout: SLOW_MS });
  await signIn(user, EMAIL, NEW_PASSWORD);
  await expect(user).toHaveURL(/\/dashboard\//, { timeout: SLOW_MS });
  await user.screenshot({ path: testInfo.outputPath('new-user-dashboard.png') });

  // The admin changes the user's role.
  await riley.getByRole('button', { name: 'Edit Riley Ortiz' }).click();
  const edit = page.getByRole('form', { name: 'Edit User' });
  await edit.getByLabel('Role *').selectOption({ label: 'Admin' });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(riley.getByRole('cell').nth(1)).toHaveText('Admin', { timeout: SLOW_MS });

  // The admin deletes the user behind a confirmation.
  await riley.getByRole('button', { name: 'Delete Riley Ortiz' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Riley Ortiz?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete User' }).click();
  await expect(riley).toHaveCount(0, { timeout: SLOW_MS });
  await expectNoSeriousViolations(page, '.drawer');
  await page.screenshot({ path: testInfo.outputPath('user-deleted.png') });

  // The deleted user's session ends at its next call (the server revoked its tokens; part 1 §4: a 401 that survives a
  // renewal signs out): back to sign-in with the notice.
  await expect(user).toHaveURL(/\/welcome\/signin/, { timeout: SLOW_MS });
  await expect(user.getByRole('alertdialog', { name: 'Session Expired' })).toBeVisible();
  await user.screenshot({ path: testInfo.outputPath('deleted-user-signed-out.png') });
  await context.close();

  // Assets tab: the device configuration column, and 'Set type' of one asset to its own type (the server keeps an
  // asset's emergency kind, part 1 §5, so its own type is always accepted).
  await page.getByRole('tab', { name: 'Assets' }).click();
  const assets = page.getByRole('table');
  const first = assets.getByRole('row').nth(1);
  await expect(first).toBeVisible({ timeout: SLOW_MS });
  await expect(assets.getByRole('columnheader', { name: 'Device Configuration' })).toBeVisible();
  await expectNoSeriousViolations(page, '.drawer');
  const typeName = (await first.getByRole('cell').nth(1).textContent()) ?? '';
  await first.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Set type' }).click();
  const setType = page.getByRole('form', { name: 'Set type of 1 asset' });
  const typeSelect = setType.getByLabel('Type *');
  await expect.poll(() => typeSelect.locator('option').count(), { timeout: SLOW_MS }).toBeGreaterThan(1);
  const label = (await typeSelect.locator('option').allTextContents()).find((text) => text.toLowerCase().replace(/ /g, '_') === typeName);
  expect(label, `an option for the type ${typeName}`).toBeTruthy();
  await typeSelect.selectOption({ label: label! });
  await setType.getByRole('button', { name: 'Continue' }).click();
  await page
    .getByRole('alertdialog', { name: `Set the type of 1 asset to ${label}?` })
    .getByRole('button', { name: 'Set type' })
    .click();
  const done = page.getByRole('dialog', { name: 'Set type' });
  await expect(done.getByRole('status')).toHaveText('1 updated, 0 failed', { timeout: SLOW_MS });
  await page.screenshot({ path: testInfo.outputPath('assets-set-type.png') });
  await done.getByRole('button', { name: 'Close' }).click();
  await expect(first.getByRole('checkbox')).not.toBeChecked();
  expect(pageErrors).toEqual([]);
  expect(userErrors).toEqual([]);
});
