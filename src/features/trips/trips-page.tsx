/**
 * /dashboard/trips (part 2 §2 Trips, §3 Trip, §5, §7–§9; desktop only): the query form, then per
 * asset its runs (start, end, duration, active flag, distance) and on the map the runs as paths in
 * the asset's colour, their points from zoom 17 (part 2 §9) with course and speed on click; the
 * Replay tab animates them (replay-panel.tsx); 'Show coverage' adds the roads driven as one band
 * (part 2 §7 coverage); the Live path tab draws one asset's path from the live data (part 2 §2,
 * live-path-panel.tsx), and needs no query. The page remembers the tab, the last query and the
 * live path asset (use-trips-memory.ts) and asks again on a reload.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { userErrorOf, type ApiError } from '../../app/api-client';
import { useFleetList } from '../../app/fleet-list';
import { fitBounds } from '../../app/map/map-state';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { Tabs } from '../../app/section/tabs';
import { useServices } from '../../app/services';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { ADD_ZOOM_TRIP_POINTS, ALL_TRIPS_CACHE_TTL_MS, HOUR_MS, TRIP_RANGE_MAX_MS } from '../../domain/constants';
import { boundsOf } from '../../domain/geometry';
import { TRIPS_TEXT } from '../../domain/labels';
import { hasNewTrips, type Trip } from '../../domain/trip';
import { type TripsTab } from '../../domain/trip-report';
import { floorToMinute } from '../../domain/time';
import {
  coverageLayer,
  tripPathsLayer,
  tripPointMarkers,
  tripPointsLayer,
  tripTracks,
  type TripPointMarker,
} from '../../map/layers/trips-layer';
import { loadAllTrips, tripKeys, useTripCalls } from './calls';
import { CoverageLegend } from './coverage-legend';
import { LivePathPanel } from './live-path-panel';
import { ReplayPanel } from './replay-panel';
import { RunsList } from './runs-list';
import { TripPointPopup } from './trip-point-popup';
import { TripsForm, type TripsQuery } from './trips-form';
import { useLivePath } from './use-live-path';
import { useTripsMemory } from './use-trips-memory';
import '../../app/section/report.css';
import './trips.css';

const TABS: readonly { key: TripsTab; label: string }[] = [
  { key: 'runs', label: TRIPS_TEXT.tabRuns },
  { key: 'replay', label: TRIPS_TEXT.tabReplay },
  { key: 'live', label: TRIPS_TEXT.tabLive },
];

/** The answer of the chosen assets' trips (part 2 §7: all-trips kept 60 s, each asset's 300 s). */
function useAllTrips(organizationId: string, query: TripsQuery | null) {
  const { queries } = useServices();
  const calls = useTripCalls();
  return useQuery<Trip[], ApiError>(
    {
      queryKey: query ? tripKeys.allTrips(organizationId, query.thingIds, query.startTime, query.endTime) : ['all-trips', 'none'],
      queryFn: () => loadAllTrips(calls, queries, organizationId, query!.thingIds, query!.startTime, query!.endTime),
      enabled: query !== null,
      staleTime: ALL_TRIPS_CACHE_TTL_MS,
      gcTime: ALL_TRIPS_CACHE_TTL_MS,
    },
    queries,
  );
}

/**
 * The runs on the map while the Runs tab shows: paths, and points from zoom 17 with their popup;
 * with 'Show coverage' on (part 2 §7 coverage), the roads driven in one pale band under the runs.
 */
function RunsOverlay({ trips, names, coverage }: { trips: readonly Trip[]; names: ReadonlyMap<string, string>; coverage: boolean }) {
  const { map, profile } = useOutletContext<ShellContext>();
  const zoom = useSnapshot(map.view).zoom;
  const showPoints = zoom >= ADD_ZOOM_TRIP_POINTS;
  const [picked, setPicked] = useState<TripPointMarker | null>(null);
  const tracks = useMemo(() => tripTracks(trips, 0), [trips]);
  const paths = useMemo(() => tripPathsLayer(tracks), [tracks]);
  const band = useMemo(() => (coverage ? coverageLayer(tracks) : null), [tracks, coverage]);
  const points = useMemo(() => (showPoints ? tripPointsLayer(tripPointMarkers(tracks), setPicked) : null), [tracks, showPoints]);
  const overlay = useMemo(
    () => ({
      under: band ? [band, paths] : [paths],
      over: points ? [points] : [],
      children:
        picked && showPoints ? (
          <TripPointPopup
            map={map}
            marker={picked}
            name={names.get(picked.thingId) ?? picked.thingId}
            timeZone={profile.timezone}
            onClose={() => setPicked(null)}
          />
        ) : null,
    }),
    [band, paths, points, picked, showPoints, map, names, profile.timezone],
  );
  useMapOverlay(map, 'trips', overlay);
  return null;
}

