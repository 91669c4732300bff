/**
 * The worker's fleet: one slot per asset, the client `Asset` model per slot (the worker's private
 * objects; the main thread never holds one per asset), an id → slot map, and the per-slot values
 * the main thread draws (`FleetBuffers`, the worker's own copy) plus the sort keys.
 *
 * `refresh(slot)` is the one place an asset's derived state is recomputed with the domain's rules
 * (part 1 §4): its status, the station check, staleness, its next deadline on the status clock,
 * whether it matches the filter, its counts; it records what changed for the next diff.
 */
import { fromThingWire, type Asset, type ThingWire } from '../domain/asset';
import { applyStationCheck, ASSET_STATUS, computeAssetStatus, displayStatus, isStale, nextStatusDeadline } from '../domain/asset-status';
import { createAssetFilter, defaultAssetFilter, matchesAssetFilter, type AssetFilter } from '../domain/asset-filter';
import { ownershipOf } from '../domain/organization';
import {
  createFleetBuffers,
  encodeDiff,
  FLAG_AT_STATION,
  FLAG_LISTED,
  FLAG_PRESENT,
  FLAG_STALE,
  growFleetBuffers,
  iconIndex,
  iconTypeIndex,
  NO_HEADING,
  STATUS_COUNT,
  type DiffMeta,
  type FleetBuffers,
  type LiveDiff,
} from '../domain/live-diff';
import { StationIndex } from './stations';
import { StatusClock } from './status-clock';

const INITIAL_CAPACITY = 1024;

/**
 * The active closures of every asset that has none: one shared empty list (never mutated: the
 * effects replace the list), so the status rule's first test reads one hot array instead of a
 * cold one per asset (bench/README.md).
 */
export const NO_ACTIVE_CLOSURES: Asset['activeClosures'] = [];

/** What changed in the fleet since the last diff, beyond the slots themselves. */
export interface FleetChanges {
  /** The list order must be recomputed. */
  order: boolean;
  /** Something the group view shows changed (a listed asset moved, changed icon, station or listing). */
  clusters: boolean;
  /** The selected asset changed. */
  selected: boolean;
}

/**
 * A thing wire is read from the database, which the server's ingest writes about once a second (a
 * large fleet's rows in turn, bench/README.md "Server ingest"); the socket's points, heartbeats and location
 * messages can be newer. When the asset held here checked in later than the wire says, its live
 * facts (heartbeat, position, motion, alerting, run, and the incident it is on) are kept.
 */
function keepNewerLiveFacts(held: Asset, incoming: Asset): void {
  if (held.heartbeatTime === null || (incoming.heartbeatTime !== null && incoming.heartbeatTime >= held.heartbeatTime)) return;
  incoming.heartbeatTime = held.heartbeatTime;
  incoming.position = held.position;
  incoming.accuracy = held.accuracy;
  incoming.speed = held.speed;
  incoming.course = held.course;
  incoming.courseDirection = held.courseDirection;
  incoming.enroute = held.enroute;
  incoming.runId = held.runId;
  incoming.runStartTime = held.runStartTime;
  incoming.runPointsCount = held.runPointsCount;
  incoming.isOnIncident = held.isOnIncident;
  incoming.locationId = held.locationId;
  incoming.incidentStartTime = held.incidentStartTime;
  incoming.incidentEndTime = held.incidentEndTime;
}

