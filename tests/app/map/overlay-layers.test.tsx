// @vitest-environment jsdom
/**
 * The dashboard map's event and area markers with their popups, over the REAL live
 * engine and bridge (in-process) and the app's API client: the areas come from GET
 * /organization/exclusion_zone, their counts from the worker, the events from the worker's events
 * query. Deck.gl's picking is stood in for by calling the layers' own onHover/onClick with the
 * picked marker (jsdom has no WebGL; the drawing is checked in e2e/map-overlays.spec.ts).
 */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Layer, LayersList, PickingInfo } from '@deck.gl/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveBridge } from '../../../src/app/live/bridge';
import { liveOf, LiveProvider } from '../../../src/app/live/hooks';
import { createMapState, type MapState } from '../../../src/app/map/map-state';
import { OverlayPopups, useOverlayLayers, type OverlayLayers } from '../../../src/app/map/overlay-layers';
import { createAppServices, ServicesContext, type AppServices } from '../../../src/app/services';
import type { AreaMarker } from '../../../src/map/layers/areas-layer';
import type { EventMarker } from '../../../src/map/layers/events-layer';
import { FakeApi, PARK_AREA, crashOnLamar, iso, stationArea, thing } from '../../support/live-fixtures';
import { giveProfile } from '../support/give-profile';
import { startPollingLive } from '../support/live-harness';

let api: FakeApi;
let bridge: LiveBridge;
let services: AppServices;
let map: MapState;
let overlay: OverlayLayers = { under: [], over: [] };
let layers: LayersList = [];

function Probe({ events }: { events: boolean }) {
  overlay = useOverlayLayers({ map }, { events, areas: true });
  layers = [...overlay.under, ...overlay.over];
  const location = useLocation();
  return (
    <>
      <OverlayPopups map={map} />
      <output data-testid="path">{location.pathname}</output>
    </>
  );
}

function renderProbe(events = true) {
  const tree = (show: boolean) => (
    <ServicesContext.Provider value={services}>
      <MemoryRouter initialEntries={['/dashboard/things']}>
        <LiveProvider value={liveOf(bridge)}>
          <Probe events={show} />
        </LiveProvider>
      </MemoryRouter>
    </ServicesContext.Provider>
  );
  const view = render(tree(events));
  return { rerender: (show: boolean) => view.rerender(tree(show)) };
}

const idsOf = (list: LayersList) => list.map((l) => (l && typeof l === 'object' && 'id' in l ? l.id : String(l)));

function layer(id: string): Layer | undefined {
  return layers.find((l): l is Layer => !!l && typeof l === 'object' && 'id' in l && l.id === id);
}

interface Pickable<T> {
  data: T[];
  onHover: (info: PickingInfo<T>) => void;
  onClick: (info: PickingInfo<T>) => boolean;
  getText?: (m: T) => string;
}
const propsOf = <T,>(id: string) => layer(id)!.props as unknown as Pickable<T>;
const badges = () => {
  const props = propsOf<AreaMarker>('area-markers');
  return Object.fromEntries(props.data.map((m) => [m.id, props.getText!(m)]));
};
const pick = <T,>(object: T, x = 0, y = 0) => ({ object, x, y }) as PickingInfo<T>;
/** Valtio tells its subscribers in a microtask: let it run inside act. */
const settle = (call: () => void) =>
  act(async () => {
    call();
    await Promise.resolve();
  });

