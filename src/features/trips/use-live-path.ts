/**
 * part 2 §2 Trips "a live path exists for an asset": the chosen asset's path growing from the live
 * stream since the page opened. The worker keeps no position history, so the page keeps a bounded
 * trail of that one asset (LIVE_PATH_MAX_POINTS, oldest dropped), fed by a live selector of its
 * position (docs/architecture.md "Reading live data"): the asset's slot is a worker call asked
 * again at most once a second while the store's version moves (a deleted asset's slot is freed);
 * its position is read from the store's typed arrays at that slot on each diff. One asset, never
 * a loop over the fleet.
 */
import { useEffect, useState } from 'react';
import { subscribeKey } from 'valtio/utils';
import { useLive, useLiveValue, useWorkerQuery } from '../../app/live/hooks';
import { FLAG_PRESENT } from '../../domain/live-diff';

/** chosen: the trail keeps the last 2,000 positions (about 33 minutes at one a second). */
export const LIVE_PATH_MAX_POINTS = 2_000;
/** The slot is asked again at most once a second (the worker batches each second). */
const SLOT_THROTTLE_MS = 1_000;

export interface LivePoint {
  lng: number;
  lat: number;
  /** When the page saw it (ms). */
  at: number;
}

/** The trail with one more position: unchanged when it did not move; the oldest go past `max`. */
export function appendLivePoint(trail: readonly LivePoint[], point: LivePoint, max = LIVE_PATH_MAX_POINTS): readonly LivePoint[] {
  const last = trail.at(-1);
  if (last && last.lng === point.lng && last.lat === point.lat) return trail;
  const next = [...trail, point];
  return next.length > max ? next.slice(next.length - max) : next;
}

/** The asset's live position as "lng,lat" (a string compares by value), null when it has none. */
function useLivePosition(thingId: string | null): string | null {
  const { store } = useLive();
  const slot = useWorkerQuery(thingId ? (bridge) => bridge.slotOf(thingId) : null, [thingId], {
    throttleMs: SLOT_THROTTLE_MS,
    watch: (request) => subscribeKey(store, 'version', request),
  });
  return useLiveValue((snap) => {
    if (thingId === null || slot === null || slot < 0 || slot >= snap.buffers.capacity) return null;
    if ((snap.buffers.flags[slot]! & FLAG_PRESENT) === 0) return null;
    const lng = snap.buffers.lngLat[2 * slot]!;
    const lat = snap.buffers.lngLat[2 * slot + 1]!;
    return Number.isFinite(lng) && Number.isFinite(lat) ? `${lng},${lat}` : null;
  });
}

/** The chosen asset's trail since the page opened (or since it was chosen); empty while none. */
export function useLivePath(thingId: string | null): readonly LivePoint[] {
  const position = useLivePosition(thingId);
  const [trail, setTrail] = useState<{ thingId: string | null; points: readonly LivePoint[] }>({ thingId, points: [] });
  useEffect(() => {
    if (position === null || thingId === null) return;
    const [lng, lat] = position.split(',').map(Number) as [number, number];
    setTrail((previous) => ({
      thingId,
      points: appendLivePoint(previous.thingId === thingId ? previous.points : [], { lng, lat, at: Date.now() }),
    }));
  }, [position, thingId]);
  return trail.thingId === thingId ? trail.points : [];
}
