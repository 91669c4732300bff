/**
 * The organization's areas for the map (area markers with counts, 'Jump to your saved areas...'):
 * GET /organization/exclusion_zone (part 2 §7) through the query cache's 'areas' group, which an
 * organization switch drops at once (part 1 §7).
 */
import { z } from 'zod';
import { areaWireSchema, fromAreaWire, type Area } from '../../domain/area';
import { queryKey } from '../query-cache';
import { useServices } from '../services';
import { useApiQuery } from '../use-api-query';

const areasSchema = z.array(areaWireSchema);

const NO_AREAS: Area[] = [];

/** The areas of the subscribed organization; [] until loaded or when the user may not read them. */
export function useAreas(organizationId: string | null): Area[] {
  const { api } = useServices();
  const query = useApiQuery({
    key: queryKey('areas', organizationId),
    load: async () => (await api.request('/organization/exclusion_zone', { schema: areasSchema })).map(fromAreaWire),
    enabled: organizationId !== null,
  });
  return (organizationId && query.data) || NO_AREAS;
}
