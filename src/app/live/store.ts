/**
 * The main thread's live store (ARCHITECTURE "Live data"; CONVENTIONS §3): a small Valtio proxy —
 * a version counter, counts per status, filters, the selection, preferences, load progress and
 * connectivity — with the fleet's typed arrays and the list order held under `ref()`, never a
 * proxy per asset. `applyDiffToStore` writes one diff into it: a scatter over the changed slots,
 * a version bump and a new `data` object for deck.gl over the same buffers (Valtio does not see
 * changes inside `ref()`, deck.gl compares `data` by identity).
 */
import { proxy, ref } from 'valtio';
import { z } from 'zod';
import { ASSET_STATUS, type AssetStatus, type ResponderMix } from '../../domain/asset-status';
import { defaultAssetFilter } from '../../domain/asset-filter';
import { DEFAULT_EVENT_DISPLAY, type EventsQuery } from '../../domain/location';
import { applyDiff, createFleetBuffers, STATUS_COUNT, type AssetDetails, type FleetBuffers, type LiveDiff } from '../../domain/live-diff';
import { layerDataOf, type AssetsLayerData } from '../../map/layers/assets-layer-data';
import {
  sameOwnership,
  type FilterInput,
  type LiveOwnership,
  type LivePhase,
  type LiveStatus,
  type SocketState,
} from '../../workers/live-protocol';
import type { OrganizationGroupKind } from '../../domain/organization';

/** part 1 §2 Map: toggle preferences kept in local storage. */
export interface LivePreferences {
  groupView: boolean;
  densityView: boolean;
  stationView: boolean;
  pinMarker: boolean;
  showOffline: boolean;
  /** part 1 §4 "Situational-awareness mode can be toggled". */
  situationalAwareness: boolean;
  /** Beyond the spec: the unit-availability view — gaps farther than `availabilityRadiusM` from a standby or stationary unit are shaded. */
  availabilityView: boolean;
  availabilityRadiusM: number;
}

/** part 1 §2: group view on, density view off by default; the rest chosen (docs/decisions/spec.md "Values the spec does not give"). */
export const DEFAULT_PREFERENCES: Readonly<LivePreferences> = {
  groupView: true,
  densityView: false,
  stationView: true,
  pinMarker: false,
  showOffline: true,
  situationalAwareness: false,
  availabilityView: false,
  availabilityRadiusM: 3_000,
};

export const PREFERENCES_STORAGE_KEY = 'lightbar.live.preferences';

const preferencesSchema = z
  .object({
    groupView: z.boolean(),
    densityView: z.boolean(),
    stationView: z.boolean(),
    pinMarker: z.boolean(),
    showOffline: z.boolean(),
    situationalAwareness: z.boolean(),
    availabilityView: z.boolean(),
    availabilityRadiusM: z.number().positive().max(100_000),
  })
  .partial();

