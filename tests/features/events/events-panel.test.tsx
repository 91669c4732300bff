// @vitest-environment jsdom
/** part1 §2 "Events (incidents) panel", §4 sorting, §9 rows and debounce: the panel over the real live engine. */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENTS_SEARCH_DEBOUNCE_MS } from '../../../src/domain/constants';
import { iso } from '../../support/live-fixtures';
import { ALL_EVENTS, COLLISION, FIRE, NOW, cleanupEvents, eventWire, renderEvents } from './event-fixtures';

afterEach(cleanupEvents);

const LOAD = { timeout: 20_000 };
const HOUR = 3_600_000;
/** part1 §4, §9: the first fetch covers the last 7 days. */
const SEVEN_DAYS = 7 * 24 * HOUR;

const text = (element: Element) => element.textContent ?? '';

function rowNames(): string[] {
  const list = screen.getByRole('list', { name: 'Events' });
  return within(list)
    .queryAllByRole('listitem')
    .map((item) => item.querySelector('.event-row-name')?.textContent ?? '');
}

async function openPanel(options: Parameters<typeof renderEvents>[1] = {}) {
  const harness = renderEvents('/dashboard/events', options);
  await screen.findByRole('heading', { level: 1, name: 'Incidents' }, LOAD);
  await waitFor(() => expect(text(screen.getByTestId('event-counts'))).toMatch(/^Active Events \d+ \| Recent Events \d+$/), LOAD);
  return harness;
}

