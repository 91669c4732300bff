/**
 * Opening a closure (a list row, a deep link, a map click) targets it on the map and shows its
 * whole path (part 1 §2 targets an item and pans to it; a closure is a line, so the map fits it,
 * at most at the show-all fit's zoom).
 */
import { fitBounds, setTarget, type MapState } from '../../app/map/map-state';
import type { Closure } from '../../domain/closure';
import { FIT_BOUNDS_PADDING_SHELL } from '../../domain/constants';
import { boundsOf } from '../../domain/geometry';

export function focusClosure(map: MapState, closure: Pick<Closure, 'id' | 'routePath'>): void {
  setTarget(map, { kind: 'closure', id: closure.id });
  const bounds = boundsOf(closure.routePath);
  // part 1 §9: the shell's fit padding (75 px), room for the path's end markers.
  if (bounds) fitBounds(map, [bounds.west, bounds.south, bounds.east, bounds.north], FIT_BOUNDS_PADDING_SHELL);
}
