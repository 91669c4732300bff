/**
 * part 1 §7: "Cached data is kept 3600 seconds (areas, zones and things caches are dropped at once
 * after unsubscribe)". One cache of API answers by key; `drop` empties the named groups when the
 * subscribed organization changes or the user signs out.
 */
import { CACHE_TTL_MS } from '../domain/constants';

/** The caches part 1 §7 names as dropped at once after unsubscribe. */
export const DROPPED_ON_UNSUBSCRIBE = ['areas', 'zones', 'things'] as const;

interface Entry {
  at: number;
  value: Promise<unknown>;
}

export interface ApiCache {
  /** The cached answer of `group`/`key` younger than the TTL, else a fresh `load()` (kept when it succeeds). */
  get<T>(group: string, key: string, load: () => Promise<T>): Promise<T>;
  drop(groups?: readonly string[]): void;
}

export function createApiCache(ttlMs: number = CACHE_TTL_MS, now: () => number = Date.now): ApiCache {
  const groups = new Map<string, Map<string, Entry>>();
  return {
    get<T>(group: string, key: string, load: () => Promise<T>): Promise<T> {
      let entries = groups.get(group);
      if (!entries) groups.set(group, (entries = new Map()));
      const hit = entries.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value as Promise<T>;
      const value = load();
      const entry = { at: now(), value };
      entries.set(key, entry);
      // A failed call is not kept: the next caller tries again.
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    drop(names = [...groups.keys()]) {
      for (const name of names) groups.delete(name);
    },
  };
}
