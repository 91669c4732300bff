/**
 * What the map's overlay markers read from the live worker: the events the events panel
 * shows, and the asset count of each area. Both are read at most once per second, when the store
 * says something changed — never a loop over the fleet on the main thread.
 */
import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { EVENTS_AGE_REFRESH_MS } from '../../domain/constants';
import type { AreaShape } from '../../domain/area-shape';
import type { Location } from '../../domain/location';
import { useLive, useWorkerQuery } from '../live/hooks';

/** part 1 §4: the worker batches every second; the map's overlays follow no faster. */
export const OVERLAY_READ_INTERVAL_MS = 1_000;

const NO_EVENTS: Location[] = [];

/**
 * The events of the map: the worker's current events query (the events panel's display choice and
 * search), re-read when the events cache or the query changes, and every EVENTS_AGE_REFRESH_MS
 * ('Today' and '24 hrs' age out). [] while `enabled` is false.
 */
export function useMapEvents(enabled: boolean): Location[] {
  return useEventsRead(enabled) ?? NO_EVENTS;
}

/** useMapEvents' reading, null until its first answer (what was there before anything changed). */
export function useEventsRead(enabled: boolean): Location[] | null {
  const { store } = useLive();
  const events = useWorkerQuery(enabled ? async (bridge) => (await bridge.events()).events : null, [], {
    throttleMs: OVERLAY_READ_INTERVAL_MS,
    watch: (request) => {
      const unsubscribe = subscribe(store.events, request);
      const ageing = setInterval(request, EVENTS_AGE_REFRESH_MS);
      return () => {
        unsubscribe();
        clearInterval(ageing);
      };
    },
  });
  return events;
}

/**
 * The listed assets inside each area (counted in the worker), re-read when the fleet's version
 * moves; null until the first answer. Nothing is asked while there are no shapes.
 */
export function useAreaCounts(shapes: readonly AreaShape[]): Record<string, number> | null {
  const { store } = useLive();
  return useWorkerQuery(shapes.length > 0 ? async (bridge) => (await bridge.areaCounts([...shapes])).counts : null, [shapes], {
    throttleMs: OVERLAY_READ_INTERVAL_MS,
    watch: (request) => subscribeKey(store, 'version', request),
  });
}
