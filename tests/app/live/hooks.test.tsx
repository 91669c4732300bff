// @vitest-environment jsdom
/** The live hooks (src/app/live/hooks.ts): store reads that render only on change, worker queries throttled with stale answers dropped. */
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveBridge } from '../../../src/app/live/bridge';
import {
  IDLE_LIVE_STORE,
  LiveProvider,
  shallowEqual,
  useLiveValue,
  useResponderMix,
  useWorkerQuery,
  type Live,
} from '../../../src/app/live/hooks';
import { createLiveStore, type LiveStore } from '../../../src/app/live/store';

afterEach(() => vi.useRealTimers());

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function wrapperOf(live: Live) {
  return ({ children }: { children: ReactNode }) => <LiveProvider value={live}>{children}</LiveProvider>;
}

/** Only the calls a test uses; the hooks pass the bridge to the caller's function. */
function fakeBridge(store: LiveStore): LiveBridge {
  return { store } as unknown as LiveBridge;
}

describe('useLiveValue', () => {
  it('renders again only when the selected value changes', async () => {
    const store = createLiveStore();
    let renders = 0;
    const { result } = renderHook(
      () => {
        renders += 1;
        return useLiveValue((snap) => snap.events.version);
      },
      { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }) },
    );
    expect(result.current).toBe(0);
    const before = renders;
    await act(async () => {
      store.total = 12;
      store.version = 3;
    });
    expect(renders).toBe(before);
    await act(async () => {
      store.events.version = 5;
    });
    expect(result.current).toBe(5);
    expect(renders).toBe(before + 1);
  });

  it('keeps an equal object with shallowEqual (no render for a rebuilt but equal value)', async () => {
    const store = createLiveStore();
    let renders = 0;
    const { result } = renderHook(
      () => {
        renders += 1;
        return useLiveValue((snap) => ({ phase: snap.phase, total: snap.total }), shallowEqual);
      },
      { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }) },
    );
    const first = result.current;
    const before = renders;
    await act(async () => {
      store.version = 9;
    });
    expect(renders).toBe(before);
    expect(result.current).toBe(first);
    await act(async () => {
      store.total = 4;
    });
    expect(result.current).toEqual({ phase: 'idle', total: 4 });
  });

  it('reads the placeholder store when no engine runs: nothing loaded, every asset a responder', () => {
    const { result } = renderHook(() => ({ mix: useResponderMix(), phase: useLiveValue((snap) => snap.phase) }));
    expect(result.current).toEqual({ mix: 'all', phase: 'idle' });
    expect(IDLE_LIVE_STORE.version).toBe(0);
  });

  it('follows the responder mix the worker reports', async () => {
    const store = createLiveStore();
    const { result } = renderHook(() => useResponderMix(), { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }) });
    expect(result.current).toBe('all');
    await act(async () => {
      store.responderMix = 'some';
    });
    expect(result.current).toBe('some');
  });
});

