/**
 * The Live section's REST calls (part 1 §7), each mapped through its catalogue context (part 1
 * §8): thing types and subtypes, the assignable organizations, the asset's profile and
 * associations saves, the R2R test alert, test mode and the LED intensity. Components call these
 * and read answers through `THING_QUERIES`; none builds a URL or maps an error itself.
 */
import { useMemo } from 'react';
import { z } from 'zod';
import type { ApiClient } from '../../app/api-client';
import { useServices } from '../../app/services';
import { createShellCalls, SHELL_QUERIES } from '../../app/shell/shell-calls';
import { associationsPayloadSchema, thingWireSchema, type AssociationsPayload, type ThingPayload } from '../../domain/asset';
import type { OrganizationRef } from '../../domain/organization';
import type { ThingSubtype, ThingType } from '../../domain/thing-type';

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
  /** `version`: the asset's profile as the form opened it (If-Match; 412 when someone saved it since). */
  saveProfile(id: string, payload: ThingPayload, version?: number | null): Promise<void>;
  saveAssociations(id: string, payload: AssociationsPayload): Promise<void>;
  /** PUT /things/{id}/r2r {action: 'test'}: whether the alert was delivered. */
  testAlert(id: string): Promise<boolean>;
  /** PUT /things/{id}/r2r {test_mode}: the test mode the server now holds. */
  setTestMode(id: string, on: boolean): Promise<boolean>;
  setLightIntensity(id: string, percent: number): Promise<void>;
}

export function createThingCalls(api: ApiClient): ThingCalls {
  const shell = createShellCalls(api);
  return {
    thingTypes: shell.thingTypes,
    thingSubtypes: shell.thingSubtypes,
    assignableOrganizations: shell.assignableOrganizations,
    async saveProfile(id, payload, version) {
      await api.request(thingPath(id), { method: 'PUT', body: payload, schema: thingWireSchema, context: 'assetSave', ifMatch: version });
    },
    async saveAssociations(id, payload) {
      await api.request(thingPath(id, '/associations'), {
        method: 'PUT',
        body: payload,
        schema: associationsPayloadSchema,
        context: 'assetSave',
      });
    },
    async testAlert(id) {
      const answer = await api.request(thingPath(id, '/r2r'), {
        method: 'PUT',
        body: { action: 'test' },
        schema: r2rAnswer,
        context: 'assetAction',
      });
      return answer.delivered;
    },
    async setTestMode(id, on) {
      const answer = await api.request(thingPath(id, '/r2r'), {
        method: 'PUT',
        body: { test_mode: on },
        schema: testModeAnswer,
        context: 'assetAction',
      });
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
  types: SHELL_QUERIES.thingTypes,
  subtypes: SHELL_QUERIES.thingSubtypes,
  assignable: SHELL_QUERIES.assignable,
  /** Everything cached under 'things' (every organization): what an asset save invalidates. */
  all: ['things'],
} as const;

export function useThingCalls(): ThingCalls {
  const { api } = useServices();
  return useMemo(() => createThingCalls(api), [api]);
}
