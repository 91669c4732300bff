/**
 * part 2 §7 GET /things/coverage: the legend of the 'Show coverage' layer on the Runs tab. The map
 * draws the roads the chosen assets drove in the range (trips-layer.ts `coverageLayer`, from the
 * trips answer); this asks the coverage call for the chosen assets and says per asset how much it
 * has stored at all, so a gap on the map reads as "did not go there" or as "sent nothing".
 */
import { userErrorOf } from '../../app/api-client';
import { queryKey } from '../../app/query-cache';
import { useApiQuery } from '../../app/use-api-query';
import { TRIPS_TEXT } from '../../domain/labels';
import { formatDateTime } from '../../domain/time';
import type { Trip } from '../../domain/trip';
import { coverageCssColor } from '../../map/layers/trips-layer';
import { useTripCalls } from './calls';

export interface CoverageLegendProps {
  organizationId: string;
  trips: readonly Trip[];
  names: ReadonlyMap<string, string>;
  timeZone: string | null;
}

export function CoverageLegend({ organizationId, trips, names, timeZone }: CoverageLegendProps) {
  const calls = useTripCalls();
  const thingIds = trips.map((trip) => trip.thingId);
  const answer = useApiQuery({
    key: queryKey('trips-coverage', organizationId, thingIds.join(',')),
    load: () => calls.coverage(thingIds),
  });
  const driven = trips.some((trip) => trip.runs.some((run) => run.points.length >= 2));
  return (
    <figure className="trips-coverage" aria-label={TRIPS_TEXT.coverageLegend} data-testid="coverage-legend">
      <figcaption>
        <span className="trips-coverage-swatch" style={{ background: coverageCssColor() }} aria-hidden="true" />
        {TRIPS_TEXT.coverageLegend}
      </figcaption>
      {!driven && <p className="report-note">{TRIPS_TEXT.coverageNone}</p>}
      {answer.isPending ? (
        <p className="report-note" role="status">
          {TRIPS_TEXT.coverageLoading}
        </p>
      ) : answer.error ? (
        <p className="form-alert form-alert-error" role="alert">
          {userErrorOf(answer.error, 'trips').text}
        </p>
      ) : (
        <ul className="trips-coverage-list">
          {answer.data.map((row) => (
            <li key={row.thing_id}>
              <strong>{names.get(row.thing_id) ?? row.thing_id}</strong>:{' '}
              {row.first_point_at === null || row.last_point_at === null
                ? TRIPS_TEXT.coverageNothingStored
                : TRIPS_TEXT.coverageStored(
                    row.run_count,
                    formatDateTime(Date.parse(row.first_point_at), timeZone),
                    formatDateTime(Date.parse(row.last_point_at), timeZone),
                  )}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
