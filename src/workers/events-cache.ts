/**
 * The events (incidents) cache of the live worker (part 1 §2 "Events (incidents) panel", §4
 * "Sorting and filtering", §9): at most EVENTS_KEPT (500) events, the oldest removed; refreshed
 * incrementally by last update time (the first fetch covers 7 days, the server's timestamp is sent
 * back); kept sorted by the domain's `capEvents`; answered per display choice and search text.
 */
import { EVENTS_KEPT } from '../domain/constants';
import {
  capEvents,
  DEFAULT_EVENT_DISPLAY,
  eventCounts,
  filterEventsByDisplay,
  matchesEventSearch,
  type EventsQuery,
  type EventsView,
  type Location,
} from '../domain/location';

export class EventsCache {
  private readonly byId = new Map<string, Location>();
  private sorted: Location[] = [];
  /** Bumped whenever the kept events change. */
  version = 0;
  /** The server timestamp of the last answer (`last_updated_timestamp` of the next call). */
  since: string | null = null;
  query: EventsQuery = { display: DEFAULT_EVENT_DISPLAY, search: '' };

  get size(): number {
    return this.sorted.length;
  }

  /** Adds or replaces events and drops the ids given; keeps the newest EVENTS_KEPT. */
  apply(events: readonly Location[], deletedIds: readonly string[] = []): boolean {
    if (events.length === 0 && deletedIds.length === 0) return false;
    for (const id of deletedIds) this.byId.delete(id);
    for (const event of events) this.byId.set(event.id, event);
    this.sorted = capEvents([...this.byId.values()]);
    if (this.byId.size > EVENTS_KEPT) {
      this.byId.clear();
      for (const event of this.sorted) this.byId.set(event.id, event);
    }
    this.version += 1;
    return true;
  }

  get(id: string): Location | null {
    return this.byId.get(id) ?? null;
  }

  /** Every kept event, newest first (the command palette searches them all, whatever the panel shows). */
  all(): readonly Location[] {
    return this.sorted;
  }

  clear(): void {
    this.byId.clear();
    this.sorted = [];
    this.since = null;
    this.version += 1;
  }

  /** The events the current query shows at `now`. */
  view(now: number, query: EventsQuery = this.query): EventsView {
    const shown = filterEventsByDisplay(this.sorted, query.display, now, query.timeZone).filter((event) =>
      matchesEventSearch(event, query.search),
    );
    return { version: this.version, events: shown, counts: eventCounts(shown) };
  }
}
