/**
 * The Live section's REST calls (part 1 §7), each mapped through its catalogue context (part 1
 * §8): thing types and subtypes, the assignable organizations, the asset's profile and
 * associations saves, the R2R test alert, test mode and the LED intensity. Components call these
 * and read answers through `THING_QUERIES`; none builds a URL or maps an error itself.
 */
import { useMemo } from 'react';
import { z } from 'zod';
import type { ApiClient } from '../../app/api-client';
import { queryKey, referenceKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import {
  associationsPayloadSchema,
  thingWireSchema,
  type AssociationsPayload,
  type ThingPayload,
} from '../../domain/asset';
import { organizationRefWireSchema, type OrganizationRef } from '../../domain/organization';
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
const assignableSchema = z.array(organizationRefWireSchema);
const r2rAnswer = z.object({ delivered: z.boolean() });
const testModeAnswer = z.object({ is_test_mode_on: z.boolean() });
const lightIntensityAnswer = z.object({ light_intensity: z.number() });

function thingPath(id: string, rest = ''): string {
  return `/things/${encodeURIComponent(id)}${rest}`;
}

export interface ThingCalls {
  thingTypes(): Promise<ThingType[]>;
  thingSubtypes(): Promise<ThingSubtype[]>;
  /** GET /organization/assignable: the organizations an asset may be shared with. */
  assignableOrganizations(): Promise<OrganizationRef[]>;
  saveProfile(id: string, payload: ThingPayload): Promise<void>;
  saveAssociations(id: string, payload: AssociationsPayload): Promise<void>;
  /** PUT /things/{id}/r2r {action: 'test'}: whether the alert was delivered. */
  testAlert(id: string): Promise<boolean>;
  /** PUT /things/{id}/r2r {test_mode}: the test mode the server now holds. */
  setTestMode(id: string, on: boolean): Promise<boolean>;
  setLightIntensity(id: string, percent: number): Promise<void>;
}

export function createThingCalls(api: ApiClient): ThingCalls {
  return {
    async thingTypes() {
      return (await api.request('/thing_types', { schema: typesSchema })).map(fromThingTypeWire);
    },
    async thingSubtypes() {
      return (await api.request('/thing_subtypes', { schema: subtypesSchema })).map(fromThingSubtypeWire);
    },
    async assignableOrganizations() {
      const list = await api.request('/organization/assignable', { schema: assignableSchema, context: 'organization' });
      return list.map(({ id, name }) => ({ id, name }));
    },
    async saveProfile(id, payload) {
      await api.request(thingPath(id), { method: 'PUT', body: payload, schema: thingWireSchema, context: 'assetSave' });
    },
    async saveAssociations(id, payload) {
      await api.request(thingPath(id, '/associations'), { method: 'PUT', body: payload, schema: associationsPayloadSchema, context: 'assetSave' });
    },
    async testAlert(id) {
      const answer = await api.request(thingPath(id, '/r2r'), { method: 'PUT', body: { action: 'test' }, schema: r2rAnswer, context: 'assetAction' });
      return answer.delivered;
    },
    async setTestMode(id, on) {
      const answer = await api.request(thingPath(id, '/r2r'), { method: 'PUT', body: { test_mode: on }, schema: testModeAnswer, context: 'assetAction' });
      return answer.is_test_mode_on;
    },
    async setLightIntensity(id, percent) {
      await api.request(thingPath(id, '/light_intensity'), {
        method: 'PUT',
        body: { light_intensity: percent },
        schema: lightIntensityAnswer,
        context: 'assetAction',
      });
    },
  };
}

/** The keys of the section's cached answers (part 1 §7: 'things' is dropped at once on an organization switch). */
export const THING_QUERIES = {
  types: referenceKey('thing_types'),
  subtypes: referenceKey('thing_subtypes'),
  assignable: (organizationId: string | null) => queryKey('organizations', organizationId, 'assignable'),
  /** Everything cached under 'things' (every organization): what an asset save invalidates. */
  all: ['things'],
} as const;

export function useThingCalls(): ThingCalls {
  const { api } = useServices();
  return useMemo(() => createThingCalls(api), [api]);
}
