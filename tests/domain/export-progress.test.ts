/** part 2 §4 an export in progress: how far it is and the time left at its rate, and their words. */
import { describe, expect, it } from 'vitest';
import { exportProgress, type DataExport } from '../../src/domain/export';
import { exportEstimateText, exportRowsText } from '../../src/domain/labels';

type Facts = Pick<DataExport, 'status' | 'rowsWritten' | 'rowsTotal' | 'startedAt'>;
const NOW = 1_000_000;
const facts = (over: Partial<Facts>): Facts => ({
  status: 'in_progress',
  rowsWritten: 0,
  rowsTotal: null,
  startedAt: NOW - 10_000,
  ...over,
});

describe('part2 §4 exportProgress', () => {
  it.each<[string, Partial<Facts>, { fraction: number | null; remainingMs: number | null }]>([
    ['requested: neither', { status: 'requested', rowsTotal: 100 }, { fraction: null, remainingMs: null }],
    ['not counted yet: neither', { rowsTotal: null, rowsWritten: 5 }, { fraction: null, remainingMs: null }],
    ['counted, nothing written: no rate yet', { rowsTotal: 100 }, { fraction: 0, remainingMs: null }],
    ['half in 10 s: 10 s left', { rowsTotal: 100, rowsWritten: 50 }, { fraction: 0.5, remainingMs: 10_000 }],
    ['a quarter in 10 s: 30 s left', { rowsTotal: 400, rowsWritten: 100 }, { fraction: 0.25, remainingMs: 30_000 }],
    ['an empty export is whole', { rowsTotal: 0 }, { fraction: 1, remainingMs: null }],
    ['more written than counted stays at 1', { rowsTotal: 10, rowsWritten: 12 }, { fraction: 1, remainingMs: 0 }],
    ['no start time: no rate', { rowsTotal: 10, rowsWritten: 5, startedAt: null }, { fraction: 0.5, remainingMs: null }],
  ])('%s', (_name, over, expected) => {
    expect(exportProgress(facts(over), NOW)).toEqual(expected);
  });

  it('words: rows written of the total, and the estimate in seconds under a minute, else minutes', () => {
    expect(exportRowsText(3_000, 6_000)).toBe('3,000 of 6,000 rows');
    expect(exportRowsText(42, null)).toBe('42 rows written');
    expect(exportEstimateText(200)).toBe('About 1 s left');
    expect(exportEstimateText(10_400)).toBe('About 10 s left');
    expect(exportEstimateText(59_000)).toBe('About 59 s left');
    expect(exportEstimateText(150_000)).toBe('About 3 min left');
  });
});
