/**
 * Asset status: codes, server strings, the computed fallback, staleness, the next time a status
 * can change by time alone, the station-check rule, groups and labels (part 1 §4).
 *
 * The spec decisions (docs/decisions/spec.md) are applied here once:
 * - a heartbeat age exactly on a window boundary belongs to the later state;
 * - an enroute asset is active only while its heartbeat is younger than the active window (2 h);
 *   past it the standby / stationary / pending rules apply;
 * - stationary is read from the street the server sets after 10 minutes of stillness;
 * - online = location, active, standby, stationary, pending; out of service wins over both
 *   online and offline.
 */
import { z } from 'zod';
import { ACTIVE_WINDOW_MS, PENDING_WINDOW_MS, STALE_AFTER_MS, STANDBY_WINDOW_MS } from './constants';

// ── codes (part 1 §4: "Values (numeric order)") ──────────────────────────────
export const ASSET_STATUS = {
  location: 0,
  active: 1,
  standby: 2,
  stationary: 3,
  pending: 4,
  offline: 5,
  oos: 6,
} as const;
export type AssetStatusName = keyof typeof ASSET_STATUS;
export type AssetStatus = (typeof ASSET_STATUS)[AssetStatusName];

/** Names indexed by code: ASSET_STATUS_NAMES[ASSET_STATUS.pending] === 'pending'. */
export const ASSET_STATUS_NAMES = [
  'location',
  'active',
  'standby',
  'stationary',
  'pending',
  'offline',
  'oos',
] as const satisfies readonly AssetStatusName[];

/** Every code, in numeric order. */
export const ASSET_STATUSES: readonly AssetStatus[] = [0, 1, 2, 3, 4, 5, 6];

export function isAssetStatus(value: unknown): value is AssetStatus {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= ASSET_STATUS.oos;
}

// ── server strings (part 1 §4) ───────────────────────────────────────────────
export const SERVER_STATUSES = ['active_location', 'active', 'standby', 'stationary', 'pending', 'offline'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];
export const serverStatusSchema = z.enum(SERVER_STATUSES);

const FROM_SERVER: Readonly<Record<ServerStatus, AssetStatus>> = {
  active_location: ASSET_STATUS.location,
  active: ASSET_STATUS.active,
  standby: ASSET_STATUS.standby,
  stationary: ASSET_STATUS.stationary,
  pending: ASSET_STATUS.pending,
  offline: ASSET_STATUS.offline,
};

/** Index = code. oos has no server string: out of service travels as `in_service: false`. */
const TO_SERVER: readonly (ServerStatus | null)[] = ['active_location', 'active', 'standby', 'stationary', 'pending', 'offline', null];

export function statusFromServer(value: ServerStatus): AssetStatus {
  return FROM_SERVER[value];
}

/** The server string of a status; null for oos, which the server expresses as `in_service: false`. */
export function statusToServer(status: AssetStatus): ServerStatus | null {
  return TO_SERVER[status] ?? null;
}

// ── computed status (part 1 §4 "When the server gives no status") ────────────
/** What the status rule reads. The client `Asset` model satisfies it structurally. */
export interface AssetStatusFacts {
  /** Last heartbeat, ms since epoch; null when the asset never checked in. */
  readonly heartbeatTime: number | null;
  readonly enroute: boolean;
  /** Set by the server once the asset has been still for STATIONARY_AFTER_MS (docs/decisions/spec.md "stationary after 10 min"). */
  readonly street: string | null;
  readonly isOnIncident: boolean;
  readonly activeClosures: readonly unknown[];
}

/**
 * part 1 §4, in the spec's order: active closures → active; on an incident → location; with a
 * heartbeat younger than the active window and enroute → active; younger than the standby window
 * → stationary when it has a street, else standby; younger than the pending window → pending;
 * otherwise (or with no heartbeat) offline. Never returns oos (see `displayStatus`).
 */
export function computeAssetStatus(facts: AssetStatusFacts, now: number): AssetStatus {
  if (facts.activeClosures.length > 0) return ASSET_STATUS.active;
  if (facts.isOnIncident) return ASSET_STATUS.location;
  if (facts.heartbeatTime === null) return ASSET_STATUS.offline;
  const age = now - facts.heartbeatTime;
  if (facts.enroute && age < ACTIVE_WINDOW_MS) return ASSET_STATUS.active;
  if (age < STANDBY_WINDOW_MS) return facts.street ? ASSET_STATUS.stationary : ASSET_STATUS.standby;
  if (age < PENDING_WINDOW_MS) return ASSET_STATUS.pending;
  return ASSET_STATUS.offline;
}

/** The status an icon or a filter group shows: out of service wins (docs/decisions/spec.md "which statuses are online"). */
export function displayStatus(status: AssetStatus, inService: boolean): AssetStatus {
  return inService ? status : ASSET_STATUS.oos;
}

/** part 1 §4, §9: stale with no heartbeat, or a heartbeat STALE_AFTER_MS old or older. */
export function isStale(heartbeatTime: number | null, now: number): boolean {
  return heartbeatTime === null || now - heartbeatTime >= STALE_AFTER_MS;
}

