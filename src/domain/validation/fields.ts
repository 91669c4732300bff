/**
 * Field builders shared by the form schemas: part 1 §5 / part 2 §5 "Required strings are
 * trimmed, min 1", the e-mail rule, ids from selects and map points.
 */
import { z } from 'zod';
import { LAT_MAX, LAT_MIN, LNG_MAX, LNG_MIN } from '../coordinates';
import { isInputTime, text } from './boundary';
import { MESSAGES } from './messages';

/** part 1 §5: "text, an @ sign, a dot-containing domain, no spaces". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** A required text: trimmed, at least one character ('Required'), optionally capped. */
export function requiredString(max?: { readonly max: number; readonly message: string }) {
  const base = text({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required });
  return max ? base.max(max.max, { error: max.message }) : base;
}

/** An optional text: trimmed, capped; '' and a missing value both mean none. */
export function optionalString(max: { readonly max: number; readonly message: string }) {
  return text().trim().max(max.max, { error: max.message }).optional();
}

/** 'Required' then 'Must be a valid email'; trimmed. */
export function emailField() {
  return requiredString().regex(EMAIL_PATTERN, { error: MESSAGES.invalidEmail });
}

/** The value of a select: a non-empty string or a number ('Required' when missing). */
export function requiredId() {
  return z.union([z.string().trim().min(1, { error: MESSAGES.required }), z.number()], { error: MESSAGES.required });
}

export function latitudeField() {
  return z
    .number({ error: MESSAGES.required })
    .min(LAT_MIN, { error: MESSAGES.latitudeRange })
    .max(LAT_MAX, { error: MESSAGES.latitudeRange });
}

export function longitudeField() {
  return z
    .number({ error: MESSAGES.required })
    .min(LNG_MIN, { error: MESSAGES.longitudeRange })
    .max(LNG_MAX, { error: MESSAGES.longitudeRange });
}

/** A map point {lat, lng}. */
export const pointSchema = z.object({ lat: latitudeField(), lng: longitudeField() });
export type Point = z.infer<typeof pointSchema>;

/**
 * A date input's value (part 2 §5 date pickers): epoch ms, null (or absent) when empty, NaN when
 * the browser holds a date it cannot read (a year 0000 typed: time.ts `readDateInput`).
 */
export function dateInputField() {
  return z.union([z.number(), z.nan()]).nullish();
}

/**
 * The date of a date input to check further, or null: empty stays null (the form says 'Required'
 * where it must), and an unreadable date or one outside 1970–2100 gets 'Enter a date between 1970
 * and 2100' on its field instead of being taken for empty.
 */
export function readableDate(ctx: z.RefinementCtx, path: string, time: number | null | undefined): number | null {
  if (time === null || time === undefined) return null;
  if (isInputTime(time)) return time;
  ctx.addIssue({ code: 'custom', path: [path], message: MESSAGES.dateRange });
  return null;
}
