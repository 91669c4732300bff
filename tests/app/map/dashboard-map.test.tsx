// @vitest-environment jsdom
/**
 * `<DashboardMap>` put together: the order of its layers (the area shapes under
 * the fleet, the area badges and event markers over it, the found location on top) and how a pinned
 * popup closes (its Close button elsewhere; here a click on empty map and Escape). The REAL live
 * engine and bridge run in-process over FakeApi. jsdom has no WebGL: deck.gl's <DeckGL> is a
 * stand-in that keeps the props the map gives it — its layers, and the map-wide onClick deck.gl
 * calls for a click no layer handled (`picked` false, no layer: an empty spot). The drawing and a
 * real click are e2e/map-overlays.spec.ts.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Layer, LayersList, PickingInfo } from '@deck.gl/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveBridge } from '../../../src/app/live/bridge';
import { liveOf, LiveProvider } from '../../../src/app/live/hooks';
import { assetMapState } from '../../../src/app/map/asset-map-state';
import { composeMapLayers, DashboardMap } from '../../../src/app/map/dashboard-map';
import { createMapState, showOnMap, startDrawing, type MapState } from '../../../src/app/map/map-state';
import { useMapOverlay } from '../../../src/app/map/use-map-overlay';
import { ScatterplotLayer } from '@deck.gl/layers';
import { createAppServices, ServicesContext, type AppServices } from '../../../src/app/services';
import { fromProfileWire, profileWireSchema } from '../../../src/domain/profile';
import { formatDateTime } from '../../../src/domain/time';
import { profileWire } from '../support/render-app';
import { DRAW_LAYER_ID } from '../../../src/map/draw/draw-layer';
import type { EventMarker } from '../../../src/map/layers/events-layer';
import { FakeApi, PARK_AREA, crashOnLamar, iso, thing } from '../../support/live-fixtures';
import { startPollingLive } from '../support/live-harness';

interface DeckStandInProps {
  layers: LayersList;
  views: { id: string };
  onClick?: (info: Partial<PickingInfo>, event: unknown) => void;
}

// The data canvas's props (the basemap has its own canvas below: `basemap`).
const deck = vi.hoisted(() => ({ props: null as DeckStandInProps | null, basemap: null as DeckStandInProps | null }));

vi.mock('@deck.gl/react', () => ({
  default: (props: DeckStandInProps) => {
    if (props.views.id === 'basemap') deck.basemap = props;
    else deck.props = props;
    return <div data-testid={`deck-${props.views.id}`} />;
  },
}));

const MAP_SIZE = { width: 800, height: 600 };

let api: FakeApi;
let bridge: LiveBridge;
let services: AppServices;
let map: MapState;

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderMap() {
  render(
    <ServicesContext.Provider value={services}>
      <MemoryRouter initialEntries={['/dashboard/things']}>
        <LiveProvider value={liveOf(bridge)}>
          <DashboardMap map={map} />
        </LiveProvider>
        <Where />
      </MemoryRouter>
    </ServicesContext.Provider>,
  );
  // jsdom lays nothing out: give the map its size (the pinned asset popup is placed in it).
  const overlay = document.querySelector('.asset-popups')!;
  Object.defineProperty(overlay, 'clientWidth', { value: MAP_SIZE.width });
  Object.defineProperty(overlay, 'clientHeight', { value: MAP_SIZE.height });
  act(() => {
    assetMapState(map).size = { ...MAP_SIZE };
  });
}

const idsOf = (list: LayersList) => list.map((l) => (l && typeof l === 'object' && 'id' in l ? l.id : String(l)));
const deckIds = () => idsOf(deck.props?.layers ?? []);
function deckLayer(id: string): Layer {
  const found = (deck.props?.layers ?? []).find((l): l is Layer => !!l && typeof l === 'object' && 'id' in l && l.id === id);
  if (!found) throw new Error(`no layer ${id} in ${deckIds().join(',')}`);
  return found;
}
interface Pickable<T> {
  data: T[];
  onHover: (info: PickingInfo<T>) => void;
  onClick: (info: PickingInfo<T>) => boolean;
}
const propsOf = <T,>(id: string) => deckLayer(id).props as unknown as Pickable<T>;

/** deck.gl's info and gesture event for a click on the map at (x, y) that picked nothing. */
const emptyPick = (x = 700, y = 500): Partial<PickingInfo> => ({
  picked: false,
  layer: null,
  object: undefined,
  index: -1,
  x,
  y,
  coordinate: [-97.5, 30.1],
});
const leftClick = () => ({ type: 'click', leftButton: true, rightButton: false, srcEvent: new MouseEvent('click', { button: 0 }) });
const rightClick = () => ({ type: 'click', leftButton: false, rightButton: true, srcEvent: new MouseEvent('click', { button: 2 }) });

