/**
 * The trips section's REST calls (part 2 §7 GET things/{thingId}/trips, GET things/coverage).
 * Failures read through the catalogue's Trips context (part 2 §8: 404 'Asset not found'; an
 * all-trips failure otherwise is shown as unknown).
 *
 * Caches (part 2 §7 "Trips are cached 300 s; all-trips 60 s"): one asset's trip over a range is
 * kept 300 s (`trip`), the page's answer for all its chosen assets 60 s (`allTrips`, which reads
 * each asset's through the 300 s cache).
 */
import { useMemo } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ApiClient } from '../../app/api-client';
import { queryKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import { TRIPS_CACHE_TTL_MS } from '../../domain/constants';
import { coverageWireSchema, fromTripWire, toTripQuery, tripWireSchema, type CoverageWire, type Trip } from '../../domain/trip';

export interface TripCalls {
  trip(thingId: string, startTime: number, endTime: number): Promise<Trip>;
  coverage(thingIds: readonly string[]): Promise<CoverageWire[]>;
}

export function createTripCalls(api: ApiClient): TripCalls {
  return {
    async trip(thingId, startTime, endTime) {
      const wire = await api.request(`/things/${encodeURIComponent(thingId)}/trips`, {
        query: { ...toTripQuery(startTime, endTime) },
        schema: tripWireSchema,
        context: 'trips',
      });
      return fromTripWire(wire);
    },
    async coverage(thingIds) {
      return api.request('/things/coverage', {
        query: { 'thing_ids[]': [...thingIds] },
        schema: z.array(coverageWireSchema),
        context: 'trips',
      });
    },
  };
}

export function useTripCalls(): TripCalls {
  const { api } = useServices();
  return useMemo(() => createTripCalls(api), [api]);
}

/** The section's cache keys. */
export const tripKeys = {
  trip: (organizationId: string, thingId: string, startTime: number, endTime: number) =>
    queryKey('trips', organizationId, thingId, startTime, endTime),
  allTrips: (organizationId: string, thingIds: readonly string[], startTime: number, endTime: number) =>
    queryKey('all-trips', organizationId, thingIds.join(','), startTime, endTime),
};

/** The trips of every chosen asset, each read through its own 300 s cache entry. */
export function loadAllTrips(
  calls: TripCalls,
  queries: QueryClient,
  organizationId: string,
  thingIds: readonly string[],
  startTime: number,
  endTime: number,
): Promise<Trip[]> {
  return Promise.all(
    thingIds.map((thingId) =>
      queries.fetchQuery({
        queryKey: tripKeys.trip(organizationId, thingId, startTime, endTime),
        queryFn: () => calls.trip(thingId, startTime, endTime),
        staleTime: TRIPS_CACHE_TTL_MS,
        gcTime: TRIPS_CACHE_TTL_MS,
      }),
    ),
  );
}
