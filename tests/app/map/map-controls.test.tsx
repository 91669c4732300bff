// @vitest-environment jsdom
/**
 * The dashboard map's controls wired up (part 1 §2 Map, §5, §8, §9): the real
 * live engine and bridge run in-process over FakeApi (as in the app harness), the browser's
 * geolocation and clipboard are fakes, what3words is answered at the HTTP boundary. The map
 * itself is not drawn (jsdom has no WebGL); what the controls ask of it is read from the map state.
 */
import * as Comlink from 'comlink';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveBridge, type LiveBridge } from '../../../src/app/live/bridge';
import { liveOf, LiveProvider } from '../../../src/app/live/hooks';
import { PREFERENCES_STORAGE_KEY } from '../../../src/app/live/store';
import { MapControls, useControlLayers, type ControlsEnvironment } from '../../../src/app/map/map-controls';
import { centerOn, createMapState, type MapState } from '../../../src/app/map/map-state';
import { ServicesContext, createAppServices } from '../../../src/app/services';
import { giveProfile } from '../support/give-profile';
import { ASSET_STATUS } from '../../../src/domain/asset-status';
import type { AreaWire } from '../../../src/domain/area';
import { createLiveEngine } from '../../../src/workers/live-engine';
import { FakeApi, ORG, OTHER_ORG, TOKEN, runClockFromNow, stationArea, thing } from '../../support/live-fixtures';
import { FakeCable } from '../support/live-harness';
import { MemoryStorage } from '../support/render-app';

const W3W_ANSWER = {
  country: 'US',
  square: { southwest: { lng: -97.675, lat: 30.21 }, northeast: { lng: -97.674, lat: 30.211 } },
  nearestPlace: 'Austin, Texas',
  coordinates: { lng: -97.6744, lat: 30.2106 },
  words: 'index.home.raft',
  language: 'en',
  map: 'https://w3w.co/index.home.raft',
};

const MAP_SIZE = { width: 800, height: 600 };
const running: LiveBridge[] = [];

// The fixtures' times sit around NOW: the date runs on from it (see runClockFromNow).
beforeEach(() => runClockFromNow());

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  while (running.length)
    await running
      .pop()!
      .dispose()
      .catch(() => undefined);
});

function startBridge(api: FakeApi, storage: MemoryStorage): LiveBridge {
  runClockFromNow();
  const cable = new FakeCable();
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(createLiveEngine({ fetch: api.fetch, openSocket: cable.open }), port1);
  const worker = Object.assign(port2, { terminate: () => (port1.close(), port2.close(), cable.closeAll()) }) as unknown as Worker;
  const bridge = createLiveBridge({ createWorker: () => worker, signals: null, storage });
  running.push(bridge);
  void bridge.start({
    token: TOKEN,
    organizationId: ORG,
    orgIds: [],
    apiBase: 'http://lightbar.test',
    socketUrl: 'ws://lightbar.test/cable',
  });
  return bridge;
}

function Where() {
  const location = useLocation();
  return <output data-testid="path">{location.pathname}</output>;
}

function ControlLayers({ map }: { map: MapState }) {
  const layers = useControlLayers({ map });
  return (
    <output data-testid="control-layers">
      {layers.map((layer) => (layer && typeof layer === 'object' && 'id' in layer ? layer.id : '')).join(',')}
    </output>
  );
}

interface Setup {
  environment?: Partial<ControlsEnvironment>;
  path?: string;
  api?: FakeApi;
  storage?: MemoryStorage;
  bridge?: LiveBridge | null;
  map?: MapState;
  /** The signed-in user's permissions (default haas:manage). */
  permissions?: string[];
}

