/**
 * The live loader's socket (part 1 §4 "Live updates"): when it is wanted, its opening, and the wait
 * of a session's first load for its subscription (SUBSCRIBE_WAIT_MS).
 */
import type { LiveMessage } from '../domain/live-message';
import type { LiveCore } from './live-core';
import type { LiveStatus } from './live-protocol';
import type { LiveScheduler } from './live-scheduler';
import type { LiveEngineState } from './loader-session';
import { SocketClient, type SocketFactory } from './socket-client';

/**
 * How long a session's first load of a large fleet waits, after its first page, for the socket it
 * opened at its start to be subscribed before it reads the rest of the fleet. Subscribed first, the
 * fleet it reads then holds every change the socket does not bring, and no incremental load of the
 * whole fleet follows the load (docs/decisions/spec.md); not subscribed by then, it reads on and
 * closes the gap with that incremental load once the socket is (as before).
 */
export const SUBSCRIBE_WAIT_MS = 2_000;

/**
 * While a session's first load runs: whether the socket it opened was subscribed, whether it lost
 * that subscription again before the load ended (messages may have been missed), and the wait of
 * `subscribedSoon`.
 */
export interface FirstLoadWatch {
  subscribed: boolean;
  lost: boolean;
  wake: (() => void) | null;
}

export interface LiveSocketOptions {
  state: LiveEngineState;
  core: LiveCore;
  scheduler: LiveScheduler;
  openSocket: SocketFactory;
  setStatus: (patch: Partial<LiveStatus>) => void;
  /** An incremental load of the session. */
  refresh: () => Promise<void>;
  /** Polls when wanted, stops when not. */
  updatePolling: () => void;
  /** A 'disconnect unauthorized' for the token it was opened with. */
  unauthorizedWith: (refused: string) => void;
}

export class LiveSocket {
  client: SocketClient | null = null;
  /** The watch of the session's first load while it runs (null otherwise). */
  private firstLoad: FirstLoadWatch | null = null;

  constructor(private readonly options: LiveSocketOptions) {}

  /** The socket opens with a session's first load (not after it): see SUBSCRIBE_WAIT_MS. */
  wanted(): boolean {
    const { state } = this.options;
    return !!state.config && !state.config.largeOrg && state.status.online && !state.status.unauthorized && state.status.phase !== 'idle';
  }

  /** Whether the socket is open (or opening again). */
  get active(): boolean {
    return !!this.client?.active;
  }

  /** Stops the socket and lets it go: the next `connect` makes a new one. */
  drop(): void {
    this.client?.stop();
    this.client = null;
  }

  /** Starts watching the subscription for a session's first load. */
  watchFirstLoad(): FirstLoadWatch {
    const loading: FirstLoadWatch = { subscribed: false, lost: false, wake: null };
    this.firstLoad = loading;
    return loading;
  }

  /** Stops watching for the first load `loading` (a newer one keeps its own watch). */
  endFirstLoad(loading: FirstLoadWatch): void {
    if (this.firstLoad === loading) this.firstLoad = null;
  }

  /**
   * The first load's wait for its socket: true once subscribed (at once when it already is), false
   * after SUBSCRIBE_WAIT_MS or when no socket is open (a large organization, offline).
   */
  subscribedSoon(): Promise<boolean> {
    const load = this.firstLoad;
    if (!load || !this.client) return Promise.resolve(false);
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

  /** Opens the socket when it is wanted (and not open). */
  connect(): void {
    const { state } = this.options;
    if (!state.config || !this.wanted()) return;
    if (!this.client) this.client = this.create(state.config);
    this.client.start();
  }

  private create(config: NonNullable<LiveEngineState['config']>): SocketClient {
    const { state, core, scheduler, openSocket, setStatus, refresh, updatePolling, unauthorizedWith } = this.options;
    return new SocketClient({
      url: config.socketUrl,
      token: () => state.token,
      organizationId: config.organizationId,
      open: openSocket,
      onMessage: (message: LiveMessage) => {
        core.enqueue(message);
        scheduler.armBatch();
      },
      onState: (info) => {
        if (this.firstLoad?.subscribed && info.state !== 'subscribed') this.firstLoad.lost = true;
        setStatus({ socket: info });
        updatePolling();
      },
      // part 1 §4: after a (re)connect an incremental fetch closes any gap; during the session's
      // first load the load itself decides once it ends (`load`).
      onSubscribed: () => {
        if (!this.firstLoad) {
          void refresh();
          return;
        }
        this.firstLoad.subscribed = true;
        this.firstLoad.wake?.();
        this.firstLoad.wake = null;
      },
      onUnauthorized: unauthorizedWith,
    });
  }
}
