/**
 * The shell's REST calls (part 1 §2, §7): the top bar's asset count, the organizations an acs
 * user may choose among or share with (GET /organization/assignable) and the thing types and
 * subtypes (GET /thing_types, GET /thing_subtypes: reference data the asset edit, the assets tab's
 * bulk type and the device configuration forms offer). The shell and the sections
 * read them through `SHELL_QUERIES` and `useApiQuery`; none builds the URL itself.
 */
import { useMemo } from 'react';
import { z } from 'zod';
import { organizationRefWireSchema, type OrganizationRef } from '../../domain/organization';
import {
  fromThingSubtypeWire,
  fromThingTypeWire,
  thingSubtypeWireSchema,
  thingTypeWireSchema,
  type ThingSubtype,
  type ThingType,
} from '../../domain/thing-type';
import type { ApiClient } from '../api-client';
import { queryKey, referenceKey } from '../query-cache';
import { useServices } from '../services';

const countSchema = z.object({ count: z.number() });
const assignableSchema = z.array(organizationRefWireSchema);
const typesSchema = z.array(thingTypeWireSchema);
const subtypesSchema = z.array(thingSubtypeWireSchema);

export interface ShellCalls {
  /** GET /organization/things_count: the caller's own scope (no ids) or the chosen organizations. */
  thingsCount(orgIds: readonly string[]): Promise<number>;
  /** GET /organization/assignable: the organizations the caller may choose (acs) or share an asset with. */
  assignableOrganizations(): Promise<OrganizationRef[]>;
  /** GET /thing_types. */
  thingTypes(): Promise<ThingType[]>;
  /** GET /thing_subtypes. */
  thingSubtypes(): Promise<ThingSubtype[]>;
}

export function createShellCalls(api: ApiClient): ShellCalls {
  return {
    async thingsCount(orgIds) {
      const answer = await api.request('/organization/things_count', { schema: countSchema, query: { 'org_ids[]': orgIds } });
      return answer.count;
    },
    async assignableOrganizations() {
      const list = await api.request('/organization/assignable', { schema: assignableSchema, context: 'organization' });
      return list.map(({ id, name }) => ({ id, name }));
    },
    async thingTypes() {
      return (await api.request('/thing_types', { schema: typesSchema })).map(fromThingTypeWire);
    },
    async thingSubtypes() {
      return (await api.request('/thing_subtypes', { schema: subtypesSchema })).map(fromThingSubtypeWire);
    },
  };
}

export const SHELL_QUERIES = {
  /** Under 'things': dropped on an organization switch with the rest of the fleet's answers (part 1 §7). */
  thingsCount: (orgIds: readonly string[]) => queryKey('things', orgIds.length > 0 ? orgIds.join(',') : null, 'count'),
  assignable: (organizationId: string | null) => queryKey('organizations', organizationId, 'assignable'),
  /** Reference data, kept an hour. */
  thingTypes: referenceKey('thing_types'),
  thingSubtypes: referenceKey('thing_subtypes'),
} as const;

export function useShellCalls(): ShellCalls {
  const { api } = useServices();
  return useMemo(() => createShellCalls(api), [api]);
}
