/**
 * The map beside every dashboard section: `LightbarMap` drawing the live
 * store's assets and the map's overlays, answering the camera requests of `MapState`, with the
 * controls over it, and a form's drawing (`startDrawing`) over everything.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { FlyToInterpolator, Layer, WebMercatorViewport, type LayersList, type MapViewState, type PickingInfo } from '@deck.gl/core';
import { useDrawLayer } from '../../map/draw/use-draw-layer';
import type { PathRouter } from '../../map/directions';
import { LightbarMap } from '../../map/map-view';
import { drawsInSoftware, layerRedrawInterval } from '../../map/renderer';
import { AssetPopups, useAssetLayers } from './asset-layers';
import type { DashboardMapProps } from './dashboard-map-props';
import { MapControls, useControlLayers } from './map-controls';
import { OverlayPopups, useOverlayLayers } from './overlay-layers';
import { sectionLayers, type CameraCommand, type MapState } from './map-state';
import { dismissPopupOnKey, dismissPopupOnMapClick } from './popup-dismiss';
import { visibleBounds } from './asset-map-state';
import { useThrottledValue } from './use-throttled-value';
import { useServices } from '../services';
import { useLiveValue } from '../live/hooks';
import { LayerOverlays } from './layer-overlays';

const CAMERA_TRANSITION_MS = 600;

/** The view a camera request leads to, from the current view and the map's size (pure). */
export function viewForCamera(command: CameraCommand, current: MapViewState, size: { width: number; height: number }): MapViewState {
  if (command.kind === 'center') {
    return { ...current, longitude: command.longitude, latitude: command.latitude, zoom: command.zoom ?? current.zoom };
  }
  const [west, south, east, north] = command.bounds;
  const width = Math.max(1, size.width);
  const height = Math.max(1, size.height);
  const padding = Math.min(command.padding, Math.floor(width / 2) - 1, Math.floor(height / 2) - 1);
  const viewport = new WebMercatorViewport({ width, height });
  const fitted =
    west === east && south === north
      ? { longitude: west, latitude: south, zoom: command.maxZoom }
      : viewport.fitBounds(
          [
            [west, south],
            [east, north],
          ],
          { padding: Math.max(0, padding), maxZoom: command.maxZoom },
        );
  return { ...current, longitude: fitted.longitude, latitude: fitted.latitude, zoom: Math.min(fitted.zoom, command.maxZoom) };
}

/** The map's layers, bottom to top (deck.gl draws and picks the last on top). */
export interface MapLayerParts {
  /** Area shapes: under the fleet, so a filled area never hides an asset. */
  under: LayersList;
  assets: LayersList;
  /** Area badges and event markers: over the fleet, so an event at a scene shows and picks over its assets. */
  over: LayersList;
  /** The controls' own (the found location): over everything. */
  controls: LayersList;
}

export function composeMapLayers({ under, assets, over, controls }: MapLayerParts): LayersList {
  return [...under, ...assets, ...over, ...controls];
}

/**
 * The longest the basemap waits for the Live list's first rows after the map appears (docs/decisions/spec.md
 * "Values the spec does not give").
 */
export const BASEMAP_HOLD_MAX_MS = 3_000;

/**
 * Whether the standalone basemap's layers still wait: where WebGL draws in software (`enabled`),
 * until the fleet's first page is in and the Live list (when shown) has its first rows, at most
 * BASEMAP_HOLD_MAX_MS; once shown, never again. There building the basemap's layers (compiling
 * their shaders on the CPU) holds the page for about a second, and the list's first rows came after
 * it (bench/README.md "Application bench"); on a GPU it costs milliseconds and nothing waits.
 */
export function useBasemapHold(rowsPending: boolean, enabled: boolean): boolean {
  const fleetStarted = useLiveValue((store) => store.progress.loaded > 0 || store.progress.done);
  const [released, setReleased] = useState(!enabled);
  const release = !released && fleetStarted && !rowsPending;
  useEffect(() => {
    if (release) setReleased(true);
  }, [release]);
  useEffect(() => {
    const timer = setTimeout(() => setReleased(true), BASEMAP_HOLD_MAX_MS);
    return () => clearTimeout(timer);
  }, []);
  return !released && !release;
}

