/**
 * The events section's reads of the live worker's events cache (part 1 §2 "Events (incidents)
 * panel", §4 "Sorting and filtering"): the worker keeps, sorts and filters the events; the page asks
 * again whenever the store's events version moves (a poll, a socket 'location' message, a refresh).
 */
import { useEffect, useState } from 'react';
import { EVENTS_AGE_REFRESH_MS, EVENTS_SEARCH_DEBOUNCE_MS } from '../../domain/constants';
import type { EventDisplayChoice, Location } from '../../domain/location';
import { shallowEqual, useLive, useLiveValue, useWorkerQuery } from '../../app/live/hooks';
import type { EventsView } from '../../domain/location';

/** The events version and load phase of the live store (a render only when those change). */
function useEventsVersion(): { version: number; loaded: boolean } {
  const { bridge } = useLive();
  const snap = useLiveValue((store) => ({ version: store.events.version, live: store.phase === 'live' }), shallowEqual);
  return { version: snap.version, loaded: bridge !== null && snap.live };
}

export interface EventsPanelData {
  /** null until the worker answered. */
  view: EventsView | null;
  display: EventDisplayChoice;
  /** What the search box shows (the worker gets it EVENTS_SEARCH_DEBOUNCE_MS after the last key). */
  searchText: string;
  setDisplay(choice: EventDisplayChoice): void;
  setSearchText(text: string): void;
}

/**
 * The panel's query (kept in the live store, so it survives leaving the panel) and the events it
 * shows: the bridge writes a query change into the store before the worker gets it, and the view is
 * asked again after each change of the query or the events (calls reach the worker in order).
 */
export function useEventsPanel(timeZone: string | null): EventsPanelData {
  const { bridge } = useLive();
  const { version } = useEventsVersion();
  const query = useLiveValue((store) => store.events.query);
  const [searchText, setSearchText] = useState(query.search);
  // 'Today' and '24 hrs' age ended events out while the cache stands still (a quiet hour, midnight):
  // ask again every EVENTS_AGE_REFRESH_MS, as the map's event markers do.
  const [ageTick, setAgeTick] = useState(0);
  // 'Today' starts at midnight in the organization's zone (the runtime's when the profile has none).
  const zone = timeZone ?? undefined;
  const zoneSet = query.timeZone === zone;

  useEffect(() => {
    if (bridge && !zoneSet) void bridge.setEventsQuery({ timeZone: zone }).catch(() => undefined);
  }, [bridge, zone, zoneSet]);

  const view = useWorkerQuery(zoneSet ? (live) => live.events() : null, [version, query.display, query.search, query.timeZone, ageTick]);

  const ages = query.display === 'today' || query.display === '24h';
  useEffect(() => {
    if (!bridge || !ages) return undefined;
    const timer = setInterval(() => setAgeTick((tick) => tick + 1), EVENTS_AGE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [bridge, ages]);

  // part 1 §2: the search is debounced 350 ms.
  useEffect(() => {
    if (!bridge || searchText === query.search) return undefined;
    const timer = setTimeout(() => void bridge.setEventsQuery({ search: searchText }).catch(() => undefined), EVENTS_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [bridge, searchText, query.search]);

  return {
    view,
    display: query.display,
    searchText,
    setDisplay(choice) {
      if (bridge) void bridge.setEventsQuery({ display: choice }).catch(() => undefined);
    },
    setSearchText,
  };
}

export type EventLookup = { state: 'loading' } | { state: 'missing' } | { state: 'found'; event: Location };

/** One event by id, read again whenever the events change; 'missing' once the first load is done. */
export function useEvent(id: string): EventLookup {
  const { version, loaded } = useEventsVersion();
  const found = useWorkerQuery(async (bridge) => ({ id, event: await bridge.event(id) }), [id, version]);

  if (found && found.id === id && found.event) return { state: 'found', event: found.event };
  if (found && found.id === id && loaded) return { state: 'missing' };
  return { state: 'loading' };
}
