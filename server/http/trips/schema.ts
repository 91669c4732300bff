import { TZDate } from '@date-fns/tz';
import { z } from 'zod';
import { DAY_MS } from '../../../src/domain/constants';
import { coverageWireSchema, tripWireSchema, type CoverageWire, type TripWire } from '../../../src/domain/trip';
import { inputDate } from '../../../src/domain/validation/boundary';
import { MESSAGES } from '../../../src/domain/validation/messages';
import { tripsFormSchema } from '../../../src/domain/validation/reports';
import { parse, parseForm, unprocessable } from '../../core/errors';
import { listParam, listValues, sinceParam, timeValue } from '../query';
import { documentedObject } from '../route-validation';

/**
 * The trips calls' queries, rules and answers (part 2 §3 Trip, §5 "Trips and date-range reports",
 * §7 GET things/{thingId}/trips and GET things/coverage).
 *
 * The range: `start_time` and `end_time` (ISO or epoch), checked by the domain's trips rules (in
 * the past, different, end after start, at most 24 h); or `run_date=YYYY-MM-DD` alone, the whole
 * day in the asset organization's time zone (today: up to now).
 */

/** Assets per coverage call: a page of the asset list. */
export const COVERAGE_THINGS_MAX = 500;

const RANGE_WIRE_NAMES = { thingIds: 'thing_id', startTime: 'start_time', endTime: 'end_time' } as const;

/** A day of the calendar (2026-02-30 is refused, not read as 2 March) within the input range. */
const runDateParam = inputDate('must be a date YYYY-MM-DD');

// ── requests ─────────────────────────────────────────────────────────────────

export const thingPath = z.object({ thingId: z.string() });

export const tripsQuery = documentedObject({
  start_time: timeValue('The start of the range (with end_time; or run_date alone): in the past, at most 24 hours before end_time.'),
  end_time: timeValue('The end of the range: in the past, after start_time.'),
  run_date: z.string().optional().meta({
    description:
      "Without start_time and end_time: the whole day YYYY-MM-DD in the asset organization's time zone (today: up to now); not a calendar day in range: 422.",
  }),
});

export const coverageQuery = documentedObject({
  'thing_ids[]': listValues(
    `The assets, each a uuid: at least one, at most ${COVERAGE_THINGS_MAX} (else 422); unknown ones and those the caller cannot see are left out of the answer.`,
    z.uuid(),
  ),
});

/** A thing id from a path or query: a malformed one is a 422 naming the field. */
export function thingIdParam(value: unknown, field: string): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw unprocessable(`${field}: must be a uuid`);
  return parsed.data;
}

/** The asked range in ms, from start/end or from run_date (see the file comment). */
function askedRange(query: unknown, timezone: string, now: number): { startTime: number | null; endTime: number | null } {
  const start = sinceParam(query, 'start_time');
  const end = sinceParam(query, 'end_time');
  const runDate = ((query ?? {}) as Record<string, unknown>)['run_date'];
  if (start || end || runDate === undefined || runDate === '') {
    return { startTime: start?.getTime() ?? null, endTime: end?.getTime() ?? null };
  }
  const day = parse(z.object({ run_date: runDateParam }), { run_date: runDate }).run_date;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const dayStart = new TZDate(year, month - 1, date, timezone).getTime();
  return { startTime: dayStart, endTime: Math.min(dayStart + DAY_MS, now) };
}

/** The asked range of an asset's trips, checked by the domain's trips rules (422 with their messages). */
export function validRange(query: unknown, thingId: string, timezone: string, now: number): { startTime: number; endTime: number } {
  const range = askedRange(query, timezone, now);
  parseForm(tripsFormSchema({ now }), { thingIds: [thingId], ...range }, RANGE_WIRE_NAMES);
  return { startTime: range.startTime!, endTime: range.endTime! };
}

/** The distinct asset ids of a coverage call: at least one, at most COVERAGE_THINGS_MAX, each a uuid (else 422). */
export function coverageIds(query: unknown): string[] {
  const requested = [...new Set(listParam(query, 'thing_ids'))];
  if (requested.length === 0) throw unprocessable(`thing_ids: ${MESSAGES.assetsMin}`);
  if (requested.length > COVERAGE_THINGS_MAX) throw unprocessable(`thing_ids: at most ${COVERAGE_THINGS_MAX} assets`);
  return requested.map((id) => thingIdParam(id, 'thing_ids'));
}

// ── answers ──────────────────────────────────────────────────────────────────

export const coverageAnswer = z.array(coverageWireSchema);

export { coverageWireSchema, tripWireSchema };
export type { CoverageWire, TripWire };
