// @vitest-environment jsdom
/**
 * part 2 §2 Trips (1 to 5 assets, a past range up to 24 hours; the page remembers the tab and the
 * last query; 'new trips' flag), §3 Trip, §5 "Trips and date-range reports" texts, §7 trips call
 * and caches, §8 Trips 404 'Asset not found' and an all-trips failure shown as unknown. The whole
 * app over fetch handlers (src/app: renderApp).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../../src/domain/constants';
import { floorToMinute, toMinuteInput } from '../../../src/domain/time';
import { TRIPS_MEMORY_PREFIX } from '../../../src/features/trips/use-trips-memory';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const WAIT = { timeout: 15_000 };
const VIEWER = ['trip:read'];
const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
const fleet = Array.from({ length: 30 }, (_, i) => ({
  id: ids[i] ?? `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  haas_id: `ha5-${String(i).padStart(6, '0')}`,
  nickname: i === 0 ? 'Patrol 1' : i === 1 ? 'Medic 2' : null,
  thing_type: 'police',
}));
const fleetPage: Handler = () =>
  json(200, {
    data: fleet,
    meta: { page: 1, per_page: 500, total: fleet.length, server_timestamp: new Date().toISOString(), deleted_ids: [] },
  });

function tripWire(thingId: string, start: number) {
  return {
    thing_id: thingId,
    start_time: new Date(start).toISOString(),
    end_time: new Date(start + HOUR_MS).toISOString(),
    runs: [
      {
        run_id: `run-${thingId.slice(0, 4)}`,
        run_start: new Date(start).toISOString(),
        run_end: new Date(start + 10 * MINUTE_MS).toISOString(),
        run_duration: 600,
        is_active: false,
        points: [
          { lat: 30.0, lng: -97.0, course: 0, speed: 30, timestamp: new Date(start).toISOString() },
          { lat: 30.01, lng: -97.0, course: 0, speed: 40, timestamp: new Date(start + 10 * MINUTE_MS).toISOString() },
        ],
      },
    ],
  };
}

function renderTrips(extra: Record<string, Handler> = {}) {
  return renderApp('/dashboard/trips', { ...signedInRoutes(VIEWER), 'GET /organization/things': fleetPage, ...extra }, { signedIn: true });
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const setField = (name: string, ms: number) => fireEvent.change(field(name), { target: { value: toMinuteInput(ms) } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Show trips' }));
/** Searches the picker for the asset, then ticks or unticks it (the list draws only the rows in view). */
function pick(name: string) {
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search Assets' }), { target: { value: name } });
  fireEvent.click(screen.getByRole('checkbox', { name }));
}
const alerts = () => screen.queryAllByRole('alert').map((element) => element.textContent);

async function ready() {
  await screen.findByRole('checkbox', { name: 'HA5-000002' }, WAIT);
}

describe('part2 §5 trips form texts', () => {
  it("no asset: 'Must select at least 1 Asset'; a 6th asset: '5 Assets max'", async () => {
    renderTrips();
    await ready();
    submit();
    expect(await screen.findByText('Must select at least 1 Asset')).toBeTruthy();
    for (const name of ['HA5-000002', 'HA5-000003', 'HA5-000004', 'HA5-000005', 'HA5-000006']) pick(name);
    expect(screen.queryByText('5 Assets max')).toBeNull();
    pick('HA5-000007');
    expect(await screen.findByText('5 Assets max')).toBeTruthy();
    // Removing one clears it.
    fireEvent.click(screen.getByRole('button', { name: 'Remove HA5-000007' }));
    await waitFor(() => expect(screen.queryByText('5 Assets max')).toBeNull());
  });

  it.each([
    ['a start in the future', 1 * HOUR_MS, 0, 'Must be past date'],
    ['the same start and end', -HOUR_MS, -HOUR_MS, 'Dates must be different'],
    ['an end before the start', -HOUR_MS, -2 * HOUR_MS, 'End time must be after Start time'],
    ['a range over 24 hours', -25 * HOUR_MS, 0, 'Select up to 24 hours'],
  ])('%s', async (_, startOffset, endOffset, text) => {
    const harness = renderTrips();
    await ready();
    pick('Patrol 1');
    const now = floorToMinute(Date.now());
    setField('Start time', now + startOffset);
    setField('End time', now + endOffset);
    submit();
    expect(await screen.findByText(text)).toBeTruthy();
    expect(harness.calls.some((call) => call.path.endsWith('/trips'))).toBe(false);
  });

  it("a date the browser cannot read (a year 0000 typed) says 'Enter a date between 1970 and 2100', not 'Required'", async () => {
    const harness = renderTrips();
    await ready();
    pick('Patrol 1');
    const now = floorToMinute(Date.now());
    setField('End time', now);
    setField('Start time', now - HOUR_MS);
    // What Chromium does with 0000 in the year: the value reads '' and validity.badInput is set.
    Object.defineProperty(field('Start time'), 'validity', { configurable: true, value: { badInput: true, valid: false } });
    fireEvent.change(field('Start time'), { target: { value: '' } });
    submit();
    expect(await screen.findByText('Enter a date between 1970 and 2100')).toBeTruthy();
    expect(alerts()).toEqual(['Enter a date between 1970 and 2100']);
    expect(harness.calls.some((call) => call.path.endsWith('/trips'))).toBe(false);
  });

  it('a range of exactly 24 hours is asked for', async () => {
    const now = floorToMinute(Date.now()) - MINUTE_MS;
    const harness = renderTrips({ [`GET /things/${ids[0]}/trips`]: () => json(200, tripWire(ids[0]!, now - 2 * HOUR_MS)) });
    await ready();
    pick('Patrol 1');
    setField('Start time', now - 24 * HOUR_MS);
    setField('End time', now);
    submit();
    await screen.findByRole('table', undefined, WAIT);
    const call = harness.calls.find((c) => c.path === `/things/${ids[0]}/trips`);
    expect(call).toBeTruthy();
    expect(alerts()).toEqual([]);
  });
});

