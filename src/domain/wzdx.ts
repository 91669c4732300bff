/**
 * The WZDx v4.2 Work Zone Feed (types after the official schemas in ../shared/wzdx/schemas-4.2/)
 * and the builder that publishes Lightbar's closures as such a feed (part 2 §1 "Closures can be
 * published to a work-zone data exchange (WZDx) feed", §3 Closure WZDx fields).
 *
 * Which closures go in: those publishing (a WZDx id is set on a closure Lightbar manages:
 * `isPublishOn`) with a route of at least 2 points, that have not ended, and that are either in
 * effect (status active) or scheduled to start later (event_status planned). A closure that is
 * neither is not a work zone now nor a planned one, so it is left out.
 *
 * Mapping decisions, per closure:
 * - id: the WZDx id; geometry: a LineString of the route ([lng, lat], truncated to 7 decimals).
 * - direction: N/E/S/W → northbound/eastbound/southbound/westbound; none → 'unknown'.
 * - road_names: the distinct non-empty start and end streets; 'Unknown' when both are empty
 *   (the schema needs at least one name).
 * - start_date: the scheduled start when planned; when active, the last start, else the start,
 *   else `now`. is_start_date_verified is true only when active (the closure is known to be on).
 * - end_date: the end time; an open-ended closure is given Lightbar's furthest end (now + 3
 *   months, part 2 §9) with is_end_date_verified false, as WZDx asks for an estimate.
 * - positions are drawn on a map, not surveyed: is_start/end_position_verified are false.
 * - vehicle_impact / location_method: the closure's value when it is a WZDx value, else 'unknown'.
 * - lanes: the impacted lane numbers as closed general lanes (order = lane number, 1 the
 *   left-most), only when some are given and the impact is not an all-lanes-open kind.
 * - related_road_events: the group id, as a 'related-work-zone'.
 * - Dates are RFC 3339 UTC with seconds precision (e.g. 2026-11-22T05:00:00Z).
 */
import type { Closure } from './closure';
import { closureEndLimit } from './closure-form';
import type { ClosureDirection } from './constants';
import { truncateCoordinate } from './geometry';
import { toIso } from './time';
import { codeWords } from './thing-type';

// ── enumerations (schemas-4.2) ───────────────────────────────────────────────

export const WZDX_VERSION = '4.2';
export const WZDX_LICENSE = 'https://creativecommons.org/publicdomain/zero/1.0/';

export const WZDX_DIRECTIONS = [
  'northbound',
  'eastbound',
  'southbound',
  'westbound',
  'undefined',
  'unknown',
  'inner-loop',
  'outer-loop',
] as const;
export type WzdxDirection = (typeof WZDX_DIRECTIONS)[number];

export const WZDX_VEHICLE_IMPACTS = [
  'all-lanes-closed',
  'some-lanes-closed',
  'all-lanes-open',
  'alternating-one-way',
  'some-lanes-closed-merge-left',
  'some-lanes-closed-merge-right',
  'all-lanes-open-shift-left',
  'all-lanes-open-shift-right',
  'some-lanes-closed-split',
  'flagging',
  'temporary-traffic-signal',
  'unknown',
] as const;
export type WzdxVehicleImpact = (typeof WZDX_VEHICLE_IMPACTS)[number];

export const WZDX_LOCATION_METHODS = ['channel-device-method', 'sign-method', 'junction-method', 'other', 'unknown'] as const;
export type WzdxLocationMethod = (typeof WZDX_LOCATION_METHODS)[number];

export const WZDX_EVENT_STATUSES = ['planned', 'pending', 'active', 'completed', 'cancelled'] as const;
export type WzdxEventStatus = (typeof WZDX_EVENT_STATUSES)[number];

export type WzdxEventType = 'work-zone' | 'detour' | 'restriction';

export const WZDX_WORK_ZONE_TYPES = ['static', 'moving', 'planned-moving-area'] as const;
export type WzdxWorkZoneType = (typeof WZDX_WORK_ZONE_TYPES)[number];

export const WZDX_LANE_STATUSES = ['open', 'closed', 'shift-left', 'shift-right', 'merge-left', 'merge-right', 'alternating-flow'] as const;
export type WzdxLaneStatus = (typeof WZDX_LANE_STATUSES)[number];

export const WZDX_LANE_TYPES = [
  'general',
  'exit-lane',
  'exit-ramp',
  'entrance-lane',
  'entrance-ramp',
  'sidewalk',
  'bike-lane',
  'shoulder',
  'parking',
  'median',
  'two-way-center-turn-lane',
  'center-left-turn-lane',
] as const;
export type WzdxLaneType = (typeof WZDX_LANE_TYPES)[number];

