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
 * Every message is a check-in: a newer timestamp advances the heartbeat (README "Spec decisions").
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
import type { FleetStore } from './fleet-store';

export interface EffectTargets {
  fleet: FleetStore;
  events: EventsCache;
  closures: ClosureCache;
}

/** part 1 §4: the accuracy a point needs to move the asset (looser at a station). */
export function pointAccuracyMinimum(asset: Pick<Asset, 'stationId'>): number {
  return asset.stationId !== null ? POINT_ACCURACY_STATION_MIN_M : POINT_ACCURACY_MIN_M;
}

/** A point without an accuracy is taken as it comes (the device did not say it is poor). */
export function isPointAccepted(accuracy: number | null | undefined, asset: Pick<Asset, 'stationId'>): boolean {
  return accuracy === null || accuracy === undefined || accuracy <= pointAccuracyMinimum(asset);
}

function checkIn(asset: Asset, timestamp: string): void {
  const at = parseTime(timestamp);
  if (at !== null && (asset.heartbeatTime === null || at > asset.heartbeatTime)) asset.heartbeatTime = at;
}

/** Applies one message at `now`. Messages about assets the worker does not hold change nothing (but the event). */
export function applyLiveMessage(targets: EffectTargets, message: LiveMessage, now: number): void {
  const { fleet } = targets;
  if (message.type === 'thing') {
    fleet.upsertWire(message.thing, now);
    return;
  }
  if (message.type === 'location' && message.location) {
    targets.events.apply([fromLocationWire(message.location)]);
  }
  const slot = fleet.slotOf.get(message.thing_id);
  const asset = slot === undefined ? null : fleet.assets[slot];
  if (slot === undefined || !asset) return;
  checkIn(asset, message.timestamp);

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
        fleet.refresh(slot, now);
        return;
      }
      asset.position = { lat: message.lat, lng: message.lng };
      asset.accuracy = message.accuracy ?? null;
      // A non-active asset leaves its station; the check places it again from the new position.
      if (asset.status > ASSET_STATUS.active) asset.stationId = null;
      fleet.touch(slot);
      fleet.refresh(slot, now, message.station_id ?? null);
      return;
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
      fleet.refresh(slot, now);
      return;
    }
    case 'location': {
      const at = parseTime(message.timestamp);
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
      fleet.refresh(slot, now, asset.isOnIncident ? null : undefined);
      return;
    }
    case 'closure': {
      const rest = asset.activeClosures.filter((closure) => closure.id !== message.closure_id);
      asset.activeClosures = message.is_active ? [...rest, { id: message.closure_id, wzdxId: message.wzdx_id ?? null }] : rest;
      targets.closures.setActive(message.closure_id, message.is_active, now, asset);
      fleet.touch(slot);
      fleet.refresh(slot, now);
      return;
    }
  }
}
