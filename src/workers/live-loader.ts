/**
 * The live engine's loader (part 1 §4 "Live updates", §7): a session's REST loading — the initial
 * paged load with progress, the incremental loads (one at a time) — the socket, and the 15 s
 * polling for large organizations and whenever the socket is not live. Loads of an older session
 * (an organization switch, a stop) are dropped. A 401 goes on with a newer token or is reported.
 */
import type { z } from 'zod';
import { POLL_INTERVAL_MS, QUERY_REFRESH_MS, THINGS_PAGE_MAX, THINGS_PAGE_SIZE, THINGS_PAGES_IN_FLIGHT } from '../domain/constants';
import { pageCount } from '../domain/incremental';
import type { LiveMessage } from '../domain/live-message';
import { LiveApi, UnauthorizedError, UnavailableError, type ThingsPage } from './live-api';
import type { LiveCore } from './live-core';
import type { LiveScheduler } from './live-scheduler';
import type { liveConfigSchema, LiveStatus, organizationChoiceSchema, SocketState } from './live-protocol';
import { SocketClient, type SocketFactory } from './socket-client';

/** What the engine, its loader and its API share. */
export interface LiveEngineState {
  config: z.infer<typeof liveConfigSchema> | null;
  /** The access token the main thread handed over last. */
  token: string;
  status: LiveStatus;
}

export interface LiveLoaderOptions {
  state: LiveEngineState;
  core: LiveCore;
  scheduler: LiveScheduler;
  deps: { fetch: (input: string, init: RequestInit) => Promise<Response>; openSocket: SocketFactory };
  now: () => number;
  setStatus: (patch: Partial<LiveStatus>) => void;
}

export interface LiveLoader {
  /** Starts a session for an organization: drops the last one's loads, socket and timers, then loads. */
  begin(choice: z.infer<typeof organizationChoiceSchema>): void;
  /** Ends the session: its loads are dropped, the socket closes, polling stops. */
  stop(): void;
  /** An incremental load (one at a time; a request meanwhile runs once more after). */
  refresh(): Promise<void>;
  /** Opens the socket when it is wanted (and not open). */
  connectSocket(): void;
  closeSocket(): void;
  socketState(): SocketState | null;
  /** Polls when wanted, stops when not (and reports it). */
  updatePolling(): void;
}

/**
 * How long a session's first load of a large fleet waits, after its first page, for the socket it
 * opened at its start to be subscribed before it reads the rest of the fleet. Subscribed first, the
 * fleet it reads then holds every change the socket does not bring, and no incremental load of the
 * whole fleet follows the load (README "Spec decisions"); not subscribed by then, it reads on and
 * closes the gap with that incremental load once the socket is (as before).
 */
export const SUBSCRIBE_WAIT_MS = 2_000;

/** The name under which an unavailable fleet snapshot is not asked again this session. */
const SNAPSHOT = 'snapshot';
/** The fleet snapshot's assets added at a time (about 40 ms of the worker's time each here). */
const SNAPSHOT_SLICE = 10_000;

/**
 * A user timing of a session's first load, which the application bench reads (README "Application
 * bench"): a fixed few per session, never per page of a poll (marks are kept until cleared).
 */
function mark(name: string): void {
  performance.mark(`lightbar:${name}`);
}

/** Thrown inside a load that an organization switch or a stop made obsolete. */
class Superseded extends Error {}

