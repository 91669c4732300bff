/**
 * part 1 §7: "Cached data is kept 3600 seconds (areas, zones and things caches are dropped at once
 * after unsubscribe)". REST answers live in one TanStack Query client: every answer is fresh and
 * kept CACHE_TTL_MS, a key starts with its group and the organization it was asked for
 * (`queryKey`), an organization switch removes the named groups (`dropOnUnsubscribe`) and a
 * sign-out empties the client. A refused call (4xx) is the server's answer and is not tried again;
 * a failed one is never kept, so the next reader asks again.
 */
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { CACHE_TTL_MS } from '../domain/constants';
import { ApiError } from './api-client';

/** The caches part 1 §7 names as dropped at once after unsubscribe. */
export const DROPPED_ON_UNSUBSCRIBE = ['areas', 'zones', 'things'] as const;

/** chosen: a call with no answer or a 5xx is tried this many times more before its page shows the failure. */
export const QUERY_RETRIES = 2;

/** The key of an answer: its group (part 1 §7's cache names), the organization it belongs to, then what tells answers apart. */
export function queryKey(group: string, organizationId: string | null, ...rest: readonly (string | number | null)[]): QueryKey {
  return [group, organizationId, ...rest];
}

/** Reference data shared by every organization (thing types): its own group, no organization. */
export function referenceKey(name: string): QueryKey {
  return ['reference', name];
}

/** 4xx: the server refused (not found, not allowed, invalid) and would again; anything else may pass next time. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < QUERY_RETRIES;
}

export function createQueryClient(ttlMs: number = CACHE_TTL_MS): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: ttlMs, gcTime: ttlMs, retry: shouldRetry, refetchOnWindowFocus: false },
      // A write is never sent twice on its own: the user sees the failure and decides.
      mutations: { retry: false },
    },
  });
}

/** part 1 §4 "Other", §7: after an organization switch the named groups go at once (every organization's). */
export function dropOnUnsubscribe(client: QueryClient, groups: readonly string[] = DROPPED_ON_UNSUBSCRIBE): void {
  client.removeQueries({ predicate: (query) => groups.includes(String(query.queryKey[0])) });
}
