/**
 * The live engine's loader (part 1 §4 "Live updates", §7): a session's REST loading — the initial
 * paged load with progress, the incremental loads (one at a time) — the socket, and the 15 s
 * polling for large organizations and whenever the socket is not live. Loads of an older session
 * (an organization switch, a stop) are dropped. A 401 goes on with a newer token or is reported.
 *
 * Its parts: the session its loads belong to (loader-session.ts), the fleet's pages or snapshot
 * (fleet-load.ts), the stations, children, events and closures (side-loads.ts), the socket and the
 * first load's wait for its subscription (live-socket.ts), the incremental loads and their timers
 * (live-polling.ts). The loader keeps the order of a session's first load that ties them.
 */
import type { z } from 'zod';
import { FleetLoad } from './fleet-load';
import { LiveApi, UnauthorizedError } from './live-api';
import type { LiveCore } from './live-core';
import { LivePolling } from './live-polling';
import type { LiveScheduler } from './live-scheduler';
import type { LiveStatus, organizationChoiceSchema, SocketState } from './live-protocol';
import { LiveSocket } from './live-socket';
import { LoaderSession, Superseded, type LiveEngineState } from './loader-session';
import { SideLoads } from './side-loads';
import type { SocketFactory } from './socket-client';

export type { LiveEngineState } from './loader-session';
export { SUBSCRIBE_WAIT_MS } from './live-socket';

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

export function createLiveLoader(options: LiveLoaderOptions): LiveLoader {
  const loader = new SessionLoader(options);
  return {
    begin: (choice) => loader.begin(choice),
    stop: () => loader.stop(),
    refresh: () => loader.polling.refresh(),
    connectSocket: () => loader.socket.connect(),
    closeSocket: () => loader.socket.client?.stop(),
    socketState: () => loader.socket.client?.info.state ?? null,
    updatePolling: () => loader.polling.update(),
  };
}

/** The loader's parts, and the sequence of a session that ties them. */
class SessionLoader {
  private readonly session = new LoaderSession();
  private readonly fleet: FleetLoad;
  private readonly sides: SideLoads;
  readonly socket: LiveSocket;
  readonly polling: LivePolling;

  constructor(private readonly options: LiveLoaderOptions) {
    const { state, core, scheduler, deps, now, setStatus } = options;
    const session = this.session;
    this.fleet = new FleetLoad({ session, core, scheduler, now, setStatus });
    this.sides = new SideLoads({ session, core, scheduler, now });
    this.socket = new LiveSocket({
      state,
      core,
      scheduler,
      openSocket: deps.openSocket,
      setStatus,
      refresh: () => this.polling.refresh(),
      updatePolling: () => this.polling.update(),
      unauthorizedWith: (refused) => this.unauthorizedWith(refused),
    });
    this.polling = new LivePolling({
      state,
      session,
      fleet: this.fleet,
      sides: this.sides,
      scheduler,
      now,
      setStatus,
      socketActive: () => this.socket.active,
      failed: (error) => this.failed(error),
    });
  }

  /**
   * A 401 (REST) or 'disconnect unauthorized' (socket) for `refused`. When the main thread handed
   * over another token since that call left, it was stale: go on with the new one; otherwise report
   * it (the app renews the token or signs out; part 1 §4 Session).
   */
  private unauthorizedWith(refused: string): void {
    if (refused !== this.options.state.token) {
      this.socket.connect();
      // After the failed run let go of `refreshing` (it ends in a later microtask).
      setTimeout(() => void this.polling.refresh());
      return;
    }
    this.onUnauthorized();
  }

  private onUnauthorized(): void {
    this.socket.client?.stop();
    this.polling.clear();
    this.options.setStatus({ unauthorized: true, polling: false });
  }

  private failed(error: unknown): void {
    if (error instanceof Superseded) return;
    if (error instanceof UnauthorizedError) {
      this.unauthorizedWith(error.token);
      return;
    }
    this.options.setStatus({ error: error instanceof Error ? error.message : String(error) });
  }

  /**
   * Initial load of a session: stations and events (at once), every things page (with progress),
   * closures. The events (at most 500, one call) come before the fleet's pages, so the Events panel
   * does not wait for a large fleet (part 1 §2); closures need the assets they mark.
   */
  private async load(own: number): Promise<void> {
    const { state, core, now, setStatus } = this.options;
    setStatus({ phase: 'loading', progress: { loaded: 0, total: 0 } });
    // The socket opens with the load: its messages about assets already held apply as they come,
    // and a large fleet is read after it is subscribed (SUBSCRIBE_WAIT_MS).
    const loading = this.socket.watchFirstLoad();
    core.holdEarlyMessages(true);
    this.socket.connect();
    let readAfterSubscribed = false;
    try {
      // The stations, the organization's children (who owns with it), the events and the fleet's
      // first page asked at once; the fleet applied after the first three (its station check needs
      // the stations, its ownership counts the owners; the events panel does not wait for the
      // fleet's snapshot and pages, asked then). A status with the events' new version: the panel
      // shows them now.
      readAfterSubscribed = await this.fleet.read(
        own,
        null,
        true,
        Promise.all([
          this.sides.stations(own),
          this.sides.ownedOrganizations(own, state.config!.organizationId),
          this.sides.events(own).then(() => setStatus({})),
        ]),
        () => this.socket.subscribedSoon(),
      );
      await this.sides.closures(own);
      this.session.check(own);
      setStatus({ phase: 'live', error: null, lastRefreshAt: now() });
    } catch (error) {
      if (error instanceof Superseded) return;
      this.failed(error);
      // The load is retried by the next subscription's incremental load (a new socket), or by polling.
      this.socket.drop();
      setStatus({ phase: 'live' });
    } finally {
      this.socket.endFirstLoad(loading);
      if (own === this.session.id) core.holdEarlyMessages(false);
    }
    if (loading.subscribed && this.socket.client) {
      // Subscribed during the load: the gap it leaves is closed now. None in the fleet when every
      // asset was read after the subscription (only the events, read at the start, are asked again);
      // otherwise an incremental load as after any (re)connect.
      if (readAfterSubscribed && !loading.lost) void this.polling.refreshEvents(own);
      else void this.polling.refresh();
    }
    this.socket.connect();
    this.polling.update();
  }

  begin(choice: z.infer<typeof organizationChoiceSchema>): void {
    const { state, core, scheduler, deps, now } = this.options;
    if (!state.config) return;
    this.session.id += 1;
    this.socket.drop();
    scheduler.clear();
    this.polling.clear();
    this.polling.forget();
    this.fleet.since = null;
    const config = { ...state.config, ...choice };
    state.config = config;
    this.session.reset(config.reads);
    // Until its record says which children it has, the subscribed organization owns alone.
    core.setOwnedOrganizations([config.organizationId], now());
    this.session.api = new LiveApi({
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
    void this.load(this.session.id);
  }

  stop(): void {
    this.session.id += 1;
    this.socket.drop();
    this.polling.clear();
  }
}