describe('part2 §2 §3 runs per asset', () => {
  it('shows each asset with its runs (start, end, duration, active, distance) and the new trips flag', async () => {
    const start = floorToMinute(Date.now()) - 3 * HOUR_MS;
    renderTrips({
      [`GET /things/${ids[0]}/trips`]: () => json(200, tripWire(ids[0]!, start)),
      [`GET /things/${ids[1]}/trips`]: () => json(200, { ...tripWire(ids[1]!, start), runs: [] }),
    });
    await ready();
    pick('Patrol 1');
    pick('Medic 2');
    submit();
    const patrol = await screen.findByRole('region', { name: 'Patrol 1' }, WAIT);
    const row = within(patrol).getAllByRole('row')[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(2)).toEqual(['10m 0s', 'No', '0.7 mi']);
    expect(within(screen.getByRole('region', { name: 'Medic 2' })).getByText('No runs in this range')).toBeTruthy();
    expect(screen.getByText('New trips')).toBeTruthy();
  });

  it("part2 §8: a 404 shows 'Asset not found'; any other failure 'Unknown failure'", async () => {
    renderTrips({ [`GET /things/${ids[1]}/trips`]: () => json(500, { error: 'boom' }) });
    await ready();
    pick('Patrol 1');
    submit();
    expect(await screen.findByText('Asset not found', undefined, WAIT)).toBeTruthy();
    pick('Patrol 1');
    pick('Medic 2');
    submit();
    expect(await screen.findByText('Unknown failure', undefined, { timeout: 30_000 })).toBeTruthy();
  }, 40_000);
});

describe('part2 §7 caches: the same query again within 60 s asks nothing', () => {
  it('re-submitting the query reads the cache', async () => {
    const start = floorToMinute(Date.now()) - 3 * HOUR_MS;
    const harness = renderTrips({ [`GET /things/${ids[0]}/trips`]: () => json(200, tripWire(ids[0]!, start)) });
    await ready();
    pick('Patrol 1');
    submit();
    await screen.findByRole('region', { name: 'Patrol 1' }, WAIT);
    submit();
    await screen.findByRole('region', { name: 'Patrol 1' }, WAIT);
    expect(harness.calls.filter((call) => call.path.endsWith('/trips'))).toHaveLength(1);
  });
});

describe('part2 §2 the page remembers the tab and the last query across reloads', () => {
  it('a reload opens the remembered tab with the remembered assets and range, and asks again', async () => {
    const end = floorToMinute(Date.now()) - HOUR_MS;
    const start = end - 5 * HOUR_MS;
    const first = renderTrips({ [`GET /things/${ids[0]}/trips`]: () => json(200, tripWire(ids[0]!, start)) });
    await ready();
    pick('Patrol 1');
    setField('Start time', start);
    setField('End time', end);
    submit();
    await screen.findByRole('region', { name: 'Patrol 1' }, WAIT);
    fireEvent.click(screen.getByRole('tab', { name: 'Replay' }));
    await screen.findByRole('button', { name: 'Play' });
    const stored = JSON.parse(localStorage.getItem(`${TRIPS_MEMORY_PREFIX}user-1`) ?? '{}');
    expect(stored).toMatchObject({ tab: 'replay', thingIds: [ids[0]], startTime: start, endTime: end });
    first.router.dispose();
    cleanup();

    // The reload: a new app over the same storage.
    const second = renderTrips({ [`GET /things/${ids[0]}/trips`]: () => json(200, tripWire(ids[0]!, start)) });
    expect(await screen.findByRole('tab', { name: 'Replay', selected: true }, WAIT)).toBeTruthy();
    // The tabs show while the answer loads (the Live path tab needs no query); the replay once it is in.
    expect(await screen.findByRole('button', { name: 'Play' }, WAIT)).toBeTruthy();
    expect(field('Start time').value).toBe(toMinuteInput(start));
    expect(field('End time').value).toBe(toMinuteInput(end));
    expect(within(screen.getByRole('list', { name: 'Assets: chosen' })).getByText('Patrol 1')).toBeTruthy();
    const asked = second.calls.find((call) => call.path === `/things/${ids[0]}/trips`);
    expect(asked).toBeTruthy();
  });
});
