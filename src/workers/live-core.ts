/**
 * The live engine's synchronous core: the fleet, its list order, events, closures, stations and
 * the group view, driven by loads, queued socket messages and the clock, producing one diff per
 * batch. No timers and no I/O here (those are live-engine.ts's): the bench and the tests run the
 * core directly, the worker wraps it.
 */
import type { Asset, ThingWire } from '../domain/asset';
import { responderMixOfCount, type ResponderMix } from '../domain/asset-status';
import type { Station } from '../domain/area';
import { createAssetFilter, defaultAssetFilter, type AssetFilterInput } from '../domain/asset-filter';
import { relationsExist } from '../domain/organization';
import type { ClosureWire } from '../domain/closure';
import type { LiveMessage } from '../domain/live-message';
import { fromLocationWire, type LocationWire } from '../domain/location';
import { AssetOrder } from './asset-order';
import { AvailabilityIndex, listedPositions, type AvailabilityAnswer, type AvailabilityQuery } from './availability';
import { ClosureCache } from './closure-cache';
import { ClusterIndex } from './cluster-index';
import type { ClusterAnswer } from '../domain/cluster-answer';
import type { ClusterQuery, LiveOwnership } from './live-protocol';
import type { AssetDetails, LiveDiff } from '../domain/live-diff';
import { EventsCache } from './events-cache';
import { FleetStore } from './fleet-store';
import { applyLiveMessages } from './message-effects';
import type { AreaShape } from '../domain/area-shape';
import { AreaCounter, type AreaCountsAnswer } from './area-counts';
import { ageHistogram } from '../domain/live-timings';
import { itemGrade, matchGrade, normalizeQuery, rankPalette, type PaletteItem } from '../domain/palette';

export function toDetails(asset: Asset): AssetDetails {
  const { searchText: _searchText, ...details } = asset;
  return details;
}

/** Early location messages kept at most (see LiveCore `early`): incidents form a few at a time. */
export const EARLY_MESSAGES_MAX = 10_000;
type LocationMessage = Extract<LiveMessage, { type: 'location' }>;

export class LiveCore {
  readonly fleet = new FleetStore();
  readonly order = new AssetOrder();
  readonly events = new EventsCache();
  readonly closures = new ClosureCache();
  readonly clusters = new ClusterIndex();
  /** Diffs so far. */
  version = 0;
  /** Bumped per batch in which something the group view shows changed. */
  clusterVersion = 0;
  private filterInput: AssetFilterInput = defaultAssetFilter(true);
  private ownedOrgIds: string[] = [];
  private queue: LiveMessage[] = [];
  /** The slot each queued message's asset had when it arrived (-1: not held then). */
  private queueSlots: number[] = [];
  private resetPending = false;
  /**
   * While a first load reads the fleet with the socket open (`holdEarlyMessages`): the location
   * messages about assets not held yet, in arrival order, applied in the first batch that holds
   * their asset. A page read before an incident's row was stored would otherwise show the asset off
   * it until its next location message; positions and heartbeats need no keeping (the next message
   * brings the asset's newest). Null when not holding.
   */
  private early: LocationMessage[] | null = null;
  /**
   * While the map's freshness is measured (`measureAges`): the timestamps of the positions that
   * moved an asset since the last diff; null when not measuring.
   */
  private moved: number[] | null = null;

  /** Turns the freshness measure on or off (bench/README.md "Application bench"): diffs then carry `ages`. */
  measureAges(on: boolean): void {
    this.moved = on ? [] : null;
  }

  get queued(): number {
    return this.queue.length;
  }

  /**
   * Queues a socket message as it arrives, with its asset's slot looked up now (frames arrive
   * spread over the second; the batch then reads the asset directly, checking the slot still holds
   * it — a removal or an organization switch in between falls back to the lookup).
   */
  enqueue(message: LiveMessage): void {
    this.queue.push(message);
    this.queueSlots.push(message.type === 'thing' ? -1 : (this.fleet.slotOf.get(message.thing_id) ?? -1));
  }

  /**
   * Things of a page or an incremental answer; deleted ids (tombstones) are removed.
   * `detailsPending`: rows of a fleet snapshot without its details (their assets wait for their pages').
   */
  loadThings(things: readonly ThingWire[], deletedIds: readonly string[], now: number, detailsPending = false): void {
    for (const id of deletedIds) this.fleet.remove(id);
    for (const wire of things) this.fleet.upsertWire(wire, now, detailsPending);
  }

  loadEvents(items: readonly LocationWire[], deletedIds: readonly string[]): boolean {
    return this.events.apply(items.map(fromLocationWire), deletedIds);
  }

