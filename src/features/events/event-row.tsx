/**
 * One row of the events list (part 1 §2): status icon, name, street, start (and end), and for an
 * active event the count of vehicles on it — the reason an active row is 10 px taller (§9) — and
 * 'Not acknowledged' on an active incident nobody acknowledged (docs/decisions/spec.md).
 */
import type { CSSProperties } from 'react';
import { isUnacknowledged, type Location } from '../../domain/location';
import { EVENTS_TEXT } from '../../domain/labels';
import { formatDateTime } from '../../domain/time';
import { EventStatusIcon } from './event-status-icon';

export interface EventRowProps {
  events: readonly Location[];
  timeZone: string | null;
  onOpen: (event: Location) => void;
}

export function EventRow({
  index,
  style,
  ariaAttributes,
  events,
  timeZone,
  onOpen,
}: EventRowProps & {
  index: number;
  style: CSSProperties;
  ariaAttributes: { 'aria-posinset': number; 'aria-setsize': number; role: 'listitem' };
}) {
  const event = events[index];
  if (!event) return null;
  return (
    <div style={style} {...ariaAttributes} className="event-row-slot">
      <button type="button" className="event-row" data-active={event.isActive} data-event-id={event.id} onClick={() => onOpen(event)}>
        <EventStatusIcon active={event.isActive} />
        <span className="event-row-text">
          <span className="event-row-name">{event.displayName}</span>
          {event.street && event.street !== event.displayName && <span className="event-row-street">{event.street}</span>}
          <span className="event-row-times">
            {event.startTime !== null && `${EVENTS_TEXT.started} ${formatDateTime(event.startTime, timeZone)}`}
            {event.endTime !== null && ` · ${EVENTS_TEXT.ended} ${formatDateTime(event.endTime, timeZone)}`}
          </span>
          {event.isActive && (
            <span className="event-row-vehicles">
              {EVENTS_TEXT.activeVehicleCount(event.thingsActive.length)}
              {/* docs/decisions/spec.md "Incident notes and acknowledgement": marked in words, not colour alone; on the
                  vehicles' line, so the row keeps its height (part 1 §9). */}
              {isUnacknowledged(event) && (
                <>
                  {' · '}
                  <span className="event-row-unacknowledged">{EVENTS_TEXT.notAcknowledged}</span>
                </>
              )}
            </span>
          )}
        </span>
      </button>
    </div>
  );
}
