/**
 * /dashboard/events/{eventId} (part 1 §2 "Events (incidents) panel"): status icon, name,
 * lat/lon with copy, the heading dial when the roadway heading is a number, start, end and
 * duration, the custom alert message, the system id, the active and inactive vehicles, and
 * 'Edit Location' for an active non-geo-marker event when the user may update incidents.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useOutletContext, useParams } from 'react-router-dom';
import { CENTERING_MIN_ZOOM, SECOND_MS } from '../../domain/constants';
import { formatTruncatedLatLng } from '../../domain/coordinates';
import { EVENTS_TEXT, MAP_CONTROL_TEXT } from '../../domain/labels';
import { showsEditLocation, type Location } from '../../domain/location';
import { formatDateTime, formatDuration } from '../../domain/time';
import { centerOn, setTarget } from '../../app/map/map-state';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { BackButton, EVENTS_PATH, EventPending } from './back-button';
import { CopyButton } from './copy-button';
import { EventStatusIcon } from './event-status-icon';
import { HeadingDial } from './heading-dial';
import { useEvent } from './use-events';
import { useNow } from './use-now';
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

  // part 1 §2 (as a list click on an asset): the opened event is targeted and the map pans to it — once
  // per event (coming back from its edit page keeps the map where the user left it).
  // Live updates of the same event do not move the map again.
  const found = useRef<Location | null>(null);
  found.current = lookup.state === 'found' ? lookup.event : null;
  const foundId = found.current?.id ?? null;
  useEffect(() => {
    const event = found.current;
    if (!event || (map.target?.kind === 'event' && map.target.id === event.id)) return;
    setTarget(map, { kind: 'event', id: event.id });
    centerOn(map, event.lng, event.lat, Math.max(map.view.zoom, CENTERING_MIN_ZOOM));
  }, [foundId, map]);

  if (lookup.state !== 'found') {
    return <EventPending className="event-detail" loading={lookup.state === 'loading'} />;
  }
  const { event } = lookup;
  const timeZone = profile.timezone;
  return (
    <section className="event-detail" aria-labelledby="event-title" data-event-id={event.id}>
      <BackButton />
      <header className="event-detail-header">
        <EventStatusIcon active={event.isActive} />
        <h1 id="event-title">{event.displayName}</h1>
      </header>
      {event.street && event.street !== event.displayName && <p className="event-muted">{event.street}</p>}
      <EventFacts event={event} timeZone={timeZone} />
      {showsEditLocation(event, profile.permissions) && (
        <Link className="button button-primary" to={`${EVENTS_PATH}/${event.id}/edit`}>
          {EVENTS_TEXT.editLocation}
        </Link>
      )}
      <VehicleList title={EVENTS_TEXT.activeVehicles} event={event} vehicles={event.thingsActive} timeZone={timeZone} />
      <VehicleList title={EVENTS_TEXT.inactiveVehicles} event={event} vehicles={event.thingsInactive} timeZone={timeZone} />
    </section>
  );
}
