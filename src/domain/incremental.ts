/**
 * Incremental list answers (part 1 §7, part 2 §7 `last_updated_timestamp`; ARCHITECTURE "Live
 * data"): besides the changed records, every answer carries the ids deleted since the given time
 * and the server's own timestamp for the next call, so no client clock is trusted and deletions
 * are never missed.
 */
import { z } from 'zod';

export const incrementalMetaSchema = z.object({
  /** ISO time to send back as `last_updated_timestamp` on the next call. */
  server_timestamp: z.string(),
  /** Ids deleted since `last_updated_timestamp` (empty on a full load). */
  deleted_ids: z.array(z.string()).default([]),
});
export type IncrementalMeta = z.infer<typeof incrementalMetaSchema>;

/** GET /organization/things: `{ data, meta: { page, per_page, total, server_timestamp, deleted_ids } }`. */
export const pagedMetaSchema = incrementalMetaSchema.extend({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1),
  total: z.number().int().min(0),
});
export type PagedMeta = z.infer<typeof pagedMetaSchema>;

export function incrementalAnswerSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: incrementalMetaSchema });
}

export function pagedAnswerSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: pagedMetaSchema });
}

/** part 1 §7: page count is the ceiling of total over page size, minimum 1. */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}
