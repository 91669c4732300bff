import { describe, expect, it } from 'vitest';
import { PATH_SIMPLIFY_TOLERANCE_DEG, simplifyPath } from '../../src/domain/path-simplify';

const p = (lng: number, lat: number) => ({ lat, lng });

describe('Douglas–Peucker path simplification (imported work zones)', () => {
  it('keeps a path of two points or fewer as it is', () => {
    expect(simplifyPath([])).toEqual([]);
    expect(simplifyPath([p(0, 0)])).toEqual([p(0, 0)]);
    expect(simplifyPath([p(0, 0), p(1, 1)])).toEqual([p(0, 0), p(1, 1)]);
  });

  it('a straight path of 100,000 points becomes its two ends', () => {
    const line = Array.from({ length: 100_000 }, (_, i) => p(-93.7 + i * 1e-6, 41.5 + i * 1e-6));
    expect(simplifyPath(line)).toEqual([line[0], line.at(-1)]);
  });

  it('keeps a bend farther than the tolerance from the chord, drops a wobble nearer', () => {
    const bend = [p(0, 0), p(0.001, 0.001), p(0.002, 0)];
    expect(simplifyPath(bend)).toEqual(bend);
    const wobble = [p(0, 0), p(0.001, PATH_SIMPLIFY_TOLERANCE_DEG / 2), p(0.002, 0)];
    expect(simplifyPath(wobble)).toEqual([p(0, 0), p(0.002, 0)]);
  });

  it('a zigzag above the tolerance keeps every point', () => {
    const zigzag = Array.from({ length: 1_000 }, (_, i) => p(i * 1e-4, (i % 2) * 1e-4));
    expect(simplifyPath(zigzag)).toHaveLength(1_000);
  });
});
