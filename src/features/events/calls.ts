/**
 * The events section's REST calls (part 1 §7), mapped through the catalogue's location-update
 * context (part 1 §8). The events themselves are the live worker's (part 1 §2): only writes go here.
 */
import { useMemo } from 'react';
import type { ApiClient } from '../../app/api-client';
import { useServices } from '../../app/services';
import { locationWireSchema, type LocationPayload } from '../../domain/location';
import {
  acknowledgementWireSchema,
  fromLocationNoteWire,
  locationNotesAnswerSchema,
  locationNoteWireSchema,
  type AcknowledgementWire,
  type LocationNote,
} from '../../domain/location-notes';

export interface EventCalls {
  /** PUT /locations/{id}: the event's position and roadway heading. */
  updateLocation(id: string, payload: LocationPayload): Promise<void>;
  /** GET /locations/{id}/notes: newest first (docs/decisions/spec.md "Incident notes and acknowledgement"). */
  notes(id: string): Promise<LocationNote[]>;
  /** POST /locations/{id}/notes. */
  addNote(id: string, text: string): Promise<LocationNote>;
  /** POST /locations/{id}/acknowledge: who took it and when (the first acknowledgement stays). */
  acknowledge(id: string): Promise<AcknowledgementWire>;
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
    async notes(id) {
      const answer = await api.request(`/locations/${encodeURIComponent(id)}/notes`, {
        schema: locationNotesAnswerSchema,
        context: 'locationNotes',
      });
      return answer.data.map(fromLocationNoteWire);
    },
    async addNote(id, text) {
      const wire = await api.request(`/locations/${encodeURIComponent(id)}/notes`, {
        method: 'POST',
        body: { text },
        schema: locationNoteWireSchema,
        context: 'locationNotes',
      });
      return fromLocationNoteWire(wire);
    },
    async acknowledge(id) {
      return api.request(`/locations/${encodeURIComponent(id)}/acknowledge`, {
        method: 'POST',
        schema: acknowledgementWireSchema,
        context: 'locationNotes',
      });
    },
  };
}

export function useEventCalls(): EventCalls {
  const { api } = useServices();
  return useMemo(() => createEventCalls(api), [api]);
}
