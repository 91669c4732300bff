// @vitest-environment jsdom
/**
 * The closures section's WZDx feeds page (beyond the spec): reached from the closures list, it
 * lists each subscription with its status, adds and edits with each rule's text under its field,
 * deletes after a confirmation, and refreshes a feed now. REST answers are faked at the fetch
 * boundary; the closures come from the real live engine.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WzdxFeedWire } from '../../../src/domain/wzdx-subscription';
import { json, type Handler } from '../../app/support/render-app';
import { NOW, ORG, cleanupClosures, renderClosures } from './closure-fixtures';

afterEach(cleanupClosures);

const LOAD = { timeout: 20_000 };
const iso = (ms: number) => new Date(ms).toISOString();

function feedWire(id: string, overrides: Partial<WzdxFeedWire> = {}): WzdxFeedWire {
  return {
    id,
    organization_id: ORG,
    organization_name: 'Travis County Regional',
    url: `https://feeds.example/${id}.geojson`,
    poll_interval_s: 300,
    enabled: true,
    last_fetched_at: null,
    last_error: null,
    imported_count: 0,
    skipped_count: 0,
    skipped: [],
    created_at: iso(NOW - 86_400_000),
    updated_at: iso(NOW - 86_400_000),
    ...overrides,
  };
}

const GOOD = feedWire('txdot', { last_fetched_at: iso(NOW - 60_000), imported_count: 12 });
const BROKEN = feedWire('city', {
  poll_interval_s: 600,
  last_fetched_at: iso(NOW - 120_000),
  last_error:
    "The feed is not a valid WZDx 4.2 Work Zone Feed: features/0/properties/core_details: must have required property 'direction'",
  imported_count: 3,
});
const OFF = feedWire('county', { enabled: false });

/** A fake server of the subscriptions: the list, and what each write did to it. */
function feedRoutes(initial: WzdxFeedWire[]) {
  let feeds = [...initial];
  const routes: Record<string, Handler> = {
    'GET /organization/wzdx_feeds': (_body, url) => {
      expect(url.searchParams.getAll('org_ids[]')).toEqual([ORG]);
      return json(200, feeds);
    },
    'POST /organization/wzdx_feeds': (body) => {
      const sent = body as { url: string; poll_interval_s: number; enabled: boolean; organization_id: string };
      if (sent.url.includes('taken')) {
        return json(422, { error: 'invalid', message: 'url: At most 20 WZDx feeds per organization', fields: { url: 'x' } });
      }
      const created = feedWire('new', { url: sent.url, poll_interval_s: sent.poll_interval_s, enabled: sent.enabled });
      feeds = [...feeds, created];
      return json(201, created);
    },
  };
  for (const feed of initial) {
    routes[`PUT /organization/wzdx_feeds/${feed.id}`] = (body) => {
      const sent = body as { url: string; poll_interval_s: number; enabled: boolean };
      const changed = { ...feed, ...sent };
      feeds = feeds.map((one) => (one.id === feed.id ? changed : one));
      return json(200, changed);
    };
    routes[`DELETE /organization/wzdx_feeds/${feed.id}`] = () => {
      feeds = feeds.filter((one) => one.id !== feed.id);
      return json(200, { id: feed.id });
    };
    routes[`POST /organization/wzdx_feeds/${feed.id}/refresh`] = () => {
      const refreshed = { ...feed, last_fetched_at: iso(NOW), last_error: 'The feed answered HTTP 503 Service Unavailable' };
      feeds = feeds.map((one) => (one.id === feed.id ? refreshed : one));
      return json(200, refreshed);
    };
  }
  return routes;
}

async function openFeeds(feeds: WzdxFeedWire[] = [GOOD, BROKEN, OFF], permissions?: string[]) {
  const harness = renderClosures('/dashboard/closures/wzdx-feeds', { routes: feedRoutes(feeds), ...(permissions ? { permissions } : {}) });
  await waitFor(() => expect(screen.getByRole('heading', { name: 'WZDx feeds' })).toBeTruthy(), LOAD);
  return harness;
}

const feedItem = (url: string) => {
  const item = screen.getByText(url).closest('li');
  expect(item, url).not.toBeNull();
  return item!;
};
const statusOf = (item: HTMLElement, term: string) => within(item).getByText(term).nextElementSibling?.textContent;

