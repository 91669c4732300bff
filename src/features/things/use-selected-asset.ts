/**
 * The asset a detail or edit page shows: the page selects it in the live worker
 * (`bridge.select`), whose later diffs carry its details whenever it changes; the page reads them
 * from the store's selection. Not found once the first load is done and the worker has no such id.
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { createLiveStore, type LiveStore } from '../../app/live/store';
import { useServices } from '../../app/services';
import type { AssetDetails } from '../../domain/live-diff';

export type SelectedAssetState = 'loading' | 'found' | 'missing';

/** Read when no live store runs yet (useSnapshot needs a proxy). */
const IDLE_STORE = createLiveStore();

export function useSelectedAsset(thingId: string, store: LiveStore | null): { asset: AssetDetails | null; state: SelectedAssetState } {
  const { live } = useServices();
  const bridge = store ? live.bridge : null;
  const snap = useSnapshot(store ?? IDLE_STORE);
  // The details sit under ref(): the snapshot hands back the worker's object itself.
  const selected = snap.selection.id === thingId ? (snap.selection.asset as AssetDetails | null) : null;
  // The worker's latest answer to this page's own select: the details, or null (not in the fleet).
  const [answer, setAnswer] = useState<{ id: string; details: AssetDetails | null; version: number } | null>(null);
  // While the store has no details, ask again after each diff: the answer to an early select
  // (before the fleet loaded) can arrive after the diff that carried the asset and overwrite it.
  const retry = selected === null ? snap.version : -1;
  useEffect(() => {
    if (!bridge) return;
    let current = true;
    void bridge.select(thingId).then(
      (details) => {
        if (current) setAnswer({ id: thingId, details, version: retry });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, thingId, retry]);
  const answered = answer?.id === thingId ? answer : null;
  const asset = selected ?? answered?.details ?? null;
  if (asset) return { asset, state: 'found' };
  const loaded = snap.progress.done || snap.phase === 'live';
  // Missing only on an answer asked at the store's current version (a stale answer is no proof).
  const confirmed = answered !== null && answered.details === null && answered.version === snap.version;
  return { asset: null, state: store && loaded && confirmed ? 'missing' : 'loading' };
}
