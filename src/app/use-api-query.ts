/**
 * The one way a component reads REST data (part 1 §7): a query of the app's client
 * (`services.queries`, see query-cache.ts) with the calls module's key and load function.
 * `pollMs` re-asks on a period for lists that change on the server while the page is open.
 */
import { useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import type { ApiError } from './api-client';
import { useServices } from './services';

export interface ApiQuery<T> {
  key: QueryKey;
  load: () => Promise<T>;
  /** false: not asked yet (a missing id, a permission the user lacks). */
  enabled?: boolean;
  /** Ask again every so many ms while mounted (the answer stays shown meanwhile). */
  pollMs?: number;
}

export function useApiQuery<T>({ key, load, enabled = true, pollMs }: ApiQuery<T>): UseQueryResult<T, ApiError> {
  const { queries } = useServices();
  return useQuery<T, ApiError>({ queryKey: key, queryFn: load, enabled, refetchInterval: pollMs ?? false }, queries);
}