beforeEach(async () => {
  api = new FakeApi();
  const now = Date.now();
  api.setThings([
    thing(1, { lat: 30.3, lng: -97.7, heartbeat_datetime: iso(now) }),
    thing(2, { lat: 30.3004, lng: -97.7, heartbeat_datetime: iso(now) }),
    thing(3, { lat: 30.27, lng: -97.77, heartbeat_datetime: iso(now) }),
    thing(4, { lat: 30.4, lng: -97.6, heartbeat_datetime: iso(now) }),
  ]);
  api.areas = [{ ...stationArea('station-4', 30.3, -97.7), name: 'Station 4' }, PARK_AREA];
  api.setLocation(crashOnLamar(now, { id: 'thing-00001', haas_id: 'ha-1' }));
  api.setLocation({
    id: 'loc-2',
    display_name: 'Stalled truck',
    is_active: false,
    is_geo_marker: true,
    marker_position: { lat: 30.25, lng: -97.72 },
    lat: 30.2,
    lng: -97.7,
    start_time: iso(now - 3_600_000),
    end_time: iso(now - 1_800_000),
  });
  const live = await startPollingLive(api, 4);
  bridge = live.bridge;
  services = createAppServices({ fetch: live.fetch, storage: null, channel: false, createBridge: null });
  giveProfile(services, ['exclusion:read', 'location:read', 'thing:read']);
  map = createMapState();
  map.view = { longitude: -97.72, latitude: 30.3, zoom: 11, bounds: [-98, 30, -97.4, 30.6] };
  layers = [];
});

afterEach(async () => {
  cleanup();
  await bridge.dispose();
});

/** The page's own area calls (the worker asks for its stations too, with its token; the page's client here has none). */
const pageAreaCalls = () =>
  api.calls
    .map((href, i) => ({ url: new URL(href), token: api.tokens[i] }))
    .filter(({ url, token }) => url.pathname === '/organization/exclusion_zone' && token === '')
    .map(({ url }) => url);

