import { describe, expect, it } from 'vitest';
import { THINGS_PAGE_SIZE } from '../../src/domain/constants';
import { pageCount, pagedMetaSchema } from '../../src/domain/incremental';

describe('part2 §9 page count is the ceiling of total over size, minimum 1', () => {
  it.each([
    [0, 1],
    [1, 1],
    [THINGS_PAGE_SIZE - 1, 1],
    [THINGS_PAGE_SIZE, 1],
    [THINGS_PAGE_SIZE + 1, 2],
    [2 * THINGS_PAGE_SIZE, 2],
    [50_000, 100],
  ])('%i assets → %i pages', (total, pages) => {
    expect(pageCount(total, THINGS_PAGE_SIZE)).toBe(pages);
  });
});

describe('part1 §7 incremental answer meta', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['a full page', { page: 1, per_page: 500, total: 0, server_timestamp: '2026-11-22T12:00:00Z' }, true],
    ['page 0', { page: 0, per_page: 500, total: 0, server_timestamp: '2026-11-22T12:00:00Z' }, false],
    ['a negative total', { page: 1, per_page: 500, total: -1, server_timestamp: '2026-11-22T12:00:00Z' }, false],
    ['no server timestamp', { page: 1, per_page: 500, total: 0 }, false],
  ])('%s: valid %s', (_name, meta, ok) => {
    expect(pagedMetaSchema.safeParse(meta).success).toBe(ok);
  });

  it('deleted_ids default to none', () => {
    expect(pagedMetaSchema.parse({ page: 1, per_page: 500, total: 0, server_timestamp: 'x' }).deleted_ids).toEqual([]);
  });
});
