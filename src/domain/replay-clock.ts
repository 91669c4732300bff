/**
 * The trip replay (beyond the spec: part 2 §2 Trips shows runs and points; the replay animates
 * them). Pure functions, no timers: the page owns one animation frame loop and calls `tick` with
 * the wall-clock time elapsed; positions come from `trackPosition` (time → place along a run).
 *
 * Times are trip times (epoch ms) unless named `wallMs`.
 */
import type { TripPoint } from './trip';

/** Replay speed factors the user picks from (1× to 20×). */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 20] as const;
export const REPLAY_SPEED_MIN = 1;
export const REPLAY_SPEED_MAX = 20;

export interface ReplayClock {
  /** The replayed moment (epoch ms), within [start, end]. */
  time: number;
  start: number;
  end: number;
  playing: boolean;
  /** Trip ms per wall ms (1 to 20). */
  speed: number;
}

/** A clock at the start of [start, end], paused, at 1×. An empty or reversed range is one instant. */
export function createReplayClock(start: number, end: number): ReplayClock {
  return { time: start, start, end: Math.max(start, end), playing: false, speed: REPLAY_SPEED_MIN };
}

function clampTime(clock: ReplayClock, time: number): number {
  return Math.min(clock.end, Math.max(clock.start, time));
}

/**
 * Moves the clock on by `wallMs` of real time at its speed when playing; reaching the end stops it
 * there. A paused clock, or a non-positive or non-finite elapsed time, does not move.
 */
export function tickReplay(clock: ReplayClock, wallMs: number): ReplayClock {
  if (!clock.playing || !(wallMs > 0) || !Number.isFinite(wallMs)) return clock;
  const time = clampTime(clock, clock.time + wallMs * clock.speed);
  return { ...clock, time, playing: time < clock.end };
}

/** Play: at the end, it starts over from the start. */
export function playReplay(clock: ReplayClock): ReplayClock {
  return { ...clock, playing: true, time: clock.time >= clock.end ? clock.start : clock.time };
}

export function pauseReplay(clock: ReplayClock): ReplayClock {
  return { ...clock, playing: false };
}

/** Scrub to a moment (clamped to the range); playing stays as it was. */
export function scrubReplay(clock: ReplayClock, time: number): ReplayClock {
  return Number.isFinite(time) ? { ...clock, time: clampTime(clock, time) } : clock;
}

/** Speed factor, rounded and clamped to 1×–20×. */
export function setReplaySpeed(clock: ReplayClock, speed: number): ReplayClock {
  const factor = Number.isFinite(speed) ? Math.round(speed) : REPLAY_SPEED_MIN;
  return { ...clock, speed: Math.min(REPLAY_SPEED_MAX, Math.max(REPLAY_SPEED_MIN, factor)) };
}

/** Where the clock stands in its range, 0 to 1 (the timeline's fill). */
export function replayProgress(clock: ReplayClock): number {
  const span = clock.end - clock.start;
  return span <= 0 ? 1 : (clock.time - clock.start) / span;
}

export interface TrackPosition {
  lng: number;
  lat: number;
  /** mph, interpolated between the two points around the moment. */
  speed: number;
  /** Degrees, the course of the point before the moment. */
  course: number;
  /** Index of the point at or before the moment. */
  index: number;
}

/** The index of the last point at or before `time` (points in time order); -1 before the first. */
export function pointIndexAt(points: readonly Pick<TripPoint, 'timestamp'>[], time: number): number {
  let low = 0;
  let high = points.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((points[mid] as Pick<TripPoint, 'timestamp'>).timestamp <= time) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/**
 * The place along a run at `time` (points in time order): linear between the points around it;
 * null before the run's first point or after its last (the asset is not on this run then).
 */
export function trackPosition(points: readonly TripPoint[], time: number): TrackPosition | null {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last || time < first.timestamp || time > last.timestamp) return null;
  const index = pointIndexAt(points, time);
  const a = points[index] as TripPoint;
  const b = points[index + 1];
  if (!b || b.timestamp === a.timestamp) return { lng: a.lng, lat: a.lat, speed: a.speed, course: a.course, index };
  const f = (time - a.timestamp) / (b.timestamp - a.timestamp);
  return {
    lng: a.lng + (b.lng - a.lng) * f,
    lat: a.lat + (b.lat - a.lat) * f,
    speed: a.speed + (b.speed - a.speed) * f,
    course: a.course,
    index,
  };
}

/** The earliest and latest point time over runs, null when there is no point. */
export function replayRange(runs: readonly { points: readonly Pick<TripPoint, 'timestamp'>[] }[]): { start: number; end: number } | null {
  let start = Infinity;
  let end = -Infinity;
  for (const run of runs) {
    const first = run.points[0];
    const last = run.points[run.points.length - 1];
    if (first && first.timestamp < start) start = first.timestamp;
    if (last && last.timestamp > end) end = last.timestamp;
  }
  return start <= end ? { start, end } : null;
}
