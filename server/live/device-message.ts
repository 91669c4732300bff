import { z } from 'zod';
import { HAZARD_SEVERITIES, HAZARD_TYPES, NICKNAME_MAX } from '../../src/domain/constants';
import { inputDateTime, text } from '../../src/domain/validation/boundary';

/**
 * What devices (and the fleet simulator) post to POST /ingest. A device is named by its
 * hardware id (`haas_id`); speed is in mph, course in degrees clockwise from north, accuracy in metres.
 */
const base = {
  haas_id: text().trim().min(1).max(64),
  // Within the input range: Postgres refuses year 0, and a stored time must be one it can hold.
  timestamp: inputDateTime('timestamp must be an ISO date-time'),
};

export const deviceMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('point'),
    ...base,
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    speed: z.number().min(0).max(250).default(0),
    course: z.number().min(0).max(360).nullish(),
    accuracy: z.number().min(0).max(100_000).nullish(),
  }),
  z.object({ type: z.literal('heartbeat'), ...base }),
  /** The alerting lights switched on or off. */
  z.object({ type: z.literal('lights'), ...base, on: z.boolean() }),
  z.object({
    type: z.literal('attributes'),
    ...base,
    attributes: z
      .object({
        nickname: text().trim().min(1).max(NICKNAME_MAX),
        in_service: z.boolean(),
        device_type: text().trim().min(1).max(20),
      })
      .partial()
      .strict(),
  }),
  z.object({
    type: z.literal('hazard'),
    ...base,
    hazard_type: z.enum(HAZARD_TYPES),
    severity: z.enum(HAZARD_SEVERITIES),
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
  }),
]);
export type DeviceMessage = z.infer<typeof deviceMessageSchema>;
export type DeviceMessageInput = z.input<typeof deviceMessageSchema>;

/**
 * 0°, 0° exactly: what a device sends when it has no GPS fix, never where a vehicle is. A point
 * there counts as the device's heartbeat (the asset keeps its last position); a hazard there is
 * refused alone with NO_FIX_REASON.
 */
export const isNoFix = (position: { lat: number; lng: number }): boolean => position.lat === 0 && position.lng === 0;
export const NO_FIX_REASON = 'lat, lng: 0, 0 is no position (a device without a GPS fix)';

/** At most this many messages per POST /ingest. */
export const INGEST_MAX_BATCH = 10_000;
export const ingestBatchSchema = z.object({ messages: z.array(z.unknown()).min(1).max(INGEST_MAX_BATCH) });
