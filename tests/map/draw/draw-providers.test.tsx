// @vitest-environment jsdom
/**
 * The drawing on both providers (src/map/draw, map-view.tsx, google-map.tsx): on the standalone
 * map the drawing layer joins the data canvas and the other layers turn inert (a click draws, it
 * opens no popup); on Google (its loader a stand-in that loads, as tests/map/google-map.test.tsx)
 * the drawing gets a deck.gl canvas of its own on Google's camera, and Google's clicks stop
 * reaching the overlay. jsdom has no WebGL: DeckGL is a stand-in keeping its props per view.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { Layer, LayersList, MapViewState } from '@deck.gl/core';

interface DeckStandIn {
  layers: LayersList;
  views: { id: string; props: { controller?: unknown } };
  viewState?: MapViewState;
  onClick?: unknown;
  onViewStateChange?: (change: { viewState: MapViewState }) => void;
}
const decks = vi.hoisted(() => ({ byView: {} as Record<string, DeckStandIn> }));
vi.mock('@deck.gl/react', () => ({
  default: (props: DeckStandIn) => {
    decks.byView[props.views.id] = props;
    return <div data-testid={`deck-${props.views.id}`} />;
  },
}));

interface GoogleMapStandInProps {
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
    APIProvider: ({ children }: { children?: ReactNode }) => <div>{children}</div>,
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

const { LightbarMap } = await import('../../../src/map/map-view');
const { ScatterplotLayer } = await import('@deck.gl/layers');
const { drawLayer } = await import('../../../src/map/draw/draw-layer');
const { DrawSession } = await import('../../../src/map/draw/draw-session');

afterEach(() => {
  cleanup();
  decks.byView = {};
  google.mapProps = null;
  google.moves = [];
  google.overlayProps = [];
});

const VIEW = { longitude: -97.7431, latitude: 30.2672, zoom: 14 };
const marker = new ScatterplotLayer({ id: 'marker', data: [], pickable: true, onClick: () => true });
const drawing = () => drawLayer(new DrawSession({ kind: 'polygon', onDone: () => undefined, onCancel: () => undefined }));

function flat(layers: LayersList): Layer[] {
  return layers.flat(Infinity as 1).filter((layer): layer is Layer => Boolean(layer));
}

describe('the standalone map', () => {
  it('draws the drawing over the data layers, which take no pointer meanwhile; the map click handler is off and a double click does not zoom', () => {
    const onClick = vi.fn();
    const view = (layer: Layer | null) => (
      <LightbarMap
        layers={[marker]}
        initialViewState={VIEW}
        provider={{ kind: 'standalone' }}
        tiles={null}
        onClick={onClick}
        drawing={layer}
      />
    );
    const { rerender } = render(view(null));
    expect(flat(decks.byView.map!.layers).map((layer) => [layer.id, layer.props.pickable])).toEqual([['marker', true]]);
    expect(decks.byView.map!.onClick).toBe(onClick);

    rerender(view(drawing()));
    expect(flat(decks.byView.map!.layers).map((layer) => [layer.id, layer.props.pickable])).toEqual([
      ['marker', false],
      ['drawing', true],
    ]);
    expect(decks.byView.map!.onClick).toBeUndefined();
    expect(decks.byView.map!.views.props.controller).toEqual({ doubleClickZoom: false });

    rerender(view(null));
    expect(flat(decks.byView.map!.layers).map((layer) => [layer.id, layer.props.pickable])).toEqual([['marker', true]]);
    expect(decks.byView.map!.onClick).toBe(onClick);
  });
});

describe('the Google provider', () => {
  it("gives the drawing a canvas of its own on Google's camera (deck.gl zoom = Google − 1); its pans move Google; the overlay hears no click meanwhile", async () => {
    const onClick = vi.fn();
    const view = (layer: Layer | null) => (
      <LightbarMap
        layers={[marker]}
        initialViewState={VIEW}
        provider={{ kind: 'google', apiKey: 'test-key' }}
        tiles={null}
        onClick={onClick}
        drawing={layer}
      />
    );
    const { rerender } = render(view(null));
    // Google's provider is its own chunk, fetched only with a key.
    await waitFor(() => expect(google.overlayProps.at(-1)?.onClick).toBe(onClick));
    expect(decks.byView.draw).toBeUndefined();
    act(() => google.mapProps?.onCameraChanged?.({ detail: { center: { lat: 30.3, lng: -97.7 }, zoom: 16 } }));

    rerender(view(drawing()));
    const canvas = decks.byView.draw!;
    expect(flat(canvas.layers).map((layer) => layer.id)).toEqual(['drawing']);
    expect(canvas.viewState).toEqual({ longitude: -97.7, latitude: 30.3, zoom: 15 });
    expect(canvas.views.props.controller).toEqual({ doubleClickZoom: false });
    expect(google.overlayProps.at(-1)?.onClick).toBeNull();

    act(() => canvas.onViewStateChange?.({ viewState: { longitude: -97.71, latitude: 30.31, zoom: 15.5 } as MapViewState }));
    expect(google.moves.at(-1)).toEqual({ center: { lat: 30.31, lng: -97.71 }, zoom: 16.5 });
    expect(decks.byView.draw!.viewState).toEqual({ longitude: -97.71, latitude: 30.31, zoom: 15.5 });

    // Google's camera moved (a camera request): the drawing canvas follows.
    act(() => google.mapProps?.onCameraChanged?.({ detail: { center: { lat: 30.4, lng: -97.6 }, zoom: 13 } }));
    expect(decks.byView.draw!.viewState).toEqual({ longitude: -97.6, latitude: 30.4, zoom: 12 });

    decks.byView = {};
    rerender(view(null));
    expect(decks.byView.draw).toBeUndefined();
    expect(google.overlayProps.at(-1)?.onClick).toBe(onClick);
  });
});
