/**
 * The main thread's half of the live engine (CONVENTIONS §2): creates the worker, wraps
 * it with Comlink, applies each diff and status report to the Valtio store, forwards connectivity
 * and page focus, hands over refreshed tokens, and calls `onUnauthorized` once each time the
 * worker reports a 401 (a token handed over after it lets the worker go on). Per diff it does work proportional to the changed assets only; it never parses
 * socket traffic and runs no timer per asset.
 */
import * as Comlink from 'comlink';
import { ref } from 'valtio';
import type { AssetStatus } from '../../domain/asset-status';
import type { AvailabilityAnswer } from '../../workers/availability';
import type { EventsQuery, EventsView } from '../../domain/location';
import { liveDiffSchema, type AssetDetails, type LiveDiff } from '../../domain/live-diff';

import type { LiveEngine } from '../../workers/live-engine';
import type { ClusterAnswer } from '../../domain/cluster-answer';
import {
  liveStatusSchema,
  type LiveConfig,
  type LiveListener,
  type LiveStatus,
  type OrganizationChoice,
} from '../../workers/live-protocol';
import {
  applyDiffToStore,
  applyStatusToStore,
  createLiveStore,
  loadPreferences,
  savePreferences,
  toFilterInput,
  withShowOffline,
  type LiveFilters,
  type LivePreferences,
  type LiveStore,
} from './store';
import { createLiveMeasures, type LiveMeasures } from './measures';

/** The worker, in its own chunk (Vite emits a separate file for this exact `new Worker(new URL(…))` form). */
export function createLiveWorker(): Worker {
  return new Worker(new URL('../../workers/live.worker.ts', import.meta.url), { type: 'module', name: 'lightbar-live' });
}

/** What the page gives the bridge to watch (the browser's window and document by default). */
export interface PageSignals {
  isOnline(): boolean;
  isFocused(): boolean;
  /** Subscribes to online/offline and focus changes; returns the unsubscribe. */
  watch(onOnline: (online: boolean) => void, onFocus: (focused: boolean) => void): () => void;
}

export function browserPageSignals(): PageSignals | null {
  if (typeof window === 'undefined' || typeof document === 'undefined') return null;
  const focused = () => document.visibilityState === 'visible' && (typeof document.hasFocus !== 'function' || document.hasFocus());
  return {
    isOnline: () => navigator.onLine,
    isFocused: focused,
    watch(onOnline, onFocus) {
      const online = () => onOnline(true);
      const offline = () => onOnline(false);
      const focus = () => onFocus(focused());
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      window.addEventListener('focus', focus);
      window.addEventListener('blur', focus);
      document.addEventListener('visibilitychange', focus);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
        window.removeEventListener('focus', focus);
        window.removeEventListener('blur', focus);
        document.removeEventListener('visibilitychange', focus);
      };
    },
  };
}

