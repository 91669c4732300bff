/**
 * The closures the live worker keeps (part 2 §4 "Closure lists": fetched in full first, then
 * incrementally with the last-updated timestamp; the socket's closure messages switch them in
 * place). The list, the detail and the map read this one copy. The socket tells only of automated
 * closures switching, so while a closures page is open and the worker is not polling already (a
 * small organization on a live socket), the worker is asked for an incremental load every
 * POLL_INTERVAL_MS (part 1 §9): a closure another user wrote shows within that time. A write of
 * this page asks at once.
 */
import { useEffect, useMemo } from 'react';
import type { Closure } from '../../domain/closure';
import { POLL_INTERVAL_MS } from '../../domain/constants';
import { shallowEqual, useLive, useLiveValue, useWorkerQuery } from '../../app/live/hooks';

const NO_CLOSURES: readonly Closure[] = [];

export interface ClosuresData {
  closures: readonly Closure[];
  /** The first load has finished (an empty list means none). */
  loaded: boolean;
}

export function useClosures(): ClosuresData {
  const { bridge } = useLive();
  const { version, live, polling } = useLiveValue(
    (store) => ({ version: store.closuresVersion, live: store.phase === 'live', polling: store.connectivity.polling }),
    shallowEqual,
  );
  // The answer carries the version it was asked at: an answer older than the store's version (one
  // asked while the first load was still on its way) does not count as loaded.
  const answer = useWorkerQuery(async (b) => ({ version, list: await b.closures() }), [version]);
  const closures = answer?.list ?? null;

  useEffect(() => {
    // The worker's own polling loads closures too; a second timer would double its loads.
    if (!bridge || polling) return undefined;
    const timer = setInterval(() => void bridge.refresh().catch(() => undefined), POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [bridge, polling]);

  const loaded = answer !== null && answer.version === version && live;
  return useMemo(() => ({ closures: closures ?? NO_CLOSURES, loaded }), [closures, loaded]);
}

export type ClosureLookup = { state: 'loading' } | { state: 'missing' } | { state: 'found'; closure: Closure };

/** After a write: the worker loads what changed since its last timestamp now. */
export function useRefreshClosures(): () => Promise<void> {
  const { bridge } = useLive();
  return async () => {
    await bridge?.refresh().catch(() => undefined);
  };
}
