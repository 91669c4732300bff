import * as Comlink from 'comlink';
import { ASSET_STATUSES, computeAssetStatus, displayStatus, type AssetStatusFacts } from '../domain/asset-status';
import { SOCKET_BATCH_MS, SOCKET_PROTOCOL } from '../domain/constants';

/** What the status count needs of an asset: the status facts and whether it is in service. */
export interface CountableAsset extends AssetStatusFacts {
  readonly inService: boolean;
}

/**
 * The worker's API, reached from the main thread through Comlink. This is the first slice of the
 * live engine (issue 5 grows it: socket, polling, batching, stations, clusters, diffs); it already
 * runs the domain's status rule in the worker and answers with a transferred typed array.
 */
export function createLiveEngine() {
  return {
    info() {
      return { protocol: SOCKET_PROTOCOL, batchMs: SOCKET_BATCH_MS };
    },
    /** Counts per status code (index = code, out of service included), transferred, not copied. */
    countStatuses(assets: readonly CountableAsset[], now: number): Int32Array {
      const counts = new Int32Array(ASSET_STATUSES.length);
      for (const asset of assets) {
        const status = displayStatus(computeAssetStatus(asset, now), asset.inService);
        counts[status] = (counts[status] ?? 0) + 1;
      }
      return Comlink.transfer(counts, [counts.buffer]);
    },
  };
}

export type LiveEngine = ReturnType<typeof createLiveEngine>;
