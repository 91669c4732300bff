/**
 * At most one worker query in flight and at most one started per interval (the group
 * view, density and availability views ask the worker when the view moves or the fleet changes —
 * a pan fires on every frame, a fleet changes every second; the worker is asked ≤ 4 times a
 * second, never per asset). A request while one runs or waits is folded into the next run.
 * `useWorkerQuery` (hooks.ts) runs its throttled queries through it.
 */
export interface QueryThrottle {
  request(): void;
  dispose(): void;
}

export function createQueryThrottle(run: () => Promise<unknown>, intervalMs: number, now: () => number = () => Date.now()): QueryThrottle {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let pending = false;
  let disposed = false;
  let lastStart = Number.NEGATIVE_INFINITY;

  const start = () => {
    timer = null;
    if (disposed) return;
    pending = false;
    running = true;
    lastStart = now();
    void Promise.resolve()
      .then(run)
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (pending && !disposed) schedule();
      });
  };

  const schedule = () => {
    if (timer || disposed) return;
    if (running) {
      pending = true;
      return;
    }
    timer = setTimeout(start, Math.max(0, lastStart + intervalMs - now()));
  };

  return {
    request() {
      pending = true;
      schedule();
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