/** The stored preferences over the defaults; anything unreadable is ignored. */
export function loadPreferences(storage: Pick<Storage, 'getItem'> | null | undefined): LivePreferences {
  try {
    const text = storage?.getItem(PREFERENCES_STORAGE_KEY);
    const parsed = text ? preferencesSchema.safeParse(JSON.parse(text)) : null;
    return { ...DEFAULT_PREFERENCES, ...(parsed?.success ? parsed.data : {}) };
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

export function savePreferences(storage: Pick<Storage, 'setItem'> | null | undefined, preferences: LivePreferences): void {
  try {
    storage?.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify(preferences));
  } catch {
    // storage full or denied: the preference lasts for this page only
  }
}

/** The list filters (part 1 §4 "Sorting and filtering"); the worker applies them. */
export interface LiveFilters {
  statuses: AssetStatus[];
  outOfService: boolean;
  feed: boolean;
  search: string;
  typeNames: string[];
  subtypeIds: string[];
  /** The Owned / Managed toggles (part 1 §3): one kind alone, or null for both. */
  ownership: OrganizationGroupKind | null;
}

export function defaultFilters(showOffline: boolean): LiveFilters {
  return {
    ...defaultAssetFilter(showOffline),
    search: '',
    typeNames: [],
    subtypeIds: [],
    ownership: null,
  };
}

export function toFilterInput(filters: LiveFilters): FilterInput {
  return {
    ...filters,
    statuses: [...filters.statuses],
    typeNames: [...filters.typeNames],
    subtypeIds: [...filters.subtypeIds],
  };
}

/** part 1 §4: the show-offline preference adds or removes offline from the status filter. */
export function withShowOffline(statuses: readonly AssetStatus[], showOffline: boolean): AssetStatus[] {
  const rest = statuses.filter((status) => status !== ASSET_STATUS.offline);
  return showOffline ? [...rest, ASSET_STATUS.offline].sort((a, b) => a - b) : rest;
}

export interface LiveConnectivity {
  online: boolean;
  focused: boolean;
  socket: SocketState;
  /** Reconnects since the last live subscription. */
  socketAttempt: number;
  polling: boolean;
  largeOrg: boolean;
  unauthorized: boolean;
  error: string | null;
  lastRefreshAt: number | null;
}

export interface LiveState {
  /** The last diff applied (0 before any). */
  version: number;
  /** Worker clock of that diff. */
  time: number;
  organizationId: string | null;
  phase: LivePhase;
  /** Per display status (index = code 0..6), whole fleet and listed assets. */
  counts: number[];
  listCounts: number[];
  total: number;
  listLength: number;
  /** Bumped when the list order changed (the list re-reads its rows). */
  orderVersion: number;
  /** The group view's index version (ask for clusters again when it moves). */
  clusterVersion: number;
  filters: LiveFilters;
  selection: { id: string | null; asset: AssetDetails | null };
  preferences: LivePreferences;
  /** Pages of the initial load. */
  progress: { loaded: number; total: number; done: boolean };
  connectivity: LiveConnectivity;
  events: { version: number; active: number; recent: number; query: EventsQuery };
  closuresVersion: number;
  stations: number;
  /** part 1 §2, §4: the fleet's responder mix as the worker counts it (Incidents or Events, status labels). */
  responderMix: ResponderMix;
  /** part 1 §3: owned and managed counts of the fleet, and whether relations exist (the worker's). */
  ownership: LiveOwnership;
  /** Per-slot typed arrays (under ref). */
  buffers: FleetBuffers;
  /** The list: slots in order (under ref). */
  order: Int32Array;
  /** deck.gl's data object, new per diff (under ref). */
  data: AssetsLayerData;
}

export type LiveStore = LiveState;

export function createLiveStore(preferences: LivePreferences = { ...DEFAULT_PREFERENCES }): LiveStore {
  const buffers = createFleetBuffers(0);
  return proxy<LiveState>({
    version: 0,
    time: 0,
    organizationId: null,
    phase: 'idle',
    counts: new Array<number>(STATUS_COUNT).fill(0),
    listCounts: new Array<number>(STATUS_COUNT).fill(0),
    total: 0,
    listLength: 0,
    orderVersion: 0,
    clusterVersion: 0,
    filters: defaultFilters(preferences.showOffline),
    selection: { id: null, asset: null },
    preferences,
    progress: { loaded: 0, total: 0, done: false },
    connectivity: {
      online: true,
      focused: true,
      socket: 'off',
      socketAttempt: 0,
      polling: false,
      largeOrg: false,
      unauthorized: false,
      error: null,
      lastRefreshAt: null,
    },
    events: { version: 0, active: 0, recent: 0, query: { display: DEFAULT_EVENT_DISPLAY, search: '' } },
    closuresVersion: 0,
    stations: 0,
    responderMix: 'all',
    ownership: { owned: 0, managed: 0, relations: false },
    buffers: ref(buffers),
    order: ref(new Int32Array(0)),
    data: ref(layerDataOf(buffers, 0)),
  });
}

function setCounts(target: number[], source: Int32Array): void {
  for (let i = 0; i < STATUS_COUNT; i += 1) {
    const value = source[i] ?? 0;
    if (target[i] !== value) target[i] = value;
  }
}

/** The slots a diff wrote: its changed slots and its removed ones (the layer uploads those rows). */
function changedSlotsOf(diff: LiveDiff): Int32Array {
  if (diff.removed.length === 0) return diff.index;
  const slots = new Int32Array(diff.index.length + diff.removed.length);
  slots.set(diff.index);
  slots.set(diff.removed, diff.index.length);
  return slots;
}

/**
 * Writes one diff into the store. Work is proportional to the changed slots (plus the order's
 * hand-over by reference), never to the fleet.
 */
export function applyDiffToStore(store: LiveStore, diff: LiveDiff): void {
  const current = store.buffers;
  const buffers = applyDiff(current, diff);
  if (buffers !== current) store.buffers = ref(buffers);
  if (diff.order) {
    store.order = ref(diff.order);
    store.orderVersion += 1;
  } else if (diff.reset) {
    store.order = ref(new Int32Array(0));
    store.orderVersion += 1;
  }
  setCounts(store.counts, diff.counts);
  setCounts(store.listCounts, diff.listCounts);
  store.total = diff.total;
  store.listLength = diff.listLength;
  store.clusterVersion = diff.clusterVersion;
  // Details of an earlier selection (a diff made before the worker saw the new one) are not shown.
  if (diff.selected !== undefined && (diff.selected === null || diff.selected.id === store.selection.id)) {
    store.selection.asset = diff.selected === null ? null : ref(diff.selected);
  }
  store.time = diff.time;
  store.data = ref(layerDataOf(buffers, diff.version, buffers === current ? changedSlotsOf(diff) : null));
  store.version = diff.version;
}

/** Writes the worker's status report into the store. */
export function applyStatusToStore(store: LiveStore, status: LiveStatus): void {
  store.organizationId = status.organizationId;
  store.phase = status.phase;
  const { progress } = store;
  progress.loaded = status.progress.loaded;
  progress.total = status.progress.total;
  progress.done = status.phase === 'live' || (status.progress.total > 0 && status.progress.loaded >= status.progress.total);
  const c = store.connectivity;
  c.online = status.online;
  c.focused = status.focused;
  c.socket = status.socket.state;
  c.socketAttempt = status.socket.attempt;
  c.polling = status.polling;
  c.largeOrg = status.largeOrg;
  c.unauthorized = status.unauthorized;
  c.error = status.error;
  c.lastRefreshAt = status.lastRefreshAt;
  store.events.version = status.events.version;
  store.events.active = status.events.active;
  store.events.recent = status.events.recent;
  store.closuresVersion = status.closuresVersion;
  store.stations = status.stations;
  if (store.responderMix !== status.responderMix) store.responderMix = status.responderMix;
  if (!sameOwnership(store.ownership, status.ownership)) store.ownership = { ...status.ownership };
}
