/**
 * Times on the wire and in the client (part 1 §3, part 2 §3): the server writes ISO 8601
 * date-times (`heartbeat_datetime`, `start_time`, `updated_at`, ...); client models hold epoch
 * milliseconds. Every mapper converts through these two functions.
 */
import { TZDate, tz } from '@date-fns/tz';
import { format } from 'date-fns';
import { z } from 'zod';
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from './constants';

/** ISO 8601 date-time with Z or an offset, as the server writes them. */
export const isoDateTime = z.iso.datetime({ offset: true });
/** The form `isoDateTime` checks, as zod's own regular expression: for a check without a schema per value. */
export const ISO_DATE_TIME_FORM = z.regexes.datetime({ offset: true });

/** An ISO date-time as epoch ms; null for a missing, empty or unreadable value. */
export function parseTime(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/** Epoch ms as an ISO date-time in UTC (`...Z`); null stays null. */
export function toIso(ms: number): string;
export function toIso(ms: number | null): string | null;
export function toIso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * Whole seconds from `start` to `end` (at least 0; null without a start): a run's or an incident's
 * `runtime` on the wire (part 1 §7), as the server writes it and the fleet snapshot's reader fills it.
 */
export function secondsBetween(start: Date | number | null | undefined, end: Date | number): number | null {
  if (start === null || start === undefined) return null;
  const from = typeof start === 'number' ? start : start.getTime();
  const to = typeof end === 'number' ? end : end.getTime();
  return Math.max(0, Math.floor((to - from) / SECOND_MS));
}

// ── shown times (part 1 §2 event detail: start, end, duration, arrived, time-to-scene) ──
/** How the dashboard writes a date and time (the spec shows no format: chosen). */
export const DATE_TIME_FORMAT = 'MM/dd/yyyy h:mm a';

/** The top bar's clock (part 1 §2: date and time; the spec shows no format: chosen). */
export const CLOCK_FORMAT = 'EEE, MMM d, yyyy hh:mm a';

const knownZones = new Map<string, boolean>();
/** Whether the runtime knows `timeZone` (an IANA name); an unknown one would make every shown time throw. */
export function knownZone(timeZone: string): boolean {
  let known = knownZones.get(timeZone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
      known = true;
    } catch {
      known = false;
    }
    knownZones.set(timeZone, known);
  }
  return known;
}

/** Epoch ms in `pattern` (date-fns) in `timeZone` (IANA); in the runtime's zone when none or unknown. */
function formatIn(ms: number, pattern: string, timeZone?: string | null): string {
  return timeZone && knownZone(timeZone) ? format(ms, pattern, { in: tz(timeZone) }) : format(ms, pattern);
}

/** Epoch ms as DATE_TIME_FORMAT in `timeZone` (IANA), or in the runtime's zone when none or unknown. */
export function formatDateTime(ms: number, timeZone?: string | null): string {
  return formatIn(ms, DATE_TIME_FORMAT, timeZone);
}

/**
 * Epoch ms as the top bar's CLOCK_FORMAT in the user's zone (the profile's, the one every other
 * shown time uses), or the runtime's when none or unknown.
 */
export function formatClock(ms: number, timeZone?: string | null): string {
  return formatIn(ms, CLOCK_FORMAT, timeZone);
}

const UNITS = [
  ['d', DAY_MS / SECOND_MS],
  ['h', HOUR_MS / SECOND_MS],
  ['m', MINUTE_MS / SECOND_MS],
  ['s', 1],
] as const;

/**
 * A span as its two largest units ('2d 3h', '1h 5m', '4m 10s', '35s'); negative spans count as 0.
 * Seconds are floored (the spec shows no format: chosen).
 */
export function formatDuration(ms: number): string {
  let seconds = Math.max(0, Math.floor(ms / SECOND_MS));
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(seconds / size);
    seconds -= count * size;
    if (parts.length > 0 || count > 0 || size === 1) parts.push(`${count}${unit}`);
  }
  return parts.slice(0, 2).join(' ');
}

// ── minute-precision time inputs (part 2 §5 date pickers with minute granularity) ──
// The one conversion between a datetime-local input and an instant (trips, hazards, R2R, closures, exports).
const INPUT_PATTERN = "yyyy-MM-dd'T'HH:mm";
const INPUT_SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Epoch ms as a datetime-local value ('2026-01-31T14:05') in `timeZone` (the runtime's when none); '' for none or an unreadable date. */
export function toMinuteInput(ms: number | null, timeZone?: string | null): string {
  return ms === null || !Number.isFinite(ms) ? '' : formatIn(ms, INPUT_PATTERN, timeZone);
}

/**
 * The text a date input's state holds for a date the browser cannot read (a year 0000 typed: the
 * input's value is then '' and `validity.badInput` is set, so it would pass for empty).
 * `fromMinuteInput` reads it as NaN, which the forms' schemas answer with 'Enter a date between
 * 1970 and 2100' (validation/fields.ts `readableDate`); shown, it is an empty input again.
 */
export const UNREADABLE_DATE_TEXT = 'unreadable';

/** What a date input holds: its value, or UNREADABLE_DATE_TEXT when the browser cannot read what was typed. */
export function dateInputText(input: { readonly value: string; readonly validity?: { readonly badInput: boolean } }): string {
  return input.validity?.badInput ? UNREADABLE_DATE_TEXT : input.value;
}

/** A date input read as epoch ms in `timeZone`: null when empty, NaN when the browser cannot read it. */
export function readDateInput(
  input: { readonly value: string; readonly validity?: { readonly badInput: boolean } },
  timeZone?: string | null,
): number | null {
  return fromMinuteInput(dateInputText(input), timeZone);
}

/** A datetime-local value read in `timeZone` (the runtime's when none) as epoch ms; null for an empty or malformed value, NaN for UNREADABLE_DATE_TEXT (alone or as the date or time part). */
export function fromMinuteInput(value: string, timeZone?: string | null): number | null {
  if (value.includes(UNREADABLE_DATE_TEXT)) return Number.NaN;
  const match = INPUT_SHAPE.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  // Date reads years 0..99 as 1900..1999: a year 0099 typed would pass for 1999. Such a year is unreadable here.
  if (year < 100) return Number.NaN;
  const ms =
    timeZone && knownZone(timeZone)
      ? new TZDate(year, month - 1, day, hour, minute, timeZone).getTime()
      : new Date(year, month - 1, day, hour, minute).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** A moment cut to its minute (the inputs' precision). */
export function floorToMinute(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}

const MONTH_YEAR = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** A calendar month as reports name it ('January 2026'): a month, not a moment, so no zone applies. */
export function monthYearLabel(year: number, month: number): string {
  return MONTH_YEAR.format(Date.UTC(year, month - 1, 1));
}
