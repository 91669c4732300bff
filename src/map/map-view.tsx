/**
 * `<LightbarMap>`: one component for both providers. The standalone provider
 * is deck.gl's own MapView over the offline basemap, the vector streets (./vector-basemap) and raster
 * tiles when they load; the Google
 * provider is used when a key is configured, until its loader fails — then the map falls back to
 * standalone for the rest of the page's life.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import DeckGL from '@deck.gl/react';
import { MapView, WebMercatorViewport, type Layer, type LayersList, type MapViewState } from '@deck.gl/core';
import { DEFAULT_MAP_ZOOM, type MapType } from '../domain/constants';
import {
  COUNTY_MIN_ZOOM,
  basemapTilesTemplate,
  cellRangeOf,
  createTileReachability,
  loadBasemap,
  offlineBasemapLayers,
  rasterTileLayer,
  type BasemapData,
  type CellRange,
} from './basemap';
import { BASEMAP_STYLES, type MapTheme } from './basemap-style';
import { inertLayers } from './draw/inert-layers';
import { drawsInSoftware } from './renderer';
import { MAP_GESTURES } from './gestures';
import type { PathRouter } from './directions';
import {
  loadVectorBasemapSource,
  openVectorBasemap,
  vectorBasemapLayer,
  type TileReader,
  type VectorBasemapSource,
} from './vector-basemap';
import {
  chooseMapProvider,
  createFallbackLatch,
  type MapClickHandler,
  type MapProviderChoice,
  type MapProviderKind,
  type MapProviderProps,
} from './provider';

/**
 * Google's provider (its loader, @deck.gl/google-maps, about 53 KB) is fetched only when a key is
 * set: the standalone map, which every install without a key draws, never downloads it.
 */
const GoogleMapProvider = lazy(() => import('./google-map').then((module) => ({ default: module.GoogleMapProvider })));

export interface LightbarMapProps {
  layers: LayersList;
  initialViewState: MapViewState;
  mapType?: MapType;
  /** Which provider; by default from the environment (chooseMapProvider). */
  provider?: MapProviderChoice;
  /** Raster tile template; null: no tiles. By default from VITE_BASEMAP_TILES. */
  tiles?: string | null;
  onViewStateChange?: (viewState: MapViewState) => void;
  /** The clicks no layer handled (an empty-map click: nothing picked). */
  onClick?: MapClickHandler;
  /** A form's drawing (src/map/draw): drawn over the layers, unthrottled; it takes the pointer. */
  drawing?: Layer | null;
  /** Day or night (the page's theme, src/app/theme.ts): the basemap's colours follow it. */
  theme?: MapTheme;
  /** Told once when the Google loader failed and the map fell back to standalone. */
  onProviderFallback?: (error: unknown) => void;
  /** The provider actually drawing (tests, the shell's map-type control). */
  onProviderChange?: (kind: MapProviderKind) => void;
  /**
   * The provider's directions service (./directions): Google's while the Google map draws, null
   * otherwise (the standalone map has none; the offline router answers). Pass a stable function.
   */
  onDirections?: (directions: PathRouter | null) => void;
  /**
   * The standalone basemap's layers wait while this is true (the basemap data still loads). Where
   * WebGL draws in software, building them (compiling their shaders) holds the page for about a
   * second, and the dashboard lets its first list rows show first (bench/README.md "Application bench").
   */
  holdBasemap?: boolean;
}

/** Austin, where the demo fleet drives (the spec does not show the default centre: docs/decisions/spec.md "Values the spec does not give"). */
export const DEFAULT_VIEW_STATE: MapViewState = { longitude: -97.7431, latitude: 30.2672, zoom: DEFAULT_MAP_ZOOM };

const MAP_VIEW = new MapView({ id: 'map', repeat: true, controller: true });
/** While drawing, a double click closes the shape instead of zooming. */
const MAP_VIEW_DRAWING = new MapView({ id: 'map', repeat: true, controller: { doubleClickZoom: false } });
const DRAWING_CURSOR = () => 'crosshair';

interface StandaloneProps extends MapProviderProps {
  tiles: string | null;
  holdBasemap?: boolean;
}