function setup(options: Setup = {}) {
  const api = options.api ?? new FakeApi();
  const storage = options.storage ?? new MemoryStorage();
  const bridge = options.bridge === undefined ? startBridge(api, storage) : options.bridge;
  const services = createAppServices({
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      api.fetch(new URL(String(input), 'http://lightbar.test').href, init)) as typeof fetch,
    storage: new MemoryStorage(),
    channel: false,
    createBridge: null,
  });
  giveProfile(services, options.permissions ?? ['haas:manage']);
  const map = options.map ?? createMapState();
  const environment: Partial<ControlsEnvironment> = { geolocation: null, clipboard: null, mapTypes: ['roadmap'], ...options.environment };
  const controls = (
    <div className="dashboard-map" data-testid="dashboard-map">
      <div className="lightbar-map" data-testid="map-surface" />
      <LiveProvider value={liveOf(bridge)}>
        <MapControls map={map} environment={environment} />
      </LiveProvider>
      <ControlLayers map={map} />
      <Where />
    </div>
  );
  const view = render(
    <ServicesContext.Provider value={services}>
      <MemoryRouter initialEntries={[options.path ?? '/dashboard/things']}>
        <Routes>
          <Route path="*" element={controls} />
        </Routes>
      </MemoryRouter>
    </ServicesContext.Provider>,
  );
  const container = screen.getByTestId('dashboard-map');
  container.getBoundingClientRect = () => ({
    x: 0,
    y: 0,
    left: 0,
    top: 0,
    right: MAP_SIZE.width,
    bottom: MAP_SIZE.height,
    ...MAP_SIZE,
    toJSON: () => ({}),
  });
  return { api, storage, bridge, map, view };
}

/** A click and the Valtio notifications it causes (they are delivered after a microtask). */
async function click(element: Element) {
  await act(async () => {
    fireEvent.click(element);
  });
}

type Answer = { coords: { latitude: number; longitude: number; accuracy: number } } | { code: number };

function fakeGeolocation(answer: Answer) {
  const options: unknown[] = [];
  return {
    options,
    getCurrentPosition(success: PositionCallback, failure?: PositionErrorCallback | null, opts?: PositionOptions) {
      options.push(opts);
      if ('coords' in answer)
        success({
          coords: { ...answer.coords, altitude: null, altitudeAccuracy: null, heading: null, speed: null },
          timestamp: Date.now(),
        } as GeolocationPosition);
      else
        failure?.({
          code: answer.code,
          message: 'x',
          PERMISSION_DENIED: 1,
          POSITION_UNAVAILABLE: 2,
          TIMEOUT: 3,
        } as GeolocationPositionError);
    },
  };
}

