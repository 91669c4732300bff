/**
 * Closures: manual, automated by an asset, or feed-based (part 2 §2 Closures, §3 Closure, §4).
 *
 * Times in the client model are ms since the epoch (null when absent); on the wire they are
 * ISO 8601 strings. Routes travel as arrays of `{ lat, lng }` points (§3 names the routes but not
 * their encoding; the client's userRoute is "points lat, lng", so the wire matches it).
 */
import { z } from 'zod';
import { versionWireShape } from './address';
import { primaryDisplayName } from './asset';
import type { ConnectionGroup } from './asset-status';
import {
  CLOSURE_DIRECTIONS,
  CLOSURE_QUICK_ACTIVATE_MONTHS,
  CLOSURE_ROW_HEIGHT,
  CLOSURE_ROW_HEIGHT_TALL,
  PENDING_WINDOW_MS,
  STANDBY_WINDOW_MS,
  type ClosureDirection,
} from './constants';
import { truncateLatLng, type LatLng } from './geometry';
import { CLOSURE_TEXT } from './labels';
import { organizationTypeWireSchema } from './organization';
import { parseTime, toIso } from './time';

// ── enums ────────────────────────────────────────────────────────────────────

export const CLOSURE_TYPES = ['automated', 'feed', 'manual'] as const;
export type ClosureType = (typeof CLOSURE_TYPES)[number];

export const CLOSURE_STATUSES = ['active', 'standby', 'pending', 'offline'] as const;
export type ClosureStatus = (typeof CLOSURE_STATUSES)[number];

// ── wire (part 2 §3 Closure (server)) ────────────────────────────────────────

export const routePointSchema = z.object({ lat: z.number(), lng: z.number() });
export const routeWireSchema = z.array(routePointSchema);

export const closureThingWireSchema = z.object({
  id: z.string(),
  nickname: z.string().nullish(),
  heartbeat_datetime: z.string().nullish(),
  haas_id: z.string().nullish(),
  registry_number: z.string().nullish(),
  vin_number: z.string().nullish(),
  license_plate_number: z.string().nullish(),
});
export type ClosureThingWire = z.infer<typeof closureThingWireSchema>;

export const closureOrganizationWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  organization_type: organizationTypeWireSchema.nullish(),
});

export const closureWireSchema = z.object({
  id: z.string(),
  closure_type: z.enum(CLOSURE_TYPES),
  is_active: z.boolean(),
  description: z.string(),
  alert_message: z.string().nullish(),
  /** N|E|S|W or empty (part 2 §3). */
  direction: z.union([z.enum(CLOSURE_DIRECTIONS), z.literal('')]).nullish(),
  street_start: z.string().nullish(),
  street_end: z.string().nullish(),
  /** The WZDx id. */
  external_id: z.string().nullish(),
  geocoded_route: routeWireSchema.nullish(),
  calculated_route: routeWireSchema.nullish(),
  user_route: routeWireSchema.nullish(),
  impacted_lanes: z.array(z.number()).nullish(),
  is_in_service: z.boolean().nullish(),
  organization: closureOrganizationWireSchema.nullish(),
  thing: closureThingWireSchema.nullish(),
  last_start_time: z.string().nullish(),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  is_wzdx_compliant: z.boolean().nullish(),
  is_dashboard_managed: z.boolean().nullish(),
  location_method: z.string().nullish(),
  vehicle_impact: z.string().nullish(),
  group_id: z.string().nullish(),
  ...versionWireShape,
});
export type ClosureWire = z.infer<typeof closureWireSchema>;

// ── client model (part 2 §3 Closure (client)) ────────────────────────────────

export interface Closure {
  id: string;
  description: string;
  secondaryDisplayName: string;
  closureType: ClosureType;
  status: ClosureStatus;
  inService: boolean;
  isActive: boolean;
  startTime: number | null;
  endTime: number | null;
  lastStartTime: number | null;
  thingId: string | null;
  /** The asset's primary display name: nickname, otherwise the upper-cased name (part 1 §3). */
  thingDisplayName: string;
  /** The asset's name (haas_id). */
  thingName: string;
  thingNickname: string;
  direction: ClosureDirection | null;
  /** Lane numbers 1-9. */
  impactedLanes: number[];
  /** The drawn path the closure covers (calculated, else geocoded, else the user's points). */
  routePath: LatLng[];
  userRoute: LatLng[];
  streetStart: string;
  streetEnd: string;
  alertMessage: string;
  /** Published to the WZDx feed (a WZDx id is set on a closure Lightbar manages). */
  isPublishOn: boolean;
  wzdxId: string | null;
  locationMethod: string | null;
  vehicleImpact: string | null;
  groupId: string | null;
  isWzdxCompliant: boolean;
  isDashboardManaged: boolean;
  /** True only for a closure being created in the form. */
  isNewForm: boolean;
  heartbeatTime: number | null;
  /** The spec's `things_associated`: ids of the assets linked to the closure. */
  thingsAssociated: string[];
  orgId: string;
  orgName: string;
  /** The server's edit counter of the copy shown (null: a new closure, or a server without one). */
  version: number | null;
}

