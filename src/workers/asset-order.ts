/**
 * The asset list's order (part 1 §4 "Sorting and filtering"): the listed (filter-matching) slots
 * sorted by `compareAssets` — by status, then by name below pending, else newest heartbeat first —
 * computed over typed keys so the sort compares numbers, not strings.
 *
 * Names are ranked once (`rankNames`, with the domain's own comparator) and ranked again only when
 * an asset is added or renamed. A batch then moves only the slots whose key or listing changed:
 * they are taken out of the previous order, sorted among themselves and merged back (O(n + k log k)
 * for k moved slots); a filter change, a reset or a batch that moves many sorts everything again.
 * The result equals sorting the assets with `compareAssets` (a test holds the two together).
 */
import type { Asset } from '../domain/asset';
import { ASSET_STATUS } from '../domain/asset-status';
import { compareAssets, type SortableAsset } from '../domain/asset-filter';
import { FLAG_LISTED } from '../domain/live-diff';
import type { FleetStore } from './fleet-store';

/** Past this share of moved slots a full sort is cheaper than the merge. */
const MERGE_MAX_SHARE = 0.25;

export class AssetOrder {
  /** Rank of each slot's name (then id) among all assets; the within-status tie order. */
  private rank = new Int32Array(0);
  /** The current list: listed slots, sorted. */
  order: Int32Array = new Int32Array(0);
  /** Full sorts and merges so far (tests and the bench read them). */
  fullSorts = 0;
  merges = 0;

  /** Ranks every asset by `compareAssets` with status and heartbeat held equal: name, then id. */
  rankNames(store: FleetStore): void {
    const slots: number[] = [];
    const keys: SortableAsset[] = [];
    for (let slot = 0; slot < store.highWater; slot += 1) {
      const asset = store.assets[slot];
      if (!asset) continue;
      slots.push(slot);
      keys.push(nameKey(asset));
    }
    const byName = slots.map((_, i) => i).sort((a, b) => compareAssets(keys[a] as SortableAsset, keys[b] as SortableAsset));
    if (this.rank.length < store.capacity) this.rank = new Int32Array(store.capacity);
    byName.forEach((i, rank) => {
      this.rank[slots[i] as number] = rank;
    });
    store.namesDirty = false;
  }

  /** The comparator over the store's typed keys (equal to compareAssets on the assets). */
  private comparator(store: FleetStore): (a: number, b: number) => number {
    const status = store.sortStatus;
    const heartbeat = store.heartbeat;
    const rank = this.rank;
    return (a, b) => {
      const sa = status[a] as number;
      const sb = status[b] as number;
      if (sa !== sb) return sa - sb;
      if (sa >= ASSET_STATUS.pending) {
        const ha = heartbeat[a] as number;
        const hb = heartbeat[b] as number;
        // newest first; NaN (no heartbeat) last
        const aNone = Number.isNaN(ha);
        const bNone = Number.isNaN(hb);
        if (aNone !== bNone) return aNone ? 1 : -1;
        if (!aNone && ha !== hb) return hb - ha;
      }
      return (rank[a] as number) - (rank[b] as number);
    };
  }

  /** Brings the list up to date with the store's changes of this batch and returns it. */
  compute(store: FleetStore): Int32Array {
    const full =
      store.orderFull || store.namesDirty || this.rank.length < store.capacity || store.orderMoved.length > store.listed * MERGE_MAX_SHARE;
    if (store.namesDirty || this.rank.length < store.capacity) this.rankNames(store);
    this.order = full ? this.sortAll(store) : this.merge(store);
    store.orderPlaced();
    return this.order;
  }

  private sortAll(store: FleetStore): Int32Array {
    this.fullSorts += 1;
    const list = new Int32Array(store.listed);
    const { flags } = store.buffers;
    let n = 0;
    for (let slot = 0; slot < store.highWater && n < list.length; slot += 1) {
      if ((flags[slot] as number) & FLAG_LISTED) list[n++] = slot;
    }
    return list.sort(this.comparator(store));
  }

  private merge(store: FleetStore): Int32Array {
    this.merges += 1;
    const compare = this.comparator(store);
    const mark = store.orderMark;
    const { flags } = store.buffers;
    const moved = store.orderMoved.filter((slot) => (flags[slot] as number) & FLAG_LISTED).sort(compare);
    const previous = this.order;
    const list = new Int32Array(store.listed);
    let i = 0;
    let j = 0;
    let n = 0;
    while (n < list.length) {
      // Skip the slots that moved (they come back from `moved`) or left the list.
      while (i < previous.length && mark[previous[i] as number] === 1) i += 1;
      const a = i < previous.length ? (previous[i] as number) : -1;
      const b = j < moved.length ? (moved[j] as number) : -1;
      if (a < 0 && b < 0) break;
      if (b < 0 || (a >= 0 && compare(a, b) <= 0)) {
        list[n++] = a;
        i += 1;
      } else {
        list[n++] = b;
        j += 1;
      }
    }
    return n === list.length ? list : list.subarray(0, n);
  }
}

function nameKey(asset: Asset): SortableAsset {
  return { id: asset.id, status: ASSET_STATUS.location, primaryDisplayName: asset.primaryDisplayName, heartbeatTime: null };
}
