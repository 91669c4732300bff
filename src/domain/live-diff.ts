/**
 * THE diff format between the live worker and the main thread (CONVENTIONS §2). One module, imported by both halves: the worker encodes what changed in
 * a batch from its own per-slot buffers, the main thread applies it to its copy of those buffers.
 *
 * Every asset lives in a slot (a stable small integer) for as long as it exists; per slot the
 * buffers hold its position (lng, lat), display status, icon index, heading and flags. A diff
 * carries those values for the changed slots only, as typed arrays that are transferred, never
 * arrays of objects; plus the removed slots, the counts per status and, when it changed, the list
 * order. The worker keeps its own buffers (a transferred buffer is detached on the sending side):
 * `encodeDiff` always copies into fresh arrays.
 */
import { z } from 'zod';
import { ASSET_STATUS, type AssetStatus } from './asset-status';
import { ASSET_TYPES } from './constants';
import type { Asset } from './asset';
import { AGE_BUCKETS } from './live-timings';

/** Status codes 0..6 (location … offline, oos): the length of every counts array. */
export const STATUS_COUNT = ASSET_STATUS.oos + 1;

// ── icon index: type × status, out of service marked ─────────────────────────
/** Known types in ASSET_TYPES order, then one slot for an unknown or missing type. */
export const ICON_TYPE_COUNT = ASSET_TYPES.length + 1;
export const ICON_UNKNOWN_TYPE = ASSET_TYPES.length;
/** The statuses an icon is drawn in: location … offline (oos is the mark below, not a status). */
export const ICON_STATUS_COUNT = ASSET_STATUS.offline + 1;
/** Icons of out-of-service assets follow all in-service ones: index + ICON_OOS_OFFSET. */
export const ICON_OOS_OFFSET = ICON_TYPE_COUNT * ICON_STATUS_COUNT;
/** Every icon index is below this (the atlas has this many frames). */
export const ICON_COUNT = 2 * ICON_OOS_OFFSET;

const TYPE_INDEX = new Map<string, number>(ASSET_TYPES.map((type, index) => [type, index]));

/** The icon atlas column of a type name (unknown types share the last one). */
export function iconTypeIndex(thingType: string | null): number {
  return (thingType !== null ? TYPE_INDEX.get(thingType) : undefined) ?? ICON_UNKNOWN_TYPE;
}

/** type × status, + ICON_OOS_OFFSET when out of service. `status` is the computed status (0..5). */
export function iconIndex(typeIndex: number, status: AssetStatus, inService: boolean): number {
  const drawn = Math.min(status, ASSET_STATUS.offline);
  return typeIndex * ICON_STATUS_COUNT + drawn + (inService ? 0 : ICON_OOS_OFFSET);
}

export interface IconParts {
  typeIndex: number;
  status: AssetStatus;
  outOfService: boolean;
}

export function decodeIcon(icon: number): IconParts {
  const outOfService = icon >= ICON_OOS_OFFSET;
  const base = outOfService ? icon - ICON_OOS_OFFSET : icon;
  return {
    typeIndex: Math.floor(base / ICON_STATUS_COUNT),
    status: (base % ICON_STATUS_COUNT) as AssetStatus,
    outOfService,
  };
}

// ── flags per slot ───────────────────────────────────────────────────────────
/** The slot holds an asset (a removed or never used slot has no flags). */
export const FLAG_PRESENT = 1;
/** The asset matches the current filter (it is in the list and drawn on the map). */
export const FLAG_LISTED = 2;
/** part 1 §4: no heartbeat, or one older than the stale threshold. */
export const FLAG_STALE = 4;
/** Grouped at a station (a status above active with a station id, part 1 §4 station check). */
export const FLAG_AT_STATION = 8;

/** A heading the asset did not report (no course). */
export const NO_HEADING = Number.NaN;

// ── the per-slot buffers (both sides hold one set) ───────────────────────────
export interface FleetBuffers {
  /** Slots the arrays hold. */
  capacity: number;
  /** lng, lat per slot (index 2·slot, 2·slot+1); Float64 keeps centimetres at any longitude. */
  lngLat: Float64Array;
  /** Display status per slot (0..6, out of service = 6). */
  status: Uint8Array;
  icon: Uint8Array;
  /** Degrees clockwise from north; NaN when unknown. */
  heading: Float32Array;
  flags: Uint8Array;
}

export function createFleetBuffers(capacity: number): FleetBuffers {
  return {
    capacity,
    lngLat: new Float64Array(capacity * 2),
    status: new Uint8Array(capacity),
    icon: new Uint8Array(capacity),
    heading: new Float32Array(capacity).fill(NO_HEADING),
    flags: new Uint8Array(capacity),
  };
}

