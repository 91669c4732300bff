/**
 * The replay of the shown runs (beyond the spec; part 2 §2 Trips): play / pause, speed 1×–20×, a
 * timeline to scrub, and 'Follow', which keeps the followed asset in view. The clock is the
 * domain's pure `replay-clock.ts`, moved on by one animation-frame loop while playing; the map gets
 * the runs dimmed, the fading trail (deck.gl TripsLayer) and a marker per asset on a run at that
 * moment; the speed chart sits along the map's foot with its cursor on the clock.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { centerOn } from '../../app/map/map-state';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { REPLAY_TEXT } from '../../domain/labels';
import {
  createReplayClock,
  pauseReplay,
  playReplay,
  REPLAY_SPEEDS,
  replayRange,
  scrubReplay,
  setReplaySpeed,
  tickReplay,
  trackPosition,
  type ReplayClock,
} from '../../domain/replay-clock';
import { formatDateTime } from '../../domain/time';
import type { Trip } from '../../domain/trip';
import {
  replayMarkersLayer,
  replayTrailLayer,
  tripCssColor,
  tripPathsLayer,
  tripTracks,
  type ReplayMarker,
  type TripTrack,
} from '../../map/layers/trips-layer';
import { SpeedChart, type SpeedSeries } from './speed-chart';

/** chosen: while following, the map is re-centred at most this often (wall ms). */
export const FOLLOW_EVERY_MS = 1000;
/** The timeline's step: one second of trip time. */
const TIMELINE_STEP_S = 1;

export interface ReplayPanelProps {
  trips: readonly Trip[];
  names: ReadonlyMap<string, string>;
  timeZone: string | null;
}

/** The followed asset's speeds over time, a gap between its runs. */
function speedSeries(tracks: readonly TripTrack[], thingId: string | null): SpeedSeries {
  const times: number[] = [];
  const speeds: (number | null)[] = [];
  for (const track of tracks) {
    if (track.thingId !== thingId) continue;
    if (times.length > 0) {
      times.push((times[times.length - 1] as number) + 1e-3);
      speeds.push(null);
    }
    track.points.forEach((point, index) => {
      times.push(track.times[index] as number);
      speeds.push(point.speed);
    });
  }
  return { times, speeds };
}

export function ReplayPanel({ trips, names, timeZone }: ReplayPanelProps) {
  const range = useMemo(() => replayRange(trips.flatMap((trip) => trip.runs)), [trips]);
  if (!range) return <p className="report-note">{REPLAY_TEXT.nothing}</p>;
  return <Replay trips={trips} names={names} timeZone={timeZone} range={range} />;
}