  loadClosures(items: readonly ClosureWire[], deletedIds: readonly string[], now: number): boolean {
    return this.closures.apply(items, deletedIds, now, (thingId) => this.fleet.get(thingId));
  }

  /** The stations replace the previous ones and every asset's station is checked again. */
  setStations(stations: readonly Station[], now: number): void {
    this.fleet.stations.load(stations);
    this.fleet.refreshAll(now, true);
  }

  setFilter(input: AssetFilterInput, now: number): void {
    this.filterInput = input;
    this.fleet.setFilter(createAssetFilter({ ...input, ownedOrgIds: this.ownedOrgIds }), now);
  }

  /** The organizations that own (the subscribed one and its children; part 1 §3, `ownershipOf`). */
  setOwnedOrganizations(ids: readonly string[], now: number): void {
    this.ownedOrgIds = [...new Set(ids)];
    this.setFilter(this.filterInput, now);
  }

  /** part 1 §3: the fleet's owned and managed counts, and whether relations exist (the Owned / Managed toggles). */
  ownership(): LiveOwnership {
    const { owned, managed, ownedShared } = this.fleet.ownership;
    return { owned, managed, relations: relationsExist({ managed, ownedShared }) };
  }

  /** The selected asset (its details then ride on every diff in which it changed). */
  select(id: string | null): AssetDetails | null {
    this.fleet.select(id);
    const asset = id === null ? null : this.fleet.get(id);
    return asset ? toDetails(asset) : null;
  }

  asset(id: string): AssetDetails | null {
    const asset = this.fleet.get(id);
    return asset ? toDetails(asset) : null;
  }

  /** The asset drawn in a slot (a pick on the map answers a slot), null for an empty slot. */
  assetAtSlot(slot: number): AssetDetails | null {
    const asset = Number.isInteger(slot) && slot >= 0 ? this.fleet.assets[slot] : null;
    return asset ? toDetails(asset) : null;
  }

  /** The slot of an asset id (-1 when it is not in the fleet): the map highlights the targeted asset by slot. */
  slotOf(id: string): number {
    return this.fleet.slotOf.get(id) ?? -1;
  }

  /**
   * The bounds [west, south, east, north] of the listed assets (what passes the filter), null when
   * none is listed: the map's show-all fit (part 1 §2).
   */
  listedBounds(): [number, number, number, number] | null {
    const { order } = this.order;
    const { lngLat } = this.fleet.buffers;
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (let i = 0; i < order.length; i += 1) {
      const slot = order[i] as number;
      const lng = lngLat[2 * slot] as number;
      const lat = lngLat[2 * slot + 1] as number;
      if (lng < west) west = lng;
      if (lng > east) east = lng;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
    return west === Infinity ? null : [west, south, east, north];
  }

  /** Rows `start` ≤ i < `end` of the list, in order (the rows the list shows). */
  rows(start: number, end: number): AssetDetails[] {
    const { order } = this.order;
    const rows: AssetDetails[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, order.length); i += 1) {
      const asset = this.fleet.assets[order[i] as number];
      if (asset) rows.push(toDetails(asset));
    }
    return rows;
  }

  /** part 1 §2, §4: the fleet's responder mix, from the count the fleet keeps (no loop over the fleet). */
  responderMix(): ResponderMix {
    return responderMixOfCount(this.fleet.responders, this.fleet.slotOf.size);
  }

  /** Empties everything (organization switch); the next diff says reset. */
  reset(): void {
    this.fleet.clear();
    this.events.clear();
    this.closures.clear();
    this.clusters.clear();
    this.order.order = new Int32Array(0);
    this.queue = [];
    this.queueSlots = [];
    if (this.early) this.early = [];
    if (this.moved) this.moved = [];
    this.resetPending = true;
    this.clusterVersion += 1;
  }

  /** Starts or ends keeping early location messages (see `early`); ending drops those still kept. */
  holdEarlyMessages(on: boolean): void {
    this.early = on ? (this.early ?? []) : null;
  }

  /** Location messages kept for assets not held yet (tests). */
  get heldEarly(): number {
    return this.early?.length ?? 0;
  }

