/**
 * What the map's overlay markers read from the live worker: the events the events panel
 * shows, and the asset count of each area. Both are read at most once per second, when the store
 * says something changed — never a loop over the fleet on the main thread.
 */
import { EVENTS_AGE_REFRESH_MS } from '../../domain/constants';
import { useEffect, useState } from 'react';
import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { AreaShape } from '../../domain/area-shape';
import type { Location } from '../../domain/location';
import type { LiveBridge } from '../live/bridge';
import type { LiveStore } from '../live/store';
import { createQueryThrottle } from '../live/query-throttle';

/** part 1 §4: the worker batches every second; the map's overlays follow no faster. */
export const OVERLAY_READ_INTERVAL_MS = 1_000;

/** The subscribed organization of the live store (null before the worker started). */
export function useLiveOrganizationId(live: LiveStore | null): string | null {
  const [id, setId] = useState<string | null>(() => live?.organizationId ?? null);
  useEffect(() => {
    if (!live) {
      setId(null);
      return undefined;
    }
    setId(live.organizationId);
    return subscribeKey(live, 'organizationId', (next) => setId(next));
  }, [live]);
  return id;
}

/**
 * The events of the map: the worker's current events query (the events panel's display choice and
 * search), re-read when the events cache or the query changes. [] while `enabled` is false.
 */
export function useMapEvents(live: LiveStore | null, bridge: LiveBridge | null, enabled: boolean): Location[] {
  const [events, setEvents] = useState<Location[]>([]);
  useEffect(() => {
    if (!live || !bridge || !enabled) {
      setEvents([]);
      return undefined;
    }
    let alive = true;
    const reader = createQueryThrottle(async () => {
      const view = await bridge.events();
      if (alive) setEvents(view.events);
    }, OVERLAY_READ_INTERVAL_MS);
    reader.request();
    const unsubscribe = subscribe(live.events, () => reader.request());
    const ageing = setInterval(() => reader.request(), EVENTS_AGE_REFRESH_MS);
    return () => {
      alive = false;
      unsubscribe();
      clearInterval(ageing);
      reader.dispose();
    };
  }, [live, bridge, enabled]);
  return events;
}

/**
 * The listed assets inside each area (counted in the worker), re-read when the fleet's version
 * moves; null until the first answer. Nothing is asked while there are no shapes.
 */
export function useAreaCounts(live: LiveStore | null, bridge: LiveBridge | null, shapes: readonly AreaShape[]): Record<string, number> | null {
  const [counts, setCounts] = useState<Record<string, number> | null>(null);
  useEffect(() => {
    setCounts(null);
    if (!live || !bridge || shapes.length === 0) return undefined;
    const input = [...shapes];
    let alive = true;
    const reader = createQueryThrottle(async () => {
      const answer = await bridge.areaCounts(input);
      if (alive) setCounts(answer.counts);
    }, OVERLAY_READ_INTERVAL_MS);
    reader.request();
    const unsubscribe = subscribeKey(live, 'version', () => reader.request());
    return () => {
      alive = false;
      unsubscribe();
      reader.dispose();
    };
  }, [live, bridge, shapes]);
  return counts;
}
