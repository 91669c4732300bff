/**
 * The live engine (part 1 §4 "Live updates"): the worker-side shell around `LiveCore`.
 * It owns the I/O and the timers — the initial paged load with progress, incremental loads, the
 * socket, 15 s polling for large organizations and whenever the socket is not live, the 1 s
 * batch, the one status-clock timer — and the Comlink API the main thread calls. What it sends
 * back: one diff per batch (typed arrays, transferred) and a small status object.
 */
import * as Comlink from 'comlink';
import { z } from 'zod';
import { defaultStatusFilter, type AssetFilterInput } from '../domain/asset-filter';
import type { Closure } from '../domain/closure';
import { POLL_INTERVAL_MS, SOCKET_BATCH_MS, SOCKET_PROTOCOL } from '../domain/constants';
import type { LiveMessage } from '../domain/live-message';
import type { EventsQuery, EventsView, Location } from '../domain/location';
import type { AvailabilityAnswer, AvailabilityQuery } from './availability';
import { availabilityQuerySchema, availabilityTransferables, type ListedPositions } from './availability-protocol';
import { diffTransferables, type AssetDetails, type LiveDiff } from '../domain/live-diff';

import { clusterTransferables, type ClusterAnswer } from '../domain/cluster-answer';
import { LiveApi, UnauthorizedError, UnavailableError } from './live-api';
import { LiveCore } from './live-core';
import {
  assetFilterInputSchema,
  clusterQuerySchema,
  eventsQuerySchema,
  liveConfigSchema,
  organizationChoiceSchema,
  type ClusterQuery,
  type FilterInput,
  type LiveConfig,
  type LiveListener,
  type LiveStatus,
  type OrganizationChoice,
} from './live-protocol';
import { SocketClient, type SocketFactory, type SocketLike } from './socket-client';
import { areaShapeSchema, type AreaShape } from '../domain/area-shape';
import type { AreaCountsAnswer } from './area-counts';

/** Marks code that must only ever run inside the worker (the bundle test looks for it). */
export const LIVE_WORKER_MARKER = 'lightbar-live-worker-v1';

/** The longest delay a timer takes (2^31 - 1 ms); a later deadline re-arms on firing. */
const MAX_TIMER_MS = 2_147_483_647;

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
  };
}

/** Thrown inside a load that an organization switch or a stop made obsolete. */
class Superseded extends Error {}