describe('part1 §2 find my location (§8 geolocation texts, §9 options)', () => {
  it('asks with high accuracy, 10 s timeout, 30 s max age; centres at zoom 17 and draws the dot; clear removes it', async () => {
    const geolocation = fakeGeolocation({ coords: { latitude: 30.3, longitude: -97.8, accuracy: 25 } });
    const { map } = setup({ environment: { geolocation }, bridge: null });
    await click(screen.getByRole('button', { name: 'Find my location' }));
    expect(geolocation.options).toEqual([{ enableHighAccuracy: true, timeout: 10_000, maximumAge: 30_000 }]);
    expect(map.camera).toMatchObject({ kind: 'center', longitude: -97.8, latitude: 30.3, zoom: 17 });
    expect(screen.getByTestId('control-layers').textContent).toBe('found-location-accuracy,found-location');
    await click(screen.getByRole('button', { name: 'Clear location' }));
    expect(screen.getByTestId('control-layers').textContent).toBe('');
  });

  it.each([
    [1, 'Lightbar does not have permission to use your location. Enable location services in your browser.'],
    [2, 'Unable to retrieve your location.'],
    [3, 'Unable to retrieve your location.'],
  ])('error code %d reads %j and moves nothing', async (code, text) => {
    const { map } = setup({ environment: { geolocation: fakeGeolocation({ code }) }, bridge: null });
    await click(screen.getByRole('button', { name: 'Find my location' }));
    expect(screen.getByRole('alert').textContent).toContain(text);
    expect(map.camera).toBeNull();
    expect(screen.getByTestId('control-layers').textContent).toBe('');
    await click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("without geolocation reads 'Your browser does not support geolocation'", async () => {
    setup({ environment: { geolocation: null }, bridge: null });
    await click(screen.getByRole('button', { name: 'Find my location' }));
    expect(screen.getByRole('alert').textContent).toContain('Your browser does not support geolocation');
  });
});

/** The point `dx`, `dy` pixels from the centre of a 512·2^zoom px Web Mercator world (independent of deck.gl). */
function mercatorPoint(center: { longitude: number; latitude: number }, zoom: number, dx: number, dy: number) {
  const world = 512 * 2 ** zoom;
  const lng = center.longitude + (dx / world) * 360;
  const y0 = Math.log(Math.tan(Math.PI / 4 + (center.latitude * Math.PI) / 360));
  const y = y0 - (dy / world) * 2 * Math.PI;
  const lat = ((2 * Math.atan(Math.exp(y)) - Math.PI / 2) * 180) / Math.PI;
  return { lat, lng };
}

function truncated(value: number) {
  return (Math.trunc(value * 1e5) / 1e5).toFixed(5);
}

describe('part1 §2 the right-click menu', () => {
  it('opens at the pointer with the point at 5 decimals, looks up the three words over HTTP, copies with feedback', async () => {
    vi.stubEnv('VITE_WHAT3WORDS_API_KEY', 'W3W-KEY');
    const w3w = vi.fn(
      async (_url: string) => new Response(JSON.stringify(W3W_ANSWER), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', w3w);
    const clipboard = { writeText: vi.fn(() => Promise.resolve()) };
    const { map } = setup({ environment: { clipboard }, bridge: null });
    map.view = { longitude: -97.7431, latitude: 30.2672, zoom: 12, bounds: null };
    fireEvent.contextMenu(screen.getByTestId('map-surface'), { clientX: 500, clientY: 350 });
    const expected = mercatorPoint(map.view, 12, 100, 50);
    const text = `${truncated(expected.lat)}, ${truncated(expected.lng)}`;
    expect(text).toMatch(/^30\.\d{5}, -97\.\d{5}$/);
    const menu = screen.getByRole('dialog', { name: 'Map point' });
    expect(screen.getByTestId('menu-coordinates').textContent).toBe(text);
    expect(menu.style.left).toBe('500px');
    expect(menu.style.top).toBe('350px');
    expect(menu.textContent).toContain('Locating...');
    await waitFor(() => expect(screen.getByTestId('menu-words').textContent).toBe('///index.home.raft'));
    const url = new URL(w3w.mock.calls[0]![0]);
    expect(`${url.origin}${url.pathname}`).toBe('https://api.what3words.com/v3/convert-to-3wa');
    expect(url.searchParams.get('language')).toBe('en');
    expect(url.searchParams.get('key')).toBe('W3W-KEY');
    const [lat, lng] = url.searchParams.get('coordinates')!.split(',').map(Number);
    expect(lat).toBeCloseTo(expected.lat, 6);
    expect(lng).toBeCloseTo(expected.lng, 6);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy coordinates' }));
    });
    expect(clipboard.writeText).toHaveBeenCalledWith(text);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Directions in Google Maps' }).getAttribute('href')).toBe(
      `https://www.google.com/maps/dir/?api=1&destination=${text.replace(', ', ',')}`,
    );

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Map point' })).toBeNull();
  });

  it('the pixel at the centre reads the centre, without binary noise', () => {
    const { map } = setup({ bridge: null });
    map.view = { longitude: -97.74, latitude: 30.27, zoom: 16, bounds: null };
    fireEvent.contextMenu(screen.getByTestId('map-surface'), { clientX: MAP_SIZE.width / 2, clientY: MAP_SIZE.height / 2 });
    expect(screen.getByTestId('menu-coordinates').textContent).toBe('30.27000, -97.74000');
  });

  it("without a what3words key reads 'what3words not found...' and calls nobody", async () => {
    vi.stubEnv('VITE_WHAT3WORDS_API_KEY', '');
    const w3w = vi.fn();
    vi.stubGlobal('fetch', w3w);
    setup({ bridge: null });
    fireEvent.contextMenu(screen.getByTestId('map-surface'), { clientX: 10, clientY: 10 });
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Map point' }).textContent).toContain('what3words not found...'));
    expect(w3w).not.toHaveBeenCalled();
  });

  it("reads 'Unable to find location' when the map has no size to place the point", () => {
    setup({ bridge: null });
    const container = screen.getByTestId('dashboard-map');
    container.getBoundingClientRect = () => ({ x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) });
    fireEvent.contextMenu(screen.getByTestId('map-surface'), { clientX: 10, clientY: 10 });
    expect(screen.getByRole('dialog', { name: 'Map point' }).textContent).toBe('Unable to find location');
  });

  it('a right-click on a control is not the map', () => {
    setup({ bridge: null });
    fireEvent.contextMenu(screen.getByRole('button', { name: 'Zoom in' }), { clientX: 10, clientY: 10 });
    expect(screen.queryByRole('dialog', { name: 'Map point' })).toBeNull();
  });
});

