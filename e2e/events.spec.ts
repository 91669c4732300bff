/**
 * The events (incidents) section against the real seeded server (part 1 §2 "Events (incidents)
 * panel", §5, §7 PUT /locations/{id}): the demo
 * seed leaves 3–8 incidents active; the admin opens one, edits its location, saves, and the
 * detail shows the new coordinates once the live worker has fetched them from the server.
 */
import { expect, test } from './server-fixture';
import { signIn } from './sign-in';

/** The waits of this spec: sign-in, the section chunk and the live worker's loads are slow on a busy machine. */
const soon = expect.configure({ timeout: 60_000 });

/**
 * A coordinate text as the detail writes it (part 1 §9: truncated to 7 decimals, no trailing zeros):
 * these values have 4 decimals, so their shortest text is it.
 */
const seven = (value: number) => String(value);

test.describe('part1 §2 events panel, detail and location edit', () => {
  test("an event's location edit round-trips", async ({ page, demoServer }, testInfo) => {
    test.setTimeout(300_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${demoServer.url}/dashboard/events`);
    await signIn(page, 'admin@lightbar.demo');
    await soon(page).toHaveURL(/\/dashboard\/events$/);

    // The panel: section label, 24 hrs by default, counts, the rows of the seeded incidents.
    await soon(page.getByRole('heading', { level: 1, name: /^(Incidents|Events)$/ })).toBeVisible();
    await soon(page.getByRole('combobox', { name: 'Display' })).toHaveValue('24h');
    await soon(page.getByPlaceholder('Search Asset, Street, or System ID')).toBeVisible();
    // The spec's placeholder is read whole: its text fits the box (measured in the box's own font).
    const fits = await page.getByPlaceholder('Search Asset, Street, or System ID').evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText(input.placeholder).width <= room;
    });
    expect(fits).toBe(true);
    const counts = page.getByTestId('event-counts');
    await soon(counts).toHaveText(/^Active Events [1-9]\d* \| Recent Events \d+$/);
    const activeRow = page.locator('.event-row[data-active="true"]').first();
    await soon(activeRow).toBeVisible();
    await soon(activeRow.locator('..')).toHaveCSS('height', '90px');
    await page.screenshot({ path: testInfo.outputPath('events-panel.png') });

    // The detail of an active event (picked by id: a new incident may re-sort the rows meanwhile).
    const eventId = (await activeRow.getAttribute('data-event-id')) ?? '';
    const row = page.locator(`.event-row[data-event-id="${eventId}"]`);
    const name = (await row.locator('.event-row-name').textContent()) ?? '';
    await row.click();
    await soon(page).toHaveURL(new RegExp(`/dashboard/events/${eventId}$`));
    await soon(page.getByRole('heading', { level: 1, name })).toBeVisible();
    // The title wraps between words, never inside one: each word sits on one line.
    const splitWords = await page.getByRole('heading', { level: 1, name }).evaluate((heading) => {
      const text = heading.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return [];
      const value = text.textContent ?? '';
      const broken: string[] = [];
      for (const match of value.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
      return broken;
    });
    expect(splitWords).toEqual([]);
    await soon(page.getByTestId('event-coordinates')).toHaveText(/^-?\d+(\.\d{1,7})?, -?\d+(\.\d{1,7})?$/);
    await soon(page.getByRole('heading', { name: /^Active Vehicles \(\d+\)$/ })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('event-detail.png') });

    // The edit page: lat, lng and roadway heading; validation; Save.
    await page.getByRole('link', { name: 'Edit Location' }).click();
    await soon(page).toHaveURL(new RegExp(`/dashboard/events/${eventId}/edit$`));
    await soon(page.getByRole('heading', { level: 1, name: 'Edit Location' })).toBeVisible();
    const lat = page.getByLabel('Latitude');
    const lng = page.getByLabel('Longitude');
    const heading = page.getByLabel('Roadway Heading');
    const save = page.getByRole('button', { name: 'Save' });
    await soon(save).toBeDisabled();
    const nextLat = Math.round((Number(await lat.inputValue()) + 0.0012) * 1e4) / 1e4;
    const nextLng = Math.round((Number(await lng.inputValue()) - 0.0021) * 1e4) / 1e4;
    await heading.fill('400');
    await heading.blur();
    await soon(page.getByText('Must be between 0 and 360')).toBeVisible();
    await lat.fill(String(nextLat));
    await lng.fill(String(nextLng));
    await heading.fill('135');
    await heading.blur();
    await soon(page.getByText('Must be between 0 and 360')).toBeHidden();
    await soon(save).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath('event-edit.png') });
    const put = page.waitForResponse(
      (response) => response.url().endsWith(`/locations/${eventId}`) && response.request().method() === 'PUT',
    );
    await save.click();
    expect((await put).status()).toBe(200);

    // Back on the detail, the new place comes from the server through the live worker.
    await soon(page).toHaveURL(new RegExp(`/dashboard/events/${eventId}$`));
    await soon(page.getByTestId('event-coordinates')).toHaveText(`${seven(nextLat)}, ${seven(nextLng)}`);
    await soon(page.getByRole('img', { name: 'Roadway heading 135°' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('event-detail-after-edit.png') });

    // And the server keeps it: a fresh page load shows the same.
    await page.reload();
    await soon(page.getByTestId('event-coordinates')).toHaveText(`${seven(nextLat)}, ${seven(nextLng)}`);
    expect(pageErrors).toEqual([]);
  });
});
