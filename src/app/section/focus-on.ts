/**
 * part 1 §2: opening an item (a list row, a deep link) targets it on the map and pans there,
 * zooming in to at least CENTERING_MIN_ZOOM and never out. The one place that rule is written.
 */
import { useEffect, useRef } from 'react';
import { CENTERING_MIN_ZOOM } from '../../domain/constants';
import { centerOn, setTarget, type MapState, type MapTarget } from '../map/map-state';

export interface LngLat {
  lng: number;
  lat: number;
}

/** Centre the map on `at` at the centring zoom (or closer, when the map is closer already). */
export function panTo(map: MapState, at: LngLat): void {
  centerOn(map, at.lng, at.lat, Math.max(map.view.zoom, CENTERING_MIN_ZOOM));
}

/** Target `target` on the map and, when its position is known, pan to it. */
export function focusOn(map: MapState, target: MapTarget, at: LngLat | null): void {
  setTarget(map, target);
  if (at) panTo(map, at);
}

/**
 * part 1 §2 a Live list row click (and the command palette's asset): the worker selects the asset,
 * the map targets it and pans to it; the caller then opens its page (`itemHref('things', id)`).
 */
export function openAsset(
  map: MapState,
  live: { select(id: string): Promise<unknown> },
  asset: { id: string; position: LngLat | null },
): void {
  void live.select(asset.id).catch(() => undefined);
  focusOn(map, { kind: 'asset', id: asset.id }, asset.position);
}

/** Whether `target` is the map's target already (a list or map click targeted it and panned). */
export function isFocused(map: MapState, target: MapTarget): boolean {
  return map.target?.kind === target.kind && map.target.id === target.id;
}

/**
 * A page of one item opened by its address (a deep link, a reload; its detail or edit page)
 * focuses the item as a list click does (`focus`: the section's own way, e.g. fitting a shape),
 * once per item, and not when it is the map's target already. `item` null: not loaded yet.
 */
export function useFocusOnOpen<T>(map: MapState, target: MapTarget, item: T | null, focus: (map: MapState, item: T) => void): void {
  const latest = useRef({ item, focus, target });
  latest.current = { item, focus, target };
  const key = item === null ? null : `${target.kind}/${target.id}`;
  useEffect(() => {
    const { item: current, focus: focusItem, target: shown } = latest.current;
    if (key === null || current === null || isFocused(map, shown)) return;
    focusItem(map, current);
  }, [map, key]);
}