/** Runs `call` in act and lets Valtio tell its subscribers (a microtask). */
const settle = (call: () => void) =>
  act(async () => {
    call();
    await Promise.resolve();
  });

beforeEach(async () => {
  deck.props = null;
  // The offline basemap's files are not served here: it is left out (the raster tiles stay).
  vi.stubGlobal('fetch', () => Promise.reject(new Error('no basemap in jsdom')));
  Object.defineProperty(window.navigator, 'geolocation', {
    configurable: true,
    value: {
      getCurrentPosition: (success: PositionCallback) =>
        success({ coords: { latitude: 30.29, longitude: -97.74, accuracy: 30 }, timestamp: Date.now() } as GeolocationPosition),
    },
  });
  api = new FakeApi();
  const now = Date.now();
  api.setThings([
    thing(1, { lat: 30.3, lng: -97.7, heartbeat_datetime: iso(now) }),
    thing(2, { lat: 30.31, lng: -97.74, heartbeat_datetime: iso(now) }),
  ]);
  api.areas = [PARK_AREA];
  // An event at a scene: its marker sits where asset 2 is.
  api.setLocation(crashOnLamar(now, { id: 'thing-00002', haas_id: 'ha-00002' }));
  const live = await startPollingLive(api, 2);
  bridge = live.bridge;
  // The plain assets layer (a pick's index is the slot); the 'pin marker' preference on.
  await bridge.setPreferences({ groupView: false, pinMarker: true });
  services = createAppServices({ fetch: live.fetch, storage: null, channel: false, createBridge: null });
  map = createMapState();
  map.view = { longitude: -97.72, latitude: 30.3, zoom: 12, bounds: [-98, 30, -97.4, 30.6] };
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window.navigator, 'geolocation');
  await bridge.dispose();
});

describe('the map’s layers, bottom to top', () => {
  it('composeMapLayers: under, the fleet, over, the controls', () => {
    expect(
      composeMapLayers({
        under: ['u'] as unknown as LayersList,
        assets: ['a1', 'a2'] as unknown as LayersList,
        over: ['o1', 'o2'] as unknown as LayersList,
        controls: ['c'] as unknown as LayersList,
      }),
    ).toEqual(['u', 'a1', 'a2', 'o1', 'o2', 'c']);
  });

  it('the area shapes under the fleet; the area badge and the event marker over it; the found location on top', async () => {
    renderMap();
    await waitFor(() => expect(deckIds()).toEqual(['area-shapes', 'assets', 'area-markers', 'events']), { timeout: 3_000 });
    expect(idsOf(deck.basemap?.layers ?? [])).toEqual(['basemap-tiles']);
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Find my location' })));
    await waitFor(() =>
      expect(deckIds()).toEqual(['area-shapes', 'assets', 'area-markers', 'events', 'found-location-accuracy', 'found-location']),
    );
  });

  it('hovering the event marker at a scene shows the event popup; hovering an asset elsewhere still shows the asset popup', async () => {
    renderMap();
    await waitFor(() => expect(propsOf<EventMarker>('events').data).toHaveLength(1), { timeout: 3_000 });
    const crash = propsOf<EventMarker>('events').data[0]!;
    await settle(() => propsOf<EventMarker>('events').onHover({ object: crash, x: 300, y: 200 } as PickingInfo<EventMarker>));
    expect(screen.getByRole('tooltip', { name: 'Crash on Lamar' })).toBeTruthy();
    // The pointer moves on to asset 1: deck.gl tells the events layer it left, the assets layer what it entered.
    const slot = await bridge.slotOf('thing-00001');
    await settle(() => propsOf<EventMarker>('events').onHover({ object: undefined, x: 100, y: 50 } as PickingInfo<EventMarker>));
    await settle(() => propsOf<unknown>('assets').onHover({ index: slot, x: 100, y: 50 } as PickingInfo<unknown>));
    expect(await screen.findByRole('tooltip', { name: 'Unit 1' })).toBeTruthy();
    expect(screen.queryByRole('tooltip', { name: 'Crash on Lamar' })).toBeNull();
  });

  it("an asset popup's 'Last sync' is in the user's zone (the profile's), not the browser's", async () => {
    const ZONE = 'Pacific/Kiritimati'; // UTC+14: no test machine's own
    services.session.state.profile = { ...fromProfileWire(profileWireSchema.parse(profileWire(['thing:read']))), timezone: ZONE };
    renderMap();
    await waitFor(() => expect(propsOf<EventMarker>('events').data).toHaveLength(1), { timeout: 3_000 });
    const slot = await bridge.slotOf('thing-00001');
    await settle(() => propsOf<unknown>('assets').onHover({ index: slot, x: 100, y: 50 } as PickingInfo<unknown>));
    const popup = await screen.findByRole('tooltip', { name: 'Unit 1' });
    const heartbeat = (await bridge.asset('thing-00001'))!.heartbeatTime!;
    expect(popup.textContent).toContain(formatDateTime(heartbeat, ZONE));
    expect(formatDateTime(heartbeat, ZONE)).not.toBe(formatDateTime(heartbeat));
  });
});

