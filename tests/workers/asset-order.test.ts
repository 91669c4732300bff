import { describe, expect, it } from 'vitest';
import { gallopMerge } from '../../src/workers/asset-order';

function sortedRandom(count: number, seed: number, max: number): number[] {
  let s = seed;
  const random = () => (s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => Math.floor(random() * max)).sort((a, b) => a - b);
}

describe('gallopMerge: the added names merged into the ranked ones', () => {
  it.each([
    [0, 0],
    [0, 7],
    [7, 0],
    [1, 1],
    [50, 50],
    [1_000, 3],
    [3, 1_000],
    [5_000, 5_000],
  ])('%i ranked and %i added give the sorted union', (n, k) => {
    const base = sortedRandom(n, n + 1, 1_000);
    const added = sortedRandom(k, k + 7, 1_000);
    const merged = Array.from(gallopMerge(Int32Array.from(base), added, (a, b) => a - b));
    expect(merged).toEqual([...base, ...added].sort((a, b) => a - b));
  });

  it('the added before, between and after all the ranked ones keep their places', () => {
    const merged = gallopMerge(Int32Array.from([10, 20, 30]), [5, 15, 25, 35, 36], (a, b) => a - b);
    expect(Array.from(merged)).toEqual([5, 10, 15, 20, 25, 30, 35, 36]);
  });

  it('a few names among many cost a few comparisons each, not one per ranked name', () => {
    const base = Int32Array.from({ length: 100_000 }, (_, i) => i * 10);
    const added = sortedRandom(100, 3, 1_000_000).map((v) => v * 10 + 5);
    let comparisons = 0;
    const merged = gallopMerge(base, added, (a, b) => {
      comparisons += 1;
      return a - b;
    });
    expect(merged.length).toBe(100_100);
    // About 2·log2(100,000 / 100) ≈ 20 a name; a linear merge would compare about 100,000 times.
    expect(comparisons).toBeLessThan(100 * 25);
  });
});