describe('WZDx feeds page', () => {
  it('is reached from the closures list, beside the filters', async () => {
    const harness = renderClosures('/dashboard/closures', { routes: feedRoutes([GOOD]) });
    const link = await screen.findByRole('link', { name: 'WZDx feeds' }, LOAD);
    fireEvent.click(link);
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/closures/wzdx-feeds'));
    expect(await screen.findByText(GOOD.url, undefined, LOAD)).toBeTruthy();
  });

  it('lists each feed with its interval, last fetch, work zones and last error', async () => {
    await openFeeds();
    await screen.findByText(GOOD.url, undefined, LOAD);
    const good = feedItem(GOOD.url);
    expect(statusOf(good, 'Status')).toBe('every 300 s');
    expect(statusOf(good, 'Work zones')).toBe('12');
    expect(statusOf(good, 'Last error')).toBe('OK');
    expect(statusOf(good, 'Last fetched')).not.toBe('Never');
    const broken = feedItem(BROKEN.url);
    expect(statusOf(broken, 'Status')).toBe('every 600 s');
    expect(statusOf(broken, 'Last error')).toBe(BROKEN.last_error);
    expect(statusOf(broken, 'Work zones')).toBe('3');
    const off = feedItem(OFF.url);
    expect(statusOf(off, 'Status')).toBe('Disabled');
    expect(statusOf(off, 'Last fetched')).toBe('Never');
  });

  it('a feed with work zones left out says how many, and which with their reasons', async () => {
    const PARTIAL = feedWire('partial', {
      last_fetched_at: iso(NOW - 60_000),
      imported_count: 40,
      skipped_count: 22,
      skipped: [
        { id: 'wz-7', reason: 'start_date: must be a real date between 1970-01-01 and 2100-01-01' },
        { id: 'wz-9', reason: 'properties.core_details.description: must not contain a NUL character' },
      ],
    });
    await openFeeds([GOOD, PARTIAL]);
    await screen.findByText(PARTIAL.url, undefined, LOAD);
    const item = feedItem(PARTIAL.url);
    expect(statusOf(item, 'Last error')).toBe('OK');
    const summary = within(item).getByText('22 work zones left out of the last import');
    fireEvent.click(summary);
    const entries = within(summary.closest('details')!)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(entries).toEqual([
      'wz-7 start_date: must be a real date between 1970-01-01 and 2100-01-01',
      'wz-9 properties.core_details.description: must not contain a NUL character',
      'and 20 more',
    ]);
    expect(within(feedItem(GOOD.url)).queryByText(/left out/)).toBeNull();
  });

  it('a WZDx organization sees the address of its own published feed, with Copy; another sees none', async () => {
    renderClosures('/dashboard/closures/wzdx-feeds', { routes: feedRoutes([]), isWzdxOrg: true });
    const published = await screen.findByRole('region', { name: 'Your published feed' }, LOAD);
    const url = `${window.location.origin}/wzdx/${ORG}/feed`;
    expect(within(published).getByRole('link', { name: url }).getAttribute('href')).toBe(url);
    expect(within(published).getByRole('button', { name: 'Copy the published feed address' })).toBeTruthy();
    cleanupClosures();
    await openFeeds([]);
    expect(await screen.findByText('No WZDx feeds yet.', undefined, LOAD)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Your published feed' })).toBeNull();
  });

  it('says when there are none', async () => {
    await openFeeds([]);
    expect(await screen.findByText('No WZDx feeds yet.', undefined, LOAD)).toBeTruthy();
  });

  it('adds a feed: every rule shows its text under its field, then the server gets the form', async () => {
    const harness = await openFeeds([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Add feed' }, LOAD));
    const dialog = await screen.findByRole('dialog', { name: 'Add WZDx feed' });
    const url = within(dialog).getByLabelText(/Feed URL/);
    const interval = within(dialog).getByLabelText(/Poll interval \(seconds\)/);
    expect((interval as HTMLInputElement).value).toBe('300');
    expect(within(dialog).getByRole('switch', { name: 'Enabled' }).getAttribute('aria-checked')).toBe('true');

    const errorOf = (input: HTMLElement) => input.closest('.field')!.querySelector('[role="alert"], .field-error')?.textContent;
    fireEvent.change(url, { target: { value: 'ftp://feeds.example/wzdx' } });
    fireEvent.blur(url);
    await waitFor(() => expect(errorOf(url)).toBe('Must be an http or https address'));
    for (const [value, text] of [
      ['30', 'Must be at least 60 seconds'],
      ['90.5', 'Must be a whole number of seconds'],
      ['soon', 'Must be a whole number of seconds'],
      ['100000', 'Must be at most 86400 seconds (1 day)'],
      ['', 'Required'],
    ] as const) {
      fireEvent.change(interval, { target: { value } });
      fireEvent.blur(interval);
      await waitFor(() => expect(errorOf(interval)).toBe(text));
    }
    // An empty URL (its starting value) shows 'Required' once a save is tried (part 1 §5).
    fireEvent.change(url, { target: { value: '' } });
    fireEvent.change(interval, { target: { value: '120' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf(url)).toBe('Required'));
    expect(harness.calls.filter((call) => call.method === 'POST')).toEqual([]);

    fireEvent.change(url, { target: { value: 'https://feeds.example/state.geojson' } });
    fireEvent.change(interval, { target: { value: '120' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Enabled' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = harness.calls.find((call) => call.method === 'POST' && call.path === '/organization/wzdx_feeds');
    expect(post?.body).toEqual({ url: 'https://feeds.example/state.geojson', poll_interval_s: 120, enabled: false, organization_id: ORG });
    expect(await screen.findByText('https://feeds.example/state.geojson')).toBeTruthy();
  });

  it("shows the server's refusal under the form and keeps the dialog open", async () => {
    await openFeeds([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Add feed' }, LOAD));
    const dialog = await screen.findByRole('dialog', { name: 'Add WZDx feed' });
    fireEvent.change(within(dialog).getByLabelText(/Feed URL/), { target: { value: 'https://taken.example/feed' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('url: At most 20 WZDx feeds per organization');
    expect(screen.getByRole('dialog', { name: 'Add WZDx feed' })).toBeTruthy();
  });

  it('edits a feed with its values filled in', async () => {
    const harness = await openFeeds([BROKEN]);
    await screen.findByText(BROKEN.url, undefined, LOAD);
    fireEvent.click(within(feedItem(BROKEN.url)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit WZDx feed' });
    expect((within(dialog).getByLabelText(/Feed URL/) as HTMLInputElement).value).toBe(BROKEN.url);
    const interval = within(dialog).getByLabelText(/Poll interval \(seconds\)/) as HTMLInputElement;
    expect(interval.value).toBe('600');
    fireEvent.change(interval, { target: { value: '900' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = harness.calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe(`/organization/wzdx_feeds/${BROKEN.id}`);
    expect(put?.body).toEqual({ url: BROKEN.url, poll_interval_s: 900, enabled: true });
    await waitFor(() => expect(statusOf(feedItem(BROKEN.url), 'Status')).toBe('every 900 s'));
  });

  it('deletes only after the confirmation', async () => {
    const harness = await openFeeds([GOOD, BROKEN]);
    await screen.findByText(GOOD.url, undefined, LOAD);
    fireEvent.click(within(feedItem(GOOD.url)).getByRole('button', { name: 'Delete' }));
    const ask = await screen.findByRole('alertdialog', { name: `Delete the feed ${GOOD.url}?` });
    expect(within(ask).getByText('Its feed closures are deleted with it. This cannot be undone.')).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(harness.calls.some((call) => call.method === 'DELETE')).toBe(false);

    fireEvent.click(within(feedItem(GOOD.url)).getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('alertdialog');
    fireEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText(GOOD.url)).toBeNull());
    expect(harness.calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      `/organization/wzdx_feeds/${GOOD.id}`,
    ]);
    expect(screen.getByText(BROKEN.url)).toBeTruthy();
  });

  it('Refresh now fetches the feed and shows its new status', async () => {
    const harness = await openFeeds([GOOD]);
    await screen.findByText(GOOD.url, undefined, LOAD);
    fireEvent.click(within(feedItem(GOOD.url)).getByRole('button', { name: 'Refresh now' }));
    await waitFor(() => expect(statusOf(feedItem(GOOD.url), 'Last error')).toBe('The feed answered HTTP 503 Service Unavailable'));
    expect(harness.calls.some((call) => call.method === 'POST' && call.path === `/organization/wzdx_feeds/${GOOD.id}/refresh`)).toBe(true);
  });

  it('a reader of closures sees the feeds but no add, edit, delete or refresh', async () => {
    await openFeeds([GOOD], ['closure:read']);
    await screen.findByText(GOOD.url, undefined, LOAD);
    expect(screen.queryByRole('button', { name: 'Add feed' })).toBeNull();
    for (const name of ['Edit', 'Delete', 'Refresh now']) expect(within(feedItem(GOOD.url)).queryByRole('button', { name })).toBeNull();
  });
});