describe('a section’s own content on the map (useMapOverlay)', () => {
  const tripPaths = new ScatterplotLayer({ id: 'trips-paths', data: [] });
  const closureMarkers = new ScatterplotLayer({ id: 'closures-markers', data: [] });

  function TripsPage({ shown }: { shown: boolean }) {
    useMapOverlay(map, 'trips', shown ? TRIPS_OVERLAY : null);
    return null;
  }
  const TRIPS_OVERLAY = { under: [tripPaths], children: <p data-testid="replay-bar">Replay</p> };

  it('its layers join the map at their heights and its content shows over the map; unmounted, both are gone', async () => {
    renderMap();
    await waitFor(() => expect(deckIds()).toEqual(['area-shapes', 'assets', 'area-markers', 'events']), { timeout: 3_000 });
    const page = render(<TripsPage shown />);
    await waitFor(() => expect(deckIds()).toEqual(['area-shapes', 'trips-paths', 'assets', 'area-markers', 'events']));
    expect(screen.getByTestId('replay-bar').closest('[data-section-overlay]')?.getAttribute('data-section-overlay')).toBe('trips');
    let hide = () => {};
    act(() => {
      hide = showOnMap(map, 'closures', { over: [closureMarkers] });
    });
    await waitFor(() => expect(deckIds()).toEqual(['area-shapes', 'trips-paths', 'assets', 'area-markers', 'events', 'closures-markers']));
    page.rerender(<TripsPage shown={false} />);
    await waitFor(() => expect(deckIds()).toEqual(['area-shapes', 'assets', 'area-markers', 'events', 'closures-markers']));
    expect(screen.queryByTestId('replay-bar')).toBeNull();
    act(() => hide());
    await waitFor(() => expect(deckIds()).toEqual(['area-shapes', 'assets', 'area-markers', 'events']));
  });

  it('a remover of content since replaced leaves the new content', () => {
    const first = showOnMap(map, 'trips', { under: [tripPaths] });
    showOnMap(map, 'trips', { over: [closureMarkers] });
    first();
    expect(Object.keys(map.sections)).toEqual(['trips']);
    expect(map.sections['trips']?.over).toEqual([closureMarkers]);
  });
});

