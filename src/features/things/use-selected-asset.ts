/**
 * The asset a detail or edit page shows: the page selects it in the live worker
 * (`bridge.select`), whose later diffs carry its details whenever it changes; the page reads them
 * from the store's selection. Not found once the first load is done and the worker has no such id.
 */
import { shallowEqual, useLive, useLiveValue, useWorkerQuery } from '../../app/live/hooks';
import type { AssetDetails } from '../../domain/live-diff';

export type SelectedAssetState = 'loading' | 'found' | 'missing';

export function useSelectedAsset(thingId: string): { asset: AssetDetails | null; state: SelectedAssetState } {
  const { bridge } = useLive();
  const snap = useLiveValue(
    (store) => ({
      // The details sit under ref(): the snapshot hands back the worker's object itself.
      selected: store.selection.id === thingId ? (store.selection.asset as AssetDetails | null) : null,
      version: store.version,
      loaded: store.progress.done || store.phase === 'live',
    }),
    shallowEqual,
  );
  const { selected } = snap;
  // While the store has no details, ask again after each diff: the answer to an early select
  // (before the fleet loaded) can arrive after the diff that carried the asset and overwrite it.
  const retry = selected === null ? snap.version : -1;
  // The worker's latest answer to this page's own select: the details, or null (not in the fleet).
  const answer = useWorkerQuery(async (live) => ({ id: thingId, details: await live.select(thingId), version: retry }), [thingId, retry]);
  const answered = answer?.id === thingId ? answer : null;
  const asset = selected ?? answered?.details ?? null;
  if (asset) return { asset, state: 'found' };
  // Missing only on an answer asked at the store's current version (a stale answer is no proof).
  const confirmed = answered !== null && answered.details === null && answered.version === snap.version;
  return { asset: null, state: bridge && snap.loaded && confirmed ? 'missing' : 'loading' };
}