export const WZDX_RELATED_ROAD_EVENT_TYPES = [
  'first-in-sequence',
  'next-in-sequence',
  'first-occurrence',
  'next-occurrence',
  'related-work-zone',
  'related-detour',
  'planned-moving-operation',
  'active-moving-operation',
] as const;
export type WzdxRelatedRoadEventType = (typeof WZDX_RELATED_ROAD_EVENT_TYPES)[number];

// ── types (schemas-4.2) ──────────────────────────────────────────────────────

/** FeedInfo.json#/definitions/FeedDataSource */
export interface FeedDataSource {
  data_source_id: string;
  organization_name: string;
  contact_name?: string;
  contact_email?: string;
  update_frequency?: number;
  update_date?: string;
}

/** FeedInfo.json */
export interface FeedInfo {
  publisher: string;
  contact_name?: string;
  contact_email?: string;
  update_frequency?: number;
  update_date: string;
  version: string;
  license?: typeof WZDX_LICENSE;
  data_sources: [FeedDataSource, ...FeedDataSource[]];
}

export interface WzdxRelatedRoadEvent {
  type: WzdxRelatedRoadEventType;
  id: string;
}

/** RoadEventFeature.json#/definitions/RoadEventCoreDetails */
export interface RoadEventCoreDetails {
  data_source_id: string;
  event_type: WzdxEventType;
  road_names: [string, ...string[]];
  direction: WzdxDirection;
  related_road_events?: WzdxRelatedRoadEvent[];
  name?: string;
  description?: string;
  creation_date?: string;
  update_date?: string;
}

/** RoadEventFeature.json#/definitions/Lane */
export interface WzdxLane {
  order: number;
  status: WzdxLaneStatus;
  type: WzdxLaneType;
}

/** RoadEventFeature.json#/definitions/WorkZoneRoadEvent (the fields Lightbar writes or reads). */
export interface WorkZoneRoadEvent {
  core_details: RoadEventCoreDetails & { event_type: 'work-zone' };
  start_date: string;
  end_date: string;
  is_start_date_verified: boolean;
  is_end_date_verified: boolean;
  is_start_position_verified: boolean;
  is_end_position_verified: boolean;
  vehicle_impact: WzdxVehicleImpact;
  location_method: WzdxLocationMethod;
  beginning_cross_street?: string;
  ending_cross_street?: string;
  work_zone_type?: WzdxWorkZoneType;
  lanes?: WzdxLane[];
  reduced_speed_limit_kph?: number;
  /** Deprecated in 4.2 but still valid; kept for consumers on older readers. */
  event_status?: WzdxEventStatus;
}

export interface WzdxLineString {
  type: 'LineString';
  coordinates: [number, number][];
}

export interface WzdxMultiPoint {
  type: 'MultiPoint';
  coordinates: [number, number][];
}

/** RoadEventFeature.json (work-zone events only: Lightbar publishes no detours). */
export interface RoadEventFeature {
  id: string;
  type: 'Feature';
  properties: WorkZoneRoadEvent;
  geometry: WzdxLineString | WzdxMultiPoint;
  bbox?: number[];
}

/** WorkZoneFeed.json */
export interface WorkZoneFeed {
  feed_info: FeedInfo;
  type: 'FeatureCollection';
  features: RoadEventFeature[];
  bbox?: number[];
}

/** What the caller supplies of the feed header; update_date, version and license are set here. */
export type WzdxFeedInfoInput = Omit<FeedInfo, 'update_date' | 'version' | 'license'>;

// ── mapping ──────────────────────────────────────────────────────────────────

const DIRECTIONS: Readonly<Record<ClosureDirection, WzdxDirection>> = {
  N: 'northbound',
  E: 'eastbound',
  S: 'southbound',
  W: 'westbound',
};

export function toWzdxDirection(direction: ClosureDirection | null | undefined): WzdxDirection {
  return direction ? DIRECTIONS[direction] : 'unknown';
}

export const UNKNOWN_ROAD_NAME = 'Unknown';

const ALL_LANES_OPEN: readonly WzdxVehicleImpact[] = ['all-lanes-open', 'all-lanes-open-shift-left', 'all-lanes-open-shift-right'];

