/**
 * What the live loader's parts share (part 1 §4 "Live updates", §7): the engine's state, the
 * session its loads belong to (loads of an older session, after an organization switch or a stop,
 * are dropped), the session's API and the calls it does not ask again, and the first load's marks.
 */
import type { z } from 'zod';
import { UnavailableError, type LiveApi } from './live-api';
import type { liveConfigSchema, LiveReads, LiveStatus } from './live-protocol';

/** What the engine, its loader and its API share. */
export interface LiveEngineState {
  config: z.infer<typeof liveConfigSchema> | null;
  /** The access token the main thread handed over last. */
  token: string;
  status: LiveStatus;
}

/**
 * A user timing of a session's first load, which the application bench reads (bench/README.md "Application
 * bench"): a fixed few per session, never per page of a poll (marks are kept until cleared).
 */
export function mark(name: string): void {
  performance.mark(`lightbar:${name}`);
}

/** The name under which each list the worker reads is left unasked for the session (`unavailable`). */
export const LIST_NAME: Readonly<Record<keyof LiveReads, string>> = {
  things: 'things',
  areas: 'stations',
  events: 'events',
  closures: 'closures',
};

/** Thrown inside a load that an organization switch or a stop made obsolete. */
export class Superseded extends Error {}

/** The loader's current session: its number, its API and the calls it does not ask again. */
export class LoaderSession {
  /** Bumped by start, switch and stop: answers of an older session are dropped. */
  id = 0;
  api: LiveApi | null = null;
  /** Calls that answered 403/404 are not asked again this session. */
  readonly unavailable = new Set<string>();

  check(own: number): void {
    if (own !== this.id) throw new Superseded();
  }

  /** A new session: every call may be asked again, but for the lists the user may not read (`reads`). */
  reset(reads: LiveReads): void {
    this.unavailable.clear();
    for (const [list, readable] of Object.entries(reads) as [keyof LiveReads, boolean][]) {
      if (!readable) this.unavailable.add(LIST_NAME[list]);
    }
  }

  async optional(name: string, load: () => Promise<void>): Promise<void> {
    if (this.unavailable.has(name)) return;
    try {
      await load();
    } catch (error) {
      if (error instanceof UnavailableError) this.unavailable.add(name);
      else throw error;
    }
  }
}