/**
 * The canvases' WebGL context. Where WebGL draws in software (./renderer) multisampling is off:
 * SwiftShader shades every sample of every frame on the CPU and resolves them before the page can
 * show the frame, about a quarter of a dashboard load's drawing there (docs/decisions/design.md).
 * Lines are then drawn without smoothing; with a GPU nothing changes.
 */
export function mapDeviceProps(software: boolean): { webgl: { antialias: boolean } } {
  return { webgl: { antialias: !software } };
}

/** The basemap's own view: it follows the data canvas's view and takes no input. */
const BASEMAP_VIEW = new MapView({ id: 'basemap', repeat: true, controller: false });

/** Only the camera of a view state: the basemap canvas must not run a transition of its own. */
function cameraOf(view: MapViewState): MapViewState {
  return { longitude: view.longitude, latitude: view.latitude, zoom: view.zoom, pitch: view.pitch ?? 0, bearing: view.bearing ?? 0 };
}

/**
 * The outline cells a view touches (basemap.ts cellRangeOf), for a canvas no larger than the
 * window; null (every outline) when the camera is tilted, where the far edge reaches much farther.
 */
export function viewCells(view: MapViewState, size: { width: number; height: number }): CellRange | null {
  if ((view.pitch ?? 0) > 0) return null;
  const viewport = new WebMercatorViewport({ ...cameraOf(view), width: Math.max(1, size.width), height: Math.max(1, size.height) });
  return cellRangeOf(viewport.getBounds());
}

const windowSize = () =>
  typeof window === 'undefined' ? { width: 4096, height: 4096 } : { width: window.innerWidth || 4096, height: window.innerHeight || 4096 };

/**
 * The standalone provider draws on two canvases: the basemap (offline polygons, streets, raster tiles)
 * below, redrawn only when the view moves, and the data layers above, on a transparent canvas that
 * takes the input and redraws on every diff. A diff then never re-renders the basemap's polygons,
 * about nine tenths of a frame where WebGL draws in software (docs/decisions/design.md).
 */
