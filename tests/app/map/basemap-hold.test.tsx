// @vitest-environment jsdom
/**
 * The standalone basemap waits for the Live list's first rows where WebGL draws in software
 * (useBasemapHold, bench/README.md "Application bench"): building its layers held the page for about a
 * second there, and the list's first rows came after it.
 */
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveProvider } from '../../../src/app/live/hooks';
import { createLiveStore, type LiveStore } from '../../../src/app/live/store';
import { BASEMAP_HOLD_MAX_MS, useBasemapHold } from '../../../src/app/map/dashboard-map';

let store: LiveStore;
const wrapper = ({ children }: { children: ReactNode }) => <LiveProvider value={{ store, bridge: null }}>{children}</LiveProvider>;

function renderHold(rowsPending: boolean, enabled = true) {
  return renderHook(({ pending }: { pending: boolean }) => useBasemapHold(pending, enabled), {
    wrapper,
    initialProps: { pending: rowsPending },
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  store = createLiveStore();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useBasemapHold', () => {
  it('on a GPU nothing waits', () => {
    const { result } = renderHold(true, false);
    expect(result.current).toBe(false);
  });

  it('waits for the fleet’s first page, then for the list’s first rows', async () => {
    const { result, rerender } = renderHold(true);
    expect(result.current).toBe(true);
    // valtio tells its subscribers after a microtask.
    await act(async () => {
      store.progress.loaded = 1;
      store.progress.total = 20;
    });
    // The first page is in, the list's rows are still on their way.
    expect(result.current).toBe(true);
    rerender({ pending: false });
    expect(result.current).toBe(false);
    // Once shown it stays: a list shown again later does not hide it.
    rerender({ pending: true });
    expect(result.current).toBe(false);
  });

  it('without the Live list on screen, the end of the fleet’s load (an empty fleet) releases it', async () => {
    const { result } = renderHold(false);
    expect(result.current).toBe(true);
    await act(async () => {
      store.progress.done = true;
    });
    expect(result.current).toBe(false);
  });

  it(`waits at most BASEMAP_HOLD_MAX_MS (${BASEMAP_HOLD_MAX_MS} ms), whatever is still loading`, () => {
    const { result } = renderHold(true);
    act(() => vi.advanceTimersByTime(BASEMAP_HOLD_MAX_MS - 1));
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(false);
  });
});
