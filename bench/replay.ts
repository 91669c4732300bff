/**
 * The trip replay's main-thread work at 5 assets × 24 h of points (≥ 50,000 points; beyond the
 * spec, part 2 §2 Trips): building the tracks and their layers once, then what each animation
 * frame does — tick the clock, place every run's marker (a binary search per run) and build the
 * frame's trail and marker layers (deck.gl props only; the GPU work is the map bench's).
 */
import type { Trip } from '../src/domain/trip';
import { createReplayClock, playReplay, setReplaySpeed, tickReplay, trackPosition } from '../src/domain/replay-clock';
import { replayMarkersLayer, replayTrailLayer, tripPathsLayer, tripTracks, type ReplayMarker } from '../src/map/layers/trips-layer';
import { measure, type BenchResult } from './measure';

const T0 = Date.UTC(2026, 10, 22, 0);
const DAY = 86_400_000;

/** `assets` trips over one day, `pointsPerAsset` points each in 12 runs, repeatable. */
export function syntheticTrips(assets: number, pointsPerAsset: number): Trip[] {
  const runsPerAsset = 12;
  const perRun = Math.floor(pointsPerAsset / runsPerAsset);
  const step = DAY / pointsPerAsset;
  return Array.from({ length: assets }, (_, a) => ({
    thingId: `thing-${a}`,
    startTime: T0,
    endTime: T0 + DAY,
    runs: Array.from({ length: runsPerAsset }, (_, r) => ({
      runId: `run-${a}-${r}`,
      runStart: T0 + r * perRun * step,
      runEnd: T0 + ((r + 1) * perRun - 1) * step,
      runDuration: Math.round(((perRun - 1) * step) / 1000),
      isActive: false,
      points: Array.from({ length: perRun }, (_, i) => ({
        lat: 30.2 + a * 0.01 + i * 1e-5,
        lng: -97.8 + r * 0.01 + i * 1e-5,
        course: 45,
        speed: 20 + (i % 30),
        timestamp: T0 + (r * perRun + i) * step,
      })),
    })),
  }));
}

export function benchReplay(assets = 5, pointsPerAsset = 10_000): BenchResult[] {
  const trips = syntheticTrips(assets, pointsPerAsset);
  const total = assets * pointsPerAsset;
  const tracks = tripTracks(trips, T0);
  let clock = playReplay(setReplaySpeed(createReplayClock(T0, T0 + DAY), 20));
  return [
    measure(`build tracks of ${total} points`, 10, () => tripTracks(trips, T0)),
    measure(`runs path layer over ${total} points (props)`, 10, () => tripPathsLayer(tracks, true)),
    measure(`one replay frame: tick + ${tracks.length} markers + trail/marker layers`, 500, () => {
      clock = tickReplay(clock, 16);
      if (!clock.playing) clock = playReplay(clock);
      const markers: ReplayMarker[] = [];
      for (const track of tracks) {
        const at = trackPosition(track.points, clock.time);
        if (at) markers.push({ thingId: track.thingId, colorIndex: track.colorIndex, position: [at.lng, at.lat] });
      }
      return [replayTrailLayer(tracks, (clock.time - T0) / 1000), replayMarkersLayer(markers)];
    }),
  ];
}