/** part 1 §3: primaryDisplayName is the nickname, otherwise the upper-cased name. */
function thingPrimaryName(thing: ClosureThingWire): string {
  return primaryDisplayName(thing.haas_id ?? '', thing.nickname?.trim());
}

// ── status (part 2 §4) ───────────────────────────────────────────────────────

/** What the status rule reads; the client model satisfies it. */
export interface ClosureStatusFacts {
  readonly closureType: ClosureType;
  readonly isActive: boolean;
  /** The linked asset's last heartbeat (automated closures), ms; null when none. */
  readonly heartbeatTime: number | null;
}

/** The linked asset as far as the rule needs it (the Asset model satisfies it). */
export interface LinkedAssetFacts {
  readonly activeClosures: readonly unknown[];
}

/**
 * part 2 §4 Closure status.
 * - Manual and feed: active if is_active, else standby.
 * - Automated: active if is_active, or when its linked asset has active closures ("An automated
 *   closure becomes active when its linked asset has active closures"); otherwise by the asset's
 *   heartbeat age: under 8 h standby, under 96 h pending, else (or no heartbeat) offline. An age
 *   exactly on a boundary belongs to the later state (docs/decisions/spec.md).
 */
export function closureStatus(closure: ClosureStatusFacts, now: number, linkedAsset?: LinkedAssetFacts | null): ClosureStatus {
  if (closure.isActive) return 'active';
  if (closure.closureType !== 'automated') return 'standby';
  if (linkedAsset && linkedAsset.activeClosures.length > 0) return 'active';
  if (closure.heartbeatTime === null) return 'offline';
  const age = now - closure.heartbeatTime;
  if (age < STANDBY_WINDOW_MS) return 'standby';
  if (age < PENDING_WINDOW_MS) return 'pending';
  return 'offline';
}

/**
 * The next time strictly after `now` when `closureStatus` changes with no new data (an automated
 * closure crossing 8 h or 96 h), or null; for the worker's deadline queue.
 */
export function nextClosureStatusDeadline(closure: ClosureStatusFacts, now: number): number | null {
  if (closure.isActive || closure.closureType !== 'automated' || closure.heartbeatTime === null) return null;
  for (const at of [closure.heartbeatTime + STANDBY_WINDOW_MS, closure.heartbeatTime + PENDING_WINDOW_MS]) {
    if (at > now) return at;
  }
  return null;
}

/**
 * Online / offline / out-of-service of a closure, as for assets (docs/decisions/spec.md): out of service wins,
 * offline status is offline, every other status is online.
 */
export function closureConnection(closure: Pick<Closure, 'status' | 'inService'>): ConnectionGroup {
  if (!closure.inService) return 'out-of-service';
  return closure.status === 'offline' ? 'offline' : 'online';
}

// ── labels and rows ──────────────────────────────────────────────────────────

/** 'Manual Closure' (labels.ts holds the words). */
export const MANUAL_CLOSURE_LABEL = CLOSURE_TEXT.manual;

/** part 2 §2: 'by {asset}' for automated, the WZDx id for feed, 'Manual Closure' for manual. */
export function closureSecondaryLabel(closure: Pick<Closure, 'closureType' | 'thingDisplayName' | 'wzdxId'>): string {
  switch (closure.closureType) {
    case 'automated':
      return closure.thingDisplayName ? `by ${closure.thingDisplayName}` : '';
    case 'feed':
      return closure.wzdxId ?? '';
    case 'manual':
      return MANUAL_CLOSURE_LABEL;
  }
}

/** The row shows the WZDx badge for any closure carrying a WZDx id (published, or from a feed). */
export function hasWzdxBadge(closure: Pick<Closure, 'wzdxId'>): boolean {
  return Boolean(closure.wzdxId);
}

/**
 * part 2 §9 "closure 70 or 90px". Decision: a row is 90 px when it carries a tag line, i.e. the
 * out-of-service tag or the WZDx badge; otherwise 70 px (description and secondary label only).
 */
export function closureRowHeight(closure: Pick<Closure, 'inService' | 'wzdxId'>): number {
  return !closure.inService || hasWzdxBadge(closure) ? CLOSURE_ROW_HEIGHT_TALL : CLOSURE_ROW_HEIGHT;
}

/** part 2 §4: feed closures are managed by the WZDx feed and cannot be edited or deleted. */
export function isFeedManaged(closure: Pick<Closure, 'closureType'>): boolean {
  return closure.closureType === 'feed';
}

