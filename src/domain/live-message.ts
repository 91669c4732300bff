/**
 * The streaming socket's messages (part 1 §4 "Live updates", ARCHITECTURE "Live data"): the
 * ActionCable-compatible frames and the five message types the server sends on the EventsChannel.
 * The server builds them and the worker parses them with these schemas: one definition.
 */
import { z } from 'zod';
import { EVENTS_CHANNEL } from './constants';
import { thingWireSchema } from './asset';
import { locationWireSchema } from './location';

const iso = z.string().min(1);

/** point: a position report (accepted by the client when its accuracy is within the minimum). */
export const pointMessageSchema = z.object({
  type: z.literal('point'),
  thing_id: z.string(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  speed: z.number().nullish(),
  course: z.number().nullish(),
  accuracy: z.number().nullish(),
  timestamp: iso,
  /** The station the asset is at, when the server knows it (part 1 §4 station check). */
  station_id: z.string().nullish(),
  /** Set once the asset has been still 10 minutes, null while it moves (docs/decisions/spec.md "stationary after 10 min"); absent: unknown. */
  street: z.string().nullish(),
});

/** heartbeat: the device is alive; `is_active` is its alerting (enroute) flag. Inactive resets the run counters. */
export const heartbeatMessageSchema = z.object({
  type: z.literal('heartbeat'),
  thing_id: z.string(),
  is_active: z.boolean(),
  timestamp: iso,
  run_id: z.string().nullish(),
  run_start_time: iso.nullish(),
  run_points_count: z.number().int().nullish(),
});

/** thing: changed attributes of an asset (the full thing wire). */
export const thingMessageSchema = z.object({
  type: z.literal('thing'),
  thing: thingWireSchema,
});

/** location: an asset went on (location_id set) or off (null) an incident; the location comes along. */
export const locationMessageSchema = z.object({
  type: z.literal('location'),
  thing_id: z.string(),
  location_id: z.string().nullable(),
  location: locationWireSchema.nullish(),
  timestamp: iso,
});

/** closure: an automated closure became active with its asset (the asset becomes active). */
export const closureMessageSchema = z.object({
  type: z.literal('closure'),
  thing_id: z.string(),
  closure_id: z.string(),
  /** The closure's organization: the socket sends it only to callers whose closure list shows it. */
  organization_id: z.string().nullish(),
  wzdx_id: z.string().nullish(),
  is_active: z.boolean(),
  timestamp: iso,
});

export const liveMessageSchema = z.discriminatedUnion('type', [
  pointMessageSchema,
  heartbeatMessageSchema,
  thingMessageSchema,
  locationMessageSchema,
  closureMessageSchema,
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;
export type LiveMessageInput = z.input<typeof liveMessageSchema>;
export type LiveMessageType = LiveMessage['type'];

// ── ActionCable frames ───────────────────────────────────────────────────────
export interface ChannelIdentifier {
  channel: typeof EVENTS_CHANNEL;
  organization: string;
}

/** The identifier is a JSON string inside the JSON frame, as ActionCable does it. */
export function eventsChannelIdentifier(organizationId: string): string {
  return JSON.stringify({ channel: EVENTS_CHANNEL, organization: organizationId } satisfies ChannelIdentifier);
}

export const channelIdentifierSchema = z
  .string()
  .max(500)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'identifier is not JSON' });
      return z.NEVER;
    }
  })
  .pipe(z.object({ channel: z.literal(EVENTS_CHANNEL), organization: z.string().min(1).max(100) }));

export const clientCommandSchema = z.object({
  command: z.enum(['subscribe', 'unsubscribe']),
  identifier: z.string().max(500),
});
export type ClientCommand = z.infer<typeof clientCommandSchema>;

/**
 * A third subprotocol after the pair of part 1 §4 (`[SOCKET_PROTOCOL, token, LIVE_BATCH_PROTOCOL]`,
 * design, beyond the spec): the client takes the live messages of one turn of the server's event
 * loop as one frame, `{identifier, messages: [...]}`, in order, instead of a frame each. A client
 * that does not offer it gets `{identifier, message}` frames, as ActionCable sends them. At 20,000
 * messages a second a frame each cost the browser about 200 µs of CPU per message (the network
 * service, the page's process and the worker's event each), batched about 12 (docs/decisions/design.md).
 */
export const LIVE_BATCH_PROTOCOL = 'lightbar-batch-v1';

/** What the server sends: control frames, or a message on a subscribed identifier. */
export const serverFrameSchema = z.union([
  z.object({ type: z.literal('welcome') }),
  z.object({ type: z.literal('ping'), message: z.number() }),
  z.object({ type: z.literal('disconnect'), reason: z.string().optional(), reconnect: z.boolean().optional() }),
  /** `reason` on a rejection the client caused (a second spelling of a subscription, too many). */
  z.object({ type: z.enum(['confirm_subscription', 'reject_subscription']), identifier: z.string(), reason: z.string().optional() }),
  z.object({ identifier: z.string(), message: liveMessageSchema }),
  z.object({ identifier: z.string(), messages: z.array(liveMessageSchema) }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
