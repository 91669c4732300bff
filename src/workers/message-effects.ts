/**
 * The effects of the socket's messages on the fleet (part 1 §4 "Live updates"), applied once per
 * batch in arrival order:
 * - point: speed and course always; the position only when its accuracy is within the minimum
 *   (POINT_ACCURACY_MIN_M, or the looser POINT_ACCURACY_STATION_MIN_M while the asset is at a
 *   station); a non-active asset that moves leaves its station (the station check finds it again
 *   when it is still inside one);
 * - heartbeat: the heartbeat time and the active (enroute) flag; inactive resets the run counters;
 * - thing: the asset's attributes, replaced by the message's;
 * - location: on an incident (status location, station cleared) or off it; the event is cached;
 * - closure: an active closure makes its asset active (and an inactive one releases it).
 * Every message is a check-in: a newer timestamp advances the heartbeat (docs/decisions/spec.md).
 */
import type { Asset } from '../domain/asset';
import { ASSET_STATUS } from '../domain/asset-status';
import { POINT_ACCURACY_MIN_M, POINT_ACCURACY_STATION_MIN_M } from '../domain/constants';
import { courseToCompass } from '../domain/heading';
import type { LiveMessage } from '../domain/live-message';
import { fromLocationWire } from '../domain/location';
import { parseTime } from '../domain/time';
import type { ClosureCache } from './closure-cache';
import type { EventsCache } from './events-cache';
import { NO_ACTIVE_CLOSURES, type FleetStore } from './fleet-store';

export interface EffectTargets {
  fleet: FleetStore;
  events: EventsCache;
  closures: ClosureCache;
  /** While the freshness of the map is measured: the timestamp (ms) of each position that moved an asset. */
  moved?: number[] | null;
}

/** part 1 §4: the accuracy a point needs to move the asset (looser at a station). */
export function pointAccuracyMinimum(asset: Pick<Asset, 'stationId'>): number {
  return asset.stationId !== null ? POINT_ACCURACY_STATION_MIN_M : POINT_ACCURACY_MIN_M;
}

/** A point without an accuracy is taken as it comes (the device did not say it is poor). */
export function isPointAccepted(accuracy: number | null | undefined, asset: Pick<Asset, 'stationId'>): boolean {
  return accuracy === null || accuracy === undefined || accuracy <= pointAccuracyMinimum(asset);
}

const DIGIT_0 = 48;

/** The number in `iso` from `start` to `end` (exclusive) when all are digits, else -1. */
function digits(iso: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i += 1) {
    const d = iso.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * A message's timestamp in ms: `Date.parse` (through the domain's `parseTime`), with a fast path
 * for the `toISOString` form the server sends (`YYYY-MM-DDTHH:mm:ss.sssZ`), read digit by digit:
 * 10,000 a batch (bench/README.md). Anything else, or a day past 28 (month lengths), goes the slow way.
 */
export function messageTime(iso: string): number | null {
  if (
    iso.length === 24 &&
    iso.charCodeAt(4) === 45 && // -
    iso.charCodeAt(7) === 45 &&
    iso.charCodeAt(10) === 84 && // T
    iso.charCodeAt(13) === 58 && // :
    iso.charCodeAt(16) === 58 &&
    iso.charCodeAt(19) === 46 && // .
    iso.charCodeAt(23) === 90 // Z
  ) {
    const year = digits(iso, 0, 4);
    const month = digits(iso, 5, 7);
    const day = digits(iso, 8, 10);
    const hour = digits(iso, 11, 13);
    const minute = digits(iso, 14, 16);
    const second = digits(iso, 17, 19);
    const ms = digits(iso, 20, 23);
    if (
      year >= 100 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 28 &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59 &&
      ms >= 0
    ) {
      return Date.UTC(year, month - 1, day, hour, minute, second, ms);
    }
  }
  return parseTime(iso);
}

/** Advances the heartbeat; answers the message's time (null when it cannot be read). */
function checkIn(asset: Asset, timestamp: string): number | null {
  const at = messageTime(timestamp);
  if (at !== null && (asset.heartbeatTime === null || at > asset.heartbeatTime)) asset.heartbeatTime = at;
  return at;
}

/**
 * Applies a batch of messages in arrival order. The refreshes they cause are deferred to the end
 * of the batch and run in slot order (each asset's owed refresh runs before its next message), so
 * the outcome equals refreshing after every message.
 */
