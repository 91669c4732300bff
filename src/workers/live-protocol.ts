/**
 * The conversation between the main thread and the live worker, besides the diff (src/domain/live-diff.ts): the
 * start configuration, the organization choice, the filter, events and cluster queries, the
 * status report and the cluster answer — types and zod schemas (CONVENTIONS §5), in one module
 * that both halves import and that holds no worker code.
 */
import { z } from 'zod';
import { ASSET_STATUSES, type ResponderMix } from '../domain/asset-status';
import { THINGS_PAGE_MAX } from '../domain/constants';
import { EVENT_DISPLAY_CHOICES, type EventsQuery } from '../domain/location';
import { canSeeSection, type PermissionList } from '../domain/permissions';
import type { LiveDiff } from '../domain/live-diff';

const statusCode = z
  .number()
  .int()
  .min(0)
  .max(ASSET_STATUSES.length - 1);

export const assetFilterInputSchema = z.object({
  statuses: z.array(statusCode),
  outOfService: z.boolean().optional(),
  feed: z.boolean().optional(),
  search: z.string().max(200).optional(),
  typeNames: z.array(z.string()).optional(),
  subtypeIds: z.array(z.string()).optional(),
  /** The Owned / Managed toggles: one kind alone, or null for both (the worker knows who owns). */
  ownership: z.enum(['owned', 'managed']).nullable().optional(),
});
/** `AssetFilterInput` as it crosses the boundary. */
export type FilterInput = z.input<typeof assetFilterInputSchema>;

export const eventsQuerySchema: z.ZodType<EventsQuery> = z.object({
  display: z.enum(EVENT_DISPLAY_CHOICES),
  search: z.string().max(200),
  timeZone: z.string().optional(),
});

export const organizationChoiceSchema = z.object({
  organizationId: z.string().min(1),
  /** `org_ids[]` of the calls; empty = the caller's own scope. */
  orgIds: z.array(z.string()).default([]),
  /** The profile's organization `is_large_org`: poll every 15 s instead of the socket. */
  largeOrg: z.boolean().default(false),
});
export type OrganizationChoice = z.input<typeof organizationChoiceSchema>;

/**
 * The lists the worker reads (the fleet, the stations among the areas, the events, the closures):
 * each only where the user's permissions open its section (part 1 §6), as the server's list call
 * requires; a list the user may not read is never asked (a Media user's pages make no call that
 * answers 403).
 */
export const liveReadsSchema = z.object({ things: z.boolean(), areas: z.boolean(), events: z.boolean(), closures: z.boolean() });
export type LiveReads = z.infer<typeof liveReadsSchema>;
const EVERY_LIST: LiveReads = { things: true, areas: true, events: true, closures: true };

/** The lists a user with `permissions` reads (the sections of part 1 §6 whose list calls the worker makes). */
export function liveReadsFor(permissions: PermissionList): LiveReads {
  return {
    things: canSeeSection(permissions, 'things'),
    areas: canSeeSection(permissions, 'areas'),
    events: canSeeSection(permissions, 'events'),
    closures: canSeeSection(permissions, 'closures'),
  };
}

export const liveConfigSchema = organizationChoiceSchema.extend({
  apiBase: z.string().min(1),
  socketUrl: z.string().min(1),
  token: z.string().min(1),
  filter: assetFilterInputSchema.optional(),
  events: eventsQuerySchema.optional(),
  online: z.boolean().default(true),
  focused: z.boolean().default(true),
  /** The fleet's page size (`per_page`): the largest the server answers (docs/decisions/spec.md). */
  thingsPageSize: z.number().int().min(1).max(THINGS_PAGE_MAX).default(THINGS_PAGE_MAX),
  /** The lists the user may read; every one when not said (a caller that knows no profile: tests, benches). */
  reads: liveReadsSchema.default(EVERY_LIST),
});
export type LiveConfig = z.input<typeof liveConfigSchema>;

export type LivePhase = 'idle' | 'loading' | 'live';

/**
 * off: not wanted (stopped, offline, or a large organization that polls); connecting: opening;
 * open: welcomed, subscribing; subscribed: live; waiting: a reconnect is due; failed: the attempts
 * are spent (or the subscription was rejected) until it is started again.
 */
export const SOCKET_STATES = ['off', 'connecting', 'open', 'subscribed', 'waiting', 'failed'] as const;
export type SocketState = (typeof SOCKET_STATES)[number];

export interface SocketInfo {
  state: SocketState;
  /** Reconnects made since the last confirmed subscription. */
  attempt: number;
  /** The delay before the reconnect that is due (state waiting). */
  delayMs: number | null;
}

/** part 1 §3: the fleet by the ownership rule (`ownershipOf`), and whether relations exist. */
export interface LiveOwnership {
  owned: number;
  managed: number;
  relations: boolean;
}

/** Whether two ownership reports say the same (the worker sends a status, the store copies one, only on a change). */
export function sameOwnership(a: LiveOwnership, b: LiveOwnership): boolean {
  return a.owned === b.owned && a.managed === b.managed && a.relations === b.relations;
}

/** What the worker reports besides diffs (small; sent whole on every change). */
export interface LiveStatus {
  organizationId: string | null;
  phase: LivePhase;
  /** Pages of the initial things load: loaded of total (part 1 §7 paging). */
  progress: { loaded: number; total: number };
  socket: SocketInfo;
  /** Polling every 15 s is on (large organization, or the socket is not live). */
  polling: boolean;
  largeOrg: boolean;
  online: boolean;
  focused: boolean;
  /** A call answered 401: the app signs out (part 1 §4 Session). */
  unauthorized: boolean;
  /** The last failed load, null once one succeeds. */
  error: string | null;
  /** Worker clock of the last successful incremental load. */
  lastRefreshAt: number | null;
  events: { version: number; active: number; recent: number };
  closuresVersion: number;
  stations: number;
  /** part 1 §2, §4: responders among the fleet's assets (labels: Incidents or Events, On-Scene...). */
  responderMix: ResponderMix;
  ownership: LiveOwnership;
}

/** The main thread's half of the conversation (a `Comlink.proxy` of it in the browser). */
export interface LiveListener {
  diff(diff: LiveDiff): unknown;
  status(status: LiveStatus): unknown;
}

export const liveStatusSchema = z.object({
  organizationId: z.string().nullable(),
  phase: z.enum(['idle', 'loading', 'live']),
  progress: z.object({ loaded: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
  socket: z.object({ state: z.enum(SOCKET_STATES), attempt: z.number().int().nonnegative(), delayMs: z.number().nullable() }),
  polling: z.boolean(),
  largeOrg: z.boolean(),
  online: z.boolean(),
  focused: z.boolean(),
  unauthorized: z.boolean(),
  error: z.string().nullable(),
  lastRefreshAt: z.number().nullable(),
  events: z.object({ version: z.number().int(), active: z.number().int(), recent: z.number().int() }),
  closuresVersion: z.number().int(),
  stations: z.number().int(),
  responderMix: z.enum(['all', 'some', 'none']),
  ownership: z.object({ owned: z.number().int(), managed: z.number().int(), relations: z.boolean() }),
}) satisfies z.ZodType<LiveStatus>;

// ── the group view's answer ──────────────────────────────────────────────────
export interface ClusterQuery {
  /** west, south, east, north in degrees. */
  bbox: [number, number, number, number];
  zoom: number;
  /** Group the assets at stations (the station-view preference). */
  stationView: boolean;
}

export const clusterQuerySchema = z.object({
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  zoom: z.number().min(0).max(30),
  stationView: z.boolean(),
}) satisfies z.ZodType<ClusterQuery>;