/**
 * The earliest time strictly after `now` at which `computeAssetStatus` or `isStale` of these facts
 * gives a different answer with no new data; null when time alone changes nothing. The worker keeps
 * one deadline queue keyed by this (ARCHITECTURE "one clock"), not a timer per asset.
 */
export function nextStatusDeadline(facts: AssetStatusFacts, now: number): number | null {
  const hb = facts.heartbeatTime;
  if (hb === null) return null; // stale and offline for good
  // The windows in increasing order: the first one still ahead is the next change. (No closure
  // here: the worker calls this for every message of a 10,000-message batch.)
  const stale = hb + STALE_AFTER_MS;
  let next = stale > now ? stale : Number.POSITIVE_INFINITY;
  // Active closures and incidents fix the status; only staleness still moves.
  if (facts.activeClosures.length === 0 && !facts.isOnIncident) {
    const active = hb + ACTIVE_WINDOW_MS;
    const standby = hb + STANDBY_WINDOW_MS;
    const pending = hb + PENDING_WINDOW_MS;
    if (facts.enroute && active > now && active < next) next = active;
    if (standby > now && standby < next) next = standby;
    if (pending > now && pending < next) next = pending;
  }
  return next === Number.POSITIVE_INFINITY ? null : next;
}

// ── station check (part 1 §4) ────────────────────────────────────────────────
export interface StationState {
  readonly checkStation: boolean;
  readonly stationId: string | null;
}

/**
 * part 1 §4: "A status above active marks the asset for a station check and clears its stationId
 * unless current data is present". Above active, the station is the one the incoming data carries
 * (or none) and the worker must re-check it; at location or active the rule changes nothing
 * except taking a station id the incoming data carries.
 */
export function applyStationCheck(status: AssetStatus, current: StationState, incomingStationId?: string | null): StationState {
  if (status > ASSET_STATUS.active) {
    return { checkStation: true, stationId: incomingStationId ?? null };
  }
  return { checkStation: current.checkStation, stationId: incomingStationId ?? current.stationId };
}

// ── groups (part 1 §4, docs/decisions/spec.md) ──────────────────────────────────────
export const ONLINE_STATUSES: readonly AssetStatus[] = [
  ASSET_STATUS.location,
  ASSET_STATUS.active,
  ASSET_STATUS.standby,
  ASSET_STATUS.stationary,
  ASSET_STATUS.pending,
];

export function isOnline(status: AssetStatus): boolean {
  return status <= ASSET_STATUS.pending;
}

export const CONNECTION_GROUPS = ['online', 'offline', 'out-of-service'] as const;
export type ConnectionGroup = (typeof CONNECTION_GROUPS)[number];

/** A partition: out of service wins, then online, else offline. */
export function connectionGroup(status: AssetStatus, inService: boolean): ConnectionGroup {
  if (!inService || status === ASSET_STATUS.oos) return 'out-of-service';
  return isOnline(status) ? 'online' : 'offline';
}

// ── labels by responder mix (part 1 §4) ──────────────────────────────────────
export type ResponderMix = 'all' | 'some' | 'none';

/**
 * 'all' when every asset is a responder, 'none' when no asset is, else 'some'. An empty fleet is
 * 'all' (every one of no assets is a responder), matching is_responder's default of true.
 */
export function responderMix(assets: Iterable<{ readonly isResponderType: boolean }>): ResponderMix {
  let responders = 0;
  let others = 0;
  for (const asset of assets) {
    if (asset.isResponderType) responders += 1;
    else others += 1;
    if (responders > 0 && others > 0) return 'some';
  }
  return others === 0 ? 'all' : 'none';
}

/** The same rule from counts the worker keeps incrementally: `responders` of `total` assets. */
export function responderMixOfCount(responders: number, total: number): ResponderMix {
  if (responders >= total) return 'all';
  return responders === 0 ? 'none' : 'some';
}

/**
 * Labels of location and active by mix. "some" shows both wordings joined, exactly as part 1 §4
 * writes them ('On-Scene / Active Event', 'Responding / Active'): one organization-wide label
 * must be right for its responders and its other assets alike.
 */
const MIX_LABELS: Readonly<Record<ResponderMix, readonly [location: string, active: string]>> = {
  all: ['On-Scene', 'Responding'],
  some: ['On-Scene / Active Event', 'Responding / Active'],
  none: ['Active Event', 'Active'],
};

/** Index = code; location and active come from MIX_LABELS. */
const FIXED_LABELS: readonly string[] = ['', '', 'Standby', 'Stationary', 'Pending', 'Offline', 'Out-of-Service'];

export function statusLabel(status: AssetStatus, mix: ResponderMix): string {
  if (status === ASSET_STATUS.location) return MIX_LABELS[mix][0];
  if (status === ASSET_STATUS.active) return MIX_LABELS[mix][1];
  return FIXED_LABELS[status] ?? '';
}

/** part 1 §2: the events section is labelled Incidents when every asset is a responder. */
export function eventsSectionLabel(mix: ResponderMix): 'Incidents' | 'Events' {
  return mix === 'all' ? 'Incidents' : 'Events';
}