/** A copy with room for `capacity` slots (never smaller); the new slots are empty. */
export function growFleetBuffers(buffers: FleetBuffers, capacity: number): FleetBuffers {
  if (capacity <= buffers.capacity) return buffers;
  const grown = createFleetBuffers(capacity);
  grown.lngLat.set(buffers.lngLat);
  grown.status.set(buffers.status);
  grown.icon.set(buffers.icon);
  grown.heading.set(buffers.heading);
  grown.flags.set(buffers.flags);
  return grown;
}

// ── the diff ─────────────────────────────────────────────────────────────────
export interface LiveDiff {
  /** Increases by one per diff of an organization's session. */
  version: number;
  /** Worker clock at the batch (ms). */
  time: number;
  /** Everything before is gone (organization switch): the receiver clears its buffers first. */
  reset: boolean;
  /** The receiver's buffers must hold this many slots. */
  capacity: number;
  /** Changed slots; the arrays below are parallel to it. */
  index: Int32Array;
  /** lng, lat per changed slot. */
  lngLat: Float64Array;
  status: Uint8Array;
  icon: Uint8Array;
  heading: Float32Array;
  flags: Uint8Array;
  /** Slots emptied by this batch (applied before the changes; a slot is reused only in a later diff). */
  removed: Int32Array;
  /** Assets per display status over the whole fleet (index = code, STATUS_COUNT long). */
  counts: Int32Array;
  /** The same over the listed (filter-matching) assets. */
  listCounts: Int32Array;
  /** Assets held. */
  total: number;
  /** Length of the list (filter-matching assets). */
  listLength: number;
  /** The list order (slots, sorted and filtered) when it changed; null when it did not. */
  order: Int32Array | null;
  /** Bumped in each batch that changed something the group view shows (ask for clusters again). */
  clusterVersion: number;
  /** The selected asset's details when they changed (null: none or gone); absent when unchanged. */
  selected?: AssetDetails | null;
  /**
   * Only while the map's freshness is measured (src/domain/live-timings.ts): how old the positions
   * this diff moves were at the batch, as an AGE_BUCKETS histogram.
   */
  ages?: Uint32Array;
}

/** An asset as it crosses to the main thread on request: the client model without its search text. */
export type AssetDetails = Omit<Asset, 'searchText'>;

/** What the worker adds around the slot values of a diff. */
export interface DiffMeta {
  version: number;
  time: number;
  reset: boolean;
  counts: ArrayLike<number>;
  listCounts: ArrayLike<number>;
  total: number;
  listLength: number;
  /** Copied, not transferred: the worker keeps its order. */
  order: ArrayLike<number> | null;
  clusterVersion: number;
  selected?: AssetDetails | null;
}

/**
 * The diff of `slots` (changed) and `removed`, values copied out of the worker's own `source`
 * buffers into fresh arrays so the whole diff can be transferred.
 */
export function encodeDiff(source: FleetBuffers, slots: ArrayLike<number>, removed: ArrayLike<number>, meta: DiffMeta): LiveDiff {
  const n = slots.length;
  const index = new Int32Array(n);
  const lngLat = new Float64Array(n * 2);
  const status = new Uint8Array(n);
  const icon = new Uint8Array(n);
  const heading = new Float32Array(n);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) {
    const slot = slots[i] as number;
    index[i] = slot;
    lngLat[2 * i] = source.lngLat[2 * slot] as number;
    lngLat[2 * i + 1] = source.lngLat[2 * slot + 1] as number;
    status[i] = source.status[slot] as number;
    icon[i] = source.icon[slot] as number;
    heading[i] = source.heading[slot] as number;
    flags[i] = source.flags[slot] as number;
  }
  const diff: LiveDiff = {
    version: meta.version,
    time: meta.time,
    reset: meta.reset,
    capacity: source.capacity,
    index,
    lngLat,
    status,
    icon,
    heading,
    flags,
    removed: Int32Array.from(removed),
    counts: Int32Array.from(meta.counts),
    listCounts: Int32Array.from(meta.listCounts),
    total: meta.total,
    listLength: meta.listLength,
    order: meta.order ? Int32Array.from(meta.order) : null,
    clusterVersion: meta.clusterVersion,
  };
  if (meta.selected !== undefined) diff.selected = meta.selected;
  return diff;
}