export function DashboardMap(props: DashboardMapProps) {
  const { map } = props;
  const mapSnap = useSnapshot(map);
  const services = useServices();
  const { theme } = useSnapshot(services.theme.state);
  const timeZone = useSnapshot(services.session.state).profile?.timezone ?? null;
  const container = useRef<HTMLDivElement>(null);
  const [initialViewState, setInitialViewState] = useState<MapViewState>(() => ({
    longitude: map.view.longitude,
    latitude: map.view.latitude,
    zoom: map.view.zoom,
  }));
  const assetLayers = useAssetLayers(props, mapSnap.display.assets);
  const { under, over } = useOverlayLayers(props, { events: mapSnap.display.events, areas: mapSnap.display.areas });
  const controlLayers = useControlLayers(props);
  const holdBasemap = useBasemapHold(mapSnap.firstRowsPending, useMemo(drawsInSoftware, []));

  const camera = mapSnap.camera;
  useEffect(() => {
    if (!camera) return;
    const element = container.current;
    const size = { width: element?.clientWidth ?? 800, height: element?.clientHeight ?? 600 };
    const next = viewForCamera(
      camera as CameraCommand,
      { longitude: map.view.longitude, latitude: map.view.latitude, zoom: map.view.zoom },
      size,
    );
    setInitialViewState({ ...next, transitionDuration: CAMERA_TRANSITION_MS, transitionInterpolator: new FlyToInterpolator() });
  }, [camera?.seq]); // eslint-disable-line react-hooks/exhaustive-deps -- one camera request is applied once

  // The section pages' own layers (useMapOverlay) join the overlay's at the same heights.
  const sections = mapSnap.sections as unknown as MapState['sections'];
  const current = useMemo<LayersList>(
    () =>
      composeMapLayers({
        under: [...under, ...sectionLayers(sections, 'under')],
        assets: assetLayers,
        over: [...over, ...sectionLayers(sections, 'over')],
        controls: controlLayers,
      }),
    [under, assetLayers, over, controlLayers, sections],
  );
  // In software WebGL a data redraw holds the page for up to ~100 ms: data redraws are spaced out there.
  const redrawInterval = useMemo(layerRedrawInterval, []);
  const layers = useThrottledValue(current, redrawInterval);
  // The ids of the layers handed to the map (a handful, once per change): what the map draws, for a
  // test to wait on instead of a fixed time.
  const layerIds = useMemo(
    () =>
      (layers as unknown[])
        .flat(Infinity)
        .flatMap((layer) => (layer instanceof Layer ? [layer.id] : []))
        .join(' '),
    [layers],
  );
  // A form's drawing: never throttled (each pointer move redraws it), and it takes the map's clicks.
  const { layer: drawing, edits: drawingEdits } = useDrawLayer(mapSnap.drawing as MapState['drawing']);

  // Escape closes a pinned popup (a click on empty map does too: onClick below).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      dismissPopupOnKey(map, event);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [map]);
  const onMapClick = useCallback(
    (info: PickingInfo, event: unknown) => {
      dismissPopupOnMapClick(map, info, event);
    },
    [map],
  );
  // part 2 §7: the provider's directions service, for the forms that route a drawn path (pathRouter).
  const onDirections = useCallback(
    (directions: PathRouter | null) => {
      map.directions = directions;
    },
    [map],
  );

  return (
    <div
      ref={container}
      className="dashboard-map"
      data-testid="dashboard-map"
      data-target={mapSnap.target ? `${mapSnap.target.kind}:${mapSnap.target.id}` : undefined}
      data-basemap={holdBasemap ? 'held' : 'shown'}
      // A form's drawing: 'loading' while its code loads, 'ready' once its layer is handed to the map.
      data-drawing={drawing ? 'ready' : mapSnap.drawing ? 'loading' : undefined}
      // The drawing's edits so far (a click that added a point, a close, a vertex moved).
      data-drawing-edits={drawing ? drawingEdits : undefined}
      data-drawing-kind={drawing ? mapSnap.drawing?.kind : undefined}
      data-layers={layerIds}
      data-camera-kind={camera?.kind}
      data-camera={
        camera?.kind === 'center'
          ? `${camera.longitude.toFixed(5)},${camera.latitude.toFixed(5)},${camera.zoom?.toFixed(2) ?? ''}`
          : undefined
      }
    >
      <LightbarMap
        layers={layers}
        initialViewState={initialViewState}
        mapType={mapSnap.mapType}
        onClick={onMapClick}
        drawing={drawing}
        theme={theme}
        holdBasemap={holdBasemap}
        onProviderChange={(kind) => {
          map.provider = kind;
        }}
        onDirections={onDirections}
        onViewStateChange={(view) => {
          const element = container.current;
          const size = element ? { width: element.clientWidth, height: element.clientHeight } : null;
          const bounds = visibleBounds({ ...view, bounds: null }, size);
          map.view = { longitude: view.longitude, latitude: view.latitude, zoom: view.zoom, bounds };
          // The view as the page shows it, for anyone reading the page (end-to-end tests project with it); no re-render.
          if (element) element.dataset.view = `${view.longitude},${view.latitude},${view.zoom}`;
        }}
      />
      <OverlayPopups {...props} />
      <LayerOverlays {...props} />
      {Object.entries(sections).map(([key, overlay]) =>
        overlay.children ? (
          <div key={key} className="dashboard-map-section" data-section-overlay={key}>
            {overlay.children}
          </div>
        ) : null,
      )}
      <AssetPopups {...props} timeZone={timeZone} />
      <MapControls {...props} />
    </div>
  );
}
