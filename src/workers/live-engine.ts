/**
 * The live engine (part 1 §4 "Live updates"): the worker-side shell around `LiveCore`, made of
 * the scheduler (live-scheduler.ts: the 1 s batch and the one status-clock timer), the loader
 * (live-loader.ts: the initial paged load with progress, incremental loads, the socket, 15 s
 * polling for large organizations and whenever the socket is not live) and the Comlink API the
 * main thread calls (below). What it sends back: one diff per batch (typed arrays, transferred)
 * and a small status object. The page's bridge types its calls from this API
 * (`Comlink.Remote<LiveEngine>`).
 */
import * as Comlink from 'comlink';
import { z } from 'zod';
import { defaultAssetFilter, type AssetFilterInput } from '../domain/asset-filter';
import type { Closure } from '../domain/closure';
import { SOCKET_BATCH_MS, SOCKET_PROTOCOL } from '../domain/constants';
import type { EventsQuery, EventsView, Location } from '../domain/location';
import type { AvailabilityAnswer, AvailabilityQuery } from './availability';
import { availabilityQuerySchema, availabilityTransferables, type ListedPositions } from './availability-protocol';
import { diffTransferables, type AssetDetails } from '../domain/live-diff';

import { clusterTransferables, type ClusterAnswer } from '../domain/cluster-answer';
import { LiveCore } from './live-core';
import { createLiveLoader, type LiveEngineState } from './live-loader';
import { createLiveScheduler } from './live-scheduler';
import {
  assetFilterInputSchema,
  clusterQuerySchema,
  eventsQuerySchema,
  liveConfigSchema,
  organizationChoiceSchema,
  sameOwnership,
  type ClusterQuery,
  type FilterInput,
  type LiveConfig,
  type LiveListener,
  type LiveStatus,
  type OrganizationChoice,
} from './live-protocol';
import type { SocketFactory, SocketLike } from './socket-client';
import { areaShapeSchema, type AreaShape } from '../domain/area-shape';
import type { AreaCountsAnswer } from './area-counts';
import type { PaletteItem } from '../domain/palette';

/** Batch durations kept while measuring: an hour of batches. */
const MEASURED_BATCHES_MAX = 3_600;

/** Marks code that must only ever run inside the worker (the bundle test looks for it). */
export const LIVE_WORKER_MARKER = 'lightbar-live-worker-v1';

export interface LiveEngineDeps {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  openSocket: SocketFactory;
  now: () => number;
}

function defaultDeps(): LiveEngineDeps {
  return {
    // Looked up at call time, so a test's fake fetch or WebSocket is the one used.
    fetch: (input, init) => globalThis.fetch(input, init),
    openSocket: (url, protocols) => new globalThis.WebSocket(url, protocols) as unknown as SocketLike,
    now: () => Date.now(),
  };
}

function initialStatus(): LiveStatus {
  return {
    organizationId: null,
    phase: 'idle',
    progress: { loaded: 0, total: 0 },
    socket: { state: 'off', attempt: 0, delayMs: null },
    polling: false,
    largeOrg: false,
    online: true,
    focused: true,
    unauthorized: false,
    error: null,
    lastRefreshAt: null,
    events: { version: 0, active: 0, recent: 0 },
    closuresVersion: 0,
    stations: 0,
    // An empty fleet reads 'all': is_responder defaults to true (part 1 §1), so Incidents until a non-responder arrives.
    responderMix: 'all',
    ownership: { owned: 0, managed: 0, relations: false },
  };
}

