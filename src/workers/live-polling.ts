/**
 * The live loader's incremental loads (part 1 §4 "Live updates"): one at a time (a request meanwhile
 * runs once more after), every 15 s for large organizations and whenever the socket is not live,
 * and every QUERY_REFRESH_MS while the socket carries the session.
 */
import { POLL_INTERVAL_MS, QUERY_REFRESH_MS } from '../domain/constants';
import type { FleetLoad } from './fleet-load';
import type { LiveStatus } from './live-protocol';
import type { LiveScheduler } from './live-scheduler';
import type { LiveEngineState, LoaderSession } from './loader-session';
import type { SideLoads } from './side-loads';

export interface LivePollingOptions {
  state: LiveEngineState;
  session: LoaderSession;
  fleet: FleetLoad;
  sides: SideLoads;
  scheduler: LiveScheduler;
  now: () => number;
  setStatus: (patch: Partial<LiveStatus>) => void;
  /** Whether the session's socket is open (or opening again). */
  socketActive: () => boolean;
  /** Reports a load's failure (a newer session's is dropped; a 401 goes on with a newer token). */
  failed: (error: unknown) => void;
}

export class LivePolling {
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  /** part 1 §9 "query refresh 30 min": a live socket's session reads what changed this often anyway. */
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;

  constructor(private readonly options: LivePollingOptions) {}

  clear(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
  }

  /** Forgets the last session's incremental load (its answers are dropped). */
  forget(): void {
    this.refreshing = null;
    this.refreshAgain = false;
  }

  /** part 1 §4: poll every 15 s for large organizations and whenever the socket is not live. */
  update(): void {
    const { state, setStatus } = this.options;
    const want =
      !!state.config &&
      state.status.phase === 'live' &&
      state.status.online &&
      !state.status.unauthorized &&
      (state.config.largeOrg || !this.options.socketActive());
    if (want && !this.pollTimer) this.pollTimer = setInterval(() => void this.refresh(), POLL_INTERVAL_MS);
    if (!want && this.pollTimer) {
      clearInterval(this.pollTimer);
      this.pollTimer = null;
    }
    // part 1 §9 "query refresh 30 min": while the socket carries the session (no polling), an
    // incremental load every QUERY_REFRESH_MS still reads what changed, in case a message was lost.
    const wantRefresh = !!state.config && state.status.phase === 'live' && state.status.online && !state.status.unauthorized && !want;
    if (wantRefresh && !this.refreshTimer) this.refreshTimer = setInterval(() => void this.refresh(), QUERY_REFRESH_MS);
    if (!wantRefresh && this.refreshTimer) {
      clearInterval(this.refreshTimer);
      this.refreshTimer = null;
    }
    if (state.status.polling !== want) setStatus({ polling: want });
  }

  /** An incremental load of things, events and closures (one at a time; a request meanwhile runs once more after). */
  refresh(): Promise<void> {
    const { state, session, fleet, sides, now, setStatus, failed } = this.options;
    if (!session.api || state.status.unauthorized) return Promise.resolve();
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    const own = session.id;
    const run = async () => {
      do {
        this.refreshAgain = false;
        // While polling (part 1 §7, every 15 s), the compact answer of what changed (FleetLoad.poll).
        await fleet.poll(own, state.status.polling);
        await sides.eventsAndClosures(own);
        setStatus({ error: null, lastRefreshAt: now() });
      } while (this.refreshAgain && own === session.id);
    };
    this.refreshing = run()
      .catch(failed)
      .finally(() => {
        if (own === session.id) this.refreshing = null;
      });
    return this.refreshing;
  }

  /** The events changed since the last load (one call), and a batch so the panel shows them. */
  async refreshEvents(own: number): Promise<void> {
    try {
      await this.options.sides.events(own);
      this.options.scheduler.flush();
    } catch (error) {
      this.options.failed(error);
    }
  }
}
