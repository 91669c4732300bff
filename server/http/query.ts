import { z } from 'zod';
import { parse } from './errors';

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

/** `last_updated_timestamp`: an ISO time or epoch seconds/milliseconds; absent = a full load. */
export function sinceParam(query: unknown, name = 'last_updated_timestamp'): Date | null {
  const raw = ((query ?? {}) as Record<string, unknown>)[name];
  if (raw === undefined || raw === '') return null;
  const value = parse(z.string().max(40), raw);
  const numeric = Number(value);
  const date = Number.isFinite(numeric) ? new Date(numeric < 1e12 ? numeric * 1000 : numeric) : new Date(value);
  if (Number.isNaN(date.getTime())) parse(z.never({ error: `${name} must be an ISO time or epoch seconds` }), value);
  return date;
}

export const uuidParam = z.object({ id: z.uuid({ error: 'must be a uuid' }) });

const uuid = z.uuid();

/** True when `value` is a uuid: a path id that is not one names no record (404, never a 500). */
export function isUuid(value: unknown): value is string {
  return uuid.safeParse(value).success;
}
