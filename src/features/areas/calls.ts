/**
 * The areas section's REST calls (part 2 §7): the area types (GET /ez_types), and the area writes
 * (POST/PUT/DELETE /organization/exclusion_zone) mapped through the catalogue's 'Area save' and
 * 'Area delete' rows (part 2 §8). The list itself is the map's cached read (src/app/map/use-areas.ts).
 */
import { useMemo } from 'react';
import { z } from 'zod';
import type { ApiClient } from '../../app/api-client';
import { deleteOrGone } from '../../app/api-client';
import { referenceKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import {
  areaTypeWireSchema,
  areaWireSchema,
  fromAreaTypeWire,
  fromAreaWire,
  sortAreaTypes,
  type Area,
  type AreaPayload,
  type AreaType,
} from '../../domain/area';

const typesSchema = z.array(areaTypeWireSchema);

function areaPath(id?: string): string {
  return id ? `/organization/exclusion_zone/${encodeURIComponent(id)}` : '/organization/exclusion_zone';
}

export interface AreaCalls {
  /** The area types, alphabetically with Other last (part 2 §3). */
  areaTypes(): Promise<AreaType[]>;
  create(payload: AreaPayload): Promise<Area>;
  /** `version`: the copy the form was opened on (If-Match; 412 when someone saved it since). */
  update(id: string, payload: AreaPayload, version?: number | null): Promise<Area>;
  /** part 2 §4, §7: "Area delete treats a 404 as already deleted". */
  remove(id: string): Promise<void>;
}

export function createAreaCalls(api: ApiClient): AreaCalls {
  return {
    async areaTypes() {
      return sortAreaTypes((await api.request('/ez_types', { schema: typesSchema })).map(fromAreaTypeWire));
    },
    async create(payload) {
      return fromAreaWire(await api.request(areaPath(), { method: 'POST', body: payload, schema: areaWireSchema, context: 'areaSave' }));
    },
    async update(id, payload, version) {
      return fromAreaWire(
        await api.request(areaPath(id), { method: 'PUT', body: payload, schema: areaWireSchema, context: 'areaSave', ifMatch: version }),
      );
    },
    remove: (id) => deleteOrGone(api, areaPath(id), 'areaDelete'),
  };
}

export const AREA_QUERIES = {
  types: referenceKey('ez_types'),
} as const;

export function useAreaCalls(): AreaCalls {
  const { api } = useServices();
  return useMemo(() => createAreaCalls(api), [api]);
}
