/**
 * The R2R search's wire (part 2 §2 R2R, §5 R2R; the result is shown as R2R data by asset, §7).
 * The spec shows no path: GET /r2r is ours (server/http/r2r-search/).
 */
import { z } from 'zod';
import { MINUTE_MS } from './constants';

/** chosen: a position more than 5 minutes from the alert time is not "where it was" then. */
export const R2R_POSITION_TOLERANCE_MS = 5 * MINUTE_MS;

export const r2rAlertWireSchema = z.object({
  id: z.string(),
  alert_time: z.string(),
  other_thing_id: z.string().nullable(),
  other_thing_name: z.string().nullable(),
  distance_m: z.number().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  is_test: z.boolean(),
  delivered: z.boolean(),
  /**
   * Where the receiving asset was at the alert time (design, for the map of part 2 §2 R2R): its
   * nearest trip point within R2R_POSITION_TOLERANCE_MS; absent or null when none, or when the
   * caller may not see the receiver.
   */
  other_lat: z.number().nullable().optional(),
  other_lng: z.number().nullable().optional(),
});

export const r2rSearchWireSchema = z.object({
  thing_id: z.string(),
  thing_name: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  alerts: z.array(r2rAlertWireSchema),
});
export type R2RSearchWire = z.infer<typeof r2rSearchWireSchema>;
