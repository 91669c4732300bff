// @vitest-environment jsdom
/** part 2 §4 closure lists on an open closures page: one polling at a time (part 1 §4, 15 s). */
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveBridge } from '../../../src/app/live/bridge';
import { LiveProvider, type Live } from '../../../src/app/live/hooks';
import { createLiveStore } from '../../../src/app/live/store';
import { POLL_INTERVAL_MS } from '../../../src/domain/constants';
import { useClosures } from '../../../src/features/closures/use-closures';

afterEach(() => vi.useRealTimers());

describe('useClosures', () => {
  it('asks the worker for an incremental load every 15 s only while the worker is not polling itself', async () => {
    vi.useFakeTimers();
    const store = createLiveStore();
    const refresh = vi.fn(async () => undefined);
    const bridge = { store, refresh, closures: async () => [] } as unknown as LiveBridge;
    const live: Live = { store, bridge };
    renderHook(() => useClosures(), {
      wrapper: ({ children }: { children: ReactNode }) => <LiveProvider value={live}>{children}</LiveProvider>,
    });

    // A small organization on a live socket: the socket tells only of automated closures switching.
    await act(async () => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(refresh).toHaveBeenCalledTimes(1);

    // The worker polls (a large organization, or the socket is down): its loads carry the closures.
    await act(async () => {
      store.connectivity.polling = true;
    });
    await act(async () => vi.advanceTimersByTimeAsync(3 * POLL_INTERVAL_MS));
    expect(refresh).toHaveBeenCalledTimes(1);

    await act(async () => {
      store.connectivity.polling = false;
    });
    await act(async () => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
