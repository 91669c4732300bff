/**
 * The rules every value from outside (an HTTP body or query, a device message) meets before the
 * code or the database sees it (OWASP Input Validation: allow-list ranges at the boundary). The
 * database is stricter than zod or `Date`: Postgres refuses year 0 and years past 294276, and any
 * text holding a NUL character (U+0000); such a value reaching a statement is a 500, or worse a
 * batched write that fails for every row with it. Defined once here; the field builders
 * (fields.ts), the server's `parse` and the device schema all use it.
 */
import { z } from 'zod';

/** The earliest instant a caller may send: the Unix epoch. */
export const MIN_INPUT_TIME_MS = Date.UTC(1970, 0, 1);
/** The latest instant a caller may send (exclusive of later ones): 2100-01-01. */
export const MAX_INPUT_TIME_MS = Date.UTC(2100, 0, 1);

/** The text for a time outside [MIN_INPUT_TIME_MS, MAX_INPUT_TIME_MS] or not on the calendar (chosen). */
export const TIME_RANGE_MESSAGE = 'must be a real date between 1970-01-01 and 2100-01-01';
/** The text for a text holding U+0000 (chosen). */
export const NUL_MESSAGE = 'must not contain a NUL character';

const NUL = '\u0000';

/** Whether an instant (epoch ms) is one a caller may send. */
export function isInputTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_INPUT_TIME_MS && ms <= MAX_INPUT_TIME_MS;
}

/** Whether year-month-day names a day of the calendar (no 30 February). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether a text is free of NUL characters. */
export function isNulFree(text: string): boolean {
  return !text.includes(NUL);
}

/**
 * The path of the first string (value or object key) holding a NUL in a parsed JSON body or
 * query, or null when none does. Walks at most `MAX_SCAN_DEPTH` levels: deeper input is refused
 * by the schemas anyway.
 */
const MAX_SCAN_DEPTH = 32;
export function findNul(value: unknown, path: readonly (string | number)[] = [], depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return isNulFree(value) ? null : [...path];
  if (depth >= MAX_SCAN_DEPTH || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findNul(value[index], [...path, index], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (!isNulFree(key)) return [...path, key.replaceAll(NUL, '\\u0000')];
    const found = findNul(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** A text without NUL: the base of every text field (`params`: zod's, e.g. the message for a non-text). */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isNulFree, { error: NUL_MESSAGE });
}

/**
 * An ISO 8601 date-time with Z or an offset (zod checks the calendar: no 30 February), within
 * the input range.
 */
export function inputDateTime(error = 'must be an ISO 8601 time') {
  return z.iso.datetime({ offset: true, error }).refine((value) => isInputTime(Date.parse(value)), { error: TIME_RANGE_MESSAGE });
}

/** A calendar date YYYY-MM-DD that exists (no 30 February), within the input range. */
export function inputDate(error = 'must be a date YYYY-MM-DD') {
  return z.iso.date({ error }).refine((value) => isInputTime(Date.parse(`${value}T00:00:00Z`)), { error: TIME_RANGE_MESSAGE });
}
