import { z } from 'zod';
import { isCalendarDay, isInputTime, TIME_RANGE_MESSAGE } from '../../src/domain/validation/boundary';
import { HttpError, parse, unprocessable } from '../core/errors';

/**
 * Query helpers shared by the list calls. `org_ids[]={id}` may come once or repeated; Fastify's
 * parser gives a string or an array under the key `org_ids[]` (or `org_ids`).
 */
export function listParam(query: unknown, name: string): string[] {
  const record = (query ?? {}) as Record<string, unknown>;
  const raw = record[`${name}[]`] ?? record[name];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return parse(z.array(z.string().trim().min(1).max(100)).max(1000), values);
}

/**
 * `last_updated_timestamp` (and the other time parameters): an ISO time or epoch seconds/
 * milliseconds; absent = a full load. A time that is not on the calendar or outside the input
 * range (boundary.ts) is a 422 naming the parameter: Postgres must never see it.
 */
export function sinceParam(query: unknown, name = 'last_updated_timestamp'): Date | null {
  const raw = ((query ?? {}) as Record<string, unknown>)[name];
  if (raw === undefined || raw === '') return null;
  const value = parse(z.object({ [name]: z.string().max(40) }), { [name]: raw })[name] as string;
  const numeric = Number(value);
  const ms = Number.isFinite(numeric) ? (Math.abs(numeric) < EPOCH_MS_THRESHOLD ? numeric * 1000 : numeric) : isoTimeMs(value);
  if (ms === null) throw invalidField(name, 'must be an ISO time or epoch seconds');
  if (!isInputTime(ms)) throw invalidField(name, TIME_RANGE_MESSAGE);
  return new Date(ms);
}

// ── the same parameters in the OpenAPI document ──────────────────────────────
// Read by the helpers above, never by the route validator: a route declares its query as
// `documentedObject({ ...orgIdsQuery, ...sinceQuery })` (route-validation), each route its own
// object, and answers the helpers' 422 itself (`422: errorAnswer`).

/** What listParam accepts, said once for every list parameter. */
const LIST_RULE =
  'Repeat it for several (the name without [] is read too); each a non-blank text of at most 100 characters, at most 1000 (else 422).';

/** A list parameter as listParam reads it (`name[]=a&name[]=b`); `item`: the rule each value meets next. */
export const listValues = (description: string, item: z.ZodType<string> = z.string().min(1).max(100)) =>
  z
    .array(item)
    .max(1000)
    .optional()
    .meta({ description: `${description} ${LIST_RULE}` });

/** What sinceParam accepts, said once for every time parameter. */
const TIME_RULE = `An ISO time or epoch seconds (milliseconds above 10^12) that ${TIME_RANGE_MESSAGE.replace(/^must be/, 'is')}; else 422.`;

/** A time parameter as sinceParam reads it; absent (or empty) reads as none. */
export const timeValue = (description: string) =>
  z
    .string()
    .max(40)
    .optional()
    .meta({ description: `${description} ${TIME_RULE}` });

/** A time parameter the handler's form requires (absent: its 422). */
export const requiredTimeValue = (description: string) =>
  z
    .string()
    .max(40)
    .meta({ description: `${description} ${TIME_RULE}` });

/** `last_updated_timestamp` of the incremental lists (sinceParam's default name). */
export const sinceQuery = {
  last_updated_timestamp: timeValue(
    'Only the records changed after this time, with the ids deleted since in meta.deleted_ids; absent = a full load.',
  ),
};

/** Below this magnitude an epoch number is seconds, above it milliseconds. */
const EPOCH_MS_THRESHOLD = 1e12;

/** An ISO time's epoch ms, or null when it is none or names a day the calendar lacks (30 February). */
function isoTimeMs(value: string): number | null {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (day && !isCalendarDay(Number(day[1]), Number(day[2]), Number(day[3]))) return null;
  return ms;
}

function invalidField(name: string, message: string): HttpError {
  return unprocessable(`${name}: ${message}`, 'invalid', { fields: { [name]: message } });
}

export const uuidParam = z.object({ id: z.uuid({ error: 'must be a uuid' }) });

const uuid = z.uuid();

/** True when `value` is a uuid: a path id that is not one names no record (404, never a 500). */
export function isUuid(value: unknown): value is string {
  return uuid.safeParse(value).success;
}

/** A path's `id` as Fastify gives it (any text): for calls that answer a malformed id themselves. */
export const idPath = z.object({ id: z.string() });

/** The answer of a DELETE: the id of the record removed. */
export const deletedAnswer = z.object({ id: z.string() });
