/**
 * The accounts sections' REST calls (part 2 §7 user, role and organization calls; the designed
 * PUT /profile, PUT /password, GET /organization/billing, the API keys, the device
 * configurations and the fleet telematics integrations), each mapped through its catalogue context (part 2 §8). The legacy accounts and
 * accounts-new pages both call these.
 */
import { useMemo } from 'react';
import { z } from 'zod';
import type { ApiClient } from '../../app/api-client';
import { loadThingPages } from '../../app/fleet-list';
import { queryKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import { createShellCalls, SHELL_QUERIES } from '../../app/shell/shell-calls';
import type { AddressPayload } from '../../domain/address';
import { apiKeyWireSchema, fromApiKeyWire, sortApiKeys, toApiKeyPayload, type ApiKey } from '../../domain/api-key';
import { thingWireSchema, type ThingWire } from '../../domain/asset';
import { billingWireSchema, type BillingWire } from '../../domain/billing';
import { deviceConfigWireSchema, fromDeviceConfigWire, type DeviceConfig, type DeviceConfigPayload } from '../../domain/device-config';
import {
  fromIntegrationWire,
  integrationTestWireSchema,
  integrationWireSchema,
  type Integration,
  type IntegrationPayload,
  type IntegrationTestWire,
} from '../../domain/integration';
import { fromOrganizationWire, organizationWireSchema, type Organization, type OrganizationPayload } from '../../domain/organization';
import { fromProfileWire, profileWireSchema, type Profile } from '../../domain/profile';
import { fromRoleWire, roleWireSchema, sortRoles, type Role } from '../../domain/role';
import type { ThingSubtype, ThingType } from '../../domain/thing-type';
import {
  deleteUserResponseSchema,
  patchUserResponseSchema,
  userWireSchema,
  usersFromListWire,
  usersListWireSchema,
  type CreateUserPayload,
  type PatchUserPayload,
  type UpdateUserPayload,
  type User,
} from '../../domain/user';

/** PUT /profile (designed): names, phone and the address. */
export interface ProfilePayload extends AddressPayload {
  firstname: string;
  lastname: string;
  phone: string;
}

/** PUT /password (designed). */
export interface PasswordPayload {
  current_password: string;
  password: string;
  password_confirmation: string;
}

/** PUT /organization/{id}: part 2 §7's name and address, plus the legacy e-mail, phones and contact, and the time zone. */
export interface OrganizationEditPayload extends OrganizationPayload {
  email: string;
  phone_number: string;
  cell_phone_number: string;
  contact_name: string;
  timezone: string;
}

const messageSchema = z.object({ message: z.string().optional() });
const idAnswerSchema = z.object({ id: z.string() });

const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;
const organizationPath = (id: string) => `/organization/${encodeURIComponent(id)}`;
const apiKeyPath = (id: string) => `/api_keys/${encodeURIComponent(id)}`;
const DEVICE_CONFIGS_PATH = '/organization/device_configs';
const deviceConfigPath = (id: string) => `${DEVICE_CONFIGS_PATH}/${encodeURIComponent(id)}`;
const INTEGRATIONS_PATH = '/organization/integrations';
const integrationPath = (id: string) => `${INTEGRATIONS_PATH}/${encodeURIComponent(id)}`;

export interface AccountCalls {
  saveProfile(payload: ProfilePayload): Promise<Profile>;
  changePassword(payload: PasswordPayload): Promise<void>;
  /** GET /organization/users: own users, then MANAGER, then ACCESS (the domain's merge). */
  users(organizationId: string): Promise<User[]>;
  /** GET /roles: the roles the caller may assign, in their order (part 1 §3). */
  roles(): Promise<Role[]>;
  createUser(payload: CreateUserPayload & { organization_id: string }): Promise<void>;
  /** `version`: the user as the form opened it (If-Match; 412 when someone saved the user since). */
  updateUser(payload: UpdateUserPayload, version?: number | null): Promise<void>;
  /** PATCH /users/{userId}: the names alone (part 2 §7). */
  renameUser(id: string, payload: PatchUserPayload, version?: number | null): Promise<void>;
  deleteUser(id: string): Promise<void>;
  organization(id: string): Promise<Organization>;
  /** `version`: the organization as the form opened it (If-Match; 412 when someone saved it since). */
  updateOrganization(id: string, payload: OrganizationEditPayload, version?: number | null): Promise<Organization>;
  /** DELETE /organization/{id} (haas:manage; refused while it owns assets). */
  deleteOrganization(id: string): Promise<void>;
  billing(organizationId: string): Promise<BillingWire>;
  /** GET /organization/things of one organization, every page in turn (part 2 §7 "Later pages are fetched sequentially"). */
  things(organizationId: string): Promise<ThingWire[]>;
  /** GET /api_keys: the caller's live keys, newest first, each masked. */
  apiKeys(): Promise<ApiKey[]>;
  /** POST /api_keys: the new key with its whole token (the only time it is answered). */
  createApiKey(description: string): Promise<ApiKey>;
  /** DELETE /api_keys/{id}: revokes the key. */
  revokeApiKey(id: string): Promise<void>;
  /** GET /organization/device_configs of one organization, by file name. */
  deviceConfigs(organizationId: string): Promise<DeviceConfig[]>;
  /** POST (no id) or PUT /organization/device_configs. */
  saveDeviceConfig(payload: DeviceConfigPayload): Promise<DeviceConfig>;
  deleteDeviceConfig(id: string): Promise<void>;
  /** GET /organization/integrations of one organization: at most one configuration per provider, credentials masked. */
  integrations(organizationId: string): Promise<Integration[]>;
  /** POST /organization/integrations: a provider's configuration. */
  createIntegration(payload: IntegrationPayload): Promise<Integration>;
  /** PUT /organization/integrations/{id}: a configuration's settings replaced (a new token). */
  updateIntegration(id: string, settings: IntegrationPayload['settings']): Promise<Integration>;
  deleteIntegration(id: string): Promise<void>;
  /** POST /organization/integrations/{id}/test: the provider took the stored credentials, or why not. */
  testIntegration(id: string): Promise<IntegrationTestWire>;
  /** GET /thing_types (the shell's call; the asset edit offers the same list). */
  thingTypes(): Promise<ThingType[]>;
  /** GET /thing_subtypes (the list the asset edit offers, cached under the same key). */
  thingSubtypes(): Promise<ThingSubtype[]>;
  /**
   * PUT /things/{id} (part 1 §7) for the Assets tab's bulk 'Set type': the required id, in_service
   * and is_publicly_alerting as the asset holds them, the type, and the subtype when one is given
   * (left out, the server keeps or resets it, part 1 §5).
   */
  setThingType(thing: ThingWire, thingTypeId: string, thingSubtypeId: string | null): Promise<void>;
}

export function createAccountCalls(api: ApiClient): AccountCalls {
  const shell = createShellCalls(api);
  return {
    async saveProfile(payload) {
      return fromProfileWire(
        await api.request('/profile', { method: 'PUT', body: payload, schema: profileWireSchema, context: 'profileSave' }),
      );
    },
    async changePassword(payload) {
      await api.request('/password', { method: 'PUT', body: payload, schema: messageSchema, context: 'changePassword' });
    },
    async users(organizationId) {
      const wire = await api.request('/organization/users', {
        query: { organization_id: organizationId },
        schema: usersListWireSchema,
        context: 'userCalls',
      });
      return usersFromListWire(wire);
    },
    async roles() {
      return sortRoles((await api.request('/roles', { schema: z.array(roleWireSchema), context: 'userCalls' })).map(fromRoleWire));
    },
    async createUser(payload) {
      await api.request('/users', { method: 'POST', body: payload, schema: userWireSchema, context: 'addUser' });
    },
    async updateUser(payload, version) {
      await api.request(userPath(payload.id), {
        method: 'PUT',
        body: payload,
        schema: userWireSchema,
        context: 'updateUser',
        ifMatch: version,
      });
    },
    async renameUser(id, payload, version) {
      await api.request(userPath(id), {
        method: 'PATCH',
        body: payload,
        schema: patchUserResponseSchema,
        context: 'updateUser',
        ifMatch: version,
      });
    },
    async deleteUser(id) {
      await api.request(userPath(id), { method: 'DELETE', schema: deleteUserResponseSchema, context: 'userCalls' });
    },
    async organization(id) {
      return fromOrganizationWire(await api.request(organizationPath(id), { schema: organizationWireSchema, context: 'organization' }));
    },
    async deleteOrganization(id) {
      await api.request(organizationPath(id), { method: 'DELETE', schema: z.object({ id: z.string() }), context: 'organizationDelete' });
    },
    async updateOrganization(id, payload, version) {
      return fromOrganizationWire(
        await api.request(organizationPath(id), {
          method: 'PUT',
          body: payload,
          schema: organizationWireSchema,
          context: 'organizationUpdate',
          ifMatch: version,
        }),
      );
    },
    async billing(organizationId) {
      return api.request('/organization/billing', {
        query: { organization_id: organizationId },
        schema: billingWireSchema,
        context: 'organization',
      });
    },
    things(organizationId) {
      return loadThingPages(api, [organizationId], thingWireSchema);
    },
    async apiKeys() {
      return sortApiKeys((await api.request('/api_keys', { schema: z.array(apiKeyWireSchema), context: 'apiKeys' })).map(fromApiKeyWire));
    },
    async createApiKey(description) {
      return fromApiKeyWire(
        await api.request('/api_keys', {
          method: 'POST',
          body: toApiKeyPayload(description),
          schema: apiKeyWireSchema,
          context: 'apiKeys',
        }),
      );
    },
    async revokeApiKey(id) {
      await api.request(apiKeyPath(id), { method: 'DELETE', schema: idAnswerSchema, context: 'apiKeys' });
    },
    async deviceConfigs(organizationId) {
      const list = await api.request(DEVICE_CONFIGS_PATH, {
        query: { 'org_ids[]': [organizationId] },
        schema: z.array(deviceConfigWireSchema),
        context: 'deviceConfigs',
      });
      return list.map(fromDeviceConfigWire);
    },
    async saveDeviceConfig(payload) {
      const wire = await api.request(payload.id ? deviceConfigPath(payload.id) : DEVICE_CONFIGS_PATH, {
        method: payload.id ? 'PUT' : 'POST',
        body: payload,
        schema: deviceConfigWireSchema,
        context: 'deviceConfigs',
      });
      return fromDeviceConfigWire(wire);
    },
    async deleteDeviceConfig(id) {
      await api.request(deviceConfigPath(id), { method: 'DELETE', schema: idAnswerSchema, context: 'deviceConfigs' });
    },
    async integrations(organizationId) {
      const list = await api.request(INTEGRATIONS_PATH, {
        query: { 'org_ids[]': [organizationId] },
        schema: z.array(integrationWireSchema),
        context: 'integrations',
      });
      return list.map(fromIntegrationWire);
    },
    async createIntegration(payload) {
      return fromIntegrationWire(
        await api.request(INTEGRATIONS_PATH, { method: 'POST', body: payload, schema: integrationWireSchema, context: 'integrations' }),
      );
    },
    async updateIntegration(id, settings) {
      return fromIntegrationWire(
        await api.request(integrationPath(id), {
          method: 'PUT',
          body: { settings },
          schema: integrationWireSchema,
          context: 'integrations',
        }),
      );
    },
    async deleteIntegration(id) {
      await api.request(integrationPath(id), { method: 'DELETE', schema: idAnswerSchema, context: 'integrations' });
    },
    async testIntegration(id) {
      return api.request(`${integrationPath(id)}/test`, { method: 'POST', schema: integrationTestWireSchema, context: 'integrations' });
    },
    thingTypes: shell.thingTypes,
    thingSubtypes: shell.thingSubtypes,
    async setThingType(thing, thingTypeId, thingSubtypeId) {
      await api.request(`/things/${encodeURIComponent(thing.id)}`, {
        method: 'PUT',
        body: {
          id: thing.id,
          in_service: thing.in_service,
          is_publicly_alerting: thing.is_publicly_alerting,
          thing_type_id: thingTypeId,
          ...(thingSubtypeId ? { thing_subtype_id: thingSubtypeId } : {}),
        },
        schema: thingWireSchema,
        context: 'assetSave',
      });
    },
  };
}

/** The cached answers of the accounts pages, by organization. */
export const ACCOUNT_QUERIES = {
  users: (organizationId: string) => queryKey('accounts', organizationId, 'users'),
  roles: (organizationId: string) => queryKey('accounts', organizationId, 'roles'),
  organization: (organizationId: string) => queryKey('accounts', organizationId, 'organization'),
  billing: (organizationId: string) => queryKey('accounts', organizationId, 'billing'),
  /** Under 'things': dropped with the other asset caches on an organization switch, invalidated by an asset save. */
  things: (organizationId: string) => queryKey('things', organizationId, 'accounts'),
  /** The caller's own keys: the same in every organization. */
  apiKeys: queryKey('accounts', null, 'api_keys'),
  deviceConfigs: (organizationId: string) => queryKey('accounts', organizationId, 'device_configs'),
  integrations: (organizationId: string) => queryKey('accounts', organizationId, 'integrations'),
  thingTypes: SHELL_QUERIES.thingTypes,
  thingSubtypes: SHELL_QUERIES.thingSubtypes,
  /** Every asset cache of every organization (the Live list, this tab): what an asset write invalidates, as the asset edit's save does. */
  allThings: ['things'],
} as const;

export function useAccountCalls(): AccountCalls {
  const { api } = useServices();
  return useMemo(() => createAccountCalls(api), [api]);
}
