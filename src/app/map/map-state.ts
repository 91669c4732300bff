/**
 * The dashboard map's shared state: one small Valtio proxy that the map, its controls and
 * the section pages read and write — the current view (centre, zoom, bounds), camera requests (a
 * pan, a fly-to or a fit, numbered so the map applies each once), the targeted item, the display
 * toggles ('Display Assets' / 'Display Incidents' and the layers control's: src/domain/map-layers.ts), the map type, the pinned popup, a form's
 * drawing request and the provider's directions service. No asset data lives here: that is the live store's (src/app/live/store.ts).
 */
import type { ReactNode } from 'react';
import type { LayersList } from '@deck.gl/core';
import { proxy, ref } from 'valtio';
import { DEFAULT_MAP_ZOOM, FIT_BOUNDS_MAX_ZOOM, FIT_BOUNDS_PADDING, type MapType } from '../../domain/constants';
import { routeWithFallback, type PathRouter } from '../../map/directions';
import type { DrawingRequest } from '../../map/draw/draw-session';
import { DEFAULT_MAP_LAYERS, type MapLayers } from '../../domain/map-layers';
import type { MapProviderKind } from '../../map/provider';

export type { DrawingRequest } from '../../map/draw/draw-session';

/** [west, south, east, north] in degrees. */
export type Bounds = [number, number, number, number];

export type MapTargetKind = 'asset' | 'event' | 'area' | 'closure' | 'zone' | 'trip' | 'hazard';

/** The item a section targets (part 1 §2: a list click targets the asset; back clears it). */
export interface MapTarget {
  kind: MapTargetKind;
  id: string;
}

export type CameraCommand =
  | { seq: number; kind: 'center'; longitude: number; latitude: number; zoom: number | null }
  | { seq: number; kind: 'fit'; bounds: Bounds; padding: number; maxZoom: number };

export interface MapView {
  longitude: number;
  latitude: number;
  zoom: number;
  /** The visible bounds, null until the map has a size. */
  bounds: Bounds | null;
}

/** A popup pinned open by a click (hover popups are local to the map). */
export interface PinnedPopup {
  kind: MapTargetKind;
  id: string;
  longitude: number;
  latitude: number;
}

/**
 * What a dashboard section shows on the map besides the fleet (a trip's runs, closures, alerting
 * zones, hazards): its deck.gl layers at the map's two heights and, over the canvas, what it
 * places there itself (its popups, a legend, a replay bar). Layer ids start with the section's key.
 */
export interface SectionOverlay {
  /** Under the fleet (shapes, paths, heatmaps): they never hide an asset. */
  under?: LayersList;
  /** Over the fleet, under the controls' layers (markers the user clicks). */
  over?: LayersList;
  /** Drawn over the map's canvas, inside its frame (absolutely positioned by the section). */
  children?: ReactNode;
}

export interface MapState {
  view: MapView;
  camera: CameraCommand | null;
  target: MapTarget | null;
  /** What the map draws: the layer panel's and the layers control's choices (docs/map.md "Layers"). */
  display: MapLayers;
  mapType: MapType;
  /** The provider drawing now (Google until its loader fails, else standalone). */
  provider: MapProviderKind;
  popup: PinnedPopup | null;
  /** A form's drawing in progress (startDrawing); held as is (`ref`), its callbacks are the form's. */
  drawing: DrawingRequest | null;
  /** The provider's directions service: Google's while the Google map draws, else null (`pathRouter`). */
  directions: PathRouter | null;
  /** Each section's own map content by section key (`showOnMap`), each held as is (`ref`). */
  sections: Record<string, SectionOverlay>;
  /**
   * The Live list is shown and its first rows are on their way: the map's basemap waits for them
   * (DashboardMap, at most BASEMAP_HOLD_MAX_MS), so they are not held behind the basemap's build.
   */
  firstRowsPending: boolean;
}

/** Austin, where the demo fleet drives (the spec does not show the default centre: docs/decisions/spec.md "Values the spec does not give"). */
export const DEFAULT_CENTER = { longitude: -97.7431, latitude: 30.2672 } as const;

export function createMapState(): MapState {
  return proxy<MapState>({
    view: { ...DEFAULT_CENTER, zoom: DEFAULT_MAP_ZOOM, bounds: null },
    camera: null,
    target: null,
    display: { ...DEFAULT_MAP_LAYERS },
    mapType: 'roadmap',
    provider: 'standalone',
    popup: null,
    drawing: null,
    directions: null,
    sections: {},
    firstRowsPending: false,
  });
}

/** Pans (and zooms, when `zoom` is given) the map to a point. */
export function centerOn(state: MapState, longitude: number, latitude: number, zoom: number | null = null): void {
  state.camera = { seq: (state.camera?.seq ?? 0) + 1, kind: 'center', longitude, latitude, zoom };
}

/** part 1 §2 show-all fit: padding 50, max zoom 17 by default. */
export function fitBounds(state: MapState, bounds: Bounds, padding = FIT_BOUNDS_PADDING, maxZoom = FIT_BOUNDS_MAX_ZOOM): void {
  state.camera = { seq: (state.camera?.seq ?? 0) + 1, kind: 'fit', bounds: [...bounds], padding, maxZoom };
}

export function setTarget(state: MapState, target: MapTarget | null): void {
  state.target = target ? { ...target } : null;
}

/**
 * part 2 §7 "Closure routing uses a maps directions service": a drawn path is routed by the map
 * provider's directions service when it has one at the time of the request (Google's, with a key),
 * else — and when that service cannot be loaded — by `offline` (the server's router). The caller
 * does not learn which answered; a failure is the answering service's (a ServiceError or ApiError).
 */
export function pathRouter(state: MapState, offline: PathRouter): PathRouter {
  return routeWithFallback(() => state.directions, offline);
}

/**
 * A form starts drawing on the map: the dashboard map draws the request's shape (or edits its
 * `initial` one) and tells the form through its callbacks; the drawing ends by itself on Enter
 * (`onDone`) or Escape (`onCancel`). A pinned popup closes; while drawing, map clicks only draw.
 * Returns a stop function (a form that unmounts, or that restarts the drawing, calls it).
 */
export function startDrawing(state: MapState, request: DrawingRequest): () => void {
  const active: DrawingRequest = ref({
    ...request,
    onDone: (shape) => {
      stop();
      request.onDone(shape);
    },
    onCancel: () => {
      stop();
      request.onCancel();
    },
  });
  function stop(): void {
    if (state.drawing === active) state.drawing = null;
  }
  state.popup = null;
  state.drawing = active;
  return stop;
}

/** The form's Finish: ends the drawing on the map as Enter does; false when its shape is not complete (or none is on). */
export function finishDrawing(state: MapState): boolean {
  return state.drawing?.finish?.() ?? false;
}

/**
 * A section puts its own layers (and popups) on the dashboard map under its key, replacing what it
 * showed before; returns the function that takes them off again (unless replaced since). Sections
 * call it through `useMapOverlay`, which takes them off when the page unmounts.
 */
export function showOnMap(state: MapState, key: string, overlay: SectionOverlay): () => void {
  const held = ref({ ...overlay });
  state.sections[key] = held;
  return () => {
    if (state.sections[key] === held) delete state.sections[key];
  };
}

/** The sections' layers at one height, in the order the sections were first shown. */
export function sectionLayers(sections: Readonly<Record<string, SectionOverlay>>, height: 'under' | 'over'): LayersList {
  return Object.values(sections).flatMap((overlay) => overlay[height] ?? []);
}