export function applyLiveMessages(
  targets: EffectTargets,
  messages: readonly LiveMessage[],
  now: number,
  slotHints?: readonly number[],
  /** Called with each message about an asset the fleet does not hold (it changed no asset). */
  notHeld?: (message: LiveMessage) => void,
): void {
  const { fleet } = targets;
  fleet.deferring = true;
  try {
    for (let i = 0; i < messages.length; i += 1) {
      const message = messages[i] as LiveMessage;
      if (!applyLiveMessage(targets, message, now, slotHints?.[i] ?? -1)) notHeld?.(message);
    }
  } finally {
    fleet.deferring = false;
    fleet.settleAll(now);
  }
}

/**
 * Applies one message at `now`. Messages about assets the worker does not hold change nothing (but
 * the event): false for those. `slotHint`: the slot its asset had when the message arrived (used
 * when it still holds that asset, else the id is looked up).
 */
export function applyLiveMessage(targets: EffectTargets, message: LiveMessage, now: number, slotHint = -1): boolean {
  const { fleet } = targets;
  if (message.type === 'thing') {
    fleet.upsertWire(message.thing, now);
    return true;
  }
  if (message.type === 'location' && message.location) {
    targets.events.apply([fromLocationWire(message.location)]);
  }
  let slot = slotHint;
  let asset = slot >= 0 ? fleet.assets[slot] : null;
  if (!asset || asset.id !== message.thing_id) {
    slot = fleet.slotOf.get(message.thing_id) ?? -1;
    asset = slot >= 0 ? fleet.assets[slot] : null;
  }
  if (slot < 0 || !asset) return false;
  // The previous message's refresh of this asset, if still owed, before this one reads its state.
  fleet.settle(slot, now);
  const at = checkIn(asset, message.timestamp);

  switch (message.type) {
    case 'point': {
      if (message.speed !== null && message.speed !== undefined) asset.speed = message.speed;
      // The server sets the street after 10 minutes still and clears it on moving: stationary ↔ standby.
      if (message.street !== undefined) asset.street = message.street;
      if (message.course !== null && message.course !== undefined) {
        asset.course = message.course;
        asset.courseDirection = courseToCompass(message.course);
      }
      if (!isPointAccepted(message.accuracy, asset)) {
        fleet.touch(slot);
        fleet.refreshSoon(slot, now);
        return true;
      }
      asset.position = { lat: message.lat, lng: message.lng };
      asset.accuracy = message.accuracy ?? null;
      if (targets.moved && at !== null) targets.moved.push(at);
      // A non-active asset leaves its station; the check places it again from the new position.
      if (asset.status > ASSET_STATUS.active) asset.stationId = null;
      fleet.touch(slot);
      fleet.refreshSoon(slot, now, message.station_id ?? null);
      return true;
    }
    case 'heartbeat': {
      asset.enroute = message.is_active;
      if (message.is_active) {
        if (message.run_id !== undefined) asset.runId = message.run_id;
        if (message.run_start_time !== undefined) asset.runStartTime = parseTime(message.run_start_time);
        if (message.run_points_count !== undefined) asset.runPointsCount = message.run_points_count;
      } else {
        asset.runId = null;
        asset.runStartTime = null;
        asset.runPointsCount = null;
        asset.runtime = null;
      }
      fleet.touch(slot);
      fleet.refreshSoon(slot, now);
      return true;
    }
    case 'location': {
      const at = messageTime(message.timestamp);
      asset.locationId = message.location_id;
      asset.isOnIncident = message.location_id !== null;
      if (asset.isOnIncident) {
        asset.stationId = null;
        asset.incidentStartTime = at;
        asset.incidentEndTime = null;
      } else {
        asset.incidentEndTime = at;
      }
      fleet.touch(slot);
      fleet.refreshSoon(slot, now, asset.isOnIncident ? null : undefined);
      return true;
    }
    case 'closure': {
      const rest = asset.activeClosures.filter((closure) => closure.id !== message.closure_id);
      asset.activeClosures = message.is_active
        ? [...rest, { id: message.closure_id, wzdxId: message.wzdx_id ?? null }]
        : rest.length > 0
          ? rest
          : NO_ACTIVE_CLOSURES;
      targets.closures.setActive(message.closure_id, message.is_active, now, asset);
      fleet.touch(slot);
      fleet.refreshSoon(slot, now);
      return true;
    }
  }
}