export function TripsPage() {
  const { profile, organizationId, map } = useOutletContext<ShellContext>();
  const [memory, remember] = useTripsMemory(profile.id);
  const fleet = useFleetList(organizationId, profile.organizationId);
  const [query, setQuery] = useState<TripsQuery | null>(() =>
    memory.thingIds.length > 0 && memory.startTime !== null && memory.endTime !== null
      ? { thingIds: memory.thingIds, startTime: memory.startTime, endTime: memory.endTime }
      : null,
  );
  const [initial] = useState(() => {
    const end = floorToMinute(Date.now());
    return {
      thingIds: memory.thingIds,
      startTime: memory.startTime ?? end - Math.min(TRIP_RANGE_MAX_MS, 8 * HOUR_MS),
      endTime: memory.endTime ?? end,
    };
  });
  const answer = useAllTrips(organizationId, query);
  // part 2 §7 coverage: off by default — the runs already show where each asset went; the band is
  // asked for when the question is the gaps. Not remembered (part 2 §2 names what the page keeps).
  const [coverage, setCoverage] = useState(false);
  const trips = answer.data ?? null;
  const names = useMemo(() => new Map([...fleet.byId].map(([id, entry]) => [id, entry.name])), [fleet.byId]);
  const newTrips = trips !== null && hasNewTrips(trips.flatMap((trip) => trip.runs.map((run) => run.runId)));
  const tab = memory.tab;
  // part 2 §2 live path: the trail grows while the page is open, whichever tab shows.
  const liveTrail = useLivePath(memory.liveThingId);

  // Each new answer brings its runs into view once.
  const fitted = useRef<readonly Trip[] | null>(null);
  useEffect(() => {
    if (!trips || fitted.current === trips) return;
    fitted.current = trips;
    fit(trips);
  });

  const submit = (next: TripsQuery) => {
    setQuery(next);
    remember({ thingIds: next.thingIds, startTime: next.startTime, endTime: next.endTime });
  };
  const fit = (list: readonly Trip[]) => {
    const bounds = boundsOf(list.flatMap((trip) => trip.runs.flatMap((run) => run.points)));
    if (bounds) fitBounds(map, [bounds.west, bounds.south, bounds.east, bounds.north]);
  };

  return (
    <section className="report-page" aria-labelledby="trips-title">
      <h1 id="trips-title">{TRIPS_TEXT.title}</h1>
      <TripsForm entries={fleet.entries} initial={initial} timeZone={profile.timezone} onSubmit={submit} />
      {fleet.error && (
        <p className="form-alert form-alert-error" role="alert">
          {fleet.error.userError.text}
        </p>
      )}
      <Tabs tabs={TABS} selected={tab} onSelect={(next) => remember({ tab: next })} label={TRIPS_TEXT.title} idPrefix="trips">
        {tab === 'live' ? (
          <LivePathPanel
            entries={fleet.entries}
            thingId={memory.liveThingId}
            trail={liveTrail}
            onChange={(liveThingId) => remember({ liveThingId })}
            timeZone={profile.timezone}
          />
        ) : query === null ? (
          <p className="report-note">{TRIPS_TEXT.pickFirst}</p>
        ) : answer.isPending ? (
          <p className="report-note" role="status">
            {TRIPS_TEXT.loading}
          </p>
        ) : answer.error ? (
          <p className="form-alert form-alert-error" role="alert">
            {/* part 2 §8: 404 'Asset not found'; "Unknown error on an all-trips failure is shown as unknown". */}
            {userErrorOf(answer.error, 'trips').text}
          </p>
        ) : trips ? (
          <>
            {newTrips && (
              <p className="trips-flag" data-testid="new-trips">
                {TRIPS_TEXT.newTrips}
              </p>
            )}
            {tab === 'runs' ? (
              <>
                <label className="trips-coverage-toggle">
                  <input type="checkbox" checked={coverage} onChange={(event) => setCoverage(event.target.checked)} />
                  {TRIPS_TEXT.showCoverage}
                </label>
                {coverage && <CoverageLegend organizationId={organizationId} trips={trips} names={names} timeZone={profile.timezone} />}
                <RunsList trips={trips} names={names} timeZone={profile.timezone} onFit={() => fit(trips)} />
                <RunsOverlay trips={trips} names={names} coverage={coverage} />
              </>
            ) : (
              <ReplayPanel trips={trips} names={names} timeZone={profile.timezone} />
            )}
          </>
        ) : null}
      </Tabs>
    </section>
  );
}
