/**
 * GET /thing_types and GET /thing_subtypes (part 1 §7) through the API cache (reference data,
 * fetched once per hour), for the list's filters panel and the edit form.
 */
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { useServices } from '../../app/services';
import {
  fromThingSubtypeWire,
  fromThingTypeWire,
  thingSubtypeWireSchema,
  thingTypeWireSchema,
  type ThingSubtype,
  type ThingType,
} from '../../domain/thing-type';

const typesSchema = z.array(thingTypeWireSchema);
const subtypesSchema = z.array(thingSubtypeWireSchema);

export function useThingTypeLists(): { types: ThingType[]; subtypes: ThingSubtype[]; loaded: boolean } {
  const { api, cache } = useServices();
  const [lists, setLists] = useState<{ types: ThingType[]; subtypes: ThingSubtype[]; loaded: boolean }>({ types: [], subtypes: [], loaded: false });
  useEffect(() => {
    let current = true;
    Promise.all([
      cache.get('reference', 'thing_types', () => api.request('/thing_types', { schema: typesSchema })),
      cache.get('reference', 'thing_subtypes', () => api.request('/thing_subtypes', { schema: subtypesSchema })),
    ]).then(
      ([types, subtypes]) => {
        if (current) setLists({ types: types.map(fromThingTypeWire), subtypes: subtypes.map(fromThingSubtypeWire), loaded: true });
      },
      () => {
        if (current) setLists((previous) => ({ ...previous, loaded: true }));
      },
    );
    return () => {
      current = false;
    };
  }, [api, cache]);
  return lists;
}
