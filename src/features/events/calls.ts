/**
 * The events section's REST calls (part 1 §7), mapped through the catalogue's location-update
 * context (part 1 §8). The events themselves are the live worker's (part 1 §2): only writes go here.
 */
import { useMemo } from 'react';
import type { ApiClient } from '../../app/api-client';
import { useServices } from '../../app/services';
import { locationWireSchema, type LocationPayload } from '../../domain/location';

export interface EventCalls {
  /** PUT /locations/{id}: the event's position and roadway heading. */
  updateLocation(id: string, payload: LocationPayload): Promise<void>;
}

export function createEventCalls(api: ApiClient): EventCalls {
  return {
    async updateLocation(id, payload) {
      await api.request(`/locations/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: payload,
        schema: locationWireSchema,
        context: 'locationUpdate',
      });
    },
  };
}

export function useEventCalls(): EventCalls {
  const { api } = useServices();
  return useMemo(() => createEventCalls(api), [api]);
}
