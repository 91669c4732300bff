/**
 * /dashboard/events (part 1 §2 "Events (incidents) panel"): the display choice (24 hrs by
 * default), the search (debounced 350 ms in the hook), 'Active Events n | Recent Events n', and a
 * virtualized list of the events the worker's cache shows, 80 px a row (+10 when active).
 */
import { useCallback } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { EVENTS_TEXT } from '../../domain/labels';
import {
  EVENT_DISPLAY_CHOICES,
  EVENT_DISPLAY_LABELS,
  eventCountsText,
  eventRowHeight,
  type EventDisplayChoice,
  type Location,
} from '../../domain/location';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { sectionLabel } from '../../app/shell/shell-model';
import { itemHref } from '../../app/section/item-href';
import { ListFrame } from '../../app/section/list-frame';
import { EventRow, type EventRowProps } from './event-row';
import { useEventsPanel } from './use-events';
import './events.css';

const NO_EVENTS: readonly Location[] = [];

function isDisplayChoice(value: string): value is EventDisplayChoice {
  return (EVENT_DISPLAY_CHOICES as readonly string[]).includes(value);
}

export function EventsPanel() {
  const { mix, profile } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const panel = useEventsPanel(profile.timezone);
  const events = panel.view?.events ?? NO_EVENTS;

  // The detail page targets the event and pans the map to it once it has drawn (event-detail.tsx): the
  // drawer changes first, then the map moves.
  const open = useCallback((event: Location) => navigate(itemHref('events', event.id)), [navigate]);
  const rowHeight = useCallback((index: number, props: EventRowProps) => {
    const event = props.events[index];
    return event ? eventRowHeight(event) : 0;
  }, []);

  return (
    <ListFrame
      className="events-panel"
      title={sectionLabel('events', mix)}
      // The panel's reader debounces the search itself (use-events.ts).
      search={{
        value: panel.searchText,
        onSearch: panel.setSearchText,
        label: EVENTS_TEXT.search,
        placeholder: EVENTS_TEXT.searchPlaceholder,
        delayMs: 0,
        maxLength: 200,
      }}
      filters={
        <label className="events-display">
          <span>{EVENTS_TEXT.display}</span>
          <select value={panel.display} onChange={(e) => isDisplayChoice(e.target.value) && panel.setDisplay(e.target.value)}>
            {EVENT_DISPLAY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {EVENT_DISPLAY_LABELS[choice]}
              </option>
            ))}
          </select>
        </label>
      }
      count={
        <p className="events-counts" role="status" data-testid="event-counts">
          {panel.view ? eventCountsText(panel.view.counts) : EVENTS_TEXT.loading}
        </p>
      }
      empty={panel.view && events.length === 0 ? <p className="events-none">{EVENTS_TEXT.none}</p> : undefined}
      rows={{
        className: 'events-list',
        label: EVENTS_TEXT.list,
        role: 'list',
        rowComponent: EventRow,
        rowCount: events.length,
        rowHeight,
        rowProps: { events, timeZone: profile.timezone, onOpen: open },
      }}
    />
  );
}