describe('part1 §2 Map "Area markers show asset counts"', () => {
  it('part2 §7 asks GET /organization/exclusion_zone with org_ids[] of the current organization', async () => {
    renderProbe();
    await waitFor(() => expect(pageAreaCalls().length).toBeGreaterThan(0), { timeout: 3_000 });
    for (const call of pageAreaCalls()) expect(call.searchParams.getAll('org_ids[]')).toEqual([bridge.store.organizationId]);
  });

  it('part2 §7 "Only when the areas section is allowed": a user without it never asks for areas', async () => {
    giveProfile(services, ['location:read', 'thing:read']);
    renderProbe();
    // The event markers drawn: the overlay's data has come; the areas would have been asked with it.
    await waitFor(() => expect((layer('events')?.props as unknown as Pickable<unknown> | undefined)?.data.length).toBeGreaterThan(0), {
      timeout: 3_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pageAreaCalls()).toEqual([]);
    expect(badges()).toEqual({});
  });

  it('draws each area with the number of assets inside, counted by the worker, and follows the fleet', async () => {
    renderProbe();
    await waitFor(() => expect(badges()).toEqual({ 'station-4': '2', park: '1' }), { timeout: 3_000 });
    expect(layer('area-shapes')).toBeDefined();
    // An asset drives into the station: the next batch, the next count (at most once a second).
    api.setThings([thing(4, { lat: 30.3002, lng: -97.7001, heartbeat_datetime: iso(Date.now()) })]);
    await act(() => bridge.refresh());
    await waitFor(() => expect(badges()).toEqual({ 'station-4': '3', park: '1' }), { timeout: 3_000 });
  });

  it('hover shows the area popup; a click pins it, targets the area and opens /dashboard/areas/{id}', async () => {
    renderProbe();
    await waitFor(() => expect(badges()['station-4']).toBe('2'), { timeout: 3_000 });
    const station = propsOf<AreaMarker>('area-markers').data.find((m) => m.id === 'station-4')!;
    await settle(() => propsOf<AreaMarker>('area-markers').onHover(pick(station, 200, 150)));
    const tip = screen.getByRole('tooltip', { name: 'Station 4' });
    expect(within(tip).getByText('Station')).toBeTruthy();
    expect(within(tip).getByText('Assets').nextElementSibling?.textContent).toBe('2');
    await settle(() => propsOf<AreaMarker>('area-markers').onHover(pick<AreaMarker | undefined>(undefined) as PickingInfo<AreaMarker>));
    expect(screen.queryByRole('tooltip')).toBeNull();

    let handled = false;
    act(() => {
      handled = propsOf<AreaMarker>('area-markers').onClick(pick(station));
    });
    expect(handled).toBe(true);
    expect(screen.getByTestId('path').textContent).toBe('/dashboard/areas/station-4');
    expect(map.target).toEqual({ kind: 'area', id: 'station-4' });
    expect(screen.getByRole('dialog', { name: 'Station 4' })).toBeTruthy();
  });
});

describe('event markers', () => {
  it('draws the events the events panel shows; the events query hides what it does not show', async () => {
    renderProbe();
    await waitFor(() => expect(propsOf<EventMarker>('events').data.map((m) => m.id)).toEqual(['loc-2', 'loc-1']), { timeout: 3_000 });
    // A geo-marker event sits at its marker position.
    expect(propsOf<EventMarker>('events').data[0]!.position).toEqual([-97.72, 30.25]);
    await act(() => bridge.setEventsQuery({ display: 'active' }));
    await waitFor(() => expect(propsOf<EventMarker>('events').data.map((m) => m.id)).toEqual(['loc-1']), { timeout: 3_000 });
  });

  it('hover popup; a click opens /dashboard/events/{id}, targets it (ring) and pins the popup until closed', async () => {
    renderProbe();
    await waitFor(() => expect(propsOf<EventMarker>('events').data).toHaveLength(2), { timeout: 3_000 });
    const crash = propsOf<EventMarker>('events').data.find((m) => m.id === 'loc-1')!;
    await settle(() => propsOf<EventMarker>('events').onHover(pick(crash, 320, 240)));
    const tip = screen.getByRole('tooltip', { name: 'Crash on Lamar' });
    expect(within(tip).getByText('Active')).toBeTruthy();
    expect(within(tip).getByText('N Lamar Blvd')).toBeTruthy();
    expect(within(tip).getByText('Active vehicles').nextElementSibling?.textContent).toBe('1');
    expect(within(tip).getByText('Inactive vehicles').nextElementSibling?.textContent).toBe('0');
    expect((tip.parentElement as HTMLElement).style.left).toBe('320px');

    act(() => {
      propsOf<EventMarker>('events').onClick(pick(crash));
    });
    expect(screen.getByTestId('path').textContent).toBe('/dashboard/events/loc-1');
    expect(map.target).toEqual({ kind: 'event', id: 'loc-1' });
    expect(layer('events-target')).toBeDefined();
    const dialog = screen.getByRole('dialog', { name: 'Crash on Lamar' });
    // The hover popup of the same event gives way to the pinned one.
    expect(screen.queryByRole('tooltip')).toBeNull();
    await settle(() => within(dialog).getByRole('button', { name: 'Close popup' }).click());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(map.popup).toBeNull();

    const stalled = propsOf<EventMarker>('events').data.find((m) => m.id === 'loc-2')!;
    await settle(() => propsOf<EventMarker>('events').onHover(pick(stalled, 10, 10)));
    expect(within(screen.getByRole('tooltip', { name: 'Stalled truck' })).getByText('Ended')).toBeTruthy();
  });

  it('the area shapes go under the fleet; the area badges, the event markers and the target ring over it', async () => {
    renderProbe();
    await waitFor(() => expect(propsOf<EventMarker>('events').data).toHaveLength(2), { timeout: 3_000 });
    expect(idsOf(overlay.under)).toEqual(['area-shapes']);
    expect(idsOf(overlay.over)).toEqual(['area-markers', 'events']);
    const crash = propsOf<EventMarker>('events').data.find((m) => m.id === 'loc-1')!;
    act(() => {
      propsOf<EventMarker>('events').onClick(pick(crash));
    });
    expect(idsOf(overlay.under)).toEqual(['area-shapes']);
    expect(idsOf(overlay.over)).toEqual(['area-markers', 'events', 'events-target']);
  });

  it("'Display Incidents' off: no event markers and no event popups; areas stay", async () => {
    const view = renderProbe();
    await waitFor(() => expect(propsOf<EventMarker>('events').data).toHaveLength(2), { timeout: 3_000 });
    const crash = propsOf<EventMarker>('events').data.find((m) => m.id === 'loc-1')!;
    act(() => {
      propsOf<EventMarker>('events').onClick(pick(crash));
    });
    expect(screen.getByRole('dialog', { name: 'Crash on Lamar' })).toBeTruthy();
    view.rerender(false);
    await waitFor(() => expect(layer('events')).toBeUndefined());
    expect(layer('area-markers')).toBeDefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
