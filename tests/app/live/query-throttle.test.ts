/** Worker queries of the map: at most one in flight, at most one started per interval. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryThrottle } from '../../../src/app/live/query-throttle';
import { padBounds } from '../../../src/app/map/bounds';

describe('map queries are throttled (never per frame or per asset)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('many requests within an interval run once now and once after', async () => {
    const run = vi.fn(async () => undefined);
    const throttle = createQueryThrottle(run, 250, () => Date.now());
    for (let i = 0; i < 60; i += 1) throttle.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 60; i += 1) {
      throttle.request();
      await vi.advanceTimersByTimeAsync(4);
    }
    // 240 ms of requests after the first run: the second run waits for the interval.
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    throttle.dispose();
  });

  it('a request while a query runs waits for it, then runs once', async () => {
    let release: () => void = () => undefined;
    const run = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const throttle = createQueryThrottle(run, 100, () => Date.now());
    throttle.request();
    await vi.advanceTimersByTimeAsync(0);
    throttle.request();
    throttle.request();
    await vi.advanceTimersByTimeAsync(500);
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    throttle.dispose();
  });

  it('nothing runs after dispose', async () => {
    const run = vi.fn(async () => undefined);
    const throttle = createQueryThrottle(run, 100, () => Date.now());
    throttle.request();
    throttle.dispose();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).not.toHaveBeenCalled();
  });

  it('pads bounds on every side, within the Mercator latitudes', () => {
    expect(padBounds([-98, 30, -97, 31], 0.1)).toEqual([-98.1, 29.9, -96.9, 31.1]);
    expect(padBounds([-10, -85, 10, 85], 0.5)[1]).toBe(-85.0511);
  });
});
