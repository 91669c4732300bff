/**
 * The rows the virtualized Live list shows, read from the worker (ARCHITECTURE "Live data"): only
 * the rendered range (`bridge.rows(start, end)`), asked again when that range moves or when a diff
 * arrives (the store's version: at most once per batch, 1 s). The main thread never walks the fleet.
 */
import { useCallback, useRef, useState } from 'react';
import type { AssetDetails } from '../../domain/live-diff';
import { useWorkerQuery } from '../../app/live/hooks';

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

const EMPTY: Page & { count: number } = { start: 0, rows: [], count: 0 };

export function useListRows(version: number, listLength: number): ListRows {
  const [range, setRange] = useState<RowRange>({ start: 0, stop: -1 });
  const { start, stop } = range;
  // Numbered as asked: only the latest ask's page is kept, so the number grows with each page shown.
  const asked = useRef(0);
  const fetched =
    useWorkerQuery<Page & { count: number }>(
      async (bridge) => (stop < start ? undefined : { start, rows: await bridge.rows(start, stop + 1), count: ++asked.current }),
      [start, stop, version, listLength],
    ) ?? EMPTY;

  const onRowsRendered = useCallback<ListRows['onRowsRendered']>((_visible, all) => {
    setRange((previous) =>
      previous.start === all.startIndex && previous.stop === all.stopIndex ? previous : { start: all.startIndex, stop: all.stopIndex },
    );
  }, []);

  const rowAt = useCallback((index: number) => fetched.rows[index - fetched.start] ?? null, [fetched]);
  return { rowAt, onRowsRendered, page: fetched.count };
}