export class FleetStore {
  buffers: FleetBuffers = createFleetBuffers(INITIAL_CAPACITY);
  /** The model per slot; null for an empty slot. */
  assets: (Asset | null)[] = [];
  readonly slotOf = new Map<string, number>();
  /** Computed status per slot (the sort reads it; oos assets sort by their computed status). */
  sortStatus = new Uint8Array(INITIAL_CAPACITY);
  /** Heartbeat per slot, NaN for none (the sort reads it for pending and offline). */
  heartbeat = new Float64Array(INITIAL_CAPACITY);
  typeIndex = new Uint8Array(INITIAL_CAPACITY);
  /** Per slot: the last position the station check found outside every station (NaN: none). */
  private outsideLng = new Float64Array(INITIAL_CAPACITY).fill(Number.NaN);
  private outsideLat = new Float64Array(INITIAL_CAPACITY).fill(Number.NaN);
  readonly clock = new StatusClock(INITIAL_CAPACITY);
  readonly stations = new StationIndex();
  filter: AssetFilter = createAssetFilter(defaultAssetFilter(true));
  readonly counts = new Int32Array(STATUS_COUNT);
  readonly listCounts = new Int32Array(STATUS_COUNT);
  total = 0;
  listed = 0;
  /** Assets whose type is a responder (part 1 §2, §4 responder mix), kept on upsert and remove. */
  responders = 0;
  /**
   * The fleet by the one ownership rule (part 1 §3, `ownershipOf` with the filter's owned
   * organizations): owned and managed assets, and owned ones shared with another organization.
   * Kept per upsert and removal, counted again only when the owned organizations change.
   */
  readonly ownership = { owned: 0, managed: 0, ownedShared: 0 };
  /** The selected asset (its details ride on the diffs in which it changed). */
  selectedId: string | null = null;
  selectedSlot = -1;
  readonly changes: FleetChanges = { order: true, clusters: true, selected: false };
  /** Every name rank of the sort is out of date (a new or emptied store): ranked afresh. */
  namesReset = true;
  /** Slots added or renamed since the names were last ranked (a slot may repeat). */
  namesChanged: number[] = [];
  /** The whole list must be sorted again (filter change, reset), not just the moved slots merged in. */
  orderFull = true;
  /** Slots whose place in the list may have changed in this batch (listing, status, pending heartbeat). */
  orderMoved: number[] = [];
  orderMark = new Uint8Array(INITIAL_CAPACITY);

  private free: number[] = [];
  /** Slots emptied in this batch; reusable after the diff that removes them. */
  private freedInBatch: number[] = [];
  private next = 0;
  private changedMark = new Uint8Array(INITIAL_CAPACITY);
  private changed: number[] = [];
  private removed: number[] = [];
  /**
   * Refreshes owed at the end of a batch of messages (`refreshSoon` while `deferring`): a mark per
   * slot, the incoming station id of each (undefined: keep the current one) and the marked range.
   * Settled in slot order, the per-slot arrays are walked forward instead of at random
   * (bench/README.md); a slot's owed refresh is settled before its next message reads it, so every message
   * sees exactly the state it would have seen refreshed at once.
   */
  deferring = false;
  private pendingMark = new Uint8Array(INITIAL_CAPACITY);
  /** Filled to the capacity (a packed array: a write far past its end would turn it into a dictionary). */
  private pendingStation: (string | null | undefined)[] = new Array<undefined>(INITIAL_CAPACITY).fill(undefined);
  private pendingCount = 0;
  /** The batch's time, for the owed refreshes. */
  private pendingNow = 0;
  private pendingLow = 0;
  private pendingHigh = -1;

