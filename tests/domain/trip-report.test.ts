/**
 * part 2 §2 Trips (remembered state), §3 Trip runs (distance along the points), §5 date pickers
 * with minute granularity read in the user's time zone.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_TRIPS_MEMORY, formatMiles, readTripsMemory, runDistanceM } from '../../src/domain/trip-report';
import { floorToMinute, fromMinuteInput, toMinuteInput } from '../../src/domain/time';

describe('part2 §5 minute inputs in the user time zone', () => {
  it.each([
    ['America/Chicago', '2026-01-05T08:30', Date.UTC(2026, 0, 5, 14, 30)],
    ['America/Chicago', '2026-07-05T08:30', Date.UTC(2026, 6, 5, 13, 30)],
    ['UTC', '2026-01-05T23:59', Date.UTC(2026, 0, 5, 23, 59)],
    ['Asia/Kolkata', '2026-01-05T05:30', Date.UTC(2026, 0, 5, 0, 0)],
  ])('%s: %s', (zone, text, ms) => {
    expect(fromMinuteInput(text, zone)).toBe(ms);
    expect(toMinuteInput(ms, zone)).toBe(text);
  });

  it.each([[''], ['2026-01-05'], ['not a time'], ['2026-01-05T8:30']])('%j is no time', (text) => {
    expect(fromMinuteInput(text, 'UTC')).toBeNull();
  });

  it('cuts a moment to its minute', () => {
    expect(floorToMinute(Date.UTC(2026, 0, 5, 8, 30, 59, 999))).toBe(Date.UTC(2026, 0, 5, 8, 30));
  });
});

describe('part2 §3 run distance', () => {
  it('adds the legs along the points (0.01° of latitude is about 1.11 km)', () => {
    const points = [
      { lat: 30, lng: -97 },
      { lat: 30.01, lng: -97 },
      { lat: 30.02, lng: -97 },
    ];
    expect(runDistanceM(points)).toBeGreaterThan(2222);
    expect(runDistanceM(points)).toBeLessThan(2226);
    expect(runDistanceM(points.slice(0, 1))).toBe(0);
    expect(formatMiles(1609.344 * 12.34)).toBe('12.3 mi');
  });
});

describe('part2 §2 the trips page remembers tab, query and live path asset', () => {
  it('reads back what it wrote', () => {
    const memory = { tab: 'replay', thingIds: ['a', 'b'], startTime: 1, endTime: 2, liveThingId: 'c' } as const;
    expect(readTripsMemory(JSON.stringify(memory))).toEqual(memory);
  });

  it.each([
    [null, EMPTY_TRIPS_MEMORY],
    ['not json', EMPTY_TRIPS_MEMORY],
    ['[]', EMPTY_TRIPS_MEMORY],
    [JSON.stringify({ tab: 'nope', thingIds: 'x', startTime: 'y' }), EMPTY_TRIPS_MEMORY],
    [JSON.stringify({ tab: 'runs', thingIds: ['1', '2', '3', '4', '5', '6'] }), EMPTY_TRIPS_MEMORY],
  ])('unreadable storage %j falls back', (text, expected) => {
    expect(readTripsMemory(text)).toEqual(expected);
  });
});
