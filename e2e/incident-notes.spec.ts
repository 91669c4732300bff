/**
 * Incident notes and acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement")
 * with two browsers against the real seeded server: the admin adds a note and acknowledges an
 * active incident; a read-only user who has the same incident open sees both arrive live (the
 * incident's socket 'location' message), without reloading.
 */
import { expect, test } from './server-fixture';
import { signInBeforeLoad } from './sign-in';

/** The waits of this spec: sign-in, the section chunk and the live worker's loads are slow on a busy machine. */
const soon = expect.configure({ timeout: 60_000 });

test('a note and the acknowledgement reach another open detail live', async ({ page, browser, demoServer }) => {
  test.setTimeout(300_000);
  const url = demoServer.url;
  await page.setViewportSize({ width: 1366, height: 800 });
  await signInBeforeLoad(page, url, 'admin@lightbar.demo');
  await page.goto(`${url}/dashboard/events`);
  const activeRow = page.locator('.event-row[data-active="true"]').first();
  await soon(activeRow).toBeVisible();
  // An active incident nobody acknowledged is marked in words.
  await soon(activeRow).toContainText('Not acknowledged');
  const eventId = (await activeRow.getAttribute('data-event-id')) ?? '';

  // The read-only user has the incident open: no 'Acknowledge', the mark instead.
  const other = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const reader = await other.newPage();
  await signInBeforeLoad(reader, url, 'user@lightbar.demo');
  await reader.goto(`${url}/dashboard/events/${eventId}`);
  await soon(reader.getByRole('heading', { name: 'Notes' })).toBeVisible();
  await expect(reader.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  await soon(reader.locator('.event-unacknowledged')).toHaveText('Not acknowledged');

  // The admin adds a note on the same incident.
  await page.locator(`.event-row[data-event-id="${eventId}"]`).click();
  await soon(page).toHaveURL(new RegExp(`/dashboard/events/${eventId}$`));
  const text = `Lane 2 blocked ${Date.now()}`;
  await soon(page.getByRole('textbox', { name: 'New note' })).toBeVisible();
  await page.getByRole('textbox', { name: 'New note' }).fill(text);
  await expect(page.getByText(`${text.length}/1000`)).toBeVisible();
  await page.getByRole('button', { name: 'Add note' }).click();
  await soon(page.locator('.event-note-text', { hasText: text })).toBeVisible();
  await soon(reader.locator('.event-note-text', { hasText: text })).toBeVisible();

  // The admin acknowledges it: both pages say who and when.
  await page.getByRole('button', { name: 'Acknowledge' }).click();
  const acknowledged = /^Acknowledged by .+ at \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M$/;
  await soon(page.getByTestId('event-acknowledged')).toHaveText(acknowledged);
  await soon(reader.getByTestId('event-acknowledged')).toHaveText(acknowledged);
  await other.close();
});
