/**
 * The live engine's scheduler (part 1 §4 "Live updates"): the 1 s batch and the one status-clock
 * timer. A flush runs the core's batch (queued messages, due deadlines, list order) and hands the
 * diff to `send`; the clock is kept to the batch cadence.
 */
import { SOCKET_BATCH_MS } from '../domain/constants';
import type { LiveDiff } from '../domain/live-diff';
import type { LiveCore } from './live-core';

/** The longest delay a timer takes (2^31 - 1 ms); a later deadline re-arms on firing. */
const MAX_TIMER_MS = 2_147_483_647;

export interface LiveSchedulerOptions {
  core: LiveCore;
  now: () => number;
  /** Called before each batch runs. */
  before: () => void;
  /** Called with each batch's diff (null: nothing changed). */
  send: (diff: LiveDiff | null) => void;
  /** Called once the clock is armed again after a batch. */
  after: () => void;
}

export interface LiveScheduler {
  /** One batch now: queued messages, due deadlines, list order → one diff. */
  flush(): LiveDiff | null;
  /** part 1 §4: messages are processed in batches every second (arms the batch if it is not). */
  armBatch(): void;
  /** Stops the batch and the clock. */
  clear(): void;
}

export function createLiveScheduler({ core, now, before, send, after }: LiveSchedulerOptions): LiveScheduler {
  let batchTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the last batch ran: the clock waits for the batch cadence (at most one diff a second from it). */
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let clockTimer: ReturnType<typeof setTimeout> | null = null;

  function flush(): LiveDiff | null {
    if (batchTimer) clearTimeout(batchTimer);
    batchTimer = null;
    before();
    lastFlushAt = now();
    const diff = core.flush(lastFlushAt);
    send(diff);
    armClock();
    after();
    return diff;
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
    clockTimer = setTimeout(
      () => {
        clockTimer = null;
        flush();
      },
      Math.min(Math.max(0, at - now()), MAX_TIMER_MS),
    );
  }

  return {
    flush,
    armBatch() {
      if (!batchTimer) batchTimer = setTimeout(flush, SOCKET_BATCH_MS);
    },
    clear() {
      if (batchTimer) clearTimeout(batchTimer);
      if (clockTimer) clearTimeout(clockTimer);
      batchTimer = null;
      clockTimer = null;
    },
  };
}
