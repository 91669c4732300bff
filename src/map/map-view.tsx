/**
 * `<LightbarMap>` (issue 7 "The map"): one component for both providers. The standalone provider
 * is deck.gl's own MapView over the offline basemap (and raster tiles when they load); the Google
 * provider is used when a key is configured, until its loader fails — then the map falls back to
 * standalone for the rest of the page's life.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import DeckGL from '@deck.gl/react';
import { MapView, type LayersList, type MapViewState } from '@deck.gl/core';
import { DEFAULT_MAP_ZOOM, type MapType } from '../domain/constants';
import { BASEMAP_COLORS, COUNTY_MIN_ZOOM, basemapTilesTemplate, loadBasemap, offlineBasemapLayers, rasterTileLayer, type BasemapData } from './basemap';
import { GoogleMapProvider } from './google-map';
import { chooseMapProvider, createFallbackLatch, type MapProviderChoice, type MapProviderKind, type MapProviderProps } from './provider';

export interface LightbarMapProps {
  layers: LayersList;
  initialViewState: MapViewState;
  mapType?: MapType;
  /** Which provider; by default from the environment (chooseMapProvider). */
  provider?: MapProviderChoice;
  /** Raster tile template; null: no tiles. By default from VITE_BASEMAP_TILES. */
  tiles?: string | null;
  onViewStateChange?: (viewState: MapViewState) => void;
  /** Told once when the Google loader failed and the map fell back to standalone. */
  onProviderFallback?: (error: unknown) => void;
  /** The provider actually drawing (tests, the shell's map-type control). */
  onProviderChange?: (kind: MapProviderKind) => void;
}

/** Austin, where the demo fleet drives (the spec does not show the default centre: README). */
export const DEFAULT_VIEW_STATE: MapViewState = { longitude: -97.7431, latitude: 30.2672, zoom: DEFAULT_MAP_ZOOM };

const MAP_VIEW = new MapView({ id: 'map', repeat: true, controller: true });
const WATER = `rgb(${BASEMAP_COLORS.water.join(',')})`;

interface StandaloneProps extends MapProviderProps {
  tiles: string | null;
}

export function StandaloneMap({ layers, initialViewState, tiles, onViewStateChange }: StandaloneProps) {
  const [basemap, setBasemap] = useState<BasemapData | null>(null);
  const [zoom, setZoom] = useState(initialViewState.zoom);
  useEffect(() => {
    let live = true;
    loadBasemap().then(
      (data) => {
        if (live) setBasemap(data);
      },
      () => undefined, // the raster tiles (when online) or the water background still show
    );
    return () => {
      live = false;
    };
  }, []);
  const countiesShown = zoom >= COUNTY_MIN_ZOOM;
  const base = useMemo(() => (basemap ? offlineBasemapLayers(basemap, countiesShown ? COUNTY_MIN_ZOOM : 0) : []), [basemap, countiesShown]);
  const tileLayer = useMemo(() => (tiles ? rasterTileLayer(tiles) : null), [tiles]);
  const all = useMemo<LayersList>(() => [...base, tileLayer, ...layers], [base, tileLayer, layers]);
  return (
    <DeckGL
      views={MAP_VIEW}
      initialViewState={initialViewState}
      layers={all}
      style={{ background: WATER }}
      onViewStateChange={({ viewState }) => {
        const view = viewState as MapViewState;
        setZoom(view.zoom);
        onViewStateChange?.(view);
      }}
    />
  );
}

export function LightbarMap({ layers, initialViewState, mapType = 'roadmap', provider, tiles, onViewStateChange, onProviderFallback, onProviderChange }: LightbarMapProps) {
  const choice = useMemo(() => provider ?? chooseMapProvider(), [provider]);
  const [failed, setFailed] = useState(false);
  const latch = useMemo(() => createFallbackLatch((error) => {
    setFailed(true);
    onProviderFallback?.(error);
  }), [onProviderFallback]);
  const fail = useCallback((error: unknown) => latch.fail(error), [latch]);
  const kind: MapProviderKind = choice.kind === 'google' && choice.apiKey && !failed ? 'google' : 'standalone';
  useEffect(() => {
    onProviderChange?.(kind);
  }, [kind, onProviderChange]);
  const template = tiles === undefined ? basemapTilesTemplate() : tiles;
  return (
    <div className="lightbar-map" data-provider={kind} style={{ position: 'relative', width: '100%', height: '100%' }}>
      {kind === 'google' && choice.apiKey ? (
        <GoogleMapProvider
          apiKey={choice.apiKey}
          {...(choice.mapId ? { mapId: choice.mapId } : {})}
          onFailure={fail}
          layers={layers}
          initialViewState={initialViewState}
          mapType={mapType}
          {...(onViewStateChange ? { onViewStateChange } : {})}
        />
      ) : (
        <StandaloneMap layers={layers} initialViewState={initialViewState} mapType={mapType} tiles={template} {...(onViewStateChange ? { onViewStateChange } : {})} />
      )}
    </div>
  );
}
