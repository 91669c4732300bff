/** part 1 §7 cached data 3600 s; areas, zones and things dropped at once after unsubscribe. §8/§9 chunk load after 120 s. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CACHE_TTL_MS, CHUNK_LOAD_TIMEOUT_MS } from '../../src/domain/constants';
import { ChunkLoadError } from '../../src/domain/errors';
import { createApiCache, DROPPED_ON_UNSUBSCRIBE } from '../../src/app/api-cache';
import { loadChunk } from '../../src/app/chunk-load';

afterEach(() => vi.useRealTimers());

describe('part1 §7 API cache', () => {
  it('keeps an answer 3600 s, then loads again', async () => {
    let now = 0;
    const cache = createApiCache(CACHE_TTL_MS, () => now);
    const load = vi.fn(async () => ({ n: load.mock.calls.length }));
    expect(await cache.get('things', 'org-1', load)).toEqual({ n: 1 });
    now = CACHE_TTL_MS - 1;
    expect(await cache.get('things', 'org-1', load)).toEqual({ n: 1 });
    now = CACHE_TTL_MS;
    expect(await cache.get('things', 'org-1', load)).toEqual({ n: 2 });
  });

  it('drops areas, zones and things at once after unsubscribe, keeping the rest', async () => {
    const cache = createApiCache();
    const load = vi.fn(async () => 'x');
    for (const group of ['areas', 'zones', 'things', 'thing_types']) await cache.get(group, 'k', load);
    cache.drop(DROPPED_ON_UNSUBSCRIBE);
    for (const group of ['areas', 'zones', 'things', 'thing_types']) await cache.get(group, 'k', load);
    expect(load).toHaveBeenCalledTimes(7);
  });

  it('does not keep a failed answer', async () => {
    const cache = createApiCache();
    await expect(cache.get('areas', 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('areas', 'k', async () => 'ok')).toBe('ok');
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
