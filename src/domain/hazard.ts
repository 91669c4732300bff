/**
 * The hazard report's wire (part 2 §2 Hazards "a report of hazards by type and severity", §5
 * Hazard report). The spec shows no path: GET /organization/hazards is ours (server/http/hazards/).
 */
import { z } from 'zod';
import { HAZARD_SEVERITIES, HAZARD_TYPES } from './constants';

export const hazardWireSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  organization_name: z.string(),
  thing_id: z.string().nullable(),
  thing_name: z.string().nullable(),
  hazard_type: z.enum(HAZARD_TYPES),
  severity: z.enum(HAZARD_SEVERITIES),
  lat: z.number(),
  lng: z.number(),
  reported_at: z.string(),
});
export type HazardWire = z.infer<typeof hazardWireSchema>;

export const hazardCountWireSchema = z.object({
  hazard_type: z.enum(HAZARD_TYPES),
  low: z.number().int(),
  medium: z.number().int(),
  high: z.number().int(),
  total: z.number().int(),
});

/** The GET answer. */
export const hazardReportWireSchema = z.object({
  start_time: z.string(),
  end_time: z.string(),
  hazards: z.array(hazardWireSchema),
  counts: z.array(hazardCountWireSchema),
});
export type HazardReportWire = z.infer<typeof hazardReportWireSchema>;
