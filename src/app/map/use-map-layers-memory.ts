/**
 * The layers control's choice (docs/map.md "Layers"), remembered per user in this browser
 * (`lightbar.map.layers.<userId>`, like the theme and the zones view): the signed-in user's
 * choice is put on the map state when the map mounts or the user changes, and every change of
 * `map.display` is written back. Signed out (no user), nothing is read or written.
 */
import { useEffect } from 'react';
import { subscribe } from 'valtio';
import { readMapLayers } from '../../domain/map-layers';
import type { MapState } from './map-state';

export const MAP_LAYERS_PREFIX = 'lightbar.map.layers.';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function useMapLayersMemory(map: MapState, userId: string | null): void {
  useEffect(() => {
    if (!userId) return undefined;
    const key = `${MAP_LAYERS_PREFIX}${userId}`;
    let stored: string | null = null;
    try {
      stored = storage()?.getItem(key) ?? null;
    } catch {
      // An unreadable storage: the defaults.
    }
    Object.assign(map.display, readMapLayers(stored));
    return subscribe(map.display, () => {
      try {
        storage()?.setItem(key, JSON.stringify(map.display));
      } catch {
        // A full or refused storage only loses the choice.
      }
    });
  }, [map, userId]);
}
