// @vitest-environment jsdom
/**
 * part 2 §7 GET things/coverage (thing_ids[] repeated) on the trips page: the Runs tab's 'Show
 * coverage' toggle, off by default, asks the call for the chosen assets and draws the roads they
 * drove in the range as one band under the runs, with a legend; the call's failure shows the
 * catalogue's text (part 2 §8). The map's overlays are read through a spy on `showOnMap` (jsdom
 * draws no WebGL).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../../src/domain/constants';
import { floorToMinute } from '../../../src/domain/time';
import { resetShown, shown } from '../../app/support/map-spy';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

vi.mock('../../../src/app/map/map-state', async (original) => (await import('../../app/support/map-spy')).spyOnMapState(await original()));

afterEach(() => {
  cleanup();
  localStorage.clear();
  resetShown();
});

const WAIT = { timeout: 15_000 };
const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
const fleet = ids.map((id, i) => ({ id, haas_id: `ha5-00000${i}`, nickname: i === 0 ? 'Patrol 1' : 'Medic 2', thing_type: 'police' }));
const fleetPage: Handler = () =>
  json(200, {
    data: fleet,
    meta: { page: 1, per_page: 500, total: fleet.length, server_timestamp: new Date().toISOString(), deleted_ids: [] },
  });

function tripWire(thingId: string, start: number, driven = true) {
  return {
    thing_id: thingId,
    start_time: new Date(start).toISOString(),
    end_time: new Date(start + HOUR_MS).toISOString(),
    runs: driven
      ? [
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
        ]
      : [],
  };
}

const underIds = () => ((shown.sections['trips']?.under ?? []) as { id: string }[]).map((layer) => layer.id);
const pick = (name: string) => {
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search Assets' }), { target: { value: name } });
  fireEvent.click(screen.getByRole('checkbox', { name }));
};

async function showTrips(routes: Record<string, Handler>, driven = true) {
  const start = floorToMinute(Date.now()) - 3 * HOUR_MS;
  const harness = renderApp(
    '/dashboard/trips',
    {
      ...signedInRoutes(['trip:read']),
      'GET /organization/things': fleetPage,
      [`GET /things/${ids[0]}/trips`]: () => json(200, tripWire(ids[0]!, start, driven)),
      [`GET /things/${ids[1]}/trips`]: () => json(200, tripWire(ids[1]!, start, false)),
      ...routes,
    },
    { signedIn: true },
  );
  await screen.findByRole('checkbox', { name: 'Medic 2' }, WAIT);
  pick('Patrol 1');
  pick('Medic 2');
  fireEvent.click(screen.getByRole('button', { name: 'Show trips' }));
  await screen.findByRole('region', { name: 'Patrol 1' }, WAIT);
  return harness;
}

const coverageRows = [
  { thing_id: ids[0], first_point_at: '2026-01-01T10:00:00.000Z', last_point_at: '2026-01-02T10:00:00.000Z', run_count: 3 },
  { thing_id: ids[1], first_point_at: null, last_point_at: null, run_count: 0 },
];

describe('part2 §7 coverage on the trips map', () => {
  it("is off by default; 'Show coverage' asks for the chosen assets and draws the band under the runs with its legend", async () => {
    const harness = await showTrips({ 'GET /things/coverage': () => json(200, coverageRows) });
    const toggle = screen.getByRole('checkbox', { name: 'Show coverage' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(harness.calls.some((call) => call.path === '/things/coverage')).toBe(false);
    await waitFor(() => expect(underIds()).toEqual(['trips-paths']));

    fireEvent.click(toggle);
    await waitFor(() => expect(underIds()).toEqual(['trips-coverage', 'trips-paths']));
    const legend = await screen.findByRole('figure', { name: 'Roads driven in this range' });
    await within(legend).findByText(/3 runs stored/, undefined, WAIT);
    expect(within(legend).getByText('No points stored', { exact: false })).toBeTruthy();
    expect(within(legend).queryByText('No roads driven in this range')).toBeNull();

    expect(harness.calls.filter((call) => call.path === '/things/coverage')).toHaveLength(1);

    fireEvent.click(toggle);
    await waitFor(() => expect(underIds()).toEqual(['trips-paths']));
    expect(screen.queryByRole('figure', { name: 'Roads driven in this range' })).toBeNull();
  });

  it('asks with thing_ids[] repeated, in the picked order', async () => {
    const query: URLSearchParams[] = [];
    await showTrips({
      'GET /things/coverage': (_body, url) => {
        query.push(url.searchParams);
        return json(200, coverageRows);
      },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show coverage' }));
    await waitFor(() => expect(query).toHaveLength(1));
    expect(query[0]!.getAll('thing_ids[]')).toEqual(ids);
  });

  it('says so when no chosen asset drove in the range', async () => {
    await showTrips({ 'GET /things/coverage': () => json(200, coverageRows) }, false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show coverage' }));
    expect(await screen.findByText('No roads driven in this range')).toBeTruthy();
  });

  it("part2 §8: a failure of the call shows the catalogue's text", async () => {
    await showTrips({ 'GET /things/coverage': () => json(404, { error: 'not_found', message: 'Not found' }) });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show coverage' }));
    expect(await screen.findByText('Asset not found', undefined, WAIT)).toBeTruthy();
    // The band still shows the roads the trips answer holds.
    expect(underIds()).toEqual(['trips-coverage', 'trips-paths']);
  });
});
