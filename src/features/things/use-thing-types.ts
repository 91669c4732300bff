/**
 * GET /thing_types and GET /thing_subtypes (part 1 §7) through the query cache (reference data,
 * kept an hour), for the list's filters panel and the edit form.
 */
import { useApiQuery } from '../../app/use-api-query';
import type { ThingSubtype, ThingType } from '../../domain/thing-type';
import { THING_QUERIES, useThingCalls } from './calls';

export function useThingTypeLists(): { types: ThingType[]; subtypes: ThingSubtype[]; loaded: boolean } {
  const calls = useThingCalls();
  const types = useApiQuery({ key: THING_QUERIES.types, load: calls.thingTypes });
  const subtypes = useApiQuery({ key: THING_QUERIES.subtypes, load: calls.thingSubtypes });
  // A failed list leaves its options empty.
  return { types: types.data ?? [], subtypes: subtypes.data ?? [], loaded: !types.isPending && !subtypes.isPending };
}
