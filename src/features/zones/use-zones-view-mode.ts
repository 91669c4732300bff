/**
 * part 2 §2 Alerting zones "A list or map of zones": the List/Map choice, remembered per user in
 * this browser (like the theme and the trips page), so the page opens as it was left.
 */
import { useCallback, useState } from 'react';

export type ZonesViewMode = 'list' | 'map';

export const ZONES_VIEW_PREFIX = 'lightbar.zones.view.';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readZonesViewMode(userId: string): ZonesViewMode {
  try {
    return storage()?.getItem(`${ZONES_VIEW_PREFIX}${userId}`) === 'map' ? 'map' : 'list';
  } catch {
    return 'list';
  }
}

export function useZonesViewMode(userId: string): [ZonesViewMode, (mode: ZonesViewMode) => void] {
  const [mode, setModeState] = useState<ZonesViewMode>(() => readZonesViewMode(userId));
  const setMode = useCallback(
    (next: ZonesViewMode) => {
      setModeState(next);
      try {
        storage()?.setItem(`${ZONES_VIEW_PREFIX}${userId}`, next);
      } catch {
        // A full or refused storage only loses the choice.
      }
    },
    [userId],
  );
  return [mode, setMode];
}
