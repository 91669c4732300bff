/**
 * The availability and density queries as they cross between the main thread and the live worker
 * (CONVENTIONS §5): zod schemas and the transfer lists, in a module that holds no worker code.
 */
import { z } from 'zod';
import type { AvailabilityAnswer, AvailabilityQuery } from './availability';

/** The radius is the preference's range (src/app/live/store.ts: positive, at most 100 km). */
export const availabilityQuerySchema = z.object({
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  radiusM: z.number().positive().max(100_000),
  columns: z.number().int().min(1).max(512).optional(),
  rows: z.number().int().min(1).max(512).optional(),
}) satisfies z.ZodType<AvailabilityQuery>;

export function availabilityTransferables(answer: AvailabilityAnswer): ArrayBuffer[] {
  return [answer.mask.buffer as ArrayBuffer];
}

/** The listed assets' positions for the density view: [lng, lat, …] in list order. */
export interface ListedPositions {
  /** The diff version they were read at. */
  version: number;
  lngLat: Float64Array;
}
