/** The area types (GET /ez_types, part 2 §7), shared reference data sorted with Other last (part 2 §3). */
import { useApiQuery } from '../../app/use-api-query';
import { AREA_QUERIES, useAreaCalls } from './calls';

export function useAreaTypes() {
  const calls = useAreaCalls();
  return useApiQuery({ key: AREA_QUERIES.types, load: () => calls.areaTypes() });
}
