import { test, expect } from './server-fixture';

test('the real server serves the built app titled Lightbar: / goes to sign-in when signed out', async ({ page, server }) => {
  await page.goto(server.url);
  await expect(page).toHaveTitle('Lightbar');
  await expect(page).toHaveURL(/\/welcome\/signin$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
});

test('a deep link to a client route loads the app, not a 404', async ({ page, server }) => {
  const response = await page.goto(`${server.url}/dashboard/things/123`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Lightbar');
});

test('part 1 §2 an unknown address outside the dashboard shows the not-found page (status 404), not the API’s JSON', async ({
  page,
  server,
}) => {
  const response = await page.goto(`${server.url}/no/such/page`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Sorry, the requested URL was not found here.' })).toBeVisible();
});
