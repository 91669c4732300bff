import { describe, expect, it } from 'vitest';
import { compareIds, compareNewest, compareText } from '../../src/domain/compare';

const sign = (n: number): number => Math.sign(n);

describe('part1 §4 sorts: the shared comparators', () => {
  it.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['a', 'a', 0],
    ['B', 'a', -1],
    ['10', '9', -1],
  ] as const)('compareIds(%s, %s) has sign %d (code-unit order)', (a, b, expected) => {
    expect(sign(compareIds(a, b))).toBe(expected);
  });

  it.each([
    [2000, 1000, -1],
    [1000, 2000, 1],
    [1000, 1000, 0],
    [1000, null, -1],
    [null, 1000, 1],
    [null, null, 0],
  ] as const)('compareNewest(%s, %s) has sign %d (newest first, missing last)', (a, b, expected) => {
    expect(sign(compareNewest(a, b))).toBe(expected);
  });

  it.each([
    ['apple', 'Banana', -1],
    ['Banana', 'apple', 1],
    ['alpha', 'ALPHA', 0],
    ['Zone', 'zone', 0],
  ] as const)('compareText(%s, %s) has sign %d (ignoring case)', (a, b, expected) => {
    expect(sign(compareText(a, b))).toBe(expected);
  });
});
