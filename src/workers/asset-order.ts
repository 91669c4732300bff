/**
 * The asset list's order (part 1 §4 "Sorting and filtering"): the listed (filter-matching) slots
 * sorted by `compareAssets` — by status, then by name below pending, else newest heartbeat first —
 * computed over typed keys so the sort compares numbers, not strings.
 *
 * Names are ranked once (`rankNames`, with the domain's own name order, read from each name's sort
 * key where it has one: plain string comparisons, not the collator's) and then only incrementally:
 * the assets added or renamed since are sorted among themselves and merged into the ranked names by
 * galloping search (O(k log k + k log(n/k)) comparisons for k names among n), so a page of 5,000
 * new assets among 95,000 costs about 80,000 name comparisons, not a sort of all 100,000 (the
 * collator's comparisons made that most of the initial load's work). Ranks keep the relative order
 * of the names already ranked, so the previous list stays sorted.
 * A batch then moves only the slots whose key, listing or name changed: they are taken out of the
 * previous order, sorted among themselves and merged back (O(n + k log k) for k moved slots); a
 * filter change, a reset or a batch that moves many sorts everything again.
 * The result equals sorting the assets with `compareAssets` (a test holds the two together).
 */
import { ASSET_STATUS } from '../domain/asset-status';
import { compareKeyedNames, nameSortKey } from '../domain/asset-filter';
import { FLAG_LISTED } from '../domain/live-diff';
import type { FleetStore } from './fleet-store';

/** Past this share of moved slots a full sort is cheaper than the merge. */
const MERGE_MAX_SHARE = 0.25;

export class AssetOrder {
  /** Rank of each slot's name (then id) among all assets; the within-status tie order. */
  private rank = new Int32Array(0);
  /** The ranked slots by name, then id (`rank` numbers their places). */
  private byName: Int32Array = new Int32Array(0);
  /** Each ranked slot's `nameSortKey` (null: its name goes through the collator). */
  private keys: (string | null)[] = [];
  /** Marks of the slots being ranked again (reused; sized to the store). */
  private renamed = new Uint8Array(0);
  /** The current list: listed slots, sorted. */
  order: Int32Array = new Int32Array(0);
  /** Full sorts and merges so far (tests and the bench read them). */
  fullSorts = 0;
  merges = 0;
  /** Name rankings of every asset, and of the added or renamed ones merged in (tests read them). */
  fullRanks = 0;
  partialRanks = 0;

  /** Ranks the assets' names: all of them after a reset, else the added and renamed merged in. */
  rankNames(store: FleetStore): void {
    if (this.rank.length < store.capacity) {
      const grown = new Int32Array(store.capacity);
      grown.set(this.rank);
      this.rank = grown;
      this.renamed = new Uint8Array(store.capacity);
    }
    const { assets } = store;
    const keys = this.keys;
    const compare = (a: number, b: number) => compareKeyedNames(assets[a]!, keys[a] ?? null, assets[b]!, keys[b] ?? null);
    // A reset is the same merge: nothing kept, every present slot added.
    const reset = store.namesReset;
    if (reset) this.fullRanks += 1;
    else this.partialRanks += 1;
    const mark = this.renamed;
    const added: number[] = [];
    const add = (slot: number) => {
      const asset = assets[slot];
      if (mark[slot] === 1 || !asset) return;
      mark[slot] = 1;
      keys[slot] = nameSortKey(asset.primaryDisplayName);
      added.push(slot);
    };
    if (reset) for (let slot = 0; slot < store.highWater; slot += 1) add(slot);
    else for (const slot of store.namesChanged) add(slot);
    // The ranked names less the renamed and removed ones (a reused slot is among the renamed).
    const kept = new Int32Array(reset ? 0 : this.byName.length);
    let n = 0;
    if (!reset) for (const slot of this.byName) if (mark[slot] === 0 && assets[slot]) kept[n++] = slot;
    for (const slot of added) mark[slot] = 0;
    const ranked = gallopMerge(kept.subarray(0, n), added.sort(compare), compare);
    for (let i = 0; i < ranked.length; i += 1) this.rank[ranked[i] as number] = i;
    this.byName = ranked;
    store.namesRanked();
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
    // New and renamed slots are among the moved ones, and ranking keeps the others' relative order.
    if (store.namesReset || store.namesChanged.length > 0 || this.rank.length < store.capacity) this.rankNames(store);
    const full = store.orderFull || store.orderMoved.length > store.listed * MERGE_MAX_SHARE;
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

/**
 * `base` and `added`, each sorted by `compare`, merged into one sorted array. Each added item's
 * place is found by galloping from the last one's (probes 1, 2, 4… ahead, then a binary search),
 * so k items among n cost O(k log(n/k)) comparisons.
 */
export function gallopMerge(base: Int32Array, added: readonly number[], compare: (a: number, b: number) => number): Int32Array {
  const out = new Int32Array(base.length + added.length);
  let i = 0;
  let o = 0;
  for (const item of added) {
    // Find the first index at or after i whose value sorts after `item`.
    let lo = i;
    let hi = base.length;
    for (let step = 1; lo < base.length; step *= 2) {
      const probe = Math.min(i + step - 1, base.length - 1);
      if (compare(base[probe] as number, item) <= 0) {
        lo = probe + 1;
      } else {
        hi = probe;
        break;
      }
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(base[mid] as number, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.set(base.subarray(i, lo), o);
    o += lo - i;
    i = lo;
    out[o++] = item;
  }
  out.set(base.subarray(i), o);
  return out;
}
