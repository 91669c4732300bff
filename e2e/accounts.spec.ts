/**
 * The legacy account manager against the real seeded server (part 2 §2 accounts, §5, §6, §7): an
 * Org Admin adds a user (who is mailed a set-password link), edits the user's role and deletes
 * the user; edits the organization's time zone; changes their own password and signs in with it.
 * axe on each tab; screenshots of each tab.
 */
import fs from 'node:fs';
import { spawnServer, type SpawnedServer } from '../tests/support/spawn-server';
import { DEMO_ENV, DEMO_PASSWORD, expect, test } from './server-fixture';
import { templateDataDir } from '../tests/support/spawn-server';
import { openSignedIn, signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';

const START_TIMEOUT_MS = 150_000;
const SLOW_MS = 30_000;

let demo: { server: SpawnedServer; dataDir: string } | null = null;

test.beforeAll(async () => {
  test.setTimeout(START_TIMEOUT_MS + 10_000);
  const dataDir = templateDataDir('lightbar-e2e-accounts-');
  demo = { server: await spawnServer({ ...DEMO_ENV, SIM_ASSETS: '5', DATA_DIR: dataDir, PORT: '0' }, START_TIMEOUT_MS), dataDir };
});
test.afterAll(async () => {
  await demo?.server.stop();
  if (demo) fs.rmSync(demo.dataDir, { recursive: true, force: true });
});

test('part2 §2 accounts: users, organization time zone and change password for an Org Admin', async ({ page, browser }, testInfo) => {
  test.setTimeout(300_000);
  const url = demo!.server.url;
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 1366, height: 800 });
  await openSignedIn(page, url, 'orgadmin@lightbar.demo', '/dashboard/accounts');

  // Account tab.
  await expect(page.getByRole('tablist', { name: 'Account Management' })).toBeVisible({ timeout: SLOW_MS });
  await expect(page.getByRole('form', { name: 'Profile' })).toBeVisible();
  await expectNoSeriousViolations(page, '.drawer');
  await page.screenshot({ path: testInfo.outputPath('accounts-account.png') });
  // The map beside the accounts page is narrow: its controls lay out for its width, the map-type
  // and display panels below the search boxes, never over them.
  const searchBoxes = (await page.locator('.map-corner-top-left').boundingBox())!;
  const panels = (await page.locator('.map-corner-top-right').boundingBox())!;
  const mapWidth = (await page.getByTestId('dashboard-map').boundingBox())!.width;
  expect(mapWidth).toBeLessThan(600);
  expect(panels.y).toBeGreaterThanOrEqual(searchBoxes.y + searchBoxes.height);
  expect(panels.x + panels.width).toBeLessThanOrEqual((await page.getByTestId('dashboard-map').boundingBox())!.x + mapWidth);

  // Users: add.
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\?tab=user$/);
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: /Jordan Lee/ })).toBeVisible({ timeout: SLOW_MS });
  await expect(table.getByRole('row', { name: /MANAGER/ })).toBeVisible();
  await expectNoSeriousViolations(page, '.drawer');
  await page.screenshot({ path: testInfo.outputPath('accounts-users.png') });
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('form', { name: 'Add User' });
  await add.getByLabel('Email *').fill('not-an-email');
  await add.getByLabel('Email *').blur();
  await expect(add.getByText('Must be a valid email')).toBeVisible();
  await add.getByLabel('First Name *').fill('Dana');
  await add.getByLabel('Last Name *').fill('Diaz');
  await add.getByLabel('Email *').fill('dana.e2e@example.com');
  await add.getByLabel('Role *').selectOption({ label: 'User' });
  await add.getByRole('button', { name: 'Save' }).click();
  const dana = table.getByRole('row', { name: /Dana Diaz/ });
  await expect(dana).toBeVisible({ timeout: SLOW_MS });
  await expect(dana.getByRole('cell').nth(1)).toHaveText('User');
  // The new user is mailed a set-password link (the mailer logs it here).
  await expect.poll(() => demo!.server.output().includes('/welcome/reset/dana.e2e%40example.com/'), { timeout: SLOW_MS }).toBe(true);

  // Edit the role.
  await dana.getByRole('button', { name: 'Edit Dana Diaz' }).click();
  const edit = page.getByRole('form', { name: 'Edit User' });
  await edit.getByLabel('Role *').selectOption({ label: 'Admin' });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(dana.getByRole('cell').nth(1)).toHaveText('Admin', { timeout: SLOW_MS });

  // Delete behind a confirmation.
  await dana.getByRole('button', { name: 'Delete Dana Diaz' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Dana Diaz?' });
  await expect(confirm).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('accounts-user-delete.png') });
  await confirm.getByRole('button', { name: 'Delete User' }).click();
  await expect(dana).toHaveCount(0, { timeout: SLOW_MS });

  // Organization: the time zone from the searchable list.
  await page.getByRole('tab', { name: 'Organization' }).click();
  const org = page.getByRole('form', { name: 'Organization' });
  const zone = org.getByRole('combobox', { name: 'Time Zone *' });
  await expect(zone).toHaveValue('America/Chicago', { timeout: SLOW_MS });
  await expect(page.getByRole('list', { name: 'Owned' }).getByRole('listitem').first()).toHaveText('Travis County Regional');
  await expectNoSeriousViolations(page, '.drawer');
  await zone.click();
  await zone.fill('Denver');
  await page.getByRole('option', { name: 'America/Denver' }).click();
  await org.getByRole('button', { name: 'Save' }).click();
  await expect(org.getByRole('status')).toHaveText('Saved', { timeout: SLOW_MS });
  await page.reload();
  await expect(page.getByRole('form', { name: 'Organization' }).getByRole('combobox', { name: 'Time Zone *' })).toHaveValue(
    'America/Denver',
    {
      timeout: SLOW_MS,
    },
  );
  await page.screenshot({ path: testInfo.outputPath('accounts-organization.png') });

  // Billing.
  await page.getByRole('tab', { name: 'Billing' }).click();
  await expect(page.getByRole('heading', { name: 'Billing' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('accounts-billing.png') });

  // Change password, then sign in with it.
  await page.getByRole('tab', { name: 'Account' }).click();
  const password = page.getByRole('form', { name: 'Change Password' });
  const NEW_PASSWORD = 'Changed#Pass9';
  await password.getByLabel('Current Password *').fill(DEMO_PASSWORD);
  await password.getByLabel('New Password *').fill('short');
  await password.getByLabel('New Password *').blur();
  await expect(password.getByText('At least 8 characters', { exact: true }).first()).toBeVisible();
  await password.getByLabel('New Password *').fill(NEW_PASSWORD);
  await password.getByLabel('Confirm Password *').fill(`${NEW_PASSWORD}x`);
  await password.getByLabel('Confirm Password *').blur();
  await expect(password.getByText('Should match password')).toBeVisible();
  await password.getByLabel('Confirm Password *').fill(NEW_PASSWORD);
  await password.getByRole('button', { name: 'Change Password' }).click();
  await expect(password.getByRole('status')).toHaveText('Password changed', { timeout: SLOW_MS });

  const other = await browser.newPage();
  await other.goto(url);
  await signIn(other, 'orgadmin@lightbar.demo', DEMO_PASSWORD);
  await expect(other.getByRole('alert')).toHaveText('Email and/or password incorrect.', { timeout: SLOW_MS });
  await signIn(other, 'orgadmin@lightbar.demo', NEW_PASSWORD);
  await expect(other).toHaveURL(/\/dashboard\//, { timeout: SLOW_MS });
  await other.close();
  expect(pageErrors).toEqual([]);
});
