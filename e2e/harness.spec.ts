import { test, expect } from './server-fixture';

test('the real server serves the built app titled Lightbar', async ({ page, server }) => {
  await page.goto(server.url);
  await expect(page).toHaveTitle('Lightbar');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lightbar');
  // The page reached the API of the same server.
  await expect(page.getByTestId('server-version')).toHaveText(/^Server version \d+\.\d+\.\d+/);
});

test('a deep link to a client route loads the app, not a 404', async ({ page, server }) => {
  const response = await page.goto(`${server.url}/dashboard/things/123`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Lightbar');
});
