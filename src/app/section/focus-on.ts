/**
 * part 1 §2: opening an item (a list row, a deep link) targets it on the map and pans there,
 * zooming in to at least CENTERING_MIN_ZOOM and never out. The one place that rule is written.
 */
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

/** Whether `target` is the map's target already (a list or map click targeted it and panned). */
export function isFocused(map: MapState, target: MapTarget): boolean {
  return map.target?.kind === target.kind && map.target.id === target.id;
}