describe('part1 §5 coordinate search box', () => {
  it('rejects "91, 0" and goes to "30.27, -97.74" on Enter', () => {
    const { map } = setup({ bridge: null });
    const box = screen.getByRole('textbox', { name: 'Go to coordinates' }) as HTMLInputElement;
    fireEvent.change(box, { target: { value: '91, 0' } });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    fireEvent.submit(box.closest('form')!);
    expect(map.camera).toBeNull();
    fireEvent.change(box, { target: { value: '30.27, -97.74' } });
    expect(box.getAttribute('aria-invalid')).toBe('false');
    fireEvent.submit(box.closest('form')!);
    expect(map.camera).toMatchObject({ kind: 'center', latitude: 30.27, longitude: -97.74, zoom: 16 });
  });
});

describe('part1 §2 zoom and map type', () => {
  it('zoom in and out step one level from the view', () => {
    const { map } = setup({ bridge: null });
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(map.camera).toMatchObject({ kind: 'center', zoom: 11 });
    // a second click during the fly-to builds on the level asked for
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(map.camera).toMatchObject({ kind: 'center', zoom: 12 });
  });

  it('the map type writes map.mapType; the standalone map offers only the road map', () => {
    const { map } = setup({ bridge: null, environment: { mapTypes: ['roadmap', 'satellite', 'hybrid', 'terrain'] } });
    fireEvent.click(screen.getByRole('radio', { name: 'Satellite' }));
    expect(map.mapType).toBe('satellite');
    cleanup();
    setup({ bridge: null, environment: { mapTypes: ['roadmap'] } });
    expect((screen.getByRole('radio', { name: 'Satellite' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('part1 §2 show-all fit, toggles, display panel and area search with the live engine', () => {
  it('show all fits the listed assets with padding 50 and max zoom 17', async () => {
    const api = new FakeApi();
    api.setThings([thing(1), thing(5), thing(103)]);
    const { map, bridge } = setup({ api });
    await waitFor(() => expect(bridge!.store.total).toBe(3), { timeout: 5_000 });
    // (the first view already fitted the fleet once it loaded: the click asks again)
    await waitFor(() => expect(map.camera).not.toBeNull());
    const before = map.camera!.seq;
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(map.camera!.seq).toBe(before + 1));
    // thing(i): lat 30.2 + (i % 100)·0.001, lng -97.7 - floor(i / 100)·0.001
    expect(map.camera!.kind).toBe('fit');
    const fit = map.camera as { bounds: number[]; padding: number; maxZoom: number };
    expect(fit.padding).toBe(50);
    expect(fit.maxZoom).toBe(17);
    const [west, south, east, north] = fit.bounds;
    expect(west).toBeCloseTo(-97.701, 9);
    expect(south).toBeCloseTo(30.201, 9);
    expect(east).toBeCloseTo(-97.7, 9);
    expect(north).toBeCloseTo(30.205, 9);
  });

  it('the first view: once the fleet has loaded, the map shows every listed asset (as show all), once', async () => {
    const api = new FakeApi();
    api.setThings([thing(1), thing(5), thing(103)]);
    const { map, bridge } = setup({ api });
    expect(map.camera).toBeNull();
    await waitFor(() => expect(map.camera).not.toBeNull(), { timeout: 5_000 });
    expect(bridge!.store.progress.done).toBe(true);
    expect(map.camera).toMatchObject({ seq: 1, kind: 'fit', padding: 50, maxZoom: 17 });
    // thing(i): lat 30.2 + (i % 100)·0.001, lng -97.7 - floor(i / 100)·0.001
    expect((map.camera as { bounds: number[] }).bounds.map((v) => Number(v.toFixed(6)))).toEqual([-97.701, 30.201, -97.7, 30.205]);
    // later batches do not fit again
    api.setThings([thing(1, { lat: 31.5 }), thing(5), thing(103)]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(map.camera!.seq).toBe(1);
  });

  it('the first view: a camera request made before the map was shown (a phone opens the map after an event page centred it) is not overridden', async () => {
    const api = new FakeApi();
    api.setThings([thing(1), thing(5), thing(103)]);
    const map = createMapState();
    centerOn(map, -97.75, 30.3, 16);
    const { bridge } = setup({ api, map });
    await waitFor(() => expect(bridge!.store.progress.done).toBe(true), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(map.camera).toMatchObject({ seq: 1, kind: 'center', longitude: -97.75, latitude: 30.3, zoom: 16 });
  });

  it("the first view again after an organization switch: the new organization's fleet is fitted once it has loaded", async () => {
    const api = new FakeApi();
    api.setThings([thing(1), thing(5), thing(103)]);
    const { map, bridge } = setup({ api });
    await waitFor(() => expect(map.camera?.seq).toBe(1), { timeout: 5_000 });
    api.setThings([thing(1), thing(5), thing(103), thing(250)]);
    await act(() => bridge!.switchOrganization({ organizationId: OTHER_ORG, orgIds: [] }));
    await waitFor(() => expect(map.camera?.seq).toBe(2), { timeout: 5_000 });
    expect(bridge!.store.organizationId).toBe(OTHER_ORG);
    expect(map.camera).toMatchObject({ kind: 'fit', padding: 50, maxZoom: 17 });
    // thing(250) lies at 30.25, -97.702
    expect((map.camera as { bounds: number[] }).bounds.map((v) => Number(v.toFixed(6)))).toEqual([-97.702, 30.201, -97.7, 30.25]);
  });

  it('the first view: a camera request made while the fleet loads (a deep link centring its asset) is not overridden', async () => {
    const api = new FakeApi();
    api.setThings([thing(1), thing(5), thing(103)]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = api.fetch;
    api.fetch = async (input, init) => {
      if (String(input).includes('/organization/things')) await gate;
      return answer(input, init);
    };
    const { map, bridge } = setup({ api });
    act(() => centerOn(map, -97.75, 30.3, 16));
    release();
    await waitFor(() => expect(bridge!.store.progress.done).toBe(true), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(map.camera).toMatchObject({ seq: 1, kind: 'center', longitude: -97.75, latitude: 30.3, zoom: 16 });
  });

  it('on a phone the toggles fold under their title, closed at first; on a desktop they stand open', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    const api = new FakeApi();
    api.setThings([thing(1)]);
    setup({ api });
    const group = screen.getByRole('group', { name: 'Map views' });
    const folded = group.closest('details')!;
    expect(folded).not.toBeNull();
    expect(folded.open).toBe(false);
    expect(folded.querySelector('summary')?.textContent).toBe('Map views');
    expect(within(group).getAllByRole('switch')).toHaveLength(6);
    vi.unstubAllGlobals();
    cleanup();
    setup({ api });
    expect(screen.getByRole('group', { name: 'Map views' }).closest('details')).toBeNull();
  });

  it('the labelled toggles write the preferences to storage and read them back after a reload', async () => {
    const api = new FakeApi();
    api.setThings([thing(1)]);
    const storage = new MemoryStorage();
    const { bridge } = setup({ api, storage });
    const names = ['Group view', 'Density view', 'Station view', 'Pin marker', 'Show offline', 'Unit availability'];
    expect(screen.getAllByRole('switch').map((s) => s.nextElementSibling?.textContent)).toEqual(names);
    // part 1 §2 defaults: group view on, density view off
    expect((screen.getByRole('switch', { name: 'Group view' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Density view' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('switch', { name: 'Density view' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Group view' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Show offline' }));
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Density view' }) as HTMLInputElement).checked).toBe(true));
    const stored = JSON.parse(storage.getItem(PREFERENCES_STORAGE_KEY)!);
    expect(stored).toMatchObject({ densityView: true, groupView: false, showOffline: false });
    expect(bridge!.store.filters.statuses).not.toContain(ASSET_STATUS.offline);

    cleanup();
    await bridge!.dispose();
    setup({ api, storage });
    expect((screen.getByRole('switch', { name: 'Density view' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Group view' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('switch', { name: 'Show offline' }) as HTMLInputElement).checked).toBe(false);
  });

  it("the display panel reads 'Display Incidents' for an all-responder fleet, 'Display Events' otherwise, and writes map.display", async () => {
    const { map, bridge } = setup({});
    fireEvent.click(screen.getByRole('checkbox', { name: 'Display Incidents' }));
    expect(map.display.events).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Display Assets' }));
    expect(map.display.assets).toBe(false);
    // The live store reports the responder mix once it knows it (helper F's `responderMix`).
    act(() => {
      (bridge!.store as unknown as { responderMix: string }).responderMix = 'some';
    });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Display Events' })).toBeTruthy());
  });

  it("'Jump to your saved areas...' lists the organization's areas and moves the map to the one picked", async () => {
    const api = new FakeApi();
    const polygon: AreaWire = {
      id: 'area-2',
      organization_id: ORG,
      name: 'Airport Exclusion',
      area_geom: {
        type: 'Polygon',
        coordinates: [
          [
            [-97.67, 30.19],
            [-97.65, 30.19],
            [-97.65, 30.21],
            [-97.67, 30.19],
          ],
        ],
      },
      ez_type: { id: 'type-ex', db_name: 'exclusion', display_name: 'Exclusion', is_station_view: false },
    };
    api.areas = [stationArea('area-1', 30.31, -97.71), polygon];
    const { map, bridge } = setup({ api });
    await waitFor(() => expect(bridge!.store.organizationId).toBe(ORG), { timeout: 5_000 });
    const box = screen.getByRole('combobox', { name: 'Jump to your saved areas...' });
    fireEvent.focus(box);
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Airport Exclusion', 'Station area-1']));
    fireEvent.change(box, { target: { value: 'station' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(map.camera).toMatchObject({ kind: 'center', latitude: 30.31, longitude: -97.71, zoom: 16 });
    fireEvent.focus(box);
    fireEvent.mouseDown(screen.getByRole('option', { name: 'Airport Exclusion' }));
    expect(map.camera).toMatchObject({ kind: 'fit', bounds: [-97.67, 30.19, -97.65, 30.21], padding: 50, maxZoom: 17 });
    // part 2 §2: the pick leads to the area's detail, targeted as a list row targets it.
    expect(screen.getByTestId('path').textContent).toBe('/dashboard/areas/area-2');
    expect(map.target).toEqual({ kind: 'area', id: 'area-2' });
  });
});

describe("part1 §2 '+ Add' / 'Zoom to Add' on the sections that add map items (§9 thresholds)", () => {
  it.each([
    ['/dashboard/areas', 15.5, ['haas:manage']],
    ['/dashboard/closures', 15.5, ['closure:manage']],
  ])('%s: below %d it zooms there, at it it opens the new page', async (path, addZoom, permissions) => {
    const { map } = setup({ path, bridge: null, permissions });
    await act(async () => {
      map.view = { ...map.view, zoom: addZoom - 0.01 };
    });
    fireEvent.click(screen.getByRole('button', { name: 'Zoom to Add' }));
    expect(map.camera).toMatchObject({ kind: 'center', zoom: addZoom });
    await act(async () => {
      map.view = { ...map.view, zoom: addZoom };
    });
    fireEvent.click(screen.getByRole('button', { name: '+ Add' }));
    expect(screen.getByTestId('path').textContent).toBe(`${path}/new`);
    expect(screen.queryByRole('button', { name: '+ Add' })).toBeNull();
  });

  it('part2 §6 /dashboard/areas shows no add button to a user who may not add areas (exclusion read only)', () => {
    setup({ path: '/dashboard/areas', bridge: null, permissions: ['exclusion:read'] });
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
  });

  it('part2 §6 /dashboard/closures shows no add button to a user who may not add closures (closure read only)', () => {
    setup({ path: '/dashboard/closures', bridge: null, permissions: ['closure:read'] });
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
  });

  it('part2 §2 on a phone: no add for areas (no new area there); closures add with the mobile closure permissions', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    setup({ path: '/dashboard/areas', bridge: null });
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
    cleanup();
    setup({ path: '/dashboard/closures', bridge: null, permissions: ['closure:read', 'mobile:closure:create'] });
    expect(screen.getByRole('button', { name: /Add/ })).toBeTruthy();
    vi.unstubAllGlobals();
  });

  // Zones and trips are not made on the map: they have no new page, so no add button.
  it.each([
    '/dashboard/things',
    '/dashboard/events',
    '/dashboard/zones',
    '/dashboard/trips',
    '/dashboard/areas/new',
    '/dashboard/closures/c-1/edit',
  ])('%s has no add button', (path) => {
    setup({ path, bridge: null });
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
  });
});
