/**
 * The freshness histograms of the application bench (src/domain/live-timings.ts): ages bucketed by
 * AGE_BUCKET_MS, moved on by the time to the drawn frame, and read back as percentiles that are
 * never lower than the true value and at most one bucket above it.
 */
import { describe, expect, it } from 'vitest';
import {
  AGE_BUCKET_MS,
  AGE_BUCKETS,
  addShifted,
  ageBucket,
  ageHistogram,
  createAgeHistogram,
  histogramCount,
  histogramPercentile,
} from '../../src/domain/live-timings';

describe('age histograms', () => {
  it('buckets ages, a clock a little ahead as 0 and anything past 30 s in the last bucket', () => {
    expect(ageBucket(0)).toBe(0);
    expect(ageBucket(-250)).toBe(0);
    expect(ageBucket(AGE_BUCKET_MS - 1)).toBe(0);
    expect(ageBucket(AGE_BUCKET_MS)).toBe(1);
    expect(ageBucket(999)).toBe(Math.floor(999 / AGE_BUCKET_MS));
    expect(ageBucket(3_600_000)).toBe(AGE_BUCKETS - 1);
    expect(ageBucket(Number.NaN)).toBe(0);
  });

  it('percentiles of 100 ages from 10 to 1,000 ms lie within one bucket above the true ones', () => {
    const now = 50_000;
    const times = Array.from({ length: 100 }, (_, i) => now - (i + 1) * 10);
    const histogram = ageHistogram(times, times.length, now);
    expect(histogramCount(histogram)).toBe(100);
    const p50 = histogramPercentile(histogram, 50)!;
    const p99 = histogramPercentile(histogram, 99)!;
    expect(p50).toBeGreaterThanOrEqual(500);
    expect(p50).toBeLessThanOrEqual(500 + AGE_BUCKET_MS);
    expect(p99).toBeGreaterThanOrEqual(990);
    expect(p99).toBeLessThanOrEqual(990 + AGE_BUCKET_MS);
    expect(histogramPercentile(createAgeHistogram(), 50)).toBeNull();
  });

  it('only the first `count` times are counted', () => {
    expect(histogramCount(ageHistogram([1, 2, 3, 4], 2, 10))).toBe(2);
  });

  it('adding with a shift makes every age that much older, whole buckets, capped at the last', () => {
    const target = createAgeHistogram();
    const source = ageHistogram([1_000, 900], 2, 1_000); // ages 0 and 100 ms
    addShifted(target, source, 400);
    addShifted(target, source, 400);
    expect(histogramCount(target)).toBe(4);
    expect(target[ageBucket(400)]).toBe(2);
    expect(target[ageBucket(500)]).toBe(2);
    addShifted(target, source, 60_000);
    expect(target[AGE_BUCKETS - 1]).toBe(2);
    // A frame drawn before the batch's clock (clocks a hair apart) does not make ages younger.
    const early = createAgeHistogram();
    addShifted(early, source, -300);
    expect(early[ageBucket(100)]).toBe(1);
  });
});
