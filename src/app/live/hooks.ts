/**
 * How a component reads live data (docs/architecture.md "Reading live data"), one way each:
 * - `useLive()`: the `{ store, bridge }` pair the shell provides (`LiveContext`); without a running
 *   engine (signed out, before sign-in finished, component tests) the store is the one placeholder
 *   `IDLE_LIVE_STORE` and the bridge is null.
 * - `useLiveValue(selector)`: a value of the Valtio store; the component renders again only when
 *   the selected value changes (not on every diff).
 * - `useWorkerQuery(call, deps, options)`: the answer of a worker call, asked again when `deps`
 *   change (or a `watch` subscription fires), throttled on request, with stale answers dropped.
 * - `useResponderMix()`: part 1 §2, §4 the fleet's responder mix (labels: Incidents or Events…).
 */
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type DependencyList } from 'react';
import { snapshot, subscribe, type Snapshot } from 'valtio';
import type { ResponderMix } from '../../domain/asset-status';
import type { LiveBridge } from './bridge';
import { createQueryThrottle } from './query-throttle';
import { createLiveStore, type LiveStore } from './store';

/** The live store and the bridge that feeds it; `bridge` is null when no engine runs. */
export interface Live {
  readonly store: LiveStore;
  readonly bridge: LiveBridge | null;
}

/**
 * The one placeholder store: read while no engine runs (nothing loaded, phase 'idle', responder
 * mix 'all' — is_responder's default, part 1 §1). Nothing writes to it.
 */
export const IDLE_LIVE_STORE: LiveStore = createLiveStore();

export const IDLE_LIVE: Live = { store: IDLE_LIVE_STORE, bridge: null };

/** The pair of a running bridge, or the placeholder. */
export function liveOf(bridge: LiveBridge | null): Live {
  return bridge ? { store: bridge.store, bridge } : IDLE_LIVE;
}

/** Provided by the dashboard shell (and by tests that render a part of it). */
export const LiveContext = createContext<Live>(IDLE_LIVE);
export const LiveProvider = LiveContext.Provider;

export function useLive(): Live {
  return useContext(LiveContext);
}

/**
 * `selector` over a snapshot of the live store (typed arrays and deck.gl data under `ref()` come
 * back as they are). The component renders again only when the selected value changes by
 * `isEqual` (Object.is by default; `shallowEqual` for a selector that builds an object or array).
 */
export function useLiveValue<T>(selector: (store: Snapshot<LiveStore>) => T, isEqual: (a: T, b: T) => boolean = Object.is): T {
  const { store } = useLive();
  const selectorRef = useRef(selector);
  selectorRef.current = selector;
  const last = useRef<{ store: LiveStore; value: T } | null>(null);
  const read = (): T => {
    const value = selectorRef.current(snapshot(store));
    const previous = last.current;
    if (previous && previous.store === store && isEqual(previous.value, value)) return previous.value;
    last.current = { store, value };
    return value;
  };
  return useSyncExternalStore((onChange) => subscribe(store, onChange), read, read);
}

/** Equal when both hold the same keys (or items) with Object.is-equal values. */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(b, key) && Object.is((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** part 1 §2, §4: the fleet's responder mix as the worker counts it ('all' while no engine runs). */
export function useResponderMix(): ResponderMix {
  return useLiveValue((store) => store.responderMix);
}

export interface WorkerQueryOptions {
  /**
   * At most one call started per `throttleMs` and one in flight; requests meanwhile fold into one
   * later call. 0 (default): every request calls at once.
   */
  throttleMs?: number;
  /**
   * Subscriptions that ask again without rendering the component (a map pan fires per frame);
   * returns the unsubscribe. Read when the query starts (the bridge changes or `call` turns on).
   */
  watch?: (request: () => void) => () => void;
}

/** A `deps` change counter (the list has any length, so no hook's own deps list can hold it). */
function useChangeCount(deps: DependencyList): number {
  const ref = useRef<{ deps: DependencyList; count: number }>({ deps, count: 0 });
  const previous = ref.current;
  if (previous.deps.length !== deps.length || previous.deps.some((value, index) => !Object.is(value, deps[index]))) {
    ref.current = { deps, count: previous.count + 1 };
  }
  return ref.current.count;
}

/**
 * The answer of `call` to the live bridge: asked when the component mounts, whenever `deps`
 * change and whenever a `watch` subscription fires; null while `call` is null, no engine runs or
 * nothing answered yet. The latest `call` is the one made (it may read the component's current
 * props). Answers show in the order asked: an answer to an older request never replaces a newer
 * request's (it shows while the newer one is on its way), answers after unmount
 * or after the query stopped are dropped, a failed call keeps the last answer, and a call that
 * resolves `undefined` means "nothing new" (the last answer stays).
 */
export function useWorkerQuery<T>(
  call: ((bridge: LiveBridge) => Promise<T | undefined>) | null,
  deps: DependencyList,
  options: WorkerQueryOptions = {},
): T | null {
  const { bridge } = useLive();
  const { throttleMs = 0 } = options;
  const enabled = bridge !== null && call !== null;
  const [answer, setAnswer] = useState<{ value: T } | null>(null);
  const callRef = useRef(call);
  const watchRef = useRef(options.watch);
  useEffect(() => {
    callRef.current = call;
    watchRef.current = options.watch;
  });
  const requestRef = useRef<(() => void) | null>(null);
  const changes = useChangeCount(deps);

  useEffect(() => {
    if (!bridge || !enabled) return undefined;
    let alive = true;
    let asked = 0;
    /** The request whose answer shows: an answer to an older one is dropped. */
    let shown = 0;
    const run = async () => {
      const current = callRef.current;
      if (!current) return;
      const own = ++asked;
      const value = await current(bridge);
      if (!alive || own < shown || value === undefined) return;
      shown = own;
      setAnswer({ value });
    };
    let request: () => void;
    let dispose = () => undefined as void;
    if (throttleMs > 0) {
      const throttle = createQueryThrottle(run, throttleMs);
      request = () => throttle.request();
      dispose = () => throttle.dispose();
    } else {
      request = () => void run().catch(() => undefined);
    }
    requestRef.current = request;
    const unwatch = watchRef.current?.(request);
    return () => {
      alive = false;
      requestRef.current = null;
      dispose();
      unwatch?.();
      setAnswer(null);
    };
  }, [bridge, enabled, throttleMs]);

  // Declared after the query's effect: on mount and on a restart it asks once the query exists.
  useEffect(() => {
    requestRef.current?.();
  }, [bridge, enabled, throttleMs, changes]);

  return enabled && answer ? answer.value : null;
}
