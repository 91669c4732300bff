/**
 * The events section's reads of the live worker's events cache (part 1 §2 "Events (incidents)
 * panel", §4 "Sorting and filtering"): the worker keeps, sorts and filters the events; the page asks
 * again whenever the store's events version moves (a poll, a socket 'location' message, a refresh).
 */
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { EVENTS_AGE_REFRESH_MS, EVENTS_SEARCH_DEBOUNCE_MS } from '../../domain/constants';
import type { EventDisplayChoice, Location } from '../../domain/location';
import type { LiveBridge } from '../../app/live/bridge';
import { createLiveStore, type LiveStore } from '../../app/live/store';
import { useServices } from '../../app/services';
import type { EventsView } from '../../domain/location';

/** Read while the live store does not exist yet (before sign-in finished): nothing loaded. */
const NO_LIVE: LiveStore = createLiveStore();

/** The events version and load phase of the live store (a render only when those change). */
function useEventsVersion(live: LiveStore | null): { version: number; loaded: boolean } {
  const snap = useSnapshot(live ?? NO_LIVE);
  return { version: snap.events.version, loaded: live !== null && snap.phase === 'live' };
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

/** The panel's query (kept in the live store, so it survives leaving the panel) and the events it shows. */
export function useEventsPanel(live: LiveStore | null, timeZone: string | null): EventsPanelData {
  const { live: connection } = useServices();
  const bridge: LiveBridge | null = live ? connection.bridge : null;
  const { version } = useEventsVersion(live);
  const query = useSnapshot((live ?? NO_LIVE).events.query);
  const [view, setView] = useState<EventsView | null>(null);
  const [searchText, setSearchText] = useState(query.search);
  const asked = useRef(0);

  // Every answer is numbered; an older one arriving late is dropped.
  const take = (request: Promise<EventsView>) => {
    const ticket = ++asked.current;
    void request.then(
      (answer) => {
        if (ticket === asked.current) setView(answer);
      },
      () => undefined,
    );
  };

  // 'Today' starts at midnight in the organization's zone (the runtime's when the profile has none).
  useEffect(() => {
    if (bridge) take(bridge.setEventsQuery({ timeZone: timeZone ?? undefined }));
  }, [bridge, timeZone]);

  useEffect(() => {
    if (bridge && version > 0) take(bridge.events());
  }, [bridge, version]);

  // 'Today' and '24 hrs' age ended events out while the cache stands still (a quiet hour, midnight):
  // ask again every EVENTS_AGE_REFRESH_MS, as the map's event markers do.
  const ages = query.display === 'today' || query.display === '24h';
  useEffect(() => {
    if (!bridge || !ages) return undefined;
    const timer = setInterval(() => take(bridge.events()), EVENTS_AGE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [bridge, ages]);

  // part 1 §2: the search is debounced 350 ms.
  useEffect(() => {
    if (!bridge || searchText === query.search) return undefined;
    const timer = setTimeout(() => take(bridge.setEventsQuery({ search: searchText })), EVENTS_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [bridge, searchText, query.search]);

  return {
    view,
    display: query.display,
    searchText,
    setDisplay(choice) {
      if (bridge) take(bridge.setEventsQuery({ display: choice }));
    },
    setSearchText,
  };
}

export type EventLookup = { state: 'loading' } | { state: 'missing' } | { state: 'found'; event: Location };

/** One event by id, read again whenever the events change; 'missing' once the first load is done. */
export function useEvent(live: LiveStore | null, id: string): EventLookup {
  const { live: connection } = useServices();
  const bridge: LiveBridge | null = live ? connection.bridge : null;
  const { version, loaded } = useEventsVersion(live);
  const [found, setFound] = useState<{ id: string; event: Location | null } | null>(null);

  useEffect(() => {
    if (!bridge) return undefined;
    let current = true;
    void bridge.event(id).then(
      (event) => {
        if (current) setFound({ id, event });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, id, version]);

  if (found && found.id === id && found.event) return { state: 'found', event: found.event };
  if (found && found.id === id && loaded) return { state: 'missing' };
  return { state: 'loading' };
}