export function createLiveLoader({ state, core, scheduler, deps, now, setStatus }: LiveLoaderOptions): LiveLoader {
  let api: LiveApi | null = null;
  let socket: SocketClient | null = null;
  /** Bumped by start, switch and stop: answers of an older session are dropped. */
  let session = 0;
  let thingsSince: string | null = null;
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  /** Calls that answered 403/404 are not asked again this session. */
  const unavailable = new Set<string>();
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  /** part 1 §9 "query refresh 30 min": a live socket's session reads what changed this often anyway. */
  let refreshTimer: ReturnType<typeof setInterval> | null = null;
  /**
   * While a session's first load runs: whether the socket it opened was subscribed, whether it lost
   * that subscription again before the load ended (messages may have been missed), and the wait of
   * `subscribedSoon`. Null otherwise.
   */
  let firstLoad: { subscribed: boolean; lost: boolean; wake: (() => void) | null } | null = null;

  function clearPolling(): void {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
    if (refreshTimer) clearInterval(refreshTimer);
    refreshTimer = null;
  }

  /** The socket opens with a session's first load (not after it): see SUBSCRIBE_WAIT_MS. */
  function socketWanted(): boolean {
    return !!state.config && !state.config.largeOrg && state.status.online && !state.status.unauthorized && state.status.phase !== 'idle';
  }

  /**
   * The first load's wait for its socket: true once subscribed (at once when it already is), false
   * after SUBSCRIBE_WAIT_MS or when no socket is open (a large organization, offline).
   */
  function subscribedSoon(): Promise<boolean> {
    const load = firstLoad;
    if (!load || !socket) return Promise.resolve(false);
    if (load.subscribed) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        load.wake = null;
        resolve(false);
      }, SUBSCRIBE_WAIT_MS);
      load.wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  /** part 1 §4: poll every 15 s for large organizations and whenever the socket is not live. */
  function updatePolling(): void {
    const want =
      !!state.config &&
      state.status.phase === 'live' &&
      state.status.online &&
      !state.status.unauthorized &&
      (state.config.largeOrg || !socket?.active);
    if (want && !pollTimer) pollTimer = setInterval(() => void refresh(), POLL_INTERVAL_MS);
    if (!want && pollTimer) {
      clearInterval(pollTimer);
      pollTimer = null;
    }
    // part 1 §9 "query refresh 30 min": while the socket carries the session (no polling), an
    // incremental load every QUERY_REFRESH_MS still reads what changed, in case a message was lost.
    const wantRefresh = !!state.config && state.status.phase === 'live' && state.status.online && !state.status.unauthorized && !want;
    if (wantRefresh && !refreshTimer) refreshTimer = setInterval(() => void refresh(), QUERY_REFRESH_MS);
    if (!wantRefresh && refreshTimer) {
      clearInterval(refreshTimer);
      refreshTimer = null;
    }
    if (state.status.polling !== want) setStatus({ polling: want });
  }

  /**
   * A 401 (REST) or 'disconnect unauthorized' (socket) for `refused`. When the main thread handed
   * over another token since that call left, it was stale: go on with the new one; otherwise report
   * it (the app renews the token or signs out; part 1 §4 Session).
   */
  function unauthorizedWith(refused: string): void {
    if (refused !== state.token) {
      connectSocket();
      // After the failed run let go of `refreshing` (it ends in a later microtask).
      setTimeout(() => void refresh());
      return;
    }
    onUnauthorized();
  }

  function onUnauthorized(): void {
    socket?.stop();
    clearPolling();
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
    if (!state.config || !socketWanted()) return;
    const config = state.config;
    if (!socket) {
      socket = new SocketClient({
        url: config.socketUrl,
        token: () => state.token,
        organizationId: config.organizationId,
        open: deps.openSocket,
        onMessage: (message: LiveMessage) => {
          core.enqueue(message);
          scheduler.armBatch();
        },
        onState: (info) => {
          if (firstLoad?.subscribed && info.state !== 'subscribed') firstLoad.lost = true;
          setStatus({ socket: info });
          updatePolling();
        },
        // part 1 §4: after a (re)connect an incremental fetch closes any gap; during the session's
        // first load the load itself decides once it ends (`load`).
        onSubscribed: () => {
          if (!firstLoad) {
            void refresh();
            return;
          }
          firstLoad.subscribed = true;
          firstLoad.wake?.();
          firstLoad.wake = null;
        },
        onUnauthorized: unauthorizedWith,
      });
    }
    socket.start();
  }

  /**
   * All pages of GET /organization/things (incremental from `since`), each applied as it comes: the
   * first alone (it tells the count), the rest THINGS_PAGES_IN_FLIGHT at a time (part 1 §7 asks
   * them one after another; README "Spec decisions"). A full load asks its first page at the spec's
   * THINGS_PAGE_SIZE (500): the Live list and the map show their first assets while the server
   * makes the large pages (part 1 §2: the first screen does not wait for the whole fleet); the large
   * pages then start from the first asset again (at most 500 wires twice). A full load of a fleet
   * larger than one large page reads the fleet snapshot after the first page: the map, the list and
   * the counts then hold every asset from one call, each wire whole, and no page follows; a
   * snapshot without its details (another server version) or none leaves the pages to bring each
   * asset's full wire. A failed page stops the others. `after`: the first page is asked at once but applied (and the
   * rest asked) once it settles. `subscribed`: a full load whose first page was small waits for it
   * before asking the rest (the snapshot and the large pages, which read every asset again).
   * Answers whether every asset was read after the socket was subscribed (the load then leaves no
   * gap for an incremental load to close).
   */
  async function loadThings(
    own: number,
    since: string | null,
    report: boolean,
    after: Promise<unknown> = Promise.resolve(),
    subscribed: () => Promise<boolean> = () => Promise.resolve(false),
  ): Promise<boolean> {
    const current = api;
    if (!current) return false;
    const small = since === null && current.perPage > THINGS_PAGE_SIZE;
    const [first] = await Promise.all([current.thingsPage(1, since, small ? THINGS_PAGE_SIZE : current.perPage), after]);
    check(own);
    // The large pages still to ask: all of them after a small first page that did not hold the list.
    let next = small ? 1 : 2;
    const last = small ? (first.pages > 1 ? pageCount(first.total, current.perPage) : 0) : first.pages;
    const snapshot = since === null && first.total > THINGS_PAGE_MAX && !unavailable.has(SNAPSHOT);
    // The first page and then the snapshot, or the large pages (a snapshot that is not whole adds them).
    let pages = snapshot ? 2 : last - next + 2;
    let loaded = 0;
    const applied = () => {
      loaded += 1;
      if (report) setStatus({ progress: { loaded, total: pages } });
      scheduler.flush();
    };
    const apply = (answer: ThingsPage, isFirst: boolean) => {
      core.loadThings(answer.things, isFirst ? answer.deletedIds : [], now());
      applied();
    };
    apply(first, true);
    if (report) mark('first page applied');
    const readAfterSubscribed = small && last > 0 && (await subscribed());
    check(own);
    if (snapshot) {
      const read = await loadSnapshot(own, current);
      // Whole wires: the load ends with the snapshot (README "Spec decisions").
      if (read === 'whole') next = last + 1;
      pages = loaded + (read ? 1 : 0) + Math.max(0, last - next + 1);
      if (read) {
        applied();
        if (report) mark('snapshot applied');
      } else if (report) setStatus({ progress: { loaded, total: pages } });
    }
    let stopped = false;
    const lane = async () => {
      while (!stopped && next <= last) {
        const page = next;
        next += 1;
        try {
          const answer = await current.thingsPage(page, since);
          check(own);
          if (!stopped) apply(answer, false);
        } catch (error) {
          stopped = true;
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: THINGS_PAGES_IN_FLIGHT }, lane));
    if (report) mark('pages applied');
    // The first page's time: whatever changed while paging is fetched again next time. An
    // incremental load that brought nothing keeps its time, so the next poll is the same call and
    // an unchanged list answers 304 with no body (the server's ETag).
    const nothing = since !== null && first.pages === 1 && first.things.length === 0 && first.deletedIds.length === 0;
    if (!nothing) thingsSince = first.serverTimestamp;
    return readAfterSubscribed;
  }

  /**
   * The fleet snapshot's assets: 'whole' when the answer carried its details (every asset, the
   * first page's too: the snapshot was read after the socket's subscription, as the pages it
   * replaces were), 'narrow' when not (only the assets not held yet: a full wire, of the first page
   * or an earlier load, is never replaced by a narrow one; each waits for its page's details,
   * `detailsPending`);
   * null when it could not be read (a server without it, a failed call, an answer that does not
   * read): the pages then bring every asset, as without it. A refused token or a newer session ends
   * the load as any call's would.
   */
  async function loadSnapshot(own: number, current: LiveApi): Promise<'whole' | 'narrow' | null> {
    try {
      const { wires, complete } = await current.thingSnapshot();
      check(own);
      const fresh = complete ? wires : wires.filter((wire) => !core.fleet.has(wire.id));
      // In slices, letting the main thread's calls through between them: the Live list asks for its
      // first rows once it drew the first page, and should not wait for the whole fleet behind it.
      for (let start = 0; start < fresh.length; start += SNAPSHOT_SLICE) {
        if (start > 0) {
          await new Promise<void>((resolve) => setTimeout(resolve, 0));
          check(own);
        }
        core.loadThings(fresh.slice(start, start + SNAPSHOT_SLICE), [], now(), !complete);
      }
      return complete ? 'whole' : 'narrow';
    } catch (error) {
      if (error instanceof Superseded || error instanceof UnauthorizedError) throw error;
      if (error instanceof UnavailableError) unavailable.add(SNAPSHOT);
      return null;
    }
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

  /** The organizations that own with the subscribed one (its children), before the fleet is counted by them. */
  async function loadOwnedOrganizations(own: number, organizationId: string): Promise<void> {
    await optional('organization', async () => {
      const children = await api!.childOrganizations(organizationId);
      check(own);
      core.setOwnedOrganizations([organizationId, ...children], now());
    });
  }

  async function loadEvents(own: number): Promise<void> {
    await optional('events', async () => {
      const answer = await api!.locations(core.events.since, now());
      check(own);
      core.loadEvents(answer.items, answer.deletedIds);
      core.events.since = answer.serverTimestamp;
    });
  }

  async function loadEventsAndClosures(own: number): Promise<void> {
    await loadEvents(own);
    await loadClosures(own);
  }

  /** Closures after the things: each active one marks the assets it names (they must be held). */
  async function loadClosures(own: number): Promise<void> {
    await optional('closures', async () => {
      const answer = await api!.closures(core.closures.since);
      check(own);
      core.loadClosures(answer.items, answer.deletedIds, now());
      core.closures.since = answer.serverTimestamp;
    });
    scheduler.flush();
  }

  /**
   * Initial load of a session: stations and events (at once), every things page (with progress),
   * closures. The events (at most 500, one call) come before the fleet's pages, so the Events panel
   * does not wait for a large fleet (part 1 §2); closures need the assets they mark.
   */
  async function load(own: number): Promise<void> {
    setStatus({ phase: 'loading', progress: { loaded: 0, total: 0 } });
    // The socket opens with the load: its messages about assets already held apply as they come,
    // and a large fleet is read after it is subscribed (SUBSCRIBE_WAIT_MS).
    const loading = { subscribed: false, lost: false, wake: null };
    firstLoad = loading;
    core.holdEarlyMessages(true);
    connectSocket();
    let readAfterSubscribed = false;
    try {
      // The stations, the organization's children (who owns with it), the events and the fleet's
      // first page asked at once; the fleet applied after the first three (its station check needs
      // the stations, its ownership counts the owners; the events panel does not wait for the
      // fleet's snapshot and pages, asked then). A status with the events' new version: the panel
      // shows them now.
      readAfterSubscribed = await loadThings(
        own,
        null,
        true,
        Promise.all([
          loadStations(own),
          loadOwnedOrganizations(own, state.config!.organizationId),
          loadEvents(own).then(() => setStatus({})),
        ]),
        subscribedSoon,
      );
      await loadClosures(own);
      check(own);
      setStatus({ phase: 'live', error: null, lastRefreshAt: now() });
    } catch (error) {
      if (error instanceof Superseded) return;
      failed(error);
      // The load is retried by the next subscription's incremental load (a new socket), or by polling.
      socket?.stop();
      socket = null;
      setStatus({ phase: 'live' });
    } finally {
      if (firstLoad === loading) firstLoad = null;
      if (own === session) core.holdEarlyMessages(false);
    }
    if (loading.subscribed && socket) {
      // Subscribed during the load: the gap it leaves is closed now. None in the fleet when every
      // asset was read after the subscription (only the events, read at the start, are asked again);
      // otherwise an incremental load as after any (re)connect.
      if (readAfterSubscribed && !loading.lost) void refreshEvents(own);
      else void refresh();
    }
    connectSocket();
    updatePolling();
  }

  /** The events changed since the last load (one call), and a batch so the panel shows them. */
  async function refreshEvents(own: number): Promise<void> {
    try {
      await loadEvents(own);
      scheduler.flush();
    } catch (error) {
      failed(error);
    }
  }

  /** An incremental load of things, events and closures (one at a time; a request meanwhile runs once more after). */
  function refresh(): Promise<void> {
    if (!api || state.status.unauthorized) return Promise.resolve();
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
    if (!state.config) return;
    session += 1;
    socket?.stop();
    socket = null;
    scheduler.clear();
    clearPolling();
    refreshing = null;
    refreshAgain = false;
    thingsSince = null;
    unavailable.clear();
    const config = { ...state.config, ...choice };
    state.config = config;
    // Until its record says which children it has, the subscribed organization owns alone.
    core.setOwnedOrganizations([config.organizationId], now());
    api = new LiveApi({
      apiBase: config.apiBase,
      token: () => state.token,
      fetch: deps.fetch,
      orgIds: config.orgIds,
      perPage: config.thingsPageSize,
    });
    state.status = {
      ...state.status,
      organizationId: config.organizationId,
      largeOrg: config.largeOrg,
      polling: false,
      error: null,
      socket: { state: 'off', attempt: 0, delayMs: null },
    };
    void load(session);
  }

  return {
    begin,
    stop() {
      session += 1;
      socket?.stop();
      socket = null;
      clearPolling();
    },
    refresh,
    connectSocket,
    closeSocket() {
      socket?.stop();
    },
    socketState: () => socket?.info.state ?? null,
    updatePolling,
  };
}
