import { describe, expect, it } from 'vitest';
import { MINUTE_MS, R2R_WINDOW_MS } from '../../src/domain/constants';
import { fromTripWire, hasNewTrips, r2rWindow, toTripQuery, toTripWire, tripWireSchema } from '../../src/domain/trip';

const wire = tripWireSchema.parse({
  thing_id: 't1',
  start_time: '2026-11-21T00:00:00.000Z',
  end_time: '2026-11-22T00:00:00.000Z',
  runs: [
    {
      run_id: 'r2',
      run_start: '2026-11-21T10:00:00.000Z',
      run_end: null,
      run_duration: null,
      is_active: true,
      points: [{ lat: 1, lng: 2, course: null, speed: null, timestamp: '2026-11-21T10:00:05.000Z' }],
    },
    {
      run_id: 'r1',
      run_start: '2026-11-21T08:00:00.000Z',
      run_end: '2026-11-21T08:30:00.000Z',
      run_duration: null,
      is_active: false,
      points: [
        { lat: 3, lng: 4, course: 90, speed: 50, timestamp: '2026-11-21T08:10:00.000Z' },
        { lat: 5, lng: 6, course: 180, speed: 20, timestamp: '2026-11-21T08:05:00.000Z' },
      ],
    },
  ],
});

describe('part2 §3 Trip', () => {
  it('maps thing_id, times and runs with their points', () => {
    const trip = fromTripWire(wire);
    expect(trip.thingId).toBe('t1');
    expect(trip.startTime).toBe(Date.parse('2026-11-21T00:00:00.000Z'));
    expect(trip.endTime).toBe(Date.parse('2026-11-22T00:00:00.000Z'));
    expect(trip.runs.map((r) => r.runId)).toEqual(['r1', 'r2']);
    const [r1, r2] = trip.runs;
    expect(r1).toEqual({
      runId: 'r1',
      runStart: Date.parse('2026-11-21T08:00:00.000Z'),
      runEnd: Date.parse('2026-11-21T08:30:00.000Z'),
      runDuration: 30 * 60,
      isActive: false,
      points: [
        { lat: 5, lng: 6, course: 180, speed: 20, timestamp: Date.parse('2026-11-21T08:05:00.000Z') },
        { lat: 3, lng: 4, course: 90, speed: 50, timestamp: Date.parse('2026-11-21T08:10:00.000Z') },
      ],
    });
    expect(r2).toMatchObject({ runEnd: null, runDuration: 0, isActive: true });
    expect(r2?.points[0]).toMatchObject({ course: 0, speed: 0 });
  });

  it('keeps a given run_duration', () => {
    const w = tripWireSchema.parse({ ...wire, runs: [{ ...wire.runs[1], run_duration: 1234 }] });
    expect(fromTripWire(w).runs[0]?.runDuration).toBe(1234);
  });

  it('round-trips through the server mapper', () => {
    const trip = fromTripWire(wire);
    expect(fromTripWire(tripWireSchema.parse(toTripWire(trip)))).toEqual(trip);
  });

  it('rejects a run without points', () => {
    expect(tripWireSchema.safeParse({ thing_id: 't', runs: [{ run_id: 'r', run_start: 'x', is_active: true }] }).success).toBe(false);
  });

  it('part2 §7 trip query', () => {
    const s = Date.parse('2026-11-21T00:00:00.000Z');
    expect(toTripQuery(s, s + MINUTE_MS)).toEqual({ start_time: '2026-11-21T00:00:00.000Z', end_time: '2026-11-21T00:01:00.000Z' });
    expect(toTripQuery(s, s + MINUTE_MS, '2026-11-21').run_date).toBe('2026-11-21');
  });

  it.each([
    [[], false],
    [['a'], true],
  ])("part2 §2 'new trips' flag for ids %j is %s", (ids, expected) => {
    expect(hasNewTrips(ids)).toBe(expected);
  });
});

describe('part2 §5 R2R window', () => {
  it.each([[0], [Date.parse('2026-11-22T12:00:00.000Z')]])('the end is the start plus 15 minutes (%s)', (start) => {
    expect(R2R_WINDOW_MS).toBe(15 * MINUTE_MS);
    expect(r2rWindow(start)).toEqual({ start, end: start + 15 * MINUTE_MS });
  });
});
