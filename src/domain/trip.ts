/**
 * Trips of an asset and the R2R window (part 2 §2 Trips, R2R; §3 Trip; §5; §7 GET things/{thingId}/trips).
 *
 * Wire times are ISO 8601 strings; client times are ms since the epoch. run_duration is in
 * seconds (as runtimes are elsewhere in the spec, part 1 §3).
 */
import { z } from 'zod';
import { R2R_WINDOW_MS } from './constants';
import { parseTime, toIso } from './time';

export const tripPointWireSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  course: z.number().nullish(),
  speed: z.number().nullish(),
  timestamp: z.string(),
});
export type TripPointWire = z.infer<typeof tripPointWireSchema>;

export const tripRunWireSchema = z.object({
  run_id: z.string(),
  run_start: z.string(),
  run_end: z.string().nullish(),
  run_duration: z.number().nullish(),
  is_active: z.boolean(),
  points: z.array(tripPointWireSchema),
});
export type TripRunWire = z.infer<typeof tripRunWireSchema>;

export const tripWireSchema = z.object({
  thing_id: z.string(),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  runs: z.array(tripRunWireSchema),
});
export type TripWire = z.infer<typeof tripWireSchema>;

export interface TripPoint {
  lat: number;
  lng: number;
  course: number;
  speed: number;
  timestamp: number;
}

export interface TripRun {
  runId: string;
  runStart: number;
  /** Null while the run is still going. */
  runEnd: number | null;
  /** Seconds. */
  runDuration: number;
  isActive: boolean;
  points: TripPoint[];
}

export interface Trip {
  thingId: string;
  startTime: number | null;
  endTime: number | null;
  runs: TripRun[];
}

function fromTripRunWire(wire: TripRunWire): TripRun {
  const runStart = parseTime(wire.run_start) ?? 0;
  const runEnd = parseTime(wire.run_end);
  return {
    runId: wire.run_id,
    runStart,
    runEnd,
    // A missing duration is derived from the ends when both are known.
    runDuration: wire.run_duration ?? (runEnd === null ? 0 : Math.max(0, Math.round((runEnd - runStart) / 1000))),
    isActive: wire.is_active,
    points: wire.points
      .map((p) => ({
        lat: p.lat,
        lng: p.lng,
        course: p.course ?? 0,
        // part 1 §3: speed defaults to 0.
        speed: p.speed ?? 0,
        timestamp: parseTime(p.timestamp) ?? 0,
      }))
      .sort((a, b) => a.timestamp - b.timestamp),
  };
}

/** Runs come out in start order, points in time order. */
export function fromTripWire(wire: TripWire): Trip {
  return {
    thingId: wire.thing_id,
    startTime: parseTime(wire.start_time),
    endTime: parseTime(wire.end_time),
    runs: wire.runs.map(fromTripRunWire).sort((a, b) => a.runStart - b.runStart),
  };
}

/** The server's side of the mapper. */
export function toTripWire(trip: Trip): TripWire {
  return {
    thing_id: trip.thingId,
    start_time: toIso(trip.startTime),
    end_time: toIso(trip.endTime),
    runs: trip.runs.map((run) => ({
      run_id: run.runId,
      run_start: toIso(run.runStart),
      run_end: toIso(run.runEnd),
      run_duration: run.runDuration,
      is_active: run.isActive,
      points: run.points.map((p) => ({
        lat: p.lat,
        lng: p.lng,
        course: p.course,
        speed: p.speed,
        timestamp: toIso(p.timestamp),
      })),
    })),
  };
}

/** GET /things/coverage: one row per requested visible asset (design; docs/api/areas-closures-zones-trips.md). */
export const coverageWireSchema = z.object({
  thing_id: z.string(),
  first_point_at: z.string().nullable(),
  last_point_at: z.string().nullable(),
  run_count: z.number().int().min(0),
});
export type CoverageWire = z.infer<typeof coverageWireSchema>;

/** GET things/{thingId}/trips query (part 2 §7: start_time, end_time, run_date). */
export interface TripQuery {
  start_time: string;
  end_time: string;
  run_date?: string;
}

export function toTripQuery(startTime: number, endTime: number, runDate?: string): TripQuery {
  const query: TripQuery = { start_time: toIso(startTime), end_time: toIso(endTime) };
  if (runDate) query.run_date = runDate;
  return query;
}

/** part 2 §2: "A 'new trips' flag is set when a fetch returns any ids." */
export function hasNewTrips(ids: readonly unknown[]): boolean {
  return ids.length > 0;
}

/** part 2 §5, §9: the R2R search window is the start plus 15 minutes. */
export function r2rWindow(start: number): { start: number; end: number } {
  return { start, end: start + R2R_WINDOW_MS };
}