/** The buffers to hand to `Comlink.transfer` (each diff owns its arrays). */
export function diffTransferables(diff: LiveDiff): ArrayBuffer[] {
  const arrays: ArrayBufferView[] = [
    diff.index,
    diff.lngLat,
    diff.status,
    diff.icon,
    diff.heading,
    diff.flags,
    diff.removed,
    diff.counts,
    diff.listCounts,
  ];
  if (diff.order) arrays.push(diff.order);
  if (diff.ages) arrays.push(diff.ages);
  return arrays.map((array) => array.buffer as ArrayBuffer);
}

/** Bytes of typed-array payload a diff carries (what the bench reports per changed asset). */
export function diffByteLength(diff: LiveDiff): number {
  return diffTransferables(diff).reduce((sum, buffer) => sum + buffer.byteLength, 0);
}

/**
 * Applies a diff to the receiver's buffers: grows them when the worker's capacity grew, clears
 * them on reset (fresh buffers), empties removed slots, then writes the changed slots. Loops over
 * the changed slots only, never over the fleet. Returns the buffers to keep (a new object when
 * they grew or were reset).
 */
export function applyDiff(target: FleetBuffers, diff: LiveDiff): FleetBuffers {
  const buffers = diff.reset ? createFleetBuffers(diff.capacity) : growFleetBuffers(target, diff.capacity);
  for (let i = 0; i < diff.removed.length; i += 1) {
    const slot = diff.removed[i] as number;
    buffers.flags[slot] = 0;
    buffers.heading[slot] = NO_HEADING;
  }
  const { index } = diff;
  for (let i = 0; i < index.length; i += 1) {
    const slot = index[i] as number;
    buffers.lngLat[2 * slot] = diff.lngLat[2 * i] as number;
    buffers.lngLat[2 * slot + 1] = diff.lngLat[2 * i + 1] as number;
    buffers.status[slot] = diff.status[i] as number;
    buffers.icon[slot] = diff.icon[i] as number;
    buffers.heading[slot] = diff.heading[i] as number;
    buffers.flags[slot] = diff.flags[i] as number;
  }
  return buffers;
}

// ── the boundary check (CONVENTIONS §5: every worker message goes through a schema) ──
// By tag, not `instanceof`: an array that crossed a MessageChannel may come from another realm.
const typed = <T>(ctor: abstract new (...args: never[]) => T) => {
  const tag = `[object ${ctor.name}]`;
  return z.custom<T>((value) => ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === tag);
};

/**
 * Checks a diff's shape where it enters the main thread: the right typed arrays, parallel lengths,
 * and changed and removed slots inside the capacity (a scan of the changed slots only).
 */
export const liveDiffSchema = z
  .object({
    version: z.number().int().nonnegative(),
    time: z.number(),
    reset: z.boolean(),
    capacity: z.number().int().nonnegative(),
    index: typed(Int32Array),
    lngLat: typed(Float64Array),
    status: typed(Uint8Array),
    icon: typed(Uint8Array),
    heading: typed(Float32Array),
    flags: typed(Uint8Array),
    removed: typed(Int32Array),
    counts: typed(Int32Array),
    listCounts: typed(Int32Array),
    total: z.number().int().nonnegative(),
    listLength: z.number().int().nonnegative(),
    order: typed(Int32Array).nullable(),
    clusterVersion: z.number().int(),
    selected: z
      .custom<AssetDetails | null>((value) => value === null || (typeof value === 'object' && value !== null && 'id' in value))
      .optional(),
    ages: typed(Uint32Array).optional(),
  })
  .superRefine((diff, ctx) => {
    const n = diff.index.length;
    if (
      diff.lngLat.length !== 2 * n ||
      diff.status.length !== n ||
      diff.icon.length !== n ||
      diff.heading.length !== n ||
      diff.flags.length !== n
    ) {
      ctx.addIssue({ code: 'custom', message: 'diff arrays are not parallel to its index' });
    }
    if (diff.counts.length !== STATUS_COUNT || diff.listCounts.length !== STATUS_COUNT) {
      ctx.addIssue({ code: 'custom', message: `counts must hold ${STATUS_COUNT} statuses` });
    }
    if (diff.ages && diff.ages.length !== AGE_BUCKETS) {
      ctx.addIssue({ code: 'custom', message: `ages must hold ${AGE_BUCKETS} buckets` });
    }
    const inside = (slots: Int32Array) => slots.every((slot) => slot >= 0 && slot < diff.capacity);
    // The order is not scanned: that would be a loop over the fleet on the main thread.
    if (!inside(diff.index) || !inside(diff.removed)) {
      ctx.addIssue({ code: 'custom', message: 'a slot lies outside the capacity' });
    }
  });
