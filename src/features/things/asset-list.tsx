/**
 * The virtualized Live list (part 1 §2 "a virtualized list (row height 65, or 90 when out of
 * service)"): react-window's List over the worker's list order. A row's height is read from the
 * store's typed arrays (the slot's display status, out of service = 6) in O(1); the rows' details
 * are fetched for the rendered range only (`useListRows`).
 */
import { useCallback, useEffect, useMemo } from 'react';
import { ASSET_STATUS, type ResponderMix } from '../../domain/asset-status';
import { ASSET_ROW_HEIGHT, ASSET_ROW_HEIGHT_OOS } from '../../domain/constants';
import { LIVE_LIST_TEXT } from '../../domain/labels';
import { VirtualRows } from '../../app/section/list-frame';
import type { LiveStore } from '../../app/live/store';
import type { AssetDetails } from '../../domain/live-diff';
import { AssetRow, type AssetRowProps } from './asset-row';
import { useListRows } from './use-list-rows';

/** part 1 §2: 90 px for an out-of-service row, 65 otherwise; read from the slot's display status. */
export function rowHeightAt(store: Pick<LiveStore, 'order' | 'buffers'>, index: number): number {
  const slot = store.order[index];
  if (slot === undefined) return ASSET_ROW_HEIGHT;
  return store.buffers.status[slot] === ASSET_STATUS.oos ? ASSET_ROW_HEIGHT_OOS : ASSET_ROW_HEIGHT;
}

export interface AssetListProps {
  store: LiveStore;
  version: number;
  listLength: number;
  mix: ResponderMix;
  timeZone: string | null;
  selectedId: string | null;
  onActivate(asset: AssetDetails): void;
  /** Told when the first rows fetched from the worker are shown. */
  onFirstRows?: () => void;
}

export function AssetList({ store, version, listLength, mix, timeZone, selectedId, onActivate, onFirstRows }: AssetListProps) {
  const rows = useListRows(version, listLength);
  const shown = rows.page > 0;
  useEffect(() => {
    if (shown) onFirstRows?.();
  }, [shown, onFirstRows]);
  const rowProps = useMemo<AssetRowProps>(
    () => ({ rowAt: rows.rowAt, mix, timeZone, selectedId, onActivate, version, page: rows.page }),
    [rows.rowAt, rows.page, mix, timeZone, selectedId, onActivate, version],
  );
  // A new function per diff: react-window measures the rows again when the order or a status moved.
  const rowHeight = useCallback((index: number) => rowHeightAt(store, index), [store, version]); // eslint-disable-line react-hooks/exhaustive-deps -- version: the buffers changed under ref()
  return (
    <VirtualRows
      className="asset-list"
      label={LIVE_LIST_TEXT.assets}
      rowComponent={AssetRow}
      rowCount={listLength}
      rowHeight={rowHeight}
      rowProps={rowProps}
      onRowsRendered={rows.onRowsRendered}
    />
  );
}