function oneOf<T extends string>(values: readonly T[], value: string | null | undefined, fallback: T): T {
  return value && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

export function toWzdxVehicleImpact(value: string | null | undefined): WzdxVehicleImpact {
  return oneOf(WZDX_VEHICLE_IMPACTS, value, 'unknown');
}

export function toWzdxLocationMethod(value: string | null | undefined): WzdxLocationMethod {
  return oneOf(WZDX_LOCATION_METHODS, value, 'unknown');
}

/** RFC 3339 UTC, seconds precision. */
export function wzdxDate(ms: number): string {
  return toIso(Math.floor(ms / 1000) * 1000).replace('.000Z', 'Z');
}

export function wzdxRoadNames(closure: Pick<Closure, 'streetStart' | 'streetEnd'>): [string, ...string[]] {
  const names = [...new Set([closure.streetStart.trim(), closure.streetEnd.trim()].filter(Boolean))];
  const [first, ...rest] = names;
  return first ? [first, ...rest] : [UNKNOWN_ROAD_NAME];
}

export function wzdxLanes(impactedLanes: readonly number[], impact: WzdxVehicleImpact): WzdxLane[] | undefined {
  if (ALL_LANES_OPEN.includes(impact)) return undefined;
  const orders = [...new Set(impactedLanes.filter((n) => Number.isInteger(n) && n >= 1))].sort((a, b) => a - b);
  if (orders.length === 0) return undefined;
  return orders.map((order) => ({ order, status: 'closed', type: 'general' }));
}

export type WzdxClosure = Pick<
  Closure,
  | 'closureType'
  | 'status'
  | 'isPublishOn'
  | 'wzdxId'
  | 'routePath'
  | 'startTime'
  | 'endTime'
  | 'lastStartTime'
  | 'direction'
  | 'streetStart'
  | 'streetEnd'
  | 'description'
  | 'impactedLanes'
  | 'vehicleImpact'
  | 'locationMethod'
  | 'groupId'
>;

/** The event status a closure is published with, or null when it is not published now. */
export function wzdxEventStatus(closure: WzdxClosure, now: number): 'active' | 'planned' | null {
  if (!closure.isPublishOn || !closure.wzdxId || closure.routePath.length < 2) return null;
  if (closure.endTime !== null && closure.endTime <= now) return null;
  if (closure.status === 'active') return 'active';
  if (closure.startTime !== null && closure.startTime > now) return 'planned';
  return null;
}

export function toRoadEventFeature(
  closure: WzdxClosure & { wzdxId: string },
  eventStatus: 'active' | 'planned',
  dataSourceId: string,
  now: number,
): RoadEventFeature {
  const active = eventStatus === 'active';
  const start = active ? (closure.lastStartTime ?? closure.startTime ?? now) : (closure.startTime ?? now);
  const end = closure.endTime ?? closureEndLimit(now);
  const vehicleImpact = toWzdxVehicleImpact(closure.vehicleImpact);
  const coreDetails: WorkZoneRoadEvent['core_details'] = {
    data_source_id: dataSourceId,
    event_type: 'work-zone',
    road_names: wzdxRoadNames(closure),
    direction: toWzdxDirection(closure.direction),
    update_date: wzdxDate(now),
  };
  if (closure.description.trim()) coreDetails.description = closure.description.trim();
  if (closure.groupId) coreDetails.related_road_events = [{ type: 'related-work-zone', id: closure.groupId }];
  const properties: WorkZoneRoadEvent = {
    core_details: coreDetails,
    start_date: wzdxDate(start),
    end_date: wzdxDate(end),
    is_start_date_verified: active,
    is_end_date_verified: false,
    is_start_position_verified: false,
    is_end_position_verified: false,
    vehicle_impact: vehicleImpact,
    location_method: toWzdxLocationMethod(closure.locationMethod),
    work_zone_type: 'static',
    event_status: eventStatus,
  };
  const lanes = wzdxLanes(closure.impactedLanes, vehicleImpact);
  if (lanes) properties.lanes = lanes;
  return {
    id: closure.wzdxId,
    type: 'Feature',
    properties,
    geometry: {
      type: 'LineString',
      coordinates: closure.routePath.map((p) => [truncateCoordinate(p.lng), truncateCoordinate(p.lat)]),
    },
  };
}

/**
 * The WZDx 4.2 feed of the given closures (see the file's header for which go in and how).
 * Each feature's data_source_id is the first data source of `feedInfo`.
 */
export function buildWzdxFeed(closures: readonly WzdxClosure[], feedInfo: WzdxFeedInfoInput, now: number): WorkZoneFeed {
  const dataSourceId = feedInfo.data_sources[0].data_source_id;
  const features: RoadEventFeature[] = [];
  for (const closure of closures) {
    const status = wzdxEventStatus(closure, now);
    if (status === null || !closure.wzdxId) continue;
    features.push(toRoadEventFeature({ ...closure, wzdxId: closure.wzdxId }, status, dataSourceId, now));
  }
  return {
    feed_info: { ...feedInfo, update_date: wzdxDate(now), version: WZDX_VERSION, license: WZDX_LICENSE },
    type: 'FeatureCollection',
    features,
  };
}

/**
 * A WZDx enumeration value as words (the feed keeps the value): 'all-lanes-open-shift-left' →
 * 'All lanes open, shift left', 'channel-device-method' → 'Channel device method'. Chosen: the
 * spec shows no labels, and a dispatcher should not read hyphenated codes.
 */
export function wzdxValueLabel(value: string): string {
  return codeWords(value.replace(/-(merge|shift|split)(?=-|$)/, ',-$1'));
}
