import { useEffect, useState } from 'react';
import { subscribeKey } from 'valtio/utils';
import type { AssetsLayerData } from '../../map/layers/assets-layer-data';
import type { LiveStore } from '../live/store';

/** The live store's deck.gl data, re-read on each diff (null before the worker started). */
export function useLiveLayerData(live: LiveStore | null): AssetsLayerData | null {
  const [data, setData] = useState<AssetsLayerData | null>(() => live?.data ?? null);
  useEffect(() => {
    if (!live) {
      setData(null);
      return undefined;
    }
    setData(live.data);
    return subscribeKey(live, 'data', (next) => setData(next));
  }, [live]);
  return data;
}