// ── mapper ───────────────────────────────────────────────────────────────────

function firstRoute(...routes: (LatLng[] | null | undefined)[]): LatLng[] {
  for (const route of routes) if (route && route.length > 0) return route.map((p) => ({ lat: p.lat, lng: p.lng }));
  return [];
}

export function fromClosureWire(wire: ClosureWire, now: number, linkedAsset?: LinkedAssetFacts | null): Closure {
  const thing = wire.thing ?? null;
  const heartbeatTime = parseTime(thing?.heartbeat_datetime);
  const wzdxId = wire.external_id ? wire.external_id : null;
  const base = {
    closureType: wire.closure_type,
    isActive: wire.is_active,
    heartbeatTime,
    thingDisplayName: thing ? thingPrimaryName(thing) : '',
    wzdxId,
  };
  return {
    id: wire.id,
    description: wire.description,
    secondaryDisplayName: closureSecondaryLabel(base),
    closureType: wire.closure_type,
    status: closureStatus(base, now, linkedAsset),
    inService: wire.is_in_service ?? true,
    isActive: wire.is_active,
    startTime: parseTime(wire.start_time),
    endTime: parseTime(wire.end_time),
    lastStartTime: parseTime(wire.last_start_time),
    thingId: thing?.id ?? null,
    thingDisplayName: base.thingDisplayName,
    thingName: thing?.haas_id ?? '',
    thingNickname: thing?.nickname ?? '',
    direction: wire.direction ? wire.direction : null,
    impactedLanes: [...(wire.impacted_lanes ?? [])],
    routePath: firstRoute(wire.calculated_route, wire.geocoded_route, wire.user_route),
    userRoute: firstRoute(wire.user_route),
    streetStart: wire.street_start ?? '',
    streetEnd: wire.street_end ?? '',
    alertMessage: wire.alert_message ?? '',
    // Feed closures carry the WZDx id of somebody else's feed: Lightbar does not republish them.
    isPublishOn: wzdxId !== null && wire.closure_type !== 'feed',
    wzdxId,
    locationMethod: wire.location_method ?? null,
    vehicleImpact: wire.vehicle_impact ?? null,
    groupId: wire.group_id ? wire.group_id : null,
    isWzdxCompliant: wire.is_wzdx_compliant ?? false,
    isDashboardManaged: wire.is_dashboard_managed ?? wire.closure_type !== 'feed',
    isNewForm: false,
    heartbeatTime,
    thingsAssociated: thing ? [thing.id] : [],
    orgId: wire.organization?.id ?? '',
    orgName: wire.organization?.name ?? '',
    version: wire.version ?? null,
  };
}

// ── filter (part 2 §2, §4) ───────────────────────────────────────────────────

export interface ClosureFilter {
  types: readonly ClosureType[];
  statuses: readonly ClosureStatus[];
  /** online / offline / out-of-service (a partition, see closureConnection). */
  connections: readonly ConnectionGroup[];
  search: string;
}

/** part 2 §4: types automated, feed and manual; statuses active, standby and pending. */
export function defaultClosureFilter(): ClosureFilter {
  return {
    types: ['automated', 'feed', 'manual'],
    statuses: ['active', 'standby', 'pending'],
    connections: ['online', 'offline', 'out-of-service'],
    search: '',
  };
}

/**
 * Case-insensitive substring of the trimmed search in the description, the secondary label, the
 * WZDx id, the asset's name or nickname, or the start or end street; an empty search matches all.
 */
export function closureMatchesSearch(
  closure: Pick<Closure, 'description' | 'secondaryDisplayName' | 'wzdxId' | 'thingName' | 'thingNickname' | 'streetStart' | 'streetEnd'>,
  search: string,
): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [
    closure.description,
    closure.secondaryDisplayName,
    closure.wzdxId ?? '',
    closure.thingName,
    closure.thingNickname,
    closure.streetStart,
    closure.streetEnd,
  ].some((field) => field.toLowerCase().includes(needle));
}

/** Every part of the filter must admit the closure. */
export function matchesClosureFilter(closure: Closure, filter: ClosureFilter): boolean {
  return (
    filter.types.includes(closure.closureType) &&
    filter.statuses.includes(closure.status) &&
    filter.connections.includes(closureConnection(closure)) &&
    closureMatchesSearch(closure, filter.search)
  );
}

// ── payloads ─────────────────────────────────────────────────────────────────

/**
 * Adds calendar months in UTC, clamping the day to the target month's length
 * (Jan 31 + 1 month = Feb 28, or 29 in a leap year); time of day is kept.
 */
export function addCalendarMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  const daysInTarget = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), daysInTarget);
  return Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** POST /organization/closure and PUT /organization/closure/{uuid} body. */
