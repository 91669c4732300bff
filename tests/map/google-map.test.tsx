// @vitest-environment jsdom
/**
 * The Google provider's edge, through `<LightbarMap>` with Google chosen: the
 * map state speaks deck.gl's zoom, Google's camera its own (one more, google-zoom.ts), converted
 * both ways here — the initial zoom, a camera request, the view Google reports — and the map-wide
 * click handler reaches the deck.gl overlay. Google's loader is a stand-in that loads (no network
 * here): its Map keeps its props, `useMap` answers a fake map, the overlay keeps what it is given.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { MapViewState } from '@deck.gl/core';

interface GoogleMapStandInProps {
  defaultZoom?: number;
  defaultCenter?: { lat: number; lng: number };
  colorScheme?: string;
  onCameraChanged?: (event: { detail: { center: { lat: number; lng: number }; zoom: number } }) => void;
  children?: ReactNode;
}

const google = vi.hoisted(() => ({
  mapProps: null as GoogleMapStandInProps | null,
  moves: [] as unknown[],
  overlayProps: [] as Record<string, unknown>[],
}));

vi.mock('@vis.gl/react-google-maps', () => {
  const fakeMap = { moveCamera: (options: unknown) => google.moves.push(options) };
  return {
    APIProvider: ({ children }: { children?: ReactNode }) => <div data-testid="google-provider">{children}</div>,
    Map: (props: GoogleMapStandInProps) => {
      google.mapProps = props;
      return <div data-testid="google-map">{props.children}</div>;
    },
    useMap: () => fakeMap,
  };
});

vi.mock('@deck.gl/google-maps', () => ({
  GoogleMapsOverlay: class {
    setMap() {}
    setProps(props: Record<string, unknown>) {
      google.overlayProps.push(props);
    }
    finalize() {}
  },
}));

const { LightbarMap } = await import('../../src/map/map-view');

afterEach(() => {
  cleanup();
  google.mapProps = null;
  google.moves = [];
  google.overlayProps = [];
});

const AUSTIN = { longitude: -97.7431, latitude: 30.2672 };

describe('the Google provider at night (README "Night mode")', () => {
  it("asks for Google's dark map at night and its light map by day, remade where the user left it", async () => {
    const view = (theme: 'day' | 'night') => (
      <LightbarMap
        layers={[]}
        initialViewState={{ ...AUSTIN, zoom: 12 }}
        provider={{ kind: 'google', apiKey: 'test-key' }}
        tiles={null}
        theme={theme}
      />
    );
    const { rerender } = render(view('day'));
    // Google's provider is its own chunk, fetched only with a key: wait for it to be mounted (the
    // overlay is set in an effect; a render React set aside would leave stale props behind).
    await waitFor(() => expect(google.overlayProps.length).toBeGreaterThan(0));
    expect(google.mapProps?.colorScheme).toBe('LIGHT');
    google.mapProps?.onCameraChanged?.({ detail: { center: { lat: 30.31, lng: -97.76 }, zoom: 15 } });
    rerender(view('night'));
    expect(google.mapProps?.colorScheme).toBe('DARK');
    expect(google.mapProps?.defaultCenter).toEqual({ lat: 30.31, lng: -97.76 });
    expect(google.mapProps?.defaultZoom).toBe(15);
  });
});

describe('the Google provider converts zoom at its edge (Google = deck.gl + 1)', () => {
  it('starts at Google zoom 13 for deck.gl 12; a camera request for deck.gl 16 moves Google to 17; Google at 15 reports deck.gl 14', async () => {
    const seen: MapViewState[] = [];
    const onClick = vi.fn();
    const view = (initialViewState: MapViewState) => (
      <LightbarMap
        layers={[]}
        initialViewState={initialViewState}
        provider={{ kind: 'google', apiKey: 'test-key' }}
        tiles={null}
        onViewStateChange={(next) => seen.push(next)}
        onClick={onClick}
      />
    );
    const { rerender } = render(view({ ...AUSTIN, zoom: 12 }));
    await waitFor(() => expect(google.overlayProps.length).toBeGreaterThan(0));
    expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('google');
    expect(google.mapProps?.defaultZoom).toBe(13);
    expect(google.mapProps?.defaultCenter).toEqual({ lat: 30.2672, lng: -97.7431 });
    // The first view is Google's default; no camera move for it.
    expect(google.moves).toEqual([]);

    rerender(view({ longitude: -97.75, latitude: 30.3, zoom: 16 }));
    expect(google.moves).toEqual([{ center: { lat: 30.3, lng: -97.75 }, zoom: 17 }]);

    google.mapProps?.onCameraChanged?.({ detail: { center: { lat: 30.31, lng: -97.76 }, zoom: 15 } });
    expect(seen).toEqual([{ longitude: -97.76, latitude: 30.31, zoom: 14 }]);

    // The clicks Google forwards to deck.gl that no layer handled reach the map's onClick.
    expect(google.overlayProps.at(-1)?.onClick).toBe(onClick);
  });
});
