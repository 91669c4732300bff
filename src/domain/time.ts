/**
 * Times on the wire and in the client (part 1 §3, part 2 §3): the server writes ISO 8601
 * date-times (`heartbeat_datetime`, `start_time`, `updated_at`, ...); client models hold epoch
 * milliseconds. Every mapper converts through these two functions.
 */
import { z } from 'zod';

/** ISO 8601 date-time with Z or an offset, as the server writes them. */
export const isoDateTime = z.iso.datetime({ offset: true });

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
