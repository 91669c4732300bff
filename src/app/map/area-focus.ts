/**
 * part 2 §2 Areas: opening an area (a list row, a map badge, 'Jump to your saved areas...', a deep
 * link) targets it on the map — its outline and badge drawn in the focus colour — and fits the map
 * to its shape; a point of interest is centred at the centring zoom (part 1 §2).
 */
import type { Area } from '../../domain/area';
import { areaShape, areaShapeBox } from '../../domain/area-shape';
import { FIT_BOUNDS_MAX_ZOOM, FIT_BOUNDS_PADDING } from '../../domain/constants';
import { panTo } from '../section/focus-on';
import { fitBounds, setTarget, type MapState } from './map-state';

/** Whether the area has anywhere on the map to go to (a legacy area has none). */
export function hasMapPlace(area: Pick<Area, 'position' | 'lineStringArray'>): boolean {
  return area.position !== null || area.lineStringArray.length > 0;
}

/** Moves the map to the area: its shape's box (a polygon, a circle), else its point. */
export function showArea(map: MapState, area: Area): void {
  if (area.lineStringArray.length > 0 || (area.radius != null && area.radius > 0)) {
    const shape = areaShape(area);
    if (shape) {
      fitBounds(map, areaShapeBox(shape), FIT_BOUNDS_PADDING, FIT_BOUNDS_MAX_ZOOM);
      return;
    }
  }
  if (area.position) panTo(map, area.position);
}

/** Targets the area on the map and moves there. */
export function focusArea(map: MapState, area: Area): void {
  setTarget(map, { kind: 'area', id: area.id });
  showArea(map, area);
}
