import { describe, expect, it } from 'vitest';
import { iconSize } from '../../src/domain/icon-size';

describe('part1 §2, §9 icon size by zoom (small below 11, medium below 13)', () => {
  it.each([
    [0, 'small'],
    [10, 'small'],
    [10.99, 'small'],
    [11, 'medium'],
    [12, 'medium'],
    [12.99, 'medium'],
    [13, 'large'],
    [16.25, 'large'],
    [22, 'large'],
  ] as const)('zoom %d → %s', (zoom, expected) => {
    expect(iconSize(zoom)).toBe(expected);
  });
});
