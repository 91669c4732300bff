/**
 * The rows the virtualized Live list shows, read from the worker (ARCHITECTURE "Live data"): only
 * the rendered range (`bridge.rows(start, end)`), asked again when that range moves or when a diff
 * arrives (the store's version: at most once per batch, 1 s). The main thread never walks the fleet.
 */
import { useCallback, useEffect, useState } from 'react';
import type { AssetDetails } from '../../domain/live-diff';
import type { LiveBridge } from '../../app/live/bridge';

export interface RowRange {
  /** First rendered index (overscan included). */
  start: number;
  /** Last rendered index, inclusive; below `start` when nothing is rendered. */
  stop: number;
}

interface Page {
  start: number;
  rows: AssetDetails[];
}

export interface ListRows {
  /** The fetched asset at a list index, null while its page is on its way. */
  rowAt(index: number): AssetDetails | null;
  /** react-window's `onRowsRendered` (all rendered rows, overscan included). */
  onRowsRendered(visible: { startIndex: number; stopIndex: number }, all: { startIndex: number; stopIndex: number }): void;
  /** Bumped each time a fetched page arrives (a row-props key). */
  page: number;
}

const EMPTY: Page = { start: 0, rows: [] };

export function useListRows(bridge: LiveBridge | null, version: number, listLength: number): ListRows {
  const [range, setRange] = useState<RowRange>({ start: 0, stop: -1 });
  const [page, setPage] = useState<{ page: Page; count: number }>({ page: EMPTY, count: 0 });

  useEffect(() => {
    if (!bridge || range.stop < range.start) return;
    let current = true;
    bridge.rows(range.start, range.stop + 1).then(
      (rows) => {
        if (current) setPage((previous) => ({ page: { start: range.start, rows }, count: previous.count + 1 }));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, range.start, range.stop, version, listLength]);

  const onRowsRendered = useCallback<ListRows['onRowsRendered']>((_visible, all) => {
    setRange((previous) => (previous.start === all.startIndex && previous.stop === all.stopIndex ? previous : { start: all.startIndex, stop: all.stopIndex }));
  }, []);

  const { page: fetched, count } = page;
  const rowAt = useCallback((index: number) => fetched.rows[index - fetched.start] ?? null, [fetched]);
  return { rowAt, onRowsRendered, page: count };
}
