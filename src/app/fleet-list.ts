/**
 * The organization's assets as a plain name list, for the report pages' asset pickers (part 2 §2
 * Trips "The user picks 1 to 5 assets", R2R "Search by ... asset"): GET /organization/things, pages
 * one after another (part 1 §7, 500 a page), kept only as id, name and type. Read through the
 * query cache under the 'things' group, so an organization switch drops it (part 1 §7).
 *
 * Chosen over the live worker's list: the worker's rows follow the asset list's own filters and
 * search, which the pickers must not change or inherit (docs/decisions/spec.md "the trips asset picker").
 */
import { useMemo } from 'react';
import { z } from 'zod';
import { primaryDisplayName } from '../domain/asset';
import { THINGS_PAGE_SIZE } from '../domain/constants';
import { pageCount, pagedAnswerSchema } from '../domain/incremental';
import type { ApiClient } from './api-client';
import { queryKey } from './query-cache';
import { useServices } from './services';
import { organizationChoice } from './shell/shell-model';
import { useApiQuery } from './use-api-query';

/** One asset of a picker: its id and the name the dashboard shows (part 1 §3). */
export interface FleetEntry {
  id: string;
  name: string;
  type: string | null;
}

/** Only what the picker needs of each thing (zod drops the rest). */
const fleetItemSchema = z.object({ id: z.string(), haas_id: z.string(), nickname: z.string().nullish(), thing_type: z.string().nullish() });

/**
 * Every thing of `orgIds` (none: the caller's own scope) through GET /organization/things, the
 * pages one after another (part 1 §7, 500 a page; part 2 §7 "Later pages are fetched
 * sequentially"), each item read with `item`.
 */
export async function loadThingPages<T extends z.ZodType>(api: ApiClient, orgIds: readonly string[], item: T): Promise<z.infer<T>[]> {
  const schema = pagedAnswerSchema(item);
  const all: z.infer<T>[] = [];
  let pages = 1;
  for (let page = 1; page <= pages; page++) {
    const answer = await api.request('/organization/things', {
      query: { 'org_ids[]': [...orgIds], page, per_page: THINGS_PAGE_SIZE },
      schema,
      context: 'lists',
    });
    pages = pageCount(answer.meta.total, answer.meta.per_page);
    all.push(...answer.data);
  }
  return all;
}

/** Every asset of `orgIds` (none: the caller's own scope), sorted by name. */
export async function loadFleetList(api: ApiClient, orgIds: readonly string[]): Promise<FleetEntry[]> {
  const things = await loadThingPages(api, orgIds, fleetItemSchema);
  return things
    .map((item) => ({ id: item.id, name: primaryDisplayName(item.haas_id, item.nickname?.trim()), type: item.thing_type ?? null }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function fleetListKey(organizationId: string) {
  return queryKey('things', organizationId, 'fleet-list');
}

/**
 * The shown organization's asset list (null while loading) and the failure when it failed: the
 * caller's own scope (its organization with those it manages or accesses, as the live list) or,
 * after a switch, the chosen organization (`organizationChoice`, part 1 §4).
 */
export function useFleetList(organizationId: string, ownOrganizationId: string) {
  const { api } = useServices();
  const { orgIds } = organizationChoice(organizationId, ownOrganizationId);
  const query = useApiQuery({ key: fleetListKey(organizationId), load: () => loadFleetList(api, orgIds) });
  const byId = useMemo(() => new Map((query.data ?? []).map((entry) => [entry.id, entry])), [query.data]);
  return { entries: query.data ?? null, byId, error: query.error };
}