export function createLiveEngine(overrides: Partial<LiveEngineDeps> = {}) {
  const deps: LiveEngineDeps = { ...defaultDeps(), ...overrides };
  const core = new LiveCore();
  const state: LiveEngineState = { config: null, token: '', status: initialStatus() };
  let listener: LiveListener | null = null;

  const now = () => deps.now();

  function emitStatus(): void {
    const view = core.events.view(now());
    state.status = {
      ...state.status,
      events: { version: core.events.version, active: view.counts.active, recent: view.counts.recent },
      closuresVersion: core.closures.version,
      stations: core.fleet.stations.size,
      responderMix: core.responderMix(),
      ownership: core.ownership(),
    };
    const status = state.status;
    if (listener) void Promise.resolve(listener.status(status)).catch(() => undefined);
  }

  function setStatus(patch: Partial<LiveStatus>): void {
    state.status = { ...state.status, ...patch };
    emitStatus();
  }

  // The batch sends one diff to the main thread, then a status when the events, closures or responder mix moved.
  let eventsVersion = 0;
  let closuresVersion = 0;
  /** While measuring (bench/README.md "Application bench"): each batch's duration in ms, up to the diff sent; null when not measuring. */
  let batchMs: number[] | null = null;
  let batchStartedAt = 0;
  const scheduler = createLiveScheduler({
    core,
    now,
    before() {
      eventsVersion = core.events.version;
      closuresVersion = core.closures.version;
      if (batchMs) batchStartedAt = performance.now();
    },
    send(diff) {
      if (batchMs && batchMs.length < MEASURED_BATCHES_MAX) batchMs.push(performance.now() - batchStartedAt);
      if (diff && listener) {
        void Promise.resolve(listener.diff(Comlink.transfer(diff, diffTransferables(diff)))).catch(() => undefined);
      }
    },
    after() {
      if (
        core.events.version !== eventsVersion ||
        core.closures.version !== closuresVersion ||
        core.responderMix() !== state.status.responderMix ||
        !sameOwnership(core.ownership(), state.status.ownership)
      )
        emitStatus();
    },
  });
  const flush = () => scheduler.flush();
  const loader = createLiveLoader({ state, core, scheduler, deps, now, setStatus });

  const engine = {
    info() {
      return { protocol: SOCKET_PROTOCOL, batchMs: SOCKET_BATCH_MS, marker: LIVE_WORKER_MARKER };
    },

    /** Starts (or restarts) the engine for an organization. `events` of the listener arrive from now on. */
    start(input: LiveConfig, live: LiveListener): void {
      const parsed = liveConfigSchema.parse(input);
      listener = live;
      state.config = parsed;
      state.token = parsed.token;
      core.reset();
      core.setFilter((parsed.filter as AssetFilterInput | undefined) ?? defaultAssetFilter(true), now());
      if (parsed.events) core.events.query = parsed.events;
      state.status = { ...initialStatus(), online: parsed.online, focused: parsed.focused, unauthorized: false };
      flush();
      loader.begin(parsed);
    },

    stop(): void {
      loader.stop();
      scheduler.clear();
      setStatus({ phase: 'idle', polling: false, socket: { state: 'off', attempt: 0, delayMs: null } });
      // A Comlink proxy of the main thread's listener holds a port open: let it go.
      const release = listener ? (listener as unknown as Record<symbol, unknown>)[Comlink.releaseProxy] : undefined;
      if (typeof release === 'function') (release as () => void)();
      listener = null;
    },

    /**
     * The main thread hands over each refreshed access token (part 1 §4 Session). After a 401 the
     * engine waits for one: with it the socket, the polling and an incremental load go on.
     */
    setToken(next: string): void {
      state.token = z.string().min(1).parse(next);
      if (!state.status.unauthorized) return;
      setStatus({ unauthorized: false });
      if (state.status.phase !== 'live') return;
      loader.connectSocket();
      loader.updatePolling();
      void loader.refresh();
    },

    /** part 1 §4 Other: switching the subscribed organization resets assets, events and closures and refetches. */
    switchOrganization(choice: OrganizationChoice): void {
      const parsed = organizationChoiceSchema.parse(choice);
      core.reset();
      flush();
      loader.begin(parsed);
    },

    setFilter(input: FilterInput): void {
      core.setFilter(assetFilterInputSchema.parse(input) as AssetFilterInput, now());
      flush();
    },

    /** The events panel's display choice and search (part 1 §2); answers the events it shows. */
    setEventsQuery(query: EventsQuery): EventsView {
      core.events.query = eventsQuerySchema.parse(query);
      emitStatus();
      return core.events.view(now());
    },

    events(): EventsView {
      return core.events.view(now());
    },

    /** One kept event by id, whatever the panel's query shows (the event detail and edit pages). */
    event(id: string): Location | null {
      return core.events.get(z.string().parse(id));
    },

    /** The command palette's assets and incidents matching a query, ranked (src/domain/palette.ts), at most `limit`. */
    paletteMatches(query: string, limit: number): PaletteItem[] {
      return core.paletteMatches(z.string().max(200).parse(query), z.number().int().min(1).max(100).parse(limit));
    },

    closures(): Closure[] {
      return core.closures.all();
    },

    /** Chooses the selected asset and answers its details (later diffs carry them when they change). */
    select(id: string | null): AssetDetails | null {
      return core.select(id === null ? null : z.string().parse(id));
    },

    asset(id: string): AssetDetails | null {
      return core.asset(id);
    },

    /** The asset in a slot (a pick on the map), null for an empty slot. */
    assetAtSlot(slot: number): AssetDetails | null {
      return core.assetAtSlot(z.number().int().parse(slot));
    },

    /** The slot of an asset id, -1 when absent. */
    slotOf(id: string): number {
      return core.slotOf(z.string().parse(id));
    },

    /** Bounds of the listed assets (west, south, east, north), null when none: the show-all fit. */
    listedBounds(): [number, number, number, number] | null {
      return core.listedBounds();
    },

    /** The list rows start ≤ i < end (the rows the virtualized list shows). */
    rows(start: number, end: number): { version: number; rows: AssetDetails[] } {
      return { version: core.version, rows: core.rows(start, end) };
    },

    /** Clusters and station groups for a viewport and zoom (typed arrays, transferred). */
    clusters(query: ClusterQuery): ClusterAnswer {
      const answer = core.clusterAnswer(clusterQuerySchema.parse(query));
      return Comlink.transfer(answer, clusterTransferables(answer));
    },

    expansionZoom(clusterId: number): number {
      return core.clusters.expansionZoom(clusterId);
    },

    /** The unit-availability view's gaps grid for an area (the mask transferred). */
    availability(query: AvailabilityQuery): AvailabilityAnswer {
      const answer = core.availabilityAnswer(availabilityQuerySchema.parse(query));
      return Comlink.transfer(answer, availabilityTransferables(answer));
    },

    /** The listed assets' positions for the density view (transferred). */
    listedPositions(): ListedPositions {
      const lngLat = core.listedPositions();
      return Comlink.transfer({ version: core.version, lngLat }, [lngLat.buffer as ArrayBuffer]);
    },

    /** Connectivity (online/offline) from the main thread: offline closes the socket and stops polling. */
    setConnectivity(online: boolean): void {
      setStatus({ online });
      if (!online) loader.closeSocket();
      else if (state.status.phase === 'live') {
        loader.connectSocket();
        void loader.refresh();
      }
      loader.updatePolling();
    },

    /** Page focus: coming back fetches what changed and revives a socket that gave up. */
    setFocus(focused: boolean): void {
      setStatus({ focused });
      if (!focused || state.status.phase !== 'live') return;
      const socket = loader.socketState();
      if (socket === 'failed' || socket === 'off') loader.connectSocket();
      void loader.refresh();
    },

    /** Runs the batch now (tests); answers the version of the diff sent, null when nothing changed. */
    flush(): number | null {
      return flush()?.version ?? null;
    },

    /** An incremental load now. */
    refresh(): Promise<void> {
      return loader.refresh();
    },

    status(): LiveStatus {
      return state.status;
    },

    /**
     * Starts (true) or ends a measurement (bench/README.md "Application bench"): each batch's duration is
     * kept and each diff carries the ages of the positions it moved. Starting again starts afresh.
     */
    measure(on: boolean): void {
      batchMs = z.boolean().parse(on) ? [] : null;
      core.measureAges(on);
    },

    /** The durations (ms) of the batches since the measurement started, oldest first (empty when not measuring). */
    measuredBatches(): number[] {
      return batchMs ? [...batchMs] : [];
    },

    /** part 1 §2 Map: the listed assets inside each area, for the area markers' counts. */
    areaCounts(areas: AreaShape[]): AreaCountsAnswer {
      return core.areaCounts(z.array(areaShapeSchema).parse(areas));
    },
  };
  return engine;
}

export type LiveEngine = ReturnType<typeof createLiveEngine>;