  /** Applies the queued messages in arrival order, after the kept early ones whose asset is now held. */
  applyQueued(now: number): number {
    let queue = this.queue;
    let slots = this.queueSlots;
    this.queue = [];
    this.queueSlots = [];
    const keep = this.early;
    if (keep && keep.length > 0) {
      // Those whose asset came go first (they arrived before everything queued); the rest stay kept.
      const ready: LocationMessage[] = [];
      let waiting = 0;
      for (const message of keep) {
        if (this.fleet.slotOf.has(message.thing_id)) ready.push(message);
        else keep[waiting++] = message;
      }
      keep.length = waiting;
      if (ready.length > 0) {
        queue = (ready as LiveMessage[]).concat(queue);
        slots = new Array<number>(ready.length).fill(-1).concat(slots);
      }
    }
    const targets = { fleet: this.fleet, events: this.events, closures: this.closures, moved: this.moved };
    applyLiveMessages(
      targets,
      queue,
      now,
      slots,
      keep
        ? (message) => {
            if (message.type === 'location' && keep.length < EARLY_MESSAGES_MAX)
              keep.push(message.location ? { ...message, location: null } : message);
          }
        : undefined,
    );
    return queue.length;
  }

  /**
   * One batch: the queued messages, then every asset whose deadline has come, then the list order
   * when it moved; returns the diff (null when nothing changed at all).
   */
  flush(now: number): LiveDiff | null {
    this.applyQueued(now);
    this.fleet.refreshDue(now);
    const { changes } = this.fleet;
    const order = changes.order ? this.order.compute(this.fleet) : null;
    changes.order = false;
    const clustersChanged = changes.clusters;
    if (clustersChanged) this.clusterVersion += 1;
    changes.clusters = false;
    let selected: AssetDetails | null | undefined;
    if (changes.selected) {
      const id = this.fleet.selectedId;
      const asset = id === null ? null : this.fleet.get(id);
      selected = asset ? toDetails(asset) : null;
    }
    changes.selected = false;
    if (
      !this.resetPending &&
      order === null &&
      !clustersChanged &&
      selected === undefined &&
      this.fleet.changedCount === 0 &&
      !this.fleet.hasRemovals
    ) {
      // Positions that changed nothing drew nothing: they are not counted in a later diff.
      if (this.moved) this.moved = [];
      return null;
    }
    this.version += 1;
    const diff = this.fleet.takeDiff({
      version: this.version,
      time: now,
      reset: this.resetPending,
      order,
      clusterVersion: this.clusterVersion,
      selected,
    });
    this.resetPending = false;
    if (this.moved && this.moved.length > 0) {
      diff.ages = ageHistogram(this.moved, this.moved.length, now);
      this.moved = [];
    }
    return diff;
  }

  clusterAnswer(query: ClusterQuery): ClusterAnswer {
    this.clusters.ensure(this.fleet, this.clusterVersion);
    return this.clusters.query(query);
  }

  // ── area markers' counts (part 1 §2 Map: "Area markers show asset counts") ──
  private readonly areaCounter = new AreaCounter();

  /** The listed assets inside each area; counted again only when the fleet's version or the areas changed. */
  areaCounts(shapes: readonly AreaShape[]): AreaCountsAnswer {
    return this.areaCounter.count(shapes, this.fleet.buffers, this.fleet.highWater, this.version);
  }

  // ── the unit-availability and density views ──
  private readonly availabilityIndex = new AvailabilityIndex();

  /** The unit-availability view's gaps for an area: the units' index follows the group view's version. */
  availabilityAnswer(query: AvailabilityQuery): AvailabilityAnswer {
    return this.availabilityIndex.query(this.fleet, this.clusterVersion, query);
  }

  /** The listed assets' positions [lng, lat, …] in list order (the density view). */
  listedPositions(): Float64Array {
    return listedPositions(this.order.order, this.fleet.buffers.lngLat);
  }

  /**
   * The command palette's assets and incidents for a query (src/domain/palette.ts): each asset by
   * its names and identifiers, each kept event by its name, street and id, whatever the list's
   * filters and the events panel's query show; the best `limit`, ranked.
   */
  paletteMatches(query: string, limit: number): PaletteItem[] {
    const needle = normalizeQuery(query);
    if (needle === '') return [];
    const found: PaletteItem[] = [];
    for (const asset of this.fleet.assets) {
      // The prebuilt search text holds every name and id: an asset it does not match is skipped unbuilt
      // (one that matches it across two names is graded again by its own, in rankPalette).
      if (!asset || matchGrade(needle, asset.searchText) === null) continue;
      found.push({
        kind: 'asset',
        id: asset.id,
        label: asset.primaryDisplayName,
        detail: asset.nickname ? asset.name : null,
        terms: [asset.name, asset.nickname, asset.id, asset.systemId, asset.externalId, asset.plateNumber],
      });
    }
    for (const event of this.events.all()) {
      const item: PaletteItem = {
        kind: 'incident',
        id: event.id,
        label: event.displayName,
        detail: event.street,
        terms: [event.street, event.externalId, event.id],
      };
      if (itemGrade(needle, item) !== null) found.push(item);
    }
    return rankPalette(query, found, [], limit);
  }
}