  get capacity(): number {
    return this.buffers.capacity;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  get(id: string): Asset | null {
    const slot = this.slotOf.get(id);
    return slot === undefined ? null : (this.assets[slot] ?? null);
  }

  /** Adds or replaces an asset from a thing wire (part 1 §3: one without both lat and lng is dropped). */
  /** `detailsPending`: the wire is the row of a snapshot without details (the asset says so until its full wire comes). */
  upsertWire(wire: ThingWire, now: number, detailsPending = false): void {
    const asset = fromThingWire(wire, now);
    if (!asset) {
      this.remove(wire.id);
      return;
    }
    if (detailsPending) asset.detailsPending = true;
    const previous = this.get(asset.id);
    if (previous) keepNewerLiveFacts(previous, asset);
    this.upsert(asset, now);
  }

  upsert(asset: Asset, now: number): number {
    let slot = this.slotOf.get(asset.id);
    if (slot !== undefined) this.settle(slot, now);
    if (slot === undefined) {
      slot = this.allocate();
      this.slotOf.set(asset.id, slot);
      this.namesChanged.push(slot);
      if (asset.id === this.selectedId) this.selectedSlot = slot;
    } else {
      const previous = this.assets[slot];
      if (!previous || previous.primaryDisplayName !== asset.primaryDisplayName) {
        this.namesChanged.push(slot);
        // Its place in the list may change: merged back in with the batch's other moved slots.
        this.moveInOrder(slot);
      }
    }
    if (this.assets[slot]?.isResponderType) this.responders -= 1;
    if (asset.isResponderType) this.responders += 1;
    const before = this.assets[slot];
    if (before) this.countOwnership(before, -1);
    this.countOwnership(asset, 1);
    if (asset.activeClosures.length === 0) asset.activeClosures = NO_ACTIVE_CLOSURES;
    this.assets[slot] = asset;
    this.typeIndex[slot] = iconTypeIndex(asset.thingType);
    // A wire carries its own station id (fromThingWire applied the rule); keep it, check when null.
    this.refresh(slot, now, asset.stationId);
    return slot;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    // The owed refresh first, as if it had run at its message (the diff then carries the slot's last values too).
    this.settle(slot, this.pendingNow);
    const flags = this.buffers.flags[slot] as number;
    const shown = this.buffers.status[slot] as number;
    this.counts[shown] = (this.counts[shown] as number) - 1;
    this.total -= 1;
    if (flags & FLAG_LISTED) {
      this.listCounts[shown] = (this.listCounts[shown] as number) - 1;
      this.listed -= 1;
      this.moveInOrder(slot);
      this.changes.clusters = true;
    }
    this.buffers.flags[slot] = 0;
    this.buffers.heading[slot] = NO_HEADING;
    this.clock.delete(slot);
    this.slotOf.delete(id);
    if (this.assets[slot]?.isResponderType) this.responders -= 1;
    const gone = this.assets[slot];
    if (gone) this.countOwnership(gone, -1);
    this.assets[slot] = null;
    this.removed.push(slot);
    this.freedInBatch.push(slot);
    if (slot === this.selectedSlot) {
      this.selectedSlot = -1;
      this.changes.selected = true;
    }
  }

  select(id: string | null): void {
    this.selectedId = id;
    this.selectedSlot = id === null ? -1 : (this.slotOf.get(id) ?? -1);
    this.changes.selected = false;
  }

  /** Empties the fleet (organization switch). */
  clear(): void {
    this.buffers = createFleetBuffers(INITIAL_CAPACITY);
    this.assets = [];
    this.slotOf.clear();
    this.sortStatus = new Uint8Array(INITIAL_CAPACITY);
    this.heartbeat = new Float64Array(INITIAL_CAPACITY);
    this.typeIndex = new Uint8Array(INITIAL_CAPACITY);
    this.outsideLng = new Float64Array(INITIAL_CAPACITY).fill(Number.NaN);
    this.outsideLat = new Float64Array(INITIAL_CAPACITY).fill(Number.NaN);
    this.changedMark = new Uint8Array(INITIAL_CAPACITY);
    this.pendingMark = new Uint8Array(INITIAL_CAPACITY);
    this.pendingStation = new Array<undefined>(INITIAL_CAPACITY).fill(undefined);
    this.pendingCount = 0;
    this.pendingLow = 0;
    this.pendingHigh = -1;
    this.clock.clear();
    this.counts.fill(0);
    this.listCounts.fill(0);
    this.total = 0;
    this.listed = 0;
    this.responders = 0;
    this.zeroOwnership();
    this.free = [];
    this.freedInBatch = [];
    this.next = 0;
    this.changed = [];
    this.removed = [];
    this.selectedId = null;
    this.selectedSlot = -1;
    this.namesReset = true;
    this.namesChanged = [];
    this.orderFull = true;
    this.orderMoved = [];
    this.orderMark = new Uint8Array(INITIAL_CAPACITY);
    this.changes.order = true;
    this.changes.clusters = true;
    this.changes.selected = true;
  }

  /** The slot leaves its place in the list (and takes a new one if still listed). */
  private moveInOrder(slot: number): void {
    this.changes.order = true;
    if (this.orderMark[slot] === 0) {
      this.orderMark[slot] = 1;
      this.orderMoved.push(slot);
    }
  }

  /** The names are ranked (the order module has read `namesChanged`). */
  namesRanked(): void {
    this.namesReset = false;
    this.namesChanged = [];
  }

  /** Forgets the moved slots (the order module has placed them). */
  orderPlaced(): void {
    for (const slot of this.orderMoved) this.orderMark[slot] = 0;
    this.orderMoved = [];
    this.orderFull = false;
  }

  /** Marks a slot's model as changed beyond what refresh derives (speed, run counters…). */
  touch(slot: number): void {
    if (slot === this.selectedSlot) this.changes.selected = true;
  }

  /**
   * `refresh` now, or at the end of the batch while `deferring` (the incoming station id rides
   * along; a later one for the same slot cannot come before `settle` has run the owed one).
   */
  refreshSoon(slot: number, now: number, incomingStationId?: string | null): void {
    if (!this.deferring) {
      this.refresh(slot, now, incomingStationId);
      return;
    }
    if (this.pendingMark[slot] === 1) this.settle(slot, now);
    this.pendingNow = now;
    this.pendingMark[slot] = 1;
    this.pendingStation[slot] = incomingStationId;
    if (this.pendingCount === 0) {
      this.pendingLow = slot;
      this.pendingHigh = slot;
    } else if (slot < this.pendingLow) this.pendingLow = slot;
    else if (slot > this.pendingHigh) this.pendingHigh = slot;
    this.pendingCount += 1;
  }

  /** Runs a slot's owed refresh, if any (before anything reads or replaces its derived state). */
  settle(slot: number, now: number): void {
    if (this.pendingMark[slot] !== 1) return;
    const station = this.pendingStation[slot];
    this.dropPending(slot);
    this.refresh(slot, now, station);
  }

  /** Runs every owed refresh, in slot order. */
  settleAll(now: number): void {
    const mark = this.pendingMark;
    for (let slot = this.pendingLow; slot <= this.pendingHigh && this.pendingCount > 0; slot += 1) {
      if (mark[slot] === 1) this.settle(slot, now);
    }
    this.pendingCount = 0;
    this.pendingLow = 0;
    this.pendingHigh = -1;
  }

  private dropPending(slot: number): void {
    if (this.pendingMark[slot] !== 1) return;
    this.pendingMark[slot] = 0;
    this.pendingStation[slot] = undefined;
    this.pendingCount -= 1;
  }

  /**
   * Recomputes a slot's derived state at `now` (part 1 §4): status, station check, staleness,
   * deadline, filter match, counts, and the values the main thread draws.
   * `incomingStationId`: the station the new data carries (undefined: no new data, keep the current one).
   */
  refresh(slot: number, now: number, incomingStationId?: string | null): void {
    const asset = this.assets[slot];
    if (!asset) return;
    const status = computeAssetStatus(asset, now);
    asset.status = status;
    // part 1 §4: a status above active marks the asset for a station check and clears its
    // station unless the incoming data carries one; the check then finds it by position.
    const station = applyStationCheck(status, asset, incomingStationId === undefined ? asset.stationId : incomingStationId);
    asset.checkStation = station.checkStation;
    asset.stationId = station.stationId;
    if (status > ASSET_STATUS.active && station.checkStation && asset.stationId === null) {
      asset.stationId = this.stationAt(slot, asset.position.lng, asset.position.lat);
    }
    asset.isStale = isStale(asset.heartbeatTime, now);
    this.clock.set(slot, nextStatusDeadline(asset, now));

    const b = this.buffers;
    const listed = matchesAssetFilter(asset, this.filter);
    const atStation = status > ASSET_STATUS.active && asset.stationId !== null;
    const flags = FLAG_PRESENT | (listed ? FLAG_LISTED : 0) | (asset.isStale ? FLAG_STALE : 0) | (atStation ? FLAG_AT_STATION : 0);
    const shown = displayStatus(status, asset.inService);
    const icon = iconIndex(this.typeIndex[slot] as number, status, asset.inService);
    const heading = asset.course ?? NO_HEADING;
    const { lng, lat } = asset.position;
    const hb = asset.heartbeatTime ?? Number.NaN;

    const oldFlags = b.flags[slot] as number;
    const wasPresent = (oldFlags & FLAG_PRESENT) !== 0;
    const wasListed = (oldFlags & FLAG_LISTED) !== 0;
    const oldShown = b.status[slot] as number;
    const moved = b.lngLat[2 * slot] !== lng || b.lngLat[2 * slot + 1] !== lat;
    const headingChanged = !Object.is(b.heading[slot], Math.fround(heading));
    const changed = !wasPresent || moved || headingChanged || oldFlags !== flags || oldShown !== shown || b.icon[slot] !== icon;

    // counts
    if (!wasPresent) {
      this.total += 1;
      this.counts[shown] = (this.counts[shown] as number) + 1;
    } else if (oldShown !== shown) {
      this.counts[oldShown] = (this.counts[oldShown] as number) - 1;
      this.counts[shown] = (this.counts[shown] as number) + 1;
    }
    if (wasListed && (!listed || oldShown !== shown)) {
      this.listCounts[oldShown] = (this.listCounts[oldShown] as number) - 1;
      this.listed -= 1;
    }
    if (listed && (!wasListed || oldShown !== shown)) {
      this.listCounts[shown] = (this.listCounts[shown] as number) + 1;
      this.listed += 1;
    }

    // the list order moves only when listing, status or (pending and older) the heartbeat changes
    const hbChanged = !Object.is(this.heartbeat[slot], hb);
    if (
      listed !== wasListed ||
      (listed && (!wasPresent || this.sortStatus[slot] !== status || (status >= ASSET_STATUS.pending && hbChanged)))
    ) {
      this.moveInOrder(slot);
    }
    if ((listed || wasListed) && changed) this.changes.clusters = true;
    this.sortStatus[slot] = status;
    this.heartbeat[slot] = hb;

    if (changed) {
      b.lngLat[2 * slot] = lng;
      b.lngLat[2 * slot + 1] = lat;
      b.status[slot] = shown;
      b.icon[slot] = icon;
      b.heading[slot] = heading;
      b.flags[slot] = flags;
      if (this.changedMark[slot] === 0) {
        this.changedMark[slot] = 1;
        this.changed.push(slot);
      }
    }
    if (slot === this.selectedSlot) this.changes.selected = true;
  }

  /**
   * The station check by position. A position found outside every station is remembered per slot
   * so that a heartbeat of a parked asset does not search the R-tree again (forgotten when the
   * stations are reloaded).
   */
  private stationAt(slot: number, lng: number, lat: number): string | null {
    if (this.outsideLng[slot] === lng && this.outsideLat[slot] === lat) return null;
    const id = this.stations.stationAt(lng, lat)?.id ?? null;
    this.outsideLng[slot] = id === null ? lng : Number.NaN;
    this.outsideLat[slot] = id === null ? lat : Number.NaN;
    return id;
  }

  /** Every asset again (filter change, stations reloaded); `recheckStations` clears stations first. */
  refreshAll(now: number, recheckStations = false): void {
    if (recheckStations) {
      this.outsideLng.fill(Number.NaN);
      this.outsideLat.fill(Number.NaN);
    }
    for (let slot = 0; slot < this.next; slot += 1) {
      const asset = this.assets[slot];
      if (!asset) continue;
      if (recheckStations && asset.status > ASSET_STATUS.active) asset.stationId = null;
      this.refresh(slot, now);
    }
  }

  setFilter(filter: AssetFilter, now: number): void {
    const before = this.filter.ownedOrgIds;
    this.filter = filter;
    if (before.size !== filter.ownedOrgIds.size || [...before].some((id) => !filter.ownedOrgIds.has(id))) this.recountOwnership();
    this.refreshAll(now);
    this.orderFull = true;
    this.changes.order = true;
    this.changes.clusters = true;
  }

  private countOwnership(asset: Asset, sign: 1 | -1): void {
    const o = this.ownership;
    if (ownershipOf(asset.organization?.id, this.filter.ownedOrgIds) === 'managed') o.managed += sign;
    else {
      o.owned += sign;
      if (asset.organizationRelationships.length > 0) o.ownedShared += sign;
    }
  }

  private zeroOwnership(): void {
    this.ownership.owned = 0;
    this.ownership.managed = 0;
    this.ownership.ownedShared = 0;
  }

  private recountOwnership(): void {
    this.zeroOwnership();
    for (let slot = 0; slot < this.next; slot += 1) {
      const asset = this.assets[slot];
      if (asset) this.countOwnership(asset, 1);
    }
  }

  /** Slots whose deadline has come, refreshed. */
  refreshDue(now: number): number {
    const due: number[] = [];
    this.clock.popDue(now, due);
    for (const slot of due) this.refresh(slot, now);
    return due.length;
  }

  /** Slots in use are below this. */
  get highWater(): number {
    return this.next;
  }

  /** Changed slots so far in this batch. */
  get changedCount(): number {
    return this.changed.length;
  }

  get hasRemovals(): boolean {
    return this.removed.length > 0;
  }

  /** Encodes and forgets this batch's changes; freed slots become reusable. */
  takeDiff(meta: Omit<DiffMeta, 'counts' | 'listCounts' | 'total' | 'listLength'>): LiveDiff {
    const diff = encodeDiff(this.buffers, this.changed, this.removed, {
      ...meta,
      counts: this.counts,
      listCounts: this.listCounts,
      total: this.total,
      listLength: this.listed,
    });
    for (const slot of this.changed) this.changedMark[slot] = 0;
    this.changed = [];
    this.removed = [];
    if (this.freedInBatch.length > 0) {
      this.free.push(...this.freedInBatch);
      this.freedInBatch = [];
    }
    return diff;
  }

  private allocate(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    const slot = this.next;
    this.next += 1;
    if (slot >= this.buffers.capacity) this.grow(this.buffers.capacity * 2);
    return slot;
  }

  private grow(capacity: number): void {
    this.buffers = growFleetBuffers(this.buffers, capacity);
    const grow8 = (a: Uint8Array) => {
      const grown = new Uint8Array(capacity);
      grown.set(a);
      return grown;
    };
    this.sortStatus = grow8(this.sortStatus);
    this.orderMark = grow8(this.orderMark);
    this.typeIndex = grow8(this.typeIndex);
    this.changedMark = grow8(this.changedMark);
    this.pendingMark = grow8(this.pendingMark);
    while (this.pendingStation.length < capacity) this.pendingStation.push(undefined);
    const grow64 = (a: Float64Array, fill: number) => {
      const grown = new Float64Array(capacity).fill(fill);
      grown.set(a);
      return grown;
    };
    this.heartbeat = grow64(this.heartbeat, 0);
    this.outsideLng = grow64(this.outsideLng, Number.NaN);
    this.outsideLat = grow64(this.outsideLat, Number.NaN);
    this.clock.grow(capacity);
  }
}
