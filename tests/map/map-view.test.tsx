// @vitest-environment jsdom
/**
 * `<LightbarMap>` and the provider choice (issue 7 "The map"): Google Maps when a key is set, the
 * standalone deck.gl map otherwise, and the fallback when Google's loader fails — here it fails
 * within milliseconds and calls its error callback several times (mocked like that below).
 * jsdom has no WebGL: DeckGL and the Google overlay are stand-ins; the real drawing is e2e/map.spec.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import type { Layer } from '@deck.gl/core';

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

vi.mock('@deck.gl/react', () => ({
  default: ({ layers }: { layers: (Layer | null | false)[] }) => (
    <div data-testid="deck" data-layers={layers.filter((layer): layer is Layer => !!layer).map((layer) => layer.id).join(',')} />
  ),
}));

const { LightbarMap, DEFAULT_VIEW_STATE } = await import('../../src/map/map-view');
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
    [{ VITE_GOOGLE_MAPS_API_KEY: 'key', VITE_GOOGLE_MAPS_MAP_ID: 'map-1' }, { kind: 'google', apiKey: 'key', mapId: 'map-1' }],
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

  it('standalone: deck.gl with the given layers above the basemap (tiles off)', () => {
    render(<LightbarMap layers={[assets]} initialViewState={DEFAULT_VIEW_STATE} provider={{ kind: 'standalone' }} tiles={null} />);
    expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('standalone');
    expect(screen.getByTestId('deck').getAttribute('data-layers')).toBe('assets');
  });

  it('standalone: the raster tile layer sits below the given layers', () => {
    render(<LightbarMap layers={[assets]} initialViewState={DEFAULT_VIEW_STATE} provider={{ kind: 'standalone' }} tiles="https://tiles.example/{z}/{x}/{y}.png" />);
    expect(screen.getByTestId('deck').getAttribute('data-layers')).toBe('basemap-tiles,assets');
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
    expect(screen.getByTestId('google-provider')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('standalone'));
    // Let the loader's remaining callbacks fire: nothing changes.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(loaderErrors.count).toBeGreaterThan(1);
    expect(fallbacks).toHaveLength(1);
    expect(screen.queryByTestId('google-provider')).toBeNull();
    expect(screen.getByTestId('deck').getAttribute('data-layers')).toBe('assets');
    expect(kinds[0]).toBe('google');
    expect(kinds.at(-1)).toBe('standalone');
  });
});