describe('part1 §2 events panel', () => {
  it("is headed by the section label and shows 24 hrs by default: 'Active Events 3 | Recent Events 2'", async () => {
    await openPanel();
    const display = screen.getByRole('combobox', { name: 'Display' });
    expect((display as HTMLSelectElement).value).toBe('24h');
    expect(
      within(display)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Active Only', 'Today', '24 hrs', 'All Recent']);
    await waitFor(() => expect(text(screen.getByTestId('event-counts'))).toBe('Active Events 3 | Recent Events 2'), LOAD);
    expect(screen.getByRole('searchbox', { name: 'Search events' }).getAttribute('placeholder')).toBe('Search Asset, Street, or System ID');
  });

  it('part1 §4, §9 the first GET /locations covers the last 7 days (start_date)', async () => {
    const { api } = await openPanel();
    const first = api.callsTo('/locations')[0]!;
    expect(first.searchParams.get('last_updated_timestamp')).toBeNull();
    const since = Date.parse(first.searchParams.get('start_date')!);
    // The clock runs on from NOW while the page loads: 7 days before the moment of the fetch.
    expect(since - (NOW - SEVEN_DAYS)).toBeGreaterThanOrEqual(0);
    expect(since - (NOW - SEVEN_DAYS)).toBeLessThan(LOAD.timeout);
  });

  it("'24 hrs' lets an ended event go once it is over 24 h old, with nothing else changing", async () => {
    // Ended 45 s short of 24 h ago: shown now, gone a minute later.
    const OLD = eventWire('loc-old', {
      display_name: 'Old Call',
      is_active: false,
      start_time: iso(NOW - 25 * HOUR),
      end_time: iso(NOW - 24 * HOUR + 45_000),
    });
    await openPanel({ events: [FIRE, OLD], fakeIntervals: true });
    await waitFor(() => expect(rowNames()).toEqual(['Structure Fire', 'Old Call']), LOAD);
    expect(text(screen.getByTestId('event-counts'))).toBe('Active Events 1 | Recent Events 1');
    act(() => vi.advanceTimersByTime(60_000));
    await waitFor(() => expect(rowNames()).toEqual(['Structure Fire']), LOAD);
    expect(text(screen.getByTestId('event-counts'))).toBe('Active Events 1 | Recent Events 0');
  });

  it('part1 §4 sorting: active first by newest start, then inactive by newest end', async () => {
    await openPanel();
    await waitFor(
      () => expect(rowNames()).toEqual(['Collision', 'Structure Fire', 'Geo Marker Site', 'Medical Call', 'Vehicle Fire']),
      LOAD,
    );
  });

  it.each([
    ['active', 'Active Events 3 | Recent Events 0', ['Collision', 'Structure Fire', 'Geo Marker Site']],
    ['today', 'Active Events 3 | Recent Events 1', ['Collision', 'Structure Fire', 'Geo Marker Site', 'Medical Call']],
    ['24h', 'Active Events 3 | Recent Events 2', ['Collision', 'Structure Fire', 'Geo Marker Site', 'Medical Call', 'Vehicle Fire']],
    [
      'all',
      'Active Events 3 | Recent Events 3',
      ['Collision', 'Structure Fire', 'Geo Marker Site', 'Medical Call', 'Vehicle Fire', 'Brush Fire'],
    ],
  ])('display choice %s shows %s', async (choice, counts, names) => {
    await openPanel();
    await waitFor(() => expect(rowNames()).toHaveLength(5), LOAD);
    fireEvent.change(screen.getByRole('combobox', { name: 'Display' }), { target: { value: choice } });
    await waitFor(() => expect(text(screen.getByTestId('event-counts'))).toBe(counts), LOAD);
    expect(rowNames()).toEqual(names);
    expect((screen.getByRole('combobox', { name: 'Display' }) as HTMLSelectElement).value).toBe(choice);
  });

  it('rows are 80 px, 90 px when active, and an active row counts its vehicles', async () => {
    await openPanel();
    await waitFor(() => expect(rowNames()).toHaveLength(5), LOAD);
    const heights = within(screen.getByRole('list', { name: 'Events' }))
      .getAllByRole('listitem')
      .map((item) => item.style.height);
    expect(heights).toEqual(['90px', '90px', '90px', '80px', '80px']);
    const fire = within(screen.getByRole('list', { name: 'Events' })).getAllByRole('listitem')[1]!;
    expect(text(fire)).toContain('Structure Fire');
    expect(text(fire)).toContain('Congress Ave');
    expect(text(fire)).toContain('Started 11/22/2026 5:30 AM');
    expect(text(fire)).toContain('1 active vehicle');
    expect(within(fire).getByRole('img', { name: 'Active' })).toBeTruthy();
    const medical = within(screen.getByRole('list', { name: 'Events' })).getAllByRole('listitem')[3]!;
    expect(text(medical)).toContain('Started 11/22/2026 3:00 AM · Ended 11/22/2026 4:00 AM');
    expect(within(medical).getByRole('img', { name: 'Inactive' })).toBeTruthy();
    expect(text(medical)).not.toContain('active vehicle');
  });

  it('the search (street, vehicle, system id) waits 350 ms after the last key', async () => {
    const { services } = await openPanel();
    await waitFor(() => expect(rowNames()).toHaveLength(5), LOAD);
    const ask = vi.spyOn(services.live.bridge!, 'setEventsQuery');
    const box = screen.getByRole('searchbox', { name: 'Search events' });
    const typedAt = performance.now();
    for (const text of ['L', 'La', 'Lam', 'Lama', 'Lamar']) fireEvent.change(box, { target: { value: text } });
    expect(rowNames()).toHaveLength(5);
    await waitFor(() => expect(rowNames()).toEqual(['Collision']), LOAD);
    expect(performance.now() - typedAt).toBeGreaterThanOrEqual(EVENTS_SEARCH_DEBOUNCE_MS);
    // One query for the last text only.
    expect(ask.mock.calls.map(([patch]) => patch)).toEqual([{ search: 'Lamar' }]);
    expect(text(screen.getByTestId('event-counts'))).toBe('Active Events 1 | Recent Events 0');

    fireEvent.change(box, { target: { value: 'medic 2' } }); // a vehicle's nickname
    await waitFor(() => expect(rowNames()).toEqual(['Structure Fire']), LOAD);
    fireEvent.change(box, { target: { value: 'cad-1001' } }); // the system id
    await waitFor(() => expect(rowNames()).toEqual(['Structure Fire']), LOAD);
    fireEvent.change(box, { target: { value: 'nothing like this' } });
    await waitFor(() => expect(screen.getByText('No events to show')).toBeTruthy(), LOAD);
    expect(text(screen.getByTestId('event-counts'))).toBe('Active Events 0 | Recent Events 0');
  });

  it('a row click opens the event detail', async () => {
    const { router } = await openPanel();
    await waitFor(() => expect(rowNames()).toHaveLength(5), LOAD);
    fireEvent.click(screen.getByRole('button', { name: /Structure Fire/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/events/loc-fire'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Structure Fire' }, LOAD)).toBeTruthy();
  });

  it('a socket location message updates the list', async () => {
    const { live } = await openPanel({ events: [ALL_EVENTS[0]!] });
    await waitFor(() => expect(rowNames()).toEqual(['Structure Fire']), LOAD);
    await waitFor(() => expect(live!.cable.subscribed).toBe(true), LOAD);
    live!.cable.send({
      type: 'location',
      thing_id: 'thing-00001',
      location_id: COLLISION.id,
      timestamp: new Date().toISOString(),
      location: COLLISION,
    });
    await waitFor(() => expect(rowNames()).toEqual(['Collision', 'Structure Fire']), LOAD);
  });
});
