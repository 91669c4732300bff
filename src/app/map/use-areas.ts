/**
 * The organization's areas for the map (area markers with counts, 'Jump to your saved areas...'):
 * GET /organization/exclusion_zone (part 2 §7) through the 3600 s cache's 'areas' group, which an
 * organization switch drops at once (part 1 §7).
 */
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { areaWireSchema, fromAreaWire, type Area } from '../../domain/area';
import { useServices } from '../services';

const areasSchema = z.array(areaWireSchema);

/** The areas of the subscribed organization; [] until loaded or when the user may not read them. */
export function useAreas(organizationId: string | null): Area[] {
  const { api, cache } = useServices();
  const [areas, setAreas] = useState<Area[]>([]);
  useEffect(() => {
    if (!organizationId) return undefined;
    let live = true;
    cache.get('areas', organizationId, () => api.request('/organization/exclusion_zone', { schema: areasSchema })).then(
      (wires) => {
        if (live) setAreas(wires.map(fromAreaWire));
      },
      () => {
        if (live) setAreas([]);
      },
    );
    return () => {
      live = false;
    };
  }, [api, cache, organizationId]);
  return areas;
}
