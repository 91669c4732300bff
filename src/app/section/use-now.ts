/**
 * The time now for a page's running durations and ages (an active event's duration, an asset's
 * "last update … ago", the top bar's clock): one shared clock per period, so every subscriber ticks
 * together off one timer, which runs only while someone listens.
 */
import { useCallback, useState, useSyncExternalStore } from 'react';

interface Clock {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
}

const clocks = new Map<number, Clock>();

function clockOf(everyMs: number): Clock {
  let clock = clocks.get(everyMs);
  if (!clock) clocks.set(everyMs, (clock = { now: Date.now(), listeners: new Set(), timer: null }));
  return clock;
}

function subscribe(everyMs: number, listener: () => void): () => void {
  const clock = clockOf(everyMs);
  clock.listeners.add(listener);
  if (!clock.timer) {
    clock.now = Date.now();
    clock.timer = setInterval(() => {
      clock.now = Date.now();
      for (const notify of clock.listeners) notify();
    }, everyMs);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0 && clock.timer) {
      clearInterval(clock.timer);
      clock.timer = null;
    }
  };
}

/** How many clocks tick now (tests: one timer for all subscribers of a period). */
export function runningClocks(): number {
  let running = 0;
  for (const clock of clocks.values()) if (clock.timer) running += 1;
  return running;
}

const still = () => () => undefined;

/** The time now, moved every `everyMs` while `running` (false: the time it last showed, no timer). */
export function useNow(everyMs: number, running = true): number {
  const [mounted] = useState(() => Date.now());
  const listen = useCallback((listener: () => void) => subscribe(everyMs, listener), [everyMs]);
  const clock = clockOf(everyMs);
  const ticked = useSyncExternalStore(
    running ? listen : still,
    () => clock.now,
    () => clock.now,
  );
  // A clock that was idle holds the time it last ticked: the page's own opening time is newer.
  return Math.max(mounted, ticked);
}