export interface ClosurePayload {
  uuid?: string;
  thing_id: string | null;
  /** part 2 §3: always true. */
  is_dashboard_managed: true;
  organization_id: string;
  closure_type: ClosureType;
  is_active: boolean;
  is_in_service: boolean;
  description: string;
  alert_message: string;
  direction: ClosureDirection | '';
  street_start: string;
  street_end: string;
  user_route: LatLng[];
  calculated_route: LatLng[];
  impacted_lanes: number[];
  start_time: string | null;
  end_time: string | null;
  external_id: string | null;
  location_method: string | null;
  vehicle_impact: string | null;
  group_id: string | null;
}

export type ClosurePayloadSource = Pick<
  Closure,
  | 'id'
  | 'thingId'
  | 'orgId'
  | 'closureType'
  | 'isActive'
  | 'inService'
  | 'description'
  | 'alertMessage'
  | 'direction'
  | 'streetStart'
  | 'streetEnd'
  | 'userRoute'
  | 'routePath'
  | 'impactedLanes'
  | 'startTime'
  | 'endTime'
  | 'isPublishOn'
  | 'wzdxId'
  | 'locationMethod'
  | 'vehicleImpact'
  | 'groupId'
>;

/**
 * The write payload (part 2 §3: uuid, thing_id, is_dashboard_managed always true, and the rest).
 * Only an automated closure sends its asset. With publishing off the WZDx fields are sent empty.
 * Coordinates are truncated to 7 decimals (part 2 §9). A new closure (empty id) sends no uuid.
 */
export function toClosurePayload(closure: ClosurePayloadSource): ClosurePayload {
  const publish = closure.isPublishOn;
  const payload: ClosurePayload = {
    thing_id: closure.closureType === 'automated' ? closure.thingId : null,
    is_dashboard_managed: true,
    organization_id: closure.orgId,
    closure_type: closure.closureType,
    is_active: closure.isActive,
    is_in_service: closure.inService,
    description: closure.description.trim(),
    alert_message: closure.alertMessage.trim(),
    direction: closure.direction ?? '',
    street_start: closure.streetStart,
    street_end: closure.streetEnd,
    user_route: closure.userRoute.map((p) => truncateLatLng(p)),
    calculated_route: closure.routePath.map((p) => truncateLatLng(p)),
    impacted_lanes: [...new Set(closure.impactedLanes)].sort((a, b) => a - b),
    start_time: toIso(closure.startTime),
    end_time: toIso(closure.endTime),
    external_id: publish ? (closure.wzdxId?.trim() ?? null) : null,
    location_method: publish ? closure.locationMethod : null,
    vehicle_impact: publish ? closure.vehicleImpact : null,
    group_id: publish && closure.groupId ? closure.groupId.trim() : null,
  };
  if (closure.id) payload.uuid = closure.id;
  return payload;
}

/** The Activate/Deactivate toggle's body (part 2 §3 "Quick update payload"). */
export interface ClosureQuickTogglePayload {
  uuid: string;
  is_active: boolean;
  end_time: string | null;
  isQuickUpdate: true;
}

/**
 * part 2 §4 Closure quick toggle: activating sends is_active true with an end time one calendar
 * month ahead (UTC); deactivating sends is_active false with end time null.
 */
export function quickTogglePayload(closure: Pick<Closure, 'id'>, activate: boolean, now: number): ClosureQuickTogglePayload {
  return {
    uuid: closure.id,
    is_active: activate,
    end_time: activate ? toIso(addCalendarMonths(now, CLOSURE_QUICK_ACTIVATE_MONTHS)) : null,
    isQuickUpdate: true,
  };
}

/** Manual closures have the quick Activate/Deactivate toggle (part 2 §2). */
export function hasQuickToggle(closure: Pick<Closure, 'closureType'>): boolean {
  return closure.closureType === 'manual';
}

// ── list order ───────────────────────────────────────────────────────────────

/**
 * The list's order (the spec gives none; docs/decisions/spec.md): by status (active, standby, pending, offline),
 * then by description, case-insensitively, then by id so equal rows keep their places.
 */
export function sortClosures(closures: readonly Closure[]): Closure[] {
  const rank = (status: ClosureStatus) => CLOSURE_STATUSES.indexOf(status);
  return [...closures].sort(
    (a, b) =>
      rank(a.status) - rank(b.status) ||
      a.description.localeCompare(b.description, undefined, { sensitivity: 'base' }) ||
      a.id.localeCompare(b.id),
  );
}

/** The list's rows: those the filter admits, in the list's order. */
export function closureListRows(closures: readonly Closure[], filter: ClosureFilter): Closure[] {
  return sortClosures(closures.filter((c) => matchesClosureFilter(c, filter)));
}
