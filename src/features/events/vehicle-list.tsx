/**
 * The vehicles of an event (part 1 §2 detail): each with arrived (its start on scene), duration
 * (its runtime), end and time-to-scene (its arrival minus the event's start).
 */
import { useId } from 'react';
import { EVENTS_TEXT } from '../../domain/labels';
import { timeToScene, type Location, type LocationThing } from '../../domain/location';
import { formatDateTime, formatDuration } from '../../domain/time';
import { SECOND_MS } from '../../domain/constants';

function VehicleItem({ event, vehicle, timeZone }: { event: Location; vehicle: LocationThing; timeZone: string | null }) {
  const toScene = timeToScene(event, vehicle);
  const rows: [string, string | null][] = [
    [EVENTS_TEXT.arrived, vehicle.startTime === null ? null : formatDateTime(vehicle.startTime, timeZone)],
    [EVENTS_TEXT.duration, vehicle.runtime === null ? null : formatDuration(vehicle.runtime * SECOND_MS)],
    [EVENTS_TEXT.end, vehicle.endTime === null ? null : formatDateTime(vehicle.endTime, timeZone)],
    [EVENTS_TEXT.timeToScene, toScene === null ? null : formatDuration(toScene)],
  ];
  return (
    <li className="event-vehicle" data-vehicle-id={vehicle.id}>
      <p className="event-vehicle-name">{vehicle.displayName}</p>
      <dl className="event-facts event-facts-compact">
        {rows
          .filter((row): row is [string, string] => row[1] !== null)
          .map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
    </li>
  );
}

export function VehicleList({
  title,
  event,
  vehicles,
  timeZone,
}: {
  title: string;
  event: Location;
  vehicles: readonly LocationThing[];
  timeZone: string | null;
}) {
  const headingId = useId();
  return (
    <section className="event-vehicles" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {title} ({vehicles.length})
      </h2>
      {vehicles.length === 0 ? (
        <p className="event-muted">{EVENTS_TEXT.noVehicles}</p>
      ) : (
        <ul>
          {vehicles.map((vehicle) => (
            <VehicleItem key={vehicle.id} event={event} vehicle={vehicle} timeZone={timeZone} />
          ))}
        </ul>
      )}
    </section>
  );
}
