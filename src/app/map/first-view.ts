/**
 * The map's first view of each organization's fleet (part 1 §2 Map; the spec does not show the
 * default centre or zoom: docs/decisions/spec.md "Values the spec does not give"). The map opens on DEFAULT_CENTER at DEFAULT_MAP_ZOOM; once an
 * organization's fleet has loaded, it shows every listed asset as 'Show all' does (padding 50, max
 * zoom 17), so a fleet anywhere opens on itself — unless something asked for the camera meanwhile
 * (a deep link centring its asset, a search, an area jump) or the user moved the map. Again after
 * each organization switch (part 1 §4: the switch resets and refetches).
 */
import { useEffect } from 'react';
import { subscribe } from 'valtio';
import { DEFAULT_MAP_ZOOM, FIT_BOUNDS_MAX_ZOOM, FIT_BOUNDS_PADDING } from '../../domain/constants';
import type { LiveBridge } from '../live/bridge';
import { useLive } from '../live/hooks';
import { DEFAULT_CENTER, fitBounds, type MapState } from './map-state';

interface Baseline {
  /** The camera request number and the view when the organization's load began. */
  cameraSeq: number;
  view: { longitude: number; latitude: number; zoom: number };
}

/** Per map (it outlives the controls when a section changes): the organization seen last and whether its first view is still due. */
interface FirstViewState {
  seen: string | null;
  due: (Baseline & { organizationId: string }) | null;
}

const states = new WeakMap<MapState, FirstViewState>();

const cameraSeqOf = (map: MapState) => map.camera?.seq ?? 0;

function baseline(map: MapState): Baseline {
  const { longitude, latitude, zoom } = map.view;
  return { cameraSeq: cameraSeqOf(map), view: { longitude, latitude, zoom } };
}

/**
 * The map as createMapState makes it: no camera request yet, the default view. The first
 * organization's baseline (a deep link asks for the camera before the fleet's organization is
 * known, and on a phone before the map is shown).
 */
const CREATED: Baseline = { cameraSeq: 0, view: { ...DEFAULT_CENTER, zoom: DEFAULT_MAP_ZOOM } };

function stateOf(map: MapState): FirstViewState {
  let state = states.get(map);
  if (!state) {
    state = { seen: null, due: null };
    states.set(map, state);
  }
  return state;
}

/**
 * part 1 §2 'Show all': the map fits every listed asset (padding 50, max zoom 17), when `wanted`
 * still holds once the worker has answered.
 */
export function showListedAssets(map: MapState, bridge: LiveBridge, wanted: () => boolean = () => true): void {
  bridge.listedBounds().then(
    (bounds) => {
      if (bounds && wanted()) fitBounds(map, bounds, FIT_BOUNDS_PADDING, FIT_BOUNDS_MAX_ZOOM);
    },
    () => undefined,
  );
}

export function useFirstFleetView(map: MapState): void {
  const { store: live, bridge } = useLive();
  useEffect(() => {
    if (!bridge) return undefined;
    const state = stateOf(map);
    let disposed = false;
    const check = () => {
      const organizationId = live.organizationId;
      if (!organizationId) return;
      if (organizationId !== state.seen) {
        state.due = { organizationId, ...(state.seen === null ? CREATED : baseline(map)) };
        state.seen = organizationId;
      }
      const due = state.due;
      if (!due || !live.progress.done) return;
      state.due = null;
      const untouched = () =>
        cameraSeqOf(map) === due.cameraSeq &&
        map.view.longitude === due.view.longitude &&
        map.view.latitude === due.view.latitude &&
        map.view.zoom === due.view.zoom &&
        live.organizationId === due.organizationId;
      if (untouched()) showListedAssets(map, bridge, () => !disposed && untouched());
    };
    check();
    const unsubscribe = subscribe(live, check);
    return () => {
      disposed = true;
      unsubscribe();
    };
  }, [map, live, bridge]);
}