function Replay({ trips, names, timeZone, range }: ReplayPanelProps & { range: { start: number; end: number } }) {
  const { map } = useOutletContext<ShellContext>();
  const [clock, setClock] = useState<ReplayClock>(() => createReplayClock(range.start, range.end));
  const withRuns = trips.filter((trip) => trip.runs.some((run) => run.points.length > 0));
  const [followId, setFollowId] = useState<string | null>(withRuns[0]?.thingId ?? null);
  const [follow, setFollow] = useState(false);
  const tracks = useMemo(() => tripTracks(trips, range.start), [trips, range.start]);
  const colorOf = useMemo(() => new Map(trips.map((trip, index) => [trip.thingId, index])), [trips]);

  // One animation-frame loop while playing: the clock moves by the wall time between frames.
  useEffect(() => {
    if (!clock.playing) return undefined;
    let last = performance.now();
    let frame = requestAnimationFrame(function step(at) {
      const elapsed = at - last;
      last = at;
      setClock((current) => tickReplay(current, elapsed));
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [clock.playing]);

  const markers = useMemo<ReplayMarker[]>(() => {
    const list: ReplayMarker[] = [];
    for (const track of tracks) {
      const at = trackPosition(track.points, clock.time);
      if (at) list.push({ thingId: track.thingId, colorIndex: track.colorIndex, position: [at.lng, at.lat] });
    }
    return list;
  }, [tracks, clock.time]);

  // Follow: the followed asset's marker is brought to the centre, at most once per FOLLOW_EVERY_MS.
  const lastFollow = useRef(0);
  const followed = markers.find((marker) => marker.thingId === followId) ?? null;
  useEffect(() => {
    if (!follow || !followed) return;
    const now = performance.now();
    if (now - lastFollow.current < FOLLOW_EVERY_MS) return;
    lastFollow.current = now;
    centerOn(map, followed.position[0], followed.position[1]);
  }, [follow, followed, map]);

  const nowS = (clock.time - range.start) / 1000;
  const paths = useMemo(() => tripPathsLayer(tracks, true), [tracks]);
  const series = useMemo(() => speedSeries(tracks, followId), [tracks, followId]);
  const chartColor = tripCssColor(colorOf.get(followId ?? '') ?? 0);
  const overlay = useMemo(
    () => ({
      under: [paths],
      over: [replayTrailLayer(tracks, nowS), replayMarkersLayer(markers)],
      children: (
        <div className="replay-chart">
          <SpeedChart series={series} origin={range.start} cursorS={nowS} timeZone={timeZone} color={chartColor} />
        </div>
      ),
    }),
    [paths, tracks, nowS, markers, series, range.start, timeZone, chartColor],
  );
  useMapOverlay(map, 'trips', overlay);

  const followedSpeed = followed ? trackSpeed(tracks, followId, clock.time) : null;
  return (
    <div className="replay" data-testid="replay" data-replay-time={clock.time} data-playing={clock.playing}>
      <div className="replay-controls">
        <button
          type="button"
          className="button button-primary"
          onClick={() => setClock((current) => (current.playing ? pauseReplay(current) : playReplay(current)))}
        >
          {clock.playing ? REPLAY_TEXT.pause : REPLAY_TEXT.play}
        </button>
        <label className="replay-speed">
          <span>{REPLAY_TEXT.speed}</span>
          <select value={clock.speed} onChange={(event) => setClock((current) => setReplaySpeed(current, Number(event.target.value)))}>
            {REPLAY_SPEEDS.map((speed) => (
              <option key={speed} value={speed}>{`${speed}×`}</option>
            ))}
          </select>
        </label>
      </div>
      <label className="replay-timeline">
        <span className="visually-hidden">{REPLAY_TEXT.timeline}</span>
        <input
          type="range"
          min={0}
          max={Math.max(TIMELINE_STEP_S, Math.ceil((range.end - range.start) / 1000))}
          step={TIMELINE_STEP_S}
          value={Math.round(nowS)}
          aria-valuetext={formatDateTime(clock.time, timeZone)}
          onChange={(event) => setClock((current) => scrubReplay(current, range.start + Number(event.target.value) * 1000))}
        />
      </label>
      <p className="replay-time" aria-live="off">
        {formatDateTime(clock.time, timeZone)}
        {followedSpeed !== null ? ` · ${Math.round(followedSpeed)} mph` : ''}
      </p>
      <div className="replay-follow">
        <label>
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} /> {REPLAY_TEXT.follow}
        </label>
        <label>
          <span className="visually-hidden">{REPLAY_TEXT.followAsset}</span>
          <select aria-label={REPLAY_TEXT.followAsset} value={followId ?? ''} onChange={(event) => setFollowId(event.target.value || null)}>
            {withRuns.map((trip) => (
              <option key={trip.thingId} value={trip.thingId}>
                {names.get(trip.thingId) ?? trip.thingId}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}

function trackSpeed(tracks: readonly TripTrack[], thingId: string | null, time: number): number | null {
  for (const track of tracks) {
    if (track.thingId !== thingId) continue;
    const at = trackPosition(track.points, time);
    if (at) return at.speed;
  }
  return null;
}
