/**
 * The trip replay's clock (beyond the spec; part 2 §2 Trips, §3 Trip points): time → place along
 * a run, speed factors, pause and scrub, as tables.
 */
import { describe, expect, it } from 'vitest';
import {
  createReplayClock,
  pauseReplay,
  playReplay,
  pointIndexAt,
  replayProgress,
  replayRange,
  scrubReplay,
  setReplaySpeed,
  tickReplay,
  trackPosition,
} from '../../src/domain/replay-clock';
import type { TripPoint } from '../../src/domain/trip';

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const S = 1000;

/** A run going east: 0 → 10 s → 30 s, speeds 10, 30, 50 mph. */
const RUN: TripPoint[] = [
  { lat: 30, lng: -97.0, course: 90, speed: 10, timestamp: T0 },
  { lat: 30, lng: -96.99, course: 90, speed: 30, timestamp: T0 + 10 * S },
  { lat: 30.01, lng: -96.99, course: 0, speed: 50, timestamp: T0 + 30 * S },
];

describe('replay clock: ticks at speed factors', () => {
  it.each([
    // speed, wall ms elapsed, expected trip ms from the start, still playing
    [1, 1000, 1000, true],
    [2, 1000, 2000, true],
    [10, 1000, 10_000, true],
    [20, 1000, 20_000, true],
    [20, 5000, 60_000, false], // reaches the end and stops there
    [10, 0, 0, true], // no time passed
    [10, -50, 0, true], // a clock going backwards is ignored
    [10, Number.NaN, 0, true],
  ])('at %i×, %i ms of wall time moves the replay %i ms', (speed, wallMs, movedMs, playing) => {
    const clock = playReplay(setReplaySpeed(createReplayClock(T0, T0 + 60 * S), speed));
    const next = tickReplay(clock, wallMs);
    expect(next.time - T0).toBe(movedMs);
    expect(next.playing).toBe(playing);
  });

  it('a paused clock does not move', () => {
    const clock = pauseReplay(playReplay(createReplayClock(T0, T0 + 60 * S)));
    expect(tickReplay(clock, 5000).time).toBe(T0);
  });

  it('pause then play resumes where it stood; play at the end starts over', () => {
    let clock = playReplay(setReplaySpeed(createReplayClock(T0, T0 + 60 * S), 10));
    clock = pauseReplay(tickReplay(clock, 1000));
    clock = tickReplay(playReplay(clock), 1000);
    expect(clock.time).toBe(T0 + 20 * S);
    const ended = tickReplay(clock, 60_000);
    expect(ended).toMatchObject({ time: T0 + 60 * S, playing: false });
    expect(playReplay(ended)).toMatchObject({ time: T0, playing: true });
  });
});

describe('replay clock: speed and scrub are clamped', () => {
  it.each([
    [0, 1],
    [1, 1],
    [5, 5],
    [10.4, 10],
    [20, 20],
    [50, 20],
    [Number.NaN, 1],
  ])('speed %s becomes %i×', (asked, factor) => {
    expect(setReplaySpeed(createReplayClock(T0, T0 + S), asked).speed).toBe(factor);
  });

  it.each([
    ['before the start', T0 - 5 * S, T0, 0],
    ['inside', T0 + 15 * S, T0 + 15 * S, 0.25],
    ['after the end', T0 + 120 * S, T0 + 60 * S, 1],
    ['not a number', Number.NaN, T0 + 30 * S, 0.5],
  ])('scrub %s', (_, to, time, progress) => {
    const clock = scrubReplay(scrubReplay(createReplayClock(T0, T0 + 60 * S), T0 + 30 * S), to);
    expect(clock.time).toBe(time);
    expect(replayProgress(clock)).toBe(progress);
  });

  it('scrubbing keeps the clock playing or paused as it was', () => {
    const playing = playReplay(createReplayClock(T0, T0 + 60 * S));
    expect(scrubReplay(playing, T0 + 10 * S).playing).toBe(true);
    expect(scrubReplay(pauseReplay(playing), T0 + 10 * S).playing).toBe(false);
  });
});

describe('replay: time → position along a run', () => {
  it.each([
    ['before the run', -1, null],
    ['at the first point', 0, { lng: -97.0, lat: 30, speed: 10, course: 90, index: 0 }],
    ['half way to the second', 5, { lng: -96.995, lat: 30, speed: 20, course: 90, index: 0 }],
    ['at the second point', 10, { lng: -96.99, lat: 30, speed: 30, course: 90, index: 1 }],
    ['a quarter to the third', 15, { lng: -96.99, lat: 30.0025, speed: 35, course: 90, index: 1 }],
    ['at the last point', 30, { lng: -96.99, lat: 30.01, speed: 50, course: 0, index: 2 }],
    ['after the run', 31, null],
  ])('%s (+%i s)', (_, seconds, expected) => {
    const at = trackPosition(RUN, T0 + seconds * S);
    if (expected === null) expect(at).toBeNull();
    else {
      expect(at).not.toBeNull();
      expect(at!.lng).toBeCloseTo(expected.lng, 9);
      expect(at!.lat).toBeCloseTo(expected.lat, 9);
      expect(at!.speed).toBeCloseTo(expected.speed, 9);
      expect(at!.course).toBe(expected.course);
      expect(at!.index).toBe(expected.index);
    }
  });

  it('an empty run has no position; a one-point run only at its moment', () => {
    expect(trackPosition([], T0)).toBeNull();
    expect(trackPosition([RUN[0]!], T0)).toMatchObject({ lng: -97.0, lat: 30 });
    expect(trackPosition([RUN[0]!], T0 + 1)).toBeNull();
  });

  it.each([
    [-1, -1],
    [0, 0],
    [9_999, 0],
    [10_000, 1],
    [29_999, 1],
    [30_000, 2],
    [99_000, 2],
  ])('the point at or before +%i ms is #%i', (ms, index) => {
    expect(pointIndexAt(RUN, T0 + ms)).toBe(index);
  });

  it('the replay spans the earliest to the latest point of all runs; none without points', () => {
    const later = RUN.map((p) => ({ ...p, timestamp: p.timestamp + 3600 * S }));
    expect(replayRange([{ points: later }, { points: [] }, { points: RUN }])).toEqual({ start: T0, end: T0 + 3630 * S });
    expect(replayRange([{ points: [] }])).toBeNull();
  });
});