export interface LiveBridgeOptions {
  store?: LiveStore;
  createWorker?: () => Worker;
  /** Called once each time the worker reports a 401: the app renews the token or signs out (part 1 §4 Session). */
  onUnauthorized?: () => void;
  /** null: nothing watched (tests); default: the browser's window and document. */
  signals?: PageSignals | null;
  /** Where preferences are kept (part 1 §2: local storage). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/** What `start` needs; the API and socket addresses default to the page's origin. */
export type LiveStart = Omit<LiveConfig, 'filter' | 'online' | 'focused' | 'apiBase' | 'socketUrl'> &
  Partial<Pick<LiveConfig, 'apiBase' | 'socketUrl'>>;

type Engine = Comlink.Remote<LiveEngine>;

/**
 * The engine's calls the page makes as they are: their types come from the engine's own
 * (`Comlink.Remote<LiveEngine>`), so such a call is written once, in the engine, and listed here.
 */
export const PASSED_CALLS = [
  'setToken',
  'asset',
  'assetAtSlot',
  'slotOf',
  'listedBounds',
  'expansionZoom',
  'listedPositions',
  'events',
  'event',
  'closures',
  'refresh',
  'areaCounts',
  'paletteMatches',
] as const satisfies readonly (keyof LiveEngine)[];
export type PassedCalls = Pick<Engine, (typeof PASSED_CALLS)[number]>;

/** The bridge: the engine's passed calls, and those that also read or write the store. */
export interface LiveBridge extends PassedCalls {
  readonly store: LiveStore;
  /** The worker's API (for anything the bridge does not wrap). */
  readonly engine: Engine;
  start(config: LiveStart): Promise<void>;
  switchOrganization(choice: OrganizationChoice): Promise<void>;
  /** Changes some filters; the worker answers with a diff (new order and counts). */
  setFilters(patch: Partial<LiveFilters>): Promise<void>;
  /** Changes preferences (kept in storage); show-offline also moves the status filter. */
  setPreferences(patch: Partial<LivePreferences>): Promise<void>;
  /** Selects an asset (null clears): its details now and on every diff in which it changes. */
  select(id: string | null): Promise<AssetDetails | null>;
  /** List rows start ≤ i < end (the visible rows of the virtualized list). */
  rows(start: number, end: number): Promise<AssetDetails[]>;
  /** Clusters and station groups of a viewport (group view), with the station-view preference. */
  clusters(bbox: [number, number, number, number], zoom: number): Promise<ClusterAnswer>;
  /** The unit-availability view's gaps for an area, with the availability-radius preference. */
  availability(bbox: [number, number, number, number]): Promise<AvailabilityAnswer>;
  /** Changes the events query (kept in the store) and answers the events it shows. */
  setEventsQuery(patch: Partial<EventsQuery>): Promise<EventsView>;
  /** What the application bench reads (src/app/live/measures.ts). */
  readonly measures: LiveMeasures;
  dispose(): Promise<void>;
}

/** Each passed call forwarded to the engine. */
function passedCalls(engine: Engine): PassedCalls {
  const calls: Record<string, (...args: unknown[]) => unknown> = {};
  for (const name of PASSED_CALLS) {
    calls[name] = (...args: unknown[]) => (engine[name] as (...a: unknown[]) => unknown)(...args);
  }
  return calls as unknown as PassedCalls;
}

function defaultAddresses(): { apiBase: string; socketUrl: string } {
  const origin = typeof location !== 'undefined' ? location.origin : 'http://localhost';
  return { apiBase: origin, socketUrl: `${origin.replace(/^http/, 'ws')}/cable` };
}

export function createLiveBridge(options: LiveBridgeOptions = {}): LiveBridge {
  const storage = options.storage === undefined ? (typeof localStorage !== 'undefined' ? localStorage : null) : options.storage;
  const store = options.store ?? createLiveStore(loadPreferences(storage));
  const worker = (options.createWorker ?? createLiveWorker)();
  const engine = Comlink.wrap<LiveEngine>(worker);
  const signals = options.signals === undefined ? browserPageSignals() : options.signals;
  let unwatch: (() => void) | null = null;
  /** The worker's last reported 401 state: `onUnauthorized` runs when it turns on. */
  let unauthorized = false;
  /** Diffs that carried the selected asset's details (they travel on another channel than `select`'s answer). */
  let selectedDiffs = 0;
  const measures = createLiveMeasures(store, engine);

  const listener: LiveListener = {
    diff(raw: LiveDiff) {
      const diff = liveDiffSchema.parse(raw) as LiveDiff;
      if (diff.selected !== undefined) selectedDiffs += 1;
      applyDiffToStore(store, diff);
      measures.onDiff(diff);
    },
    status(raw: LiveStatus) {
      const status = liveStatusSchema.parse(raw);
      applyStatusToStore(store, status);
      const turnedOn = status.unauthorized && !unauthorized;
      unauthorized = status.unauthorized;
      if (turnedOn) options.onUnauthorized?.();
    },
  };

  return {
    ...passedCalls(engine),
    store,
    engine,
    measures: measures.api,
    async start(config) {
      unauthorized = false;
      unwatch?.();
      unwatch =
        signals?.watch(
          (online) => void engine.setConnectivity(online),
          (focused) => void engine.setFocus(focused),
        ) ?? null;
      store.selection.id = null;
      store.selection.asset = null;
      await engine.start(
        {
          ...defaultAddresses(),
          ...config,
          filter: toFilterInput(store.filters),
          events: { ...store.events.query },
          online: signals?.isOnline() ?? true,
          focused: signals?.isFocused() ?? true,
        },
        Comlink.proxy(listener),
      );
    },
    async switchOrganization(choice) {
      store.selection.id = null;
      store.selection.asset = null;
      await engine.switchOrganization(choice);
    },
    async setFilters(patch) {
      Object.assign(store.filters, patch);
      await engine.setFilter(toFilterInput(store.filters));
    },
    async setPreferences(patch) {
      const before = store.preferences.showOffline;
      Object.assign(store.preferences, patch);
      savePreferences(storage, { ...store.preferences });
      if (patch.showOffline !== undefined && patch.showOffline !== before) {
        store.filters.statuses = withShowOffline(store.filters.statuses as AssetStatus[], patch.showOffline);
        await engine.setFilter(toFilterInput(store.filters));
      }
    },
    async select(id) {
      store.selection.id = id;
      const mark = selectedDiffs;
      const details = await engine.select(id);
      // A later selection wins; and a diff that brought this asset's details while the answer
      // travelled is newer than the answer (diffs and answers use different channels).
      if (store.selection.id !== id) return details;
      if (selectedDiffs !== mark && id !== null && store.selection.asset?.id === id) return store.selection.asset as AssetDetails;
      store.selection.asset = details ? ref(details) : null;
      return details;
    },
    async rows(start, end) {
      return (await engine.rows(start, end)).rows;
    },
    clusters: (bbox, zoom) => engine.clusters({ bbox, zoom, stationView: store.preferences.stationView }),
    availability: (bbox) => engine.availability({ bbox, radiusM: store.preferences.availabilityRadiusM }),
    async setEventsQuery(patch) {
      Object.assign(store.events.query, patch);
      return engine.setEventsQuery({ ...store.events.query });
    },
    async dispose() {
      unwatch?.();
      unwatch = null;
      try {
        await engine.stop();
      } finally {
        engine[Comlink.releaseProxy]();
        worker.terminate();
      }
    },
  };
}
