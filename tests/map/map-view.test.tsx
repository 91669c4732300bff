// @vitest-environment jsdom
/**
 * `<LightbarMap>` and the provider choice: Google Maps when a key is set, the
 * standalone deck.gl map otherwise, and the fallback when Google's loader fails — here it fails
 * within milliseconds and calls its error callback several times (mocked like that below).
 * jsdom has no WebGL: DeckGL and the Google overlay are stand-ins; the real drawing is e2e/map.spec.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import type { Layer, MapViewState } from '@deck.gl/core';

const loaderErrors = vi.hoisted(() => ({ count: 0 }));

vi.mock('@vis.gl/react-google-maps', () => ({
  // The loader's behaviour here: no network, so it fails at once and reports it several times.
  APIProvider: ({ onError, children }: { onError?: (error: unknown) => void; children?: ReactNode }) => {
    useEffect(() => {
      const timers = [0, 5, 15, 30].map((ms) =>
        setTimeout(() => {
          loaderErrors.count += 1;
          onError?.(new Error('The Google Maps JavaScript API could not load.'));
        }, ms),
      );
      return () => {
        // The real loader keeps calling back after the provider is gone; so do we (not cleared).
        void timers;
      };
    }, [onError]);
    return <div data-testid="google-provider">{children}</div>;
  },
  Map: ({ children }: { children?: ReactNode }) => <div data-testid="google-map">{children}</div>,
  useMap: () => null,
}));

vi.mock('@deck.gl/google-maps', () => ({
  GoogleMapsOverlay: class {
    setMap() {}
    setProps() {}
    finalize() {}
  },
}));

interface DeckStandIn {
  layers: (Layer | null | false)[];
  views: { id: string };
  viewState?: MapViewState;
  onViewStateChange?: (change: { viewState: MapViewState }) => void;
  deviceProps?: unknown;
}
const decks = vi.hoisted(() => ({ byView: {} as Record<string, DeckStandIn> }));

vi.mock('@deck.gl/react', () => ({
  // One stand-in per canvas, named by its view: 'deck-basemap' (below) and 'deck-map' (the data, above).
  default: (props: DeckStandIn) => {
    decks.byView[props.views.id] = props;
    return (
      <div
        data-testid={`deck-${props.views.id}`}
        data-layers={props.layers
          .filter((layer): layer is Layer => !!layer)
          .map((layer) => layer.id)
          .join(',')}
      />
    );
  },
}));

const { LightbarMap, DEFAULT_VIEW_STATE, mapDeviceProps } = await import('../../src/map/map-view');
const { TILE_FAILURES_UNREACHABLE, createTileReachability } = await import('../../src/map/basemap');
const { chooseMapProvider, createFallbackLatch, isMapType } = await import('../../src/map/provider');
const { ScatterplotLayer } = await import('@deck.gl/layers');

afterEach(() => {
  cleanup();
  loaderErrors.count = 0;
});

describe('provider choice (VITE_GOOGLE_MAPS_API_KEY)', () => {
  it.each([
    [{}, { kind: 'standalone' }],
    [{ VITE_GOOGLE_MAPS_API_KEY: '  ' }, { kind: 'standalone' }],
    [{ VITE_GOOGLE_MAPS_API_KEY: 'key' }, { kind: 'google', apiKey: 'key' }],
    [
      { VITE_GOOGLE_MAPS_API_KEY: 'key', VITE_GOOGLE_MAPS_MAP_ID: 'map-1' },
      { kind: 'google', apiKey: 'key', mapId: 'map-1' },
    ],
  ])('%j → %j', (env, choice) => {
    expect(chooseMapProvider(env)).toEqual(choice);
  });

  it('part1 §2: the map types', () => {
    for (const type of ['roadmap', 'satellite', 'hybrid', 'terrain']) expect(isMapType(type)).toBe(true);
    expect(isMapType('moon')).toBe(false);
  });

  it('the fallback latch reports the first failure only', () => {
    const seen: unknown[] = [];
    const latch = createFallbackLatch((error) => seen.push(error));
    latch.fail('a');
    latch.fail('b');
    latch.fail('c');
    expect(seen).toEqual(['a']);
    expect(latch.failed).toBe(true);
  });
});

describe('<LightbarMap>', () => {
  const assets = new ScatterplotLayer({ id: 'assets', data: [] });

  it("standalone: deck.gl with the given layers on a canvas above the basemap's (tiles off)", () => {
    render(<LightbarMap layers={[assets]} initialViewState={DEFAULT_VIEW_STATE} provider={{ kind: 'standalone' }} tiles={null} />);
    expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('standalone');
    expect(screen.getByTestId('deck-map').getAttribute('data-layers')).toBe('assets');
    expect(screen.getByTestId('deck-basemap').getAttribute('data-layers')).toBe('');
    // The basemap's canvas comes first (below) and takes no pointer input.
    const [below, above] = screen.getAllByTestId(/^deck-/);
    expect([below?.dataset.testid, above?.dataset.testid]).toEqual(['deck-basemap', 'deck-map']);
  });

  it('standalone: both canvases multisample on a GPU; where WebGL draws in software they do not', () => {
    render(<LightbarMap layers={[assets]} initialViewState={DEFAULT_VIEW_STATE} provider={{ kind: 'standalone' }} tiles={null} />);
    // jsdom has no WebGL: not software, so the default (multisampled) context.
    expect(decks.byView.basemap?.deviceProps).toEqual({ webgl: { antialias: true } });
    expect(decks.byView.map?.deviceProps).toEqual({ webgl: { antialias: true } });
    expect(mapDeviceProps(true)).toEqual({ webgl: { antialias: false } });
  });

  it("standalone: the basemap canvas follows the data canvas's view (camera only, no transition of its own)", () => {
    const reported: MapViewState[] = [];
    render(
      <LightbarMap
        layers={[assets]}
        initialViewState={DEFAULT_VIEW_STATE}
        provider={{ kind: 'standalone' }}
        tiles={null}
        onViewStateChange={(view) => reported.push(view)}
      />,
    );
    expect(decks.byView.basemap?.viewState).toMatchObject({
      longitude: DEFAULT_VIEW_STATE.longitude,
      latitude: DEFAULT_VIEW_STATE.latitude,
      zoom: DEFAULT_VIEW_STATE.zoom,
    });
    const moved = { longitude: -97.5, latitude: 30.4, zoom: 14.5, pitch: 0, bearing: 0, transitionDuration: 600 } as MapViewState;
    act(() => decks.byView.map?.onViewStateChange?.({ viewState: moved }));
    expect(decks.byView.basemap?.viewState).toEqual({ longitude: -97.5, latitude: 30.4, zoom: 14.5, pitch: 0, bearing: 0 });
    expect(reported.at(-1)).toBe(moved);
  });

  it('standalone: a new starting view without a transition moves the basemap canvas at once; one with a transition waits for its frames', () => {
    const { rerender } = render(
      <LightbarMap layers={[assets]} initialViewState={DEFAULT_VIEW_STATE} provider={{ kind: 'standalone' }} tiles={null} />,
    );
    const jump = { longitude: -96.8, latitude: 32.78, zoom: 12 };
    rerender(<LightbarMap layers={[assets]} initialViewState={jump} provider={{ kind: 'standalone' }} tiles={null} />);
    expect(decks.byView.basemap?.viewState).toEqual({ ...jump, pitch: 0, bearing: 0 });
    const flight = { longitude: -95.36, latitude: 29.76, zoom: 13, transitionDuration: 600 };
    rerender(<LightbarMap layers={[assets]} initialViewState={flight} provider={{ kind: 'standalone' }} tiles={null} />);
    expect(decks.byView.basemap?.viewState).toEqual({ ...jump, pitch: 0, bearing: 0 });
  });

  it('standalone: raster tiles are dropped once the tile server proves unreachable (offline), and come back when the browser is online', async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    try {
      render(
        <LightbarMap
          layers={[assets]}
          initialViewState={DEFAULT_VIEW_STATE}
          provider={{ kind: 'standalone' }}
          tiles="https://tiles.example/{z}/{x}/{y}.png"
        />,
      );
      const tileLayer = () => decks.byView.basemap?.layers.find((layer): layer is Layer => !!layer && layer.id === 'basemap-tiles');
      const load = (x: number, signal?: AbortSignal) =>
        (
          tileLayer()!.props as unknown as {
            getTileData: (tile: { index: { x: number; y: number; z: number }; signal?: AbortSignal }) => Promise<unknown>;
          }
        )
          .getTileData({ index: { x, y: 0, z: 1 }, ...(signal ? { signal } : {}) })
          .catch(() => null);
      // A cancelled request (the view moved on) says nothing about the server.
      const controller = new AbortController();
      controller.abort();
      for (let i = 0; i < TILE_FAILURES_UNREACHABLE; i += 1) await load(i, controller.signal);
      expect(screen.getByTestId('deck-basemap').getAttribute('data-layers')).toBe('basemap-tiles');
      for (let i = 0; i < TILE_FAILURES_UNREACHABLE - 1; i += 1) await load(i);
      expect(screen.getByTestId('deck-basemap').getAttribute('data-layers')).toBe('basemap-tiles');
      await act(async () => {
        await load(9);
      });
      expect(screen.getByTestId('deck-basemap').getAttribute('data-layers')).toBe('');
      act(() => {
        window.dispatchEvent(new Event('online'));
      });
      expect(screen.getByTestId('deck-basemap').getAttribute('data-layers')).toBe('basemap-tiles');
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('tile reachability: a server that answered once is never called unreachable', () => {
    const told: number[] = [];
    const reach = createTileReachability(() => told.push(1));
    reach.loaded();
    for (let i = 0; i < 10; i += 1) reach.failed();
    expect(told).toEqual([]);
    const offline = createTileReachability(() => told.push(2));
    for (let i = 0; i < 10; i += 1) offline.failed();
    expect(told).toEqual([2]);
  });

  it('standalone: the raster tile layer is on the basemap canvas, below the given layers', () => {
    render(
      <LightbarMap
        layers={[assets]}
        initialViewState={DEFAULT_VIEW_STATE}
        provider={{ kind: 'standalone' }}
        tiles="https://tiles.example/{z}/{x}/{y}.png"
      />,
    );
    expect(screen.getByTestId('deck-basemap').getAttribute('data-layers')).toBe('basemap-tiles');
    expect(screen.getByTestId('deck-map').getAttribute('data-layers')).toBe('assets');
  });

  it('Google: a failing loader (several error callbacks) falls back to standalone once', async () => {
    const fallbacks: unknown[] = [];
    const kinds: string[] = [];
    render(
      <LightbarMap
        layers={[assets]}
        initialViewState={DEFAULT_VIEW_STATE}
        provider={{ kind: 'google', apiKey: 'test-key' }}
        tiles={null}
        onProviderFallback={(error) => fallbacks.push(error)}
        onProviderChange={(kind) => kinds.push(kind)}
      />,
    );
    // Google's provider is its own chunk, fetched only with a key: it shows once loaded.
    expect(await screen.findByTestId('google-provider')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('standalone'));
    // Let the loader's remaining callbacks fire: nothing changes.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(loaderErrors.count).toBeGreaterThan(1);
    expect(fallbacks).toHaveLength(1);
    expect(screen.queryByTestId('google-provider')).toBeNull();
    expect(screen.getByTestId('deck-map').getAttribute('data-layers')).toBe('assets');
    expect(kinds[0]).toBe('google');
    expect(kinds.at(-1)).toBe('standalone');
  });
});

// Last in the file: the page keeps the server's basemap source once it answered.
describe('<LightbarMap> streets (README "Basemap")', () => {
  it("standalone: the server's vector streets go on the basemap canvas above the outlines and below the raster tiles", async () => {
    const realFetch = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      const url = String(input);
      asked.push(url);
      if (url === '/tiles/basemap.json')
        return Response.json({ kind: 'demo', tiles: '/tiles/demo/{z}/{x}/{y}.mvt', minZoom: 8, maxZoom: 16 });
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    try {
      render(
        <LightbarMap
          layers={[]}
          initialViewState={DEFAULT_VIEW_STATE}
          provider={{ kind: 'standalone' }}
          tiles="https://tiles.example/{z}/{x}/{y}.png"
        />,
      );
      await waitFor(() => expect(screen.getByTestId('deck-basemap').getAttribute('data-layers')).toBe('basemap-vector,basemap-tiles'));
      expect(asked).toContain('/tiles/basemap.json');
      const streets = decks.byView.basemap?.layers.find((layer): layer is Layer => !!layer && layer.id === 'basemap-vector');
      expect(streets?.props).toMatchObject({ data: '/tiles/demo/{z}/{x}/{y}.mvt', minZoom: 8, maxZoom: 16 });
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
