/**
 * The organization's areas, for the map (area markers with counts, 'Jump to your saved areas...')
 * and the areas section: GET /organization/exclusion_zone?org_ids[]={orgId} (part 2 §7), "only when
 * the areas section is allowed", through the query cache's 'areas' group, which an organization
 * switch drops at once (part 1 §7). The map and the section share the one cached answer.
 */
import { z } from 'zod';
import { useSnapshot } from 'valtio';
import type { UseQueryResult } from '@tanstack/react-query';
import { areaWireSchema, fromAreaWire, sortAreas, type Area } from '../../domain/area';
import { canSeeSection } from '../../domain/permissions';
import type { ApiError } from '../api-client';
import { queryKey } from '../query-cache';
import { useServices } from '../services';
import { useApiQuery } from '../use-api-query';

const areasSchema = z.array(areaWireSchema);

const NO_AREAS: Area[] = [];

/** The cache key of an organization's areas (what an area write invalidates). */
export function areasKey(organizationId: string | null) {
  return queryKey('areas', organizationId);
}

/** The query of the organization's areas, sorted by name (part 2 §4); not asked without the areas section. */
export function useAreasQuery(organizationId: string | null): UseQueryResult<Area[], ApiError> {
  const { api, session } = useServices();
  const { profile } = useSnapshot(session.state);
  const allowed = profile !== null && canSeeSection(profile.permissions, 'areas');
  return useApiQuery({
    key: areasKey(organizationId),
    load: async () => {
      const wire = await api.request('/organization/exclusion_zone', {
        schema: areasSchema,
        query: { 'org_ids[]': organizationId ? [organizationId] : undefined },
        context: 'lists',
      });
      return sortAreas(wire.map(fromAreaWire));
    },
    enabled: organizationId !== null && allowed,
  });
}

/** The areas of the subscribed organization; [] until loaded or when the user may not read them. */
export function useAreas(organizationId: string | null): Area[] {
  const query = useAreasQuery(organizationId);
  return (organizationId && query.data) || NO_AREAS;
}
