/**
 * A section page's content on the dashboard map: `useMapOverlay(map, key, overlay)` shows it while
 * the page is mounted and each time `overlay` changes (memoize it: a new object is a new draw), and
 * takes it off when the page unmounts. `null` shows nothing.
 */
import { useEffect } from 'react';
import { showOnMap, type MapState, type SectionOverlay } from './map-state';

export function useMapOverlay(map: MapState, key: string, overlay: SectionOverlay | null): void {
  useEffect(() => (overlay ? showOnMap(map, key, overlay) : undefined), [map, key, overlay]);
}
