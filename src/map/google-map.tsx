/**
 * The Google Maps provider: the Maps JavaScript API through @vis.gl/react-google-maps,
 * with deck.gl's GoogleMapsOverlay drawing the same layers as the standalone map. `onFailure`
 * fires when the loader fails (it may call back several times; the caller latches).
 */
import { useEffect, useMemo, useRef } from 'react';
import { APIProvider, Map as GoogleMap, useMap } from '@vis.gl/react-google-maps';
import { GoogleMapsOverlay } from '@deck.gl/google-maps';
import type { LayersList, MapViewState } from '@deck.gl/core';
import { deckZoomFromGoogle, googleZoomFromDeck } from './google-zoom';
import type { MapClickHandler, MapProviderProps } from './provider';

export interface GoogleMapProviderProps extends MapProviderProps {
  apiKey: string;
  mapId?: string;
  onFailure: (error: unknown) => void;
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

export function GoogleMapProvider({ apiKey, mapId, onFailure, layers, initialViewState, mapType, onViewStateChange, onClick }: GoogleMapProviderProps) {
  return (
    <APIProvider apiKey={apiKey} onError={onFailure}>
      <GoogleMap
        style={{ position: 'absolute', inset: 0 }}
        defaultCenter={{ lat: initialViewState.latitude, lng: initialViewState.longitude }}
        defaultZoom={googleZoomFromDeck(initialViewState.zoom)}
        mapTypeId={mapType}
        // part 1 §2: the default controls are replaced by ours.
        disableDefaultUI
        {...(mapId ? { mapId } : {})}
        // The map state (centre, zoom, bounds) follows Google's camera as it does deck.gl's view (in deck.gl's zoom).
        onCameraChanged={(event) => onViewStateChange?.({ longitude: event.detail.center.lng, latitude: event.detail.center.lat, zoom: deckZoomFromGoogle(event.detail.zoom) })}
      >
        <CameraFollower viewState={initialViewState} />
        <DeckOverlay layers={layers} onClick={onClick} />
      </GoogleMap>
    </APIProvider>
  );
}
