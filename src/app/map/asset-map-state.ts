/**
 * What the fleet's map layers share with the popups drawn over the map: the hovered
 * asset or station and the unit-availability legend. One small proxy per dashboard map (keyed by
 * its MapState), so `useAssetLayers` and `<AssetPopups>` — composed apart by dashboard-map.tsx —
 * meet without a prop between them. No asset data but the one hovered asset's details.
 */
import { proxy, ref } from 'valtio';
import { WebMercatorViewport } from '@deck.gl/core';
import type { AssetDetails } from '../../domain/live-diff';
import type { Bounds, MapState, MapView } from './map-state';

export type AssetHover =
  | { kind: 'asset'; x: number; y: number; slot: number; details: AssetDetails | null }
  | { kind: 'station'; x: number; y: number; id: string; name: string; count: number; mix: number[] }
  | { kind: 'cluster'; x: number; y: number; clusterId: number; count: number; mix: number[] };

export interface AssetMapState {
  hover: AssetHover | null;
  /** The availability view's legend; null while the view is off or unanswered. */
  availability: { coveredShare: number; radiusM: number } | null;
  /** The map's size in CSS px (the popups' overlay measures it), null before it is laid out. */
  size: { width: number; height: number } | null;
}

const states = new WeakMap<MapState, AssetMapState>();

export function assetMapState(map: MapState): AssetMapState {
  let state = states.get(map);
  if (!state) {
    state = proxy<AssetMapState>({ hover: null, availability: null, size: null });
    states.set(map, state);
  }
  return state;
}

/** Keeps details out of Valtio's deep proxying (read-only snapshots of the worker's answer). */
export function hoverDetails(details: AssetDetails | null): AssetDetails | null {
  return details ? ref(details) : null;
}

/** The Web Mercator viewport of a map view drawn at `size` (CSS px). */
export function viewportOf(
  view: Readonly<Pick<MapView, 'longitude' | 'latitude' | 'zoom'>>,
  size: { width: number; height: number },
): WebMercatorViewport {
  return new WebMercatorViewport({
    width: size.width,
    height: size.height,
    longitude: view.longitude,
    latitude: view.latitude,
    zoom: view.zoom,
  });
}

/**
 * The visible bounds: the map's own (set when the view moves), else computed from the view and the
 * map's size (the first view, before any move), null when neither is known.
 */
export function visibleBounds(
  view: Readonly<Omit<MapView, 'bounds'>> & { readonly bounds: Readonly<Bounds> | null },
  size: { width: number; height: number } | null,
): Bounds | null {
  if (view.bounds) return [...view.bounds];
  if (!size || size.width <= 0 || size.height <= 0) return null;
  const [west, south, east, north] = viewportOf(view, size).getBounds();
  return [west, south, east, north];
}

/** Where a position lies on the map (CSS px from its top-left corner), for a popup pinned to it. */
export function screenPoint(
  view: Readonly<Pick<MapView, 'longitude' | 'latitude' | 'zoom'>>,
  size: { width: number; height: number },
  lng: number,
  lat: number,
): { x: number; y: number } {
  const [x, y] = viewportOf(view, { width: Math.max(1, size.width), height: Math.max(1, size.height) }).project([lng, lat]);
  return { x: x ?? 0, y: y ?? 0 };
}
