/** The unit-availability view's drawing and legend (beyond the spec: docs/decisions/spec.md "Values the spec does not give"). */
import { describe, expect, it } from 'vitest';
import { availabilityPixels, availabilityShareText, distanceText, GAP_COLOR } from '../../src/map/layers/availability-layer';

describe('availability view: drawing and legend', () => {
  it('shades the gap cells and leaves covered cells clear', () => {
    const pixels = availabilityPixels(new Uint8Array([1, 0, 0, 1]));
    expect(Array.from(pixels)).toEqual([...GAP_COLOR, 0, 0, 0, 0, 0, 0, 0, 0, ...GAP_COLOR]);
  });

  it.each([
    [500, '500 m'],
    [999, '999 m'],
    [1_000, '1 km'],
    [1_500, '1.5 km'],
    [3_000, '3 km'],
    [12_340, '12.3 km'],
  ])('%i m is written %s', (metres, text) => {
    expect(distanceText(metres)).toBe(text);
  });

  it.each([
    [0.87, 3_000, 'Covered 87 % within 3 km'],
    [1, 3_000, 'Covered 100 % within 3 km'],
    [0.9999, 5_000, 'Covered 99 % within 5 km'],
    [0, 800, 'Covered 0 % within 800 m'],
  ])('share %f within %i m reads "%s"', (share, radius, text) => {
    expect(availabilityShareText(share, radius)).toBe(text);
  });
});
