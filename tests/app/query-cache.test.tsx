// @vitest-environment jsdom
/** part 1 §7 cached data 3600 s (the query cache); areas, zones and things dropped at once after unsubscribe. §8/§9 chunk load after 120 s. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CACHE_TTL_MS, CHUNK_LOAD_TIMEOUT_MS } from '../../src/domain/constants';
import { ChunkLoadError } from '../../src/domain/errors';
import { render, screen } from '@testing-library/react';
import { ApiError } from '../../src/app/api-client';
import {
  createQueryClient,
  dropOnUnsubscribe,
  DROPPED_ON_UNSUBSCRIBE,
  queryKey,
  QUERY_RETRIES,
  shouldRetry,
} from '../../src/app/query-cache';
import { createAppServices, ServicesContext } from '../../src/app/services';
import { useApiQuery } from '../../src/app/use-api-query';
import type { UserError } from '../../src/domain/errors';
import { loadChunk } from '../../src/app/chunk-load';

afterEach(() => vi.useRealTimers());

describe('part1 §7 query cache', () => {
  it('keeps an answer 3600 s, then loads again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const client = createQueryClient();
    const load = vi.fn(async () => ({ n: load.mock.calls.length }));
    const read = () => client.fetchQuery({ queryKey: queryKey('things', 'org-1'), queryFn: load });
    expect(await read()).toEqual({ n: 1 });
    vi.setSystemTime(CACHE_TTL_MS - 1);
    expect(await read()).toEqual({ n: 1 });
    vi.setSystemTime(CACHE_TTL_MS);
    expect(await read()).toEqual({ n: 2 });
  });

  it("drops areas, zones and things at once after unsubscribe (every organization's), keeping the rest", async () => {
    const client = createQueryClient();
    const load = vi.fn(async () => 'x');
    const groups = ['areas', 'zones', 'things', 'thing_types'];
    const readAll = async () => {
      for (const group of groups)
        for (const org of ['org-1', 'org-2']) await client.fetchQuery({ queryKey: queryKey(group, org), queryFn: load });
    };
    await readAll();
    expect(DROPPED_ON_UNSUBSCRIBE).toEqual(['areas', 'zones', 'things']);
    dropOnUnsubscribe(client);
    await readAll();
    expect(load).toHaveBeenCalledTimes(8 + 6);
  });

  it('does not keep a failed answer', async () => {
    const client = createQueryClient();
    const refused = new ApiError(404, null, null, { text: 'Not found' } as UserError);
    await expect(client.fetchQuery({ queryKey: queryKey('areas', 'k'), queryFn: () => Promise.reject(refused) })).rejects.toBe(refused);
    expect(await client.fetchQuery({ queryKey: queryKey('areas', 'k'), queryFn: async () => 'ok' })).toBe('ok');
  });

  it('a refused call (4xx) is not tried again; no answer or a 5xx is, QUERY_RETRIES times', () => {
    const failure = (status: number) => new ApiError(status, null, null, { text: '' } as UserError);
    for (const status of [400, 403, 404, 422]) expect(shouldRetry(0, failure(status))).toBe(false);
    for (const status of [0, 500, 503]) {
      expect(shouldRetry(QUERY_RETRIES - 1, failure(status))).toBe(true);
      expect(shouldRetry(QUERY_RETRIES, failure(status))).toBe(false);
    }
  });

  it('a sign-out empties the cache', async () => {
    const services = createAppServices({ storage: null, createBridge: null, channel: false });
    await services.queries.fetchQuery({ queryKey: queryKey('thing_types', null), queryFn: async () => 'x' });
    services.session.signOut();
    await vi.waitFor(() => expect(services.queries.getQueryCache().getAll()).toEqual([]));
  });
});

describe('part1 §7 useApiQuery', () => {
  it('a polled list is asked again every pollMs while shown, and not after', async () => {
    const services = createAppServices({ storage: null, createBridge: null, channel: false });
    let loads = 0;
    function Count() {
      const query = useApiQuery({ key: queryKey('zones', 'org-1'), load: async () => (loads += 1), pollMs: 20 });
      return <p>{query.data ?? 'none'}</p>;
    }
    const view = render(
      <ServicesContext.Provider value={services}>
        <Count />
      </ServicesContext.Provider>,
    );
    await screen.findByText('3', undefined, { timeout: 2_000 });
    view.unmount();
    const after = loads;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(loads).toBe(after);
  });
});

describe('part1 §8 chunk load', () => {
  it('a chunk not loaded after 120 s raises a ChunkLoadError naming the reason', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise<never>(() => undefined));
    const caught = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    const error = await caught;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).message).toBe('Loading chunk failed: timed out after 120 s');
  });

  it('a failed import is a ChunkLoadError with its reason; a loaded one passes through', async () => {
    await expect(loadChunk(() => Promise.reject(new Error('404 /assets/x.js')))).rejects.toMatchObject({ reason: '404 /assets/x.js' });
    await expect(loadChunk(async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });
});
