/** One area of the organization's cached list (the spec shows no area detail call, part 2 §7). */
import { useAreasQuery } from '../../app/map/use-areas';
import type { ItemStateKind } from '../../app/section/item-state';
import type { Area } from '../../domain/area';
import type { UserError } from '../../domain/errors';

export type AreaLookup =
  { state: 'found'; area: Area } | { state: Exclude<ItemStateKind, 'failed'> } | { state: 'failed'; failure: UserError };

export function useArea(organizationId: string, areaId: string): AreaLookup {
  const query = useAreasQuery(organizationId);
  if (query.isPending) return { state: 'loading' };
  if (query.isError) return { state: 'failed', failure: query.error.userError };
  const area = query.data.find((candidate) => candidate.id === areaId);
  return area ? { state: 'found', area } : { state: 'missing' };
}
