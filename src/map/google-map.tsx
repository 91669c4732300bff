/**
 * The Google Maps provider: the Maps JavaScript API through @vis.gl/react-google-maps,
 * with deck.gl's GoogleMapsOverlay drawing the same layers as the standalone map. `onFailure`
 * fires when the loader fails (it may call back several times; the caller latches).
 *
 * A drawing (src/map/draw) gets a deck.gl canvas of its own over the map, on Google's camera:
 * the overlay's deck hears only the clicks and moves Google forwards to it (no press, no drag),
 * while the editable layer listens to deck.gl's event manager — on its own canvas it hears the
 * pointer as on the standalone map, and Google (its clicks, its markers) hears nothing until the
 * drawing ends. A pan or zoom on that canvas moves Google's camera.
 *
 * While it is mounted the provider offers Google's Directions service (`onDirections`, part 2 §7
 * closure routing): its `routes` library is imported through this same loader on the first
 * request, never before, and the offer is withdrawn (null) when the provider goes (a fallback).
 */
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import { APIProvider, APIProviderContext, Map as GoogleMap, useMap } from '@vis.gl/react-google-maps';
import { GoogleMapsOverlay } from '@deck.gl/google-maps';
import DeckGL from '@deck.gl/react';
import { MapView, type Layer, type LayersList, type MapViewState } from '@deck.gl/core';
import { googleDirections, type PathRouter } from './directions';
import { MAP_GESTURES } from './gestures';
import { deckZoomFromGoogle, googleZoomFromDeck } from './google-zoom';
import type { MapClickHandler, MapProviderProps } from './provider';

export interface GoogleMapProviderProps extends MapProviderProps {
  apiKey: string;
  mapId?: string;
  onFailure: (error: unknown) => void;
  /** Told Google's Directions service while the provider is mounted, and null when it goes. */
  onDirections?: (directions: PathRouter | null) => void;
}

/** Offers Google's Directions service, its library loaded by this provider's loader when first asked. */
function DirectionsOffer({ onDirections }: { onDirections: (directions: PathRouter | null) => void }) {
  // The loader's function changes as libraries load; a new offer then finds `routes` loaded.
  const importLibrary = useContext(APIProviderContext)?.importLibrary;
  useEffect(() => {
    if (!importLibrary) return undefined;
    onDirections(googleDirections((name) => importLibrary(name)));
    return () => onDirections(null);
  }, [importLibrary, onDirections]);
  return null;
}

function DeckOverlay({ layers, onClick }: { layers: LayersList; onClick: MapClickHandler | undefined }) {
  const map = useMap();
  const overlay = useMemo(() => new GoogleMapsOverlay({ interleaved: true }), []);
  useEffect(() => {
    if (!map) return undefined;
    overlay.setMap(map);
    return () => overlay.setMap(null);
  }, [map, overlay]);
  useEffect(() => {
    // The overlay forwards Google's map clicks to deck.gl: an unhandled one (nothing picked) reaches onClick.
    overlay.setProps({ layers, onClick: onClick ?? null });
  }, [overlay, layers, onClick]);
  useEffect(() => () => overlay.finalize(), [overlay]);
  return null;
}

/**
 * Follows the caller's view requests: a new `initialViewState` object (a pan, a fit, a zoom button)
 * moves Google's camera, as it re-seats deck.gl's own view in the standalone map.
 */
function CameraFollower({ viewState }: { viewState: MapViewState }) {
  const map = useMap();
  const first = useRef(true);
  useEffect(() => {
    if (!map) return;
    if (first.current) {
      first.current = false;
      return;
    }
    map.moveCamera({ center: { lat: viewState.latitude, lng: viewState.longitude }, zoom: googleZoomFromDeck(viewState.zoom) });
  }, [map, viewState]);
  return null;
}

/** The drawing canvas's view: its own pans and zooms (a double click closes a shape, it does not zoom). */
const DRAW_VIEW = new MapView({ id: 'draw', repeat: true, controller: { doubleClickZoom: false } });
const DRAWING_CURSOR = () => 'crosshair';

type Camera = Pick<MapViewState, 'longitude' | 'latitude' | 'zoom'>;

function DrawCanvas({ drawing, camera }: { drawing: Layer; camera: Camera }) {
  const map = useMap();
  const [view, setView] = useState<Camera>(camera);
  // Google's camera moved (by this canvas, or by a camera request): the canvas follows.
  useEffect(() => setView(camera), [camera]);
  return (
    <DeckGL
      views={DRAW_VIEW}
      viewState={view}
      eventRecognizerOptions={MAP_GESTURES}
      layers={[drawing]}
      getCursor={DRAWING_CURSOR}
      style={{ zIndex: '1' }}
      onViewStateChange={({ viewState }) => {
        const next = viewState as MapViewState;
        setView({ longitude: next.longitude, latitude: next.latitude, zoom: next.zoom });
        map?.moveCamera({ center: { lat: next.latitude, lng: next.longitude }, zoom: googleZoomFromDeck(next.zoom) });
      }}
    />
  );
}

export function GoogleMapProvider({
  apiKey,
  mapId,
  onFailure,
  layers,
  initialViewState,
  mapType,
  onViewStateChange,
  onClick,
  drawing,
  theme = 'day',
  onDirections,
}: GoogleMapProviderProps) {
  // Google's camera in deck.gl's terms: kept always (a drawing starts where the map is), rendered only while drawing.
  const lastCamera = useRef<Camera>({
    longitude: initialViewState.longitude,
    latitude: initialViewState.latitude,
    zoom: initialViewState.zoom,
  });
  const [drawCamera, setDrawCamera] = useState<Camera | null>(null);
  const drawingOn = Boolean(drawing);
  useEffect(() => setDrawCamera(drawingOn ? lastCamera.current : null), [drawingOn]);
  return (
    <APIProvider apiKey={apiKey} onError={onFailure}>
      {onDirections ? <DirectionsOffer onDirections={onDirections} /> : null}
      <GoogleMap
        style={{ position: 'absolute', inset: 0 }}
        // Made again on a theme switch: it opens where the user left it.
        defaultCenter={{ lat: lastCamera.current.latitude, lng: lastCamera.current.longitude }}
        defaultZoom={googleZoomFromDeck(lastCamera.current.zoom)}
        mapTypeId={mapType}
        // part 1 §2: the default controls are replaced by ours.
        disableDefaultUI
        {...(mapId ? { mapId } : {})}
        // Google's own dark map at night (it reads the scheme when the map is made: the key below remakes it).
        colorScheme={theme === 'night' ? 'DARK' : 'LIGHT'}
        key={theme}
        // The map state (centre, zoom, bounds) follows Google's camera as it does deck.gl's view (in deck.gl's zoom).
        onCameraChanged={(event) => {
          const camera = {
            longitude: event.detail.center.lng,
            latitude: event.detail.center.lat,
            zoom: deckZoomFromGoogle(event.detail.zoom),
          };
          lastCamera.current = camera;
          if (drawingOn) setDrawCamera(camera);
          onViewStateChange?.(camera);
        }}
      >
        <CameraFollower viewState={initialViewState} />
        <DeckOverlay layers={layers} onClick={drawing ? undefined : onClick} />
        {drawing && drawCamera ? <DrawCanvas drawing={drawing} camera={drawCamera} /> : null}
      </GoogleMap>
    </APIProvider>
  );
}