describe('useWorkerQuery', () => {
  it('asks nothing and answers null without an engine or without a call', () => {
    const call = vi.fn(async () => 1);
    const none = renderHook(() => useWorkerQuery(call, []));
    expect(none.result.current).toBeNull();
    expect(call).not.toHaveBeenCalled();
    const store = createLiveStore();
    const off = renderHook(() => useWorkerQuery<number>(null, []), { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }) });
    expect(off.result.current).toBeNull();
  });

  it('asks on mount and again when deps change, with the latest call', async () => {
    const store = createLiveStore();
    const bridge = fakeBridge(store);
    const asked: number[] = [];
    const { result, rerender } = renderHook(
      ({ n }) =>
        useWorkerQuery(
          async (b) => {
            expect(b).toBe(bridge);
            asked.push(n);
            return n * 10;
          },
          [n],
        ),
      { wrapper: wrapperOf({ store, bridge }), initialProps: { n: 1 } },
    );
    await act(async () => undefined);
    expect(result.current).toBe(10);
    rerender({ n: 2 });
    await act(async () => undefined);
    expect(result.current).toBe(20);
    rerender({ n: 2 });
    await act(async () => undefined);
    expect(asked).toEqual([1, 2]);
  });

  it('drops the answer to an older request that arrives after a newer one', async () => {
    const store = createLiveStore();
    const answers = new Map<number, ReturnType<typeof deferred<string>>>();
    const { result, rerender } = renderHook(
      ({ n }) =>
        useWorkerQuery(() => {
          const d = deferred<string>();
          answers.set(n, d);
          return d.promise;
        }, [n]),
      { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }), initialProps: { n: 1 } },
    );
    await act(async () => undefined);
    rerender({ n: 2 });
    await act(async () => undefined);
    expect([...answers.keys()]).toEqual([1, 2]);
    await act(async () => answers.get(2)!.resolve('second'));
    expect(result.current).toBe('second');
    await act(async () => answers.get(1)!.resolve('first'));
    expect(result.current).toBe('second');
  });

  it('shows an older answer that arrives first, until the newer one replaces it', async () => {
    const store = createLiveStore();
    const answers = new Map<number, ReturnType<typeof deferred<string>>>();
    const { result, rerender } = renderHook(
      ({ n }) =>
        useWorkerQuery(() => {
          const d = deferred<string>();
          answers.set(n, d);
          return d.promise;
        }, [n]),
      { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }), initialProps: { n: 1 } },
    );
    await act(async () => undefined);
    rerender({ n: 2 });
    await act(async () => answers.get(1)!.resolve('first'));
    expect(result.current).toBe('first');
    await act(async () => answers.get(2)!.resolve('second'));
    expect(result.current).toBe('second');
  });

  it('drops answers after unmount and stops its watch', async () => {
    const store = createLiveStore();
    const pending = deferred<string>();
    let renders = 0;
    let watching = 0;
    const { result, unmount } = renderHook(
      () => {
        renders += 1;
        return useWorkerQuery(() => pending.promise, [], {
          watch: () => {
            watching += 1;
            return () => {
              watching -= 1;
            };
          },
        });
      },
      { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }) },
    );
    await act(async () => undefined);
    expect(watching).toBe(1);
    unmount();
    expect(watching).toBe(0);
    const before = renders;
    await act(async () => pending.resolve('late'));
    expect(renders).toBe(before);
    expect(result.current).toBeNull();
  });

  it('answers null again once the call turns off, and drops the answer that was on its way', async () => {
    const store = createLiveStore();
    const pending = deferred<string>();
    const { result, rerender } = renderHook(({ on }) => useWorkerQuery(on ? () => pending.promise : null, [on]), {
      wrapper: wrapperOf({ store, bridge: fakeBridge(store) }),
      initialProps: { on: true },
    });
    await act(async () => undefined);
    rerender({ on: false });
    await act(async () => pending.resolve('late'));
    expect(result.current).toBeNull();
  });

  it('throttled: at most one call per interval, requests folded, and the latest deps answered', async () => {
    vi.useFakeTimers();
    const store = createLiveStore();
    const calls: number[] = [];
    const { result, rerender } = renderHook(
      ({ n }) =>
        useWorkerQuery(
          async () => {
            calls.push(n);
            return n;
          },
          [n],
          { throttleMs: 250 },
        ),
      { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }), initialProps: { n: 0 } },
    );
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(calls).toEqual([0]);
    expect(result.current).toBe(0);
    for (let n = 1; n <= 30; n += 1) {
      rerender({ n });
      await act(async () => vi.advanceTimersByTimeAsync(5));
    }
    // 150 ms of changes after the first call: the next waits for the interval.
    expect(calls).toEqual([0]);
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(calls).toEqual([0, 30]);
    expect(result.current).toBe(30);
  });

  it('throttled: a watch subscription asks again without a render of its own', async () => {
    vi.useFakeTimers();
    const store = createLiveStore();
    let fire = () => undefined as void;
    let count = 0;
    const { result } = renderHook(
      () =>
        useWorkerQuery(async () => ++count, [], {
          throttleMs: 250,
          watch: (request) => {
            fire = request;
            return () => undefined;
          },
        }),
      { wrapper: wrapperOf({ store, bridge: fakeBridge(store) }) },
    );
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe(1);
    for (let i = 0; i < 10; i += 1) fire();
    await act(async () => vi.advanceTimersByTimeAsync(250));
    expect(result.current).toBe(2);
  });
});