describe('a pinned popup closes on a click on empty map or Escape (the target stays)', () => {
  it('pin marker on: an asset click pins its popup; a right click or a click on a drawn layer leaves it; a click on empty map closes it', async () => {
    renderMap();
    await waitFor(() => expect(deckIds()).toContain('assets'), { timeout: 3_000 });
    const slot = await bridge.slotOf('thing-00001');
    await settle(() => void propsOf<unknown>('assets').onClick({ index: slot, x: 100, y: 50 } as PickingInfo<unknown>));
    const pinned = await screen.findByRole('dialog', { name: 'Unit 1' });
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/dashboard/things/thing-00001'), { timeout: 3_000 });
    expect(map.popup).toMatchObject({ kind: 'asset', id: 'thing-00001' });

    // The right button opens the right-click menu: the popup stays.
    await settle(() => deck.props!.onClick!(emptyPick(), rightClick()));
    expect(screen.getByRole('dialog', { name: 'Unit 1' })).toBe(pinned);
    // A click deck.gl picked something for (a layer that did not handle it) is no empty-map click.
    await settle(() => deck.props!.onClick!({ ...emptyPick(), picked: true, layer: deckLayer('assets'), index: 0 }, leftClick()));
    expect(screen.getByRole('dialog', { name: 'Unit 1' })).toBe(pinned);

    await settle(() => deck.props!.onClick!(emptyPick(), leftClick()));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(map.popup).toBeNull();
    expect(map.target).toEqual({ kind: 'asset', id: 'thing-00001' });
    expect(screen.getByTestId('path').textContent).toBe('/dashboard/things/thing-00001');
  });

  it('an event’s pinned popup: a click on empty map closes it; pinned again, Escape closes it (not Escape typed in a text field)', async () => {
    renderMap();
    await waitFor(() => expect(propsOf<EventMarker>('events').data).toHaveLength(1), { timeout: 3_000 });
    const crash = propsOf<EventMarker>('events').data[0]!;
    const pinEvent = () =>
      settle(() => void propsOf<EventMarker>('events').onClick({ object: crash, x: 300, y: 200 } as PickingInfo<EventMarker>));
    await pinEvent();
    expect(screen.getByRole('dialog', { name: 'Crash on Lamar' })).toBeTruthy();
    expect(screen.getByTestId('path').textContent).toBe('/dashboard/events/loc-1');
    await settle(() => deck.props!.onClick!(emptyPick(20, 20), leftClick()));
    expect(screen.queryByRole('dialog', { name: 'Crash on Lamar' })).toBeNull();
    expect(map.popup).toBeNull();
    expect(map.target).toEqual({ kind: 'event', id: 'loc-1' });

    await pinEvent();
    const dialog = screen.getByRole('dialog', { name: 'Crash on Lamar' });
    // Escape in the coordinates search box belongs to the box.
    await settle(() => fireEvent.keyDown(screen.getByPlaceholderText('lat, lng'), { key: 'Escape' }));
    expect(screen.getByRole('dialog', { name: 'Crash on Lamar' })).toBe(dialog);
    await settle(() => fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Close popup' }), { key: 'Escape' }));
    expect(screen.queryByRole('dialog', { name: 'Crash on Lamar' })).toBeNull();
    expect(map.popup).toBeNull();
    expect(map.target).toEqual({ kind: 'event', id: 'loc-1' });
  });

  it('with no popup pinned a click on empty map changes nothing', async () => {
    renderMap();
    await waitFor(() => expect(deckIds()).toContain('assets'), { timeout: 3_000 });
    map.target = { kind: 'area', id: 'park' };
    await settle(() => deck.props!.onClick!(emptyPick(), leftClick()));
    expect(map.popup).toBeNull();
    expect(map.target).toEqual({ kind: 'area', id: 'park' });
  });
});

describe('a form’s drawing', () => {
  it('the map says data-drawing="loading" while the drawing code loads, "ready" once its layer is on the map, nothing once it ends', async () => {
    renderMap();
    const element = screen.getByTestId('dashboard-map');
    expect(element.dataset.drawing).toBeUndefined();
    let stop: () => void = () => undefined;
    await settle(() => {
      stop = startDrawing(map, {
        kind: 'line',
        initial: null,
        onChange: () => undefined,
        onDone: () => undefined,
        onCancel: () => undefined,
      });
    });
    expect(['loading', 'ready']).toContain(element.dataset.drawing);
    await waitFor(() => expect(element.dataset.drawing).toBe('ready'), { timeout: 10_000 });
    expect(deckIds()).toContain(DRAW_LAYER_ID);
    await settle(() => stop());
    expect(element.dataset.drawing).toBeUndefined();
    expect(deckIds()).not.toContain(DRAW_LAYER_ID);
  });
});
