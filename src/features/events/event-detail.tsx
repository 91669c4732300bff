/**
 * /dashboard/events/{eventId} (part 1 §2 "Events (incidents) panel"): status icon, name,
 * lat/lon with copy, the heading dial when the roadway heading is a number, start, end and
 * duration, the custom alert message, the system id, the active and inactive vehicles, and
 * 'Edit Location' for an active non-geo-marker event when the user may update incidents; its
 * acknowledgement and notes (docs/decisions/spec.md "Incident notes and acknowledgement").
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useOutletContext, useParams } from 'react-router-dom';
import { SECOND_MS } from '../../domain/constants';
import { formatTruncatedLatLng } from '../../domain/coordinates';
import { EVENTS_TEXT, MAP_CONTROL_TEXT } from '../../domain/labels';
import { showsEditLocation, type Location } from '../../domain/location';
import { formatDateTime, formatDuration } from '../../domain/time';
import { DetailHeader } from '../../app/section/detail-header';
import { focusOn, isFocused } from '../../app/section/focus-on';
import { itemHref } from '../../app/section/item-href';
import { useNow } from '../../app/section/use-now';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { EventPending, useBackToPanel } from './event-pending';
import { CopyButton } from '../../app/ui/copy-button';
import { EventAcknowledgement, EventNotes } from './event-notes';
import { EventStatusIcon } from './event-status-icon';
import { HeadingDial } from './heading-dial';
import { useEvent } from './use-events';
import { VehicleList } from './vehicle-list';
import './events.css';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function EventFacts({ event, timeZone }: { event: Location; timeZone: string | null }) {
  const now = useNow(SECOND_MS, event.isActive && event.endTime === null);
  // part 1 §2: duration = end (or now, while active) minus start.
  const until = event.endTime ?? (event.isActive ? now : null);
  // part 1 §9: coordinates are truncated to 7 decimals (5 only in the map's right-click menu).
  const coordinates = formatTruncatedLatLng(event);
  return (
    <dl className="event-facts">
      <Fact term={EVENTS_TEXT.coordinates}>
        <span className="event-coordinates" data-testid="event-coordinates">
          {coordinates}
        </span>{' '}
        <CopyButton text={coordinates} label={MAP_CONTROL_TEXT.copyCoordinates} />
      </Fact>
      {typeof event.roadwayHeading === 'number' && Number.isFinite(event.roadwayHeading) && (
        <Fact term={EVENTS_TEXT.roadwayHeading}>
          <HeadingDial degrees={event.roadwayHeading} />
        </Fact>
      )}
      {event.startTime !== null && <Fact term={EVENTS_TEXT.start}>{formatDateTime(event.startTime, timeZone)}</Fact>}
      {event.endTime !== null && <Fact term={EVENTS_TEXT.end}>{formatDateTime(event.endTime, timeZone)}</Fact>}
      {event.startTime !== null && until !== null && <Fact term={EVENTS_TEXT.duration}>{formatDuration(until - event.startTime)}</Fact>}
      {event.alertMessage && <Fact term={EVENTS_TEXT.alertMessage}>{event.alertMessage}</Fact>}
      {event.externalId && <Fact term={EVENTS_TEXT.systemId}>{event.externalId}</Fact>}
    </dl>
  );
}

export function EventDetail() {
  const { eventId = '' } = useParams();
  const { map, profile } = useOutletContext<ShellContext>();
  const lookup = useEvent(eventId);
  const back = useBackToPanel();

  // part 1 §2 (as a list click on an asset): the opened event is targeted and the map pans to it — once
  // per event (coming back from its edit page keeps the map where the user left it).
  // Live updates of the same event do not move the map again.
  const found = useRef<Location | null>(null);
  found.current = lookup.state === 'found' ? lookup.event : null;
  const foundId = found.current?.id ?? null;
  useEffect(() => {
    const event = found.current;
    if (!event || isFocused(map, { kind: 'event', id: event.id })) return;
    focusOn(map, { kind: 'event', id: event.id }, event);
  }, [foundId, map]);

  if (lookup.state !== 'found') {
    return <EventPending className="event-detail" loading={lookup.state === 'loading'} />;
  }
  const { event } = lookup;
  const timeZone = profile.timezone;
  return (
    <section className="event-detail" aria-labelledby="event-title" data-event-id={event.id}>
      <DetailHeader
        title={event.displayName}
        titleId="event-title"
        className="event-detail-header"
        icon={<EventStatusIcon active={event.isActive} />}
        subtitle={event.street && event.street !== event.displayName ? event.street : null}
        onBack={back}
        editHref={showsEditLocation(event, profile.permissions) ? itemHref('events', event.id, { page: 'edit' }) : null}
        editLabel={EVENTS_TEXT.editLocation}
      />
      <EventFacts event={event} timeZone={timeZone} />
      <EventAcknowledgement event={event} timeZone={timeZone} permissions={profile.permissions} />
      <VehicleList title={EVENTS_TEXT.activeVehicles} event={event} vehicles={event.thingsActive} timeZone={timeZone} />
      <VehicleList title={EVENTS_TEXT.inactiveVehicles} event={event} vehicles={event.thingsInactive} timeZone={timeZone} />
      <EventNotes event={event} timeZone={timeZone} />
    </section>
  );
}