export function createLiveEngine(overrides: Partial<LiveEngineDeps> = {}) {
  const deps: LiveEngineDeps = { ...defaultDeps(), ...overrides };
  const core = new LiveCore();
  let status = initialStatus();
  let listener: LiveListener | null = null;
  let config: z.infer<typeof liveConfigSchema> | null = null;
  let token = '';
  let api: LiveApi | null = null;
  let socket: SocketClient | null = null;
  /** Bumped by start, switch and stop: answers of an older session are dropped. */
  let session = 0;
  let thingsSince: string | null = null;
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  /** Calls that answered 403/404 are not asked again this session. */
  const unavailable = new Set<string>();
  let batchTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the last batch ran: the clock waits for the batch cadence (at most one diff a second from it). */
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let clockTimer: ReturnType<typeof setTimeout> | null = null;
  let pollTimer: ReturnType<typeof setInterval> | null = null;

  const now = () => deps.now();

  function emitStatus(): void {
    const view = core.events.view(now());
    status = {
      ...status,
      events: { version: core.events.version, active: view.counts.active, recent: view.counts.recent },
      closuresVersion: core.closures.version,
      stations: core.fleet.stations.size,
      responderMix: core.responderMix(),
    };
    if (listener) void Promise.resolve(listener.status(status)).catch(() => undefined);
  }

  function setStatus(patch: Partial<LiveStatus>): void {
    status = { ...status, ...patch };
    emitStatus();
  }

  /** One batch now: queued messages, due deadlines, list order → one diff to the main thread. */
  function flush(): LiveDiff | null {
    if (batchTimer) clearTimeout(batchTimer);
    batchTimer = null;
    const eventsVersion = core.events.version;
    const closuresVersion = core.closures.version;
    lastFlushAt = now();
    const diff = core.flush(lastFlushAt);
    if (diff && listener) {
      void Promise.resolve(listener.diff(Comlink.transfer(diff, diffTransferables(diff)))).catch(() => undefined);
    }
    armClock();
    if (core.events.version !== eventsVersion || core.closures.version !== closuresVersion || core.responderMix() !== status.responderMix) emitStatus();
    return diff;
  }

  /** part 1 §4: messages are processed in batches every second. */
  function armBatch(): void {
    if (!batchTimer) batchTimer = setTimeout(flush, SOCKET_BATCH_MS);
  }

  /**
   * The one clock: a single timer for the earliest status or staleness deadline of the fleet, kept
   * to the batch cadence: a deadline within a second of the last batch waits for the next one (a
   * fleet going stale asset by asset would otherwise send a diff per deadline, each redrawn and
   * re-clustered on the main thread).
   */
  function armClock(): void {
    if (clockTimer) clearTimeout(clockTimer);
    clockTimer = null;
    const next = core.fleet.clock.next();
    if (next === null) return;
    const at = Math.max(next, lastFlushAt + SOCKET_BATCH_MS);
    clockTimer = setTimeout(() => {
      clockTimer = null;
      flush();
    }, Math.min(Math.max(0, at - now()), MAX_TIMER_MS));
  }

  function clearTimers(): void {
    if (batchTimer) clearTimeout(batchTimer);
    if (clockTimer) clearTimeout(clockTimer);
    if (pollTimer) clearInterval(pollTimer);
    batchTimer = null;
    clockTimer = null;
    pollTimer = null;
  }

  function socketWanted(): boolean {
    return !!config && !config.largeOrg && status.online && !status.unauthorized && status.phase === 'live';
  }

  /** part 1 §4: poll every 15 s for large organizations and whenever the socket is not live. */
  function updatePolling(): void {
    const want = !!config && status.phase === 'live' && status.online && !status.unauthorized && (config.largeOrg || !socket?.active);
    if (want && !pollTimer) pollTimer = setInterval(() => void refresh(), POLL_INTERVAL_MS);
    if (!want && pollTimer) {
      clearInterval(pollTimer);
      pollTimer = null;
    }
    if (status.polling !== want) setStatus({ polling: want });
  }

  /**
   * A 401 (REST) or 'disconnect unauthorized' (socket) for `refused`. When the main thread handed
   * over another token since that call left, it was stale: go on with the new one; otherwise report
   * it (the app renews the token or signs out; part 1 §4 Session).
   */
  function unauthorizedWith(refused: string): void {
    if (refused !== token) {
      connectSocket();
      // After the failed run let go of `refreshing` (it ends in a later microtask).
      setTimeout(() => void refresh());
      return;
    }
    onUnauthorized();
  }

  function onUnauthorized(): void {
    socket?.stop();
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
    setStatus({ unauthorized: true, polling: false });
  }

  function failed(error: unknown): void {
    if (error instanceof Superseded) return;
    if (error instanceof UnauthorizedError) {
      unauthorizedWith(error.token);
      return;
    }
    setStatus({ error: error instanceof Error ? error.message : String(error) });
  }

  function check(own: number): void {
    if (own !== session) throw new Superseded();
  }

  function connectSocket(): void {
    if (!config || !socketWanted()) return;
    if (!socket) {
      socket = new SocketClient({
        url: config.socketUrl,
        token: () => token,
        organizationId: config.organizationId,
        open: deps.openSocket,
        onMessage: (message: LiveMessage) => {
          core.enqueue(message);
          armBatch();
        },
        onState: (info) => {
          setStatus({ socket: info });
          updatePolling();
        },
        // part 1 §4: after a (re)connect an incremental fetch closes any gap.
        onSubscribed: () => void refresh(),
        onUnauthorized: unauthorizedWith,
      });
    }
    socket.start();
  }

  /** All pages of GET /organization/things (incremental from `since`), applied page by page. */
  async function loadThings(own: number, since: string | null, report: boolean): Promise<void> {
    if (!api) return;
    let page = 1;
    let pages = 1;
    let first: string | null = null;
    do {
      const answer = await api.thingsPage(page, since);
      check(own);
      first ??= answer.serverTimestamp;
      pages = answer.pages;
      core.loadThings(answer.things, page === 1 ? answer.deletedIds : [], now());
      if (report) setStatus({ progress: { loaded: page, total: pages } });
      flush();
      page += 1;
    } while (page <= pages);
    // The first page's time: whatever changed while paging is fetched again next time.
    thingsSince = first;
  }

  async function optional(name: string, load: () => Promise<void>): Promise<void> {
    if (unavailable.has(name)) return;
    try {
      await load();
    } catch (error) {
      if (error instanceof UnavailableError) unavailable.add(name);
      else throw error;
    }
  }

  async function loadStations(own: number): Promise<void> {
    await optional('stations', async () => {
      const stations = await api!.stations();
      check(own);
      core.setStations(stations, now());
    });
  }

  async function loadEventsAndClosures(own: number): Promise<void> {
    await optional('events', async () => {
      const answer = await api!.locations(core.events.since, now());
      check(own);
      core.loadEvents(answer.items, answer.deletedIds);
      core.events.since = answer.serverTimestamp;
    });
    await optional('closures', async () => {
      const answer = await api!.closures(core.closures.since);
      check(own);
      core.loadClosures(answer.items, answer.deletedIds, now());
      core.closures.since = answer.serverTimestamp;
    });
    flush();
  }

  /** Initial load of a session: stations, every things page (with progress), events, closures. */
  async function load(own: number): Promise<void> {
    setStatus({ phase: 'loading', progress: { loaded: 0, total: 0 } });
    try {
      await loadStations(own);
      await loadThings(own, null, true);
      await loadEventsAndClosures(own);
      check(own);
      setStatus({ phase: 'live', error: null, lastRefreshAt: now() });
    } catch (error) {
      if (error instanceof Superseded) return;
      failed(error);
      // Polling retries the load.
      setStatus({ phase: 'live' });
    }
    connectSocket();
    updatePolling();
  }

  /** An incremental load of things, events and closures (one at a time; a request meanwhile runs once more after). */
  function refresh(): Promise<void> {
    if (!api || status.unauthorized) return Promise.resolve();
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    const own = session;
    const run = async () => {
      do {
        refreshAgain = false;
        await loadThings(own, thingsSince, thingsSince === null);
        await loadEventsAndClosures(own);
        setStatus({ error: null, lastRefreshAt: now() });
      } while (refreshAgain && own === session);
    };
    refreshing = run()
      .catch(failed)
      .finally(() => {
        if (own === session) refreshing = null;
      });
    return refreshing;
  }

  function begin(choice: z.infer<typeof organizationChoiceSchema>): void {
    if (!config) return;
    session += 1;
    socket?.stop();
    socket = null;
    clearTimers();
    refreshing = null;
    refreshAgain = false;
    thingsSince = null;
    unavailable.clear();
    config = { ...config, ...choice };
    api = new LiveApi({ apiBase: config.apiBase, token: () => token, fetch: deps.fetch, orgIds: config.orgIds });
    status = { ...status, organizationId: config.organizationId, largeOrg: config.largeOrg, polling: false, error: null, socket: { state: 'off', attempt: 0, delayMs: null } };
    void load(session);
  }

  const engine = {
    info() {
      return { protocol: SOCKET_PROTOCOL, batchMs: SOCKET_BATCH_MS, marker: LIVE_WORKER_MARKER };
    },

    /** Starts (or restarts) the engine for an organization. `events` of the listener arrive from now on. */
    start(input: LiveConfig, live: LiveListener): void {
      const parsed = liveConfigSchema.parse(input);
      listener = live;
      config = parsed;
      token = parsed.token;
      core.reset();
      core.setFilter((parsed.filter as AssetFilterInput | undefined) ?? { statuses: defaultStatusFilter(true) }, now());
      if (parsed.events) core.events.query = parsed.events;
      status = { ...initialStatus(), online: parsed.online, focused: parsed.focused, unauthorized: false };
      flush();
      begin(parsed);
    },

    stop(): void {
      session += 1;
      socket?.stop();
      socket = null;
      clearTimers();
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
      token = z.string().min(1).parse(next);
      if (!status.unauthorized) return;
      setStatus({ unauthorized: false });
      if (status.phase !== 'live') return;
      connectSocket();
      updatePolling();
      void refresh();
    },

    /** part 1 §4 Other: switching the subscribed organization resets assets, events and closures and refetches. */
    switchOrganization(choice: OrganizationChoice): void {
      const parsed = organizationChoiceSchema.parse(choice);
      core.reset();
      flush();
      begin(parsed);
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
      if (!online) socket?.stop();
      else if (status.phase === 'live') {
        connectSocket();
        void refresh();
      }
      updatePolling();
    },

    /** Page focus: coming back fetches what changed and revives a socket that gave up. */
    setFocus(focused: boolean): void {
      setStatus({ focused });
      if (!focused || status.phase !== 'live') return;
      if (socket?.info.state === 'failed' || socket?.info.state === 'off') connectSocket();
      void refresh();
    },

    /** Runs the batch now (tests); answers the version of the diff sent, null when nothing changed. */
    flush(): number | null {
      return flush()?.version ?? null;
    },

    /** An incremental load now. */
    refresh(): Promise<void> {
      return refresh();
    },

    status(): LiveStatus {
      return status;
    },

    /** part 1 §2 Map: the listed assets inside each area, for the area markers' counts. */
    areaCounts(areas: AreaShape[]): AreaCountsAnswer {
      return core.areaCounts(z.array(areaShapeSchema).parse(areas));
    },
  };
  return engine;
}

export type LiveEngine = ReturnType<typeof createLiveEngine>;
