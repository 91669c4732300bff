/**
 * Waits in real time (fake timers or a faked Date do not slow or stop it) until `read` answers
 * something other than undefined or false, polling every `pollMs`; fails naming `what` after `ms`.
 */
const realSetTimeout = globalThis.setTimeout;
const realNow = performance.now.bind(performance);

export const sleep = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

export async function until<T>(read: () => T | undefined | false, what = 'condition', ms = 5_000, pollMs = 5): Promise<T> {
  const started = realNow();
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (realNow() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(pollMs);
  }
}

/** `until` for an async read (a call to a server): awaits each answer before the next poll. */
export async function untilAsync<T>(read: () => Promise<T | undefined | false>, what = 'condition', ms = 5_000, pollMs = 50): Promise<T> {
  const started = realNow();
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (realNow() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(pollMs);
  }
}

/**
 * Counts turns of the event loop (a chain of setImmediate callbacks) from now until `stop`: work
 * that never yields to the loop (a long synchronous call) lets none through.
 */
export function countLoopTurns(): { turns(): number; stop(): void } {
  let turns = 0;
  let counting = true;
  const tick = () => {
    if (!counting) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  return { turns: () => turns, stop: () => (counting = false) };
}