export function StandaloneMap({
  layers,
  initialViewState,
  tiles,
  onViewStateChange,
  onClick,
  drawing,
  theme = 'day',
  holdBasemap = false,
}: StandaloneProps) {
  const style = BASEMAP_STYLES[theme];
  const deviceProps = useMemo(() => mapDeviceProps(drawsInSoftware()), []);
  const [basemap, setBasemap] = useState<BasemapData | null>(null);
  const [view, setView] = useState<MapViewState>(() => cameraOf(initialViewState));
  // A new starting view without a transition is a jump: the basemap jumps with it (a transition's
  // frames arrive through onViewStateChange below).
  useEffect(() => {
    if (!initialViewState.transitionDuration) setView(cameraOf(initialViewState));
  }, [initialViewState]);
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
  // The streets: the server's demo network or its regional PMTiles file (when the server cannot be
  // reached the outlines alone are drawn).
  const [streets, setStreets] = useState<{ source: VectorBasemapSource; read: TileReader; minZoom: number; maxZoom: number } | null>(null);
  useEffect(() => {
    let live = true;
    loadVectorBasemapSource()
      .then(async (source) => ({ source, ...(await openVectorBasemap(source)) }))
      .then(
        (opened) => {
          if (live) setStreets(opened);
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, []);
  const streetLayer = useMemo(() => (streets ? vectorBasemapLayer(streets.source, streets.read, streets, style) : null), [streets, style]);
  const countiesShown = view.zoom >= COUNTY_MIN_ZOOM;
  // The outlines near the view only; rebuilt when the view reaches other grid cells, not per frame.
  const cellKey = JSON.stringify(viewCells(view, windowSize()));
  const cells = useMemo(() => JSON.parse(cellKey) as CellRange | null, [cellKey]);
  const base = useMemo(
    () => (basemap ? offlineBasemapLayers(basemap, countiesShown ? COUNTY_MIN_ZOOM : 0, style, cells) : []),
    [basemap, countiesShown, style, cells],
  );
  // Raster tiles until the tile server proves unreachable (offline); again when the browser is back online.
  const [tilesReachable, setTilesReachable] = useState(true);
  useEffect(() => {
    const online = () => setTilesReachable(true);
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);
  const tileLayer = useMemo(
    () =>
      tiles && tilesReachable
        ? rasterTileLayer(
            tiles,
            {},
            createTileReachability(() => setTilesReachable(false)),
          )
        : null,
    [tiles, tilesReachable],
  );
  // Outlines, then streets, then raster tiles above them (a raster tile that fails shows the streets).
  const under = useMemo<LayersList>(
    () => (holdBasemap ? [] : [...base, streetLayer, tileLayer].filter((layer) => layer !== null)),
    [holdBasemap, base, streetLayer, tileLayer],
  );
  // The drawing takes the pointer: the data layers under it are inert until it ends.
  const drawingOn = Boolean(drawing);
  const inert = useMemo(() => (drawingOn ? inertLayers(layers) : layers), [layers, drawingOn]);
  const shown = useMemo<LayersList>(() => (drawing ? [...inert, drawing] : inert), [inert, drawing]);
  return (
    <div className="lightbar-map-canvases" style={{ position: 'absolute', inset: 0, background: `rgb(${style.outlines.water.join(',')})` }}>
      <DeckGL views={BASEMAP_VIEW} viewState={view} layers={under} style={{ pointerEvents: 'none' }} deviceProps={deviceProps} />
      <DeckGL
        deviceProps={deviceProps}
        views={drawing ? MAP_VIEW_DRAWING : MAP_VIEW}
        initialViewState={initialViewState}
        eventRecognizerOptions={MAP_GESTURES}
        layers={shown}
        {...(onClick && !drawing ? { onClick } : {})}
        {...(drawing ? { getCursor: DRAWING_CURSOR } : {})}
        onViewStateChange={({ viewState }) => {
          const next = viewState as MapViewState;
          setView(cameraOf(next));
          onViewStateChange?.(next);
        }}
      />
    </div>
  );
}

export function LightbarMap({
  layers,
  initialViewState,
  mapType = 'roadmap',
  provider,
  tiles,
  onViewStateChange,
  onClick,
  drawing,
  onProviderFallback,
  onProviderChange,
  onDirections,
  theme = 'day',
  holdBasemap = false,
}: LightbarMapProps) {
  const choice = useMemo(() => provider ?? chooseMapProvider(), [provider]);
  const [failed, setFailed] = useState(false);
  const latch = useMemo(
    () =>
      createFallbackLatch((error) => {
        setFailed(true);
        onProviderFallback?.(error);
      }),
    [onProviderFallback],
  );
  const fail = useCallback((error: unknown) => latch.fail(error), [latch]);
  const kind: MapProviderKind = choice.kind === 'google' && choice.apiKey && !failed ? 'google' : 'standalone';
  useEffect(() => {
    onProviderChange?.(kind);
  }, [kind, onProviderChange]);
  const template = tiles === undefined ? basemapTilesTemplate() : tiles;
  return (
    <div className="lightbar-map" data-provider={kind} style={{ position: 'relative', width: '100%', height: '100%' }}>
      {kind === 'google' && choice.apiKey ? (
        <Suspense fallback={null}>
          <GoogleMapProvider
            apiKey={choice.apiKey}
            {...(choice.mapId ? { mapId: choice.mapId } : {})}
            onFailure={fail}
            layers={layers}
            initialViewState={initialViewState}
            mapType={mapType}
            {...(onViewStateChange ? { onViewStateChange } : {})}
            {...(onClick ? { onClick } : {})}
            drawing={drawing ?? null}
            theme={theme}
            {...(onDirections ? { onDirections } : {})}
          />
        </Suspense>
      ) : (
        <StandaloneMap
          layers={layers}
          initialViewState={initialViewState}
          mapType={mapType}
          tiles={template}
          {...(onViewStateChange ? { onViewStateChange } : {})}
          {...(onClick ? { onClick } : {})}
          drawing={drawing ?? null}
          theme={theme}
          holdBasemap={holdBasemap}
        />
      )}
    </div>
  );
}
