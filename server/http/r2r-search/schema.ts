import { z } from 'zod';
import { R2R_POSITION_TOLERANCE_MS, r2rAlertWireSchema, r2rSearchWireSchema, type R2RSearchWire } from '../../../src/domain/r2r-search';
import { r2rSearchSchema } from '../../../src/domain/validation/reports';
import { parseForm, unprocessable } from '../../core/errors';
import { requiredTimeValue, sinceParam } from '../query';
import { documentedObject } from '../route-validation';

/**
 * The R2R search's query, rules and answer (part 2 §5 R2R: asset and start time required, the end
 * is start plus 15 minutes, no future dates), and the "nearest" rule of the map's positions: the
 * trip point (a point of a run) closest in time to the alert, within R2R_POSITION_TOLERANCE_MS;
 * none → null.
 */

export { r2rAlertWireSchema, r2rSearchWireSchema };
export type { R2RSearchWire };

// ── requests ─────────────────────────────────────────────────────────────────

const SEARCH_WIRE_NAMES = { thingId: 'thing_id', startTime: 'start_time' } as const;

export const searchQuery = documentedObject({
  thing_id: z
    .string()
    .meta({ description: "The asset, a uuid (absent or malformed: 422; one the caller cannot see: 404 'Asset not found')." }),
  start_time: requiredTimeValue('The start of the 15 minutes searched, in the past.'),
});

/** The search's asset and start by the search form's rules and messages; an asset id that is no uuid → 422. */
export function validSearch(rawQuery: unknown, now: number): { thingId: string; startTime: number } {
  const query = (rawQuery ?? {}) as Record<string, unknown>;
  const rawThingId = typeof query['thing_id'] === 'string' ? query['thing_id'] : undefined;
  const form = parseForm(
    r2rSearchSchema({ now }),
    { thingId: rawThingId, startTime: sinceParam(query, 'start_time')?.getTime() ?? null },
    SEARCH_WIRE_NAMES,
  );
  const thingId = z.uuid().safeParse(String(form.thingId));
  if (!thingId.success) throw unprocessable('thing_id: must be a uuid');
  return { thingId: thingId.data, startTime: form.startTime! };
}

// ── positions ────────────────────────────────────────────────────────────────

export interface TimedPosition {
  at: number;
  lat: number;
  lng: number;
}

/** The position closest in time to `at` (within the tolerance), or null. */
export function nearestPosition(list: readonly TimedPosition[] | undefined, at: number): { lat: number; lng: number } | null {
  if (!list || list.length === 0) return null;
  let low = 0;
  let high = list.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (list[middle]!.at < at) low = middle + 1;
    else high = middle;
  }
  const candidates = [list[low - 1], list[low]].filter((p): p is TimedPosition => p !== undefined);
  const best = candidates.reduce((a, b) => (Math.abs(b.at - at) < Math.abs(a.at - at) ? b : a));
  return Math.abs(best.at - at) <= R2R_POSITION_TOLERANCE_MS ? { lat: best.lat, lng: best.lng } : null;
}
