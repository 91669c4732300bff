/**
 * What the trips, hazards and R2R pages compute from their answers and inputs (part 2 §2 Trips,
 * Hazards, R2R; §5 "Trips and date-range reports"): run distances and the trips page's remembered state (part 2 §2: "The page
 * remembers the tab, the last query parameters and the live path asset").
 */
import { z } from 'zod';
import { METRES_PER_MILE_EXACT, REPORT_ASSETS_MAX } from './constants';
import { distanceM } from './geometry';
import type { TripPoint } from './trip';

/** Metres along a run's points in order. */
export function runDistanceM(points: readonly Pick<TripPoint, 'lat' | 'lng'>[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += distanceM(points[i - 1]!, points[i]!);
  return total;
}

/** A distance as the dashboard writes it: miles with one decimal ('12.3 mi'). */
export function formatMiles(meters: number): string {
  return `${(meters / METRES_PER_MILE_EXACT).toFixed(1)} mi`;
}

// ── the trips page's remembered state ──
export const TRIPS_TABS = ['runs', 'replay', 'live'] as const;
export type TripsTab = (typeof TRIPS_TABS)[number];

/** What the trips page keeps across reloads (read back through this schema: storage is input). */
export const tripsMemorySchema = z.object({
  tab: z.enum(TRIPS_TABS).catch('runs'),
  thingIds: z.array(z.string().max(100)).max(REPORT_ASSETS_MAX).catch([]),
  startTime: z.number().nullable().catch(null),
  endTime: z.number().nullable().catch(null),
  liveThingId: z.string().max(100).nullable().catch(null),
});
export type TripsMemory = z.infer<typeof tripsMemorySchema>;

export const EMPTY_TRIPS_MEMORY: TripsMemory = { tab: 'runs', thingIds: [], startTime: null, endTime: null, liveThingId: null };

/** The remembered state from its stored text; anything unreadable falls back field by field. */
export function readTripsMemory(text: string | null): TripsMemory {
  if (!text) return { ...EMPTY_TRIPS_MEMORY };
  try {
    const parsed = tripsMemorySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { ...EMPTY_TRIPS_MEMORY };
  } catch {
    return { ...EMPTY_TRIPS_MEMORY };
  }
}
