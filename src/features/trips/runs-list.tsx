/**
 * The runs of each chosen asset (part 2 §3 Trip runs: run_start, run_end, run_duration, is_active;
 * the distance is measured along the points): one table per asset under its name and colour.
 */
import { SECOND_MS } from '../../domain/constants';
import { TRIPS_TEXT } from '../../domain/labels';
import { formatDateTime, formatDuration } from '../../domain/time';
import type { Trip } from '../../domain/trip';
import { tripsToGeoJson, tripsToGpx } from '../../domain/trip-export';
import { formatMiles, runDistanceM } from '../../domain/trip-report';
import { tripCssColor } from '../../map/layers/trips-layer';

/** Hands the text to the browser as a file download. */
function download(filename: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export interface RunsListProps {
  trips: readonly Trip[];
  names: ReadonlyMap<string, string>;
  timeZone: string | null;
  onFit(): void;
}

export function RunsList({ trips, names, timeZone, onFit }: RunsListProps) {
  return (
    <div className="trips-runs">
      {trips.map((trip, index) => {
        const name = names.get(trip.thingId) ?? trip.thingId;
        return (
          <section key={trip.thingId} className="trips-asset" aria-label={name}>
            <h2>
              <span className="trips-swatch" style={{ background: tripCssColor(index) }} aria-hidden="true" />
              {name}
            </h2>
            {trip.runs.length === 0 ? (
              <p className="report-note">{TRIPS_TEXT.noRuns}</p>
            ) : (
              <table className="trips-table">
                <thead>
                  <tr>
                    <th scope="col">{TRIPS_TEXT.runStart}</th>
                    <th scope="col">{TRIPS_TEXT.runEnd}</th>
                    <th scope="col">{TRIPS_TEXT.runDuration}</th>
                    <th scope="col">{TRIPS_TEXT.runActive}</th>
                    <th scope="col">{TRIPS_TEXT.runDistance}</th>
                  </tr>
                </thead>
                <tbody>
                  {trip.runs.map((run) => (
                    <tr key={run.runId} data-run-id={run.runId}>
                      <td>{formatDateTime(run.runStart, timeZone)}</td>
                      <td>{run.runEnd === null ? TRIPS_TEXT.stillGoing : formatDateTime(run.runEnd, timeZone)}</td>
                      <td>{formatDuration(run.runDuration * SECOND_MS)}</td>
                      <td>{run.isActive ? TRIPS_TEXT.activeYes : TRIPS_TEXT.activeNo}</td>
                      <td>{formatMiles(runDistanceM(run.points))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        );
      })}
      <div className="trips-actions">
        <button type="button" className="button button-secondary" onClick={onFit}>
          {TRIPS_TEXT.showAll}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => download('trips.gpx', 'application/gpx+xml', tripsToGpx(trips, names))}
        >
          {TRIPS_TEXT.exportGpx}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => download('trips.geojson', 'application/geo+json', JSON.stringify(tripsToGeoJson(trips, names)))}
        >
          {TRIPS_TEXT.exportGeoJson}
        </button>
      </div>
    </div>
  );
}
