// @vitest-environment jsdom
/**
 * part 2 §2 Trips "a live path exists for an asset" and "the page remembers … the live path
 * asset": the Live path tab draws one asset's path growing from the live stream (the real live
 * engine and bridge in-process, positions pushed through the fake socket), bounded on the main
 * thread, and the chosen asset is remembered across reloads. The map's overlays are read through a
 * spy on `showOnMap` (jsdom draws no WebGL).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendLivePoint } from '../../../src/features/trips/use-live-path';
import { TRIPS_MEMORY_PREFIX } from '../../../src/features/trips/use-trips-memory';
import { resetShown, shown } from '../../app/support/map-spy';
import { signedInRoutes, renderApp } from '../../app/support/render-app';
import { FakeApi, iso, ORG, thing } from '../../support/live-fixtures';

vi.mock('../../../src/app/map/map-state', async (original) => (await import('../../app/support/map-spy')).spyOnMapState(await original()));

afterEach(() => {
  cleanup();
  localStorage.clear();
  resetShown();
});

const WAIT = { timeout: 15_000 };

function renderTrips() {
  const api = new FakeApi();
  api.setThings([thing(1, { nickname: 'Unit 1', lat: 30.2, lng: -97.7 }), thing(2, { nickname: 'Unit 2' })]);
  // The live path reads the live fleet, which the server lists for a reader of assets (part 1 §6).
  return renderApp(
    '/dashboard/trips',
    signedInRoutes(['trip:read', 'thing:read'], { organization_id: ORG, user_org: { id: ORG, name: 'Org' } }),
    {
      signedIn: true,
      live: api,
    },
  );
}

type Layer = { id: string; props: { data: unknown[] } };
const livePath = () =>
  (
    ((shown.sections['trips-live']?.under ?? []) as unknown as Layer[]).find((layer) => layer.id === 'trips-live-path')?.props.data[0] as
      { path: [number, number][] } | undefined
  )?.path ?? [];
const liveHead = () =>
  ((shown.sections['trips-live']?.over ?? []) as unknown as Layer[]).find((layer) => layer.id === 'trips-live-head')?.props.data ?? [];

const point = (lat: number, lng: number) => ({
  type: 'point' as const,
  thing_id: 'thing-00001',
  lat,
  lng,
  speed: 30,
  course: 0,
  timestamp: iso(Date.now()),
});

describe('part2 §2 Trips: the live path of one asset', () => {
  it('grows as the asset’s live position changes, and the asset is remembered across reloads', async () => {
    const first = renderTrips();
    fireEvent.click(await screen.findByRole('tab', { name: 'Live path' }, WAIT));
    expect(screen.getByText('Pick an asset to draw its path from the live data, from now on.')).toBeTruthy();
    const picker = screen.getByRole('searchbox', { name: 'Search Live path asset' }).closest('fieldset')!;
    fireEvent.click(await within(picker).findByRole('checkbox', { name: 'Unit 1' }, WAIT));

    // The asset's position as the live data has it when chosen: the path's first point.
    await waitFor(() => expect(liveHead()).toEqual([[-97.7, 30.2]]), WAIT);
    expect(livePath()).toEqual([]);
    expect(screen.getByTestId('live-path-count').textContent).toMatch(/^1 position since /);

    await waitFor(() => expect(first.live!.cable.subscribed).toBe(true), WAIT);
    first.live!.cable.send(point(30.21, -97.7));
    await waitFor(
      () =>
        expect(livePath()).toEqual([
          [-97.7, 30.2],
          [-97.7, 30.21],
        ]),
      WAIT,
    );
    first.live!.cable.send(point(30.22, -97.69));
    await waitFor(() => expect(livePath()).toHaveLength(3), WAIT);
    expect(liveHead()).toEqual([[-97.69, 30.22]]);
    expect(screen.getByTestId('live-path-count').textContent).toMatch(/^3 positions since /);

    // The other tabs leave the map; the trail keeps growing meanwhile.
    fireEvent.click(screen.getByRole('tab', { name: 'Runs' }));
    await waitFor(() => expect(shown.sections['trips-live']).toBeUndefined());
    first.live!.cable.send(point(30.23, -97.69));
    fireEvent.click(screen.getByRole('tab', { name: 'Live path' }));
    await waitFor(() => expect(livePath()).toHaveLength(4), WAIT);

    const stored = JSON.parse(localStorage.getItem(`${TRIPS_MEMORY_PREFIX}user-1`) ?? '{}');
    expect(stored).toMatchObject({ tab: 'live', liveThingId: 'thing-00001' });
    first.router.dispose();
    cleanup();

    // The reload: the Live path tab and its asset again; the path starts anew from the live data.
    renderTrips();
    expect(await screen.findByRole('tab', { name: 'Live path', selected: true }, WAIT)).toBeTruthy();
    expect(within(await screen.findByRole('list', { name: 'Live path asset: chosen' }, WAIT)).getByText('Unit 1')).toBeTruthy();
    await waitFor(() => expect(liveHead()).toEqual([[-97.7, 30.2]]), WAIT);
  });
});

describe('the live trail', () => {
  it('adds a position only when the asset moved, and keeps the newest within its bound', () => {
    let trail = appendLivePoint([], { lng: 1, lat: 1, at: 0 }, 3);
    expect(appendLivePoint(trail, { lng: 1, lat: 1, at: 5 }, 3)).toBe(trail);
    for (let i = 2; i <= 5; i++) trail = appendLivePoint(trail, { lng: i, lat: i, at: i }, 3);
    expect(trail.map((p) => p.lng)).toEqual([3, 4, 5]);
  });
});
