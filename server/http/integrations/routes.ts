/**
 * Fleet telematics integrations (part 2 §1 "integrations (two providers)", §6 integration
 * configuration permissions, §9 "Integration providers: two"). Paths designed (§7 "Paths not shown"):
 *   GET /organization/integrations?org_ids[]=..., POST /organization/integrations,
 *   PUT /organization/integrations/{id} (its settings replaced), DELETE /organization/integrations/{id}.
 * An organization has at most one configuration per provider (INTEGRATION_PROVIDERS, docs/decisions/spec.md "Values the spec does not give").
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { INTEGRATION_PROVIDERS } from '../../../src/domain/constants';
import { integrationTestWireSchema, integrationWireSchema, type IntegrationTestWire } from '../../../src/domain/integration';
import { integrationAccess } from '../../../src/domain/permissions';
import type { Caller } from '../../auth/context';
import type { Db } from '../../db/connection';
import type { ServerDeps } from '../../deps';
import { providerAdapters } from '../../integrations';
import { administeredOrg, administeredOrgIds, administeredOrgIdsQuery, canAdministerOrg } from '../account-admin';
import { deletedAnswer, idPath, listParam } from '../query';
import { errorAnswer, notFound } from '../../core/errors';
import { documentedObject } from '../route-validation';
import {
  deleteIntegration,
  findIntegration,
  insertIntegration,
  type IntegrationRow,
  integrationWire,
  listIntegrations,
  replaceIntegrationSettings,
} from './repository';
import { createBody, providerAlreadyUsed, updateBody } from './schema';

/** part 2 §6: integration configuration read, create, delete; manage sets all; the test: read or create. */
const integrationAction =
  (action: keyof ReturnType<typeof integrationAccess>) =>
  (caller: Caller): boolean =>
    integrationAccess(caller.permissions)[action];

/** A configuration of an organization the caller administers; others (and malformed ids) are 'not found'. */
async function administeredIntegration(db: Db, caller: Caller, id: string): Promise<IntegrationRow> {
  const row = await findIntegration(db, id);
  if (!row || !canAdministerOrg(caller.scope, row.organizationId)) throw notFound('Integration');
  return row;
}

export function integrationRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const adapters = providerAdapters(deps.config.providers);

  /** The configurations of the organizations asked (those the caller administers; default their own). */
  /**
   * The query is documented only: `org_ids[]` is read by listParam (a string or a list), and a
   * schema's check would refuse what the handler ignores today. 422: an id empty or too long, or over 1000.
   */
  const listSchema = {
    summary: "The integrations of the organizations asked (default: the caller's), credentials masked",
    querystring: documentedObject({ ...administeredOrgIdsQuery }),
    response: { 200: z.array(integrationWireSchema), 422: errorAnswer },
  };
  api.get('/organization/integrations', { config: { access: integrationAction('canRead') }, schema: listSchema }, async (request) => {
    const { caller } = request;
    const orgIds = administeredOrgIds(caller.scope, listParam(request.query, 'org_ids'));
    if (orgIds.length === 0) return [];
    return listIntegrations(db, orgIds);
  });

  /** Adds a provider's configuration; a provider already configured → 422 'Provider already used'. */
  api.post(
    '/organization/integrations',
    {
      config: { access: integrationAction('canCreate') },
      schema: {
        summary: "Add a provider's integration to an organization",
        body: createBody,
        response: { 201: integrationWireSchema, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const org = await administeredOrg(db, caller, body.organization_id);
      const created = await insertIntegration(db, { organizationId: org.id, provider: body.provider, settings: body.settings }, deps.now());
      if (!created || created === 'provider_used') throw providerAlreadyUsed();
      return reply.code(201).send(integrationWire(created));
    },
  );

  /**
   * Replaces a configuration's settings (designed: a configuration with a wrong or missing
   * credential is mended, not deleted and added again). Who may add a configuration may replace
   * one (integration_configuration create, or manage); others' are 'not found'.
   */
  api.put(
    '/organization/integrations/:id',
    {
      config: { access: integrationAction('canCreate') },
      schema: {
        summary: "Replace an integration's settings",
        params: idPath,
        body: updateBody,
        response: { 200: integrationWireSchema, 404: errorAnswer },
      },
    },
    async (request) => {
      const row = await administeredIntegration(db, request.caller, request.params.id);
      const updated = await replaceIntegrationSettings(db, row.id, request.body.settings);
      if (!updated) throw notFound('Integration');
      return integrationWire(updated);
    },
  );

  /** Removes a configuration of an organization the caller administers; others are 'not found'. */
  api.delete(
    '/organization/integrations/:id',
    {
      config: { access: integrationAction('canDelete') },
      schema: { summary: 'Remove an integration', params: idPath, response: { 200: deletedAnswer, 404: errorAnswer } },
    },
    async (request) => {
      const row = await administeredIntegration(db, request.caller, request.params.id);
      await deleteIntegration(db, row.id);
      return { id: row.id };
    },
  );

  /**
   * Signs in to the provider with the stored settings (Samsara: one vehicle with the API token;
   * Geotab: Authenticate). A refused credential, an unreachable provider (10 s) or a provider's
   * error is an answer (200, `ok: false` with the reason in plain words), not a server error.
   */
  api.post(
    '/organization/integrations/:id/test',
    {
      config: { access: integrationAction('canTest') },
      schema: {
        summary: "Sign in to the integration's provider with its settings",
        params: idPath,
        response: { 200: integrationTestWireSchema, 404: errorAnswer },
      },
    },
    async (request): Promise<IntegrationTestWire> => {
      const row = await administeredIntegration(db, request.caller, request.params.id);
      const provider = INTEGRATION_PROVIDERS.find((name) => name === row.provider);
      if (!provider) throw notFound('Integration');
      const adapter = adapters[provider];
      const check = await adapter.check(row.settings);
      request.log.info({ integration: row.id, provider: row.provider, ok: check.ok }, 'integration test');
      return check.ok ? { ok: true, checked_at: deps.now().toISOString() } : { ok: false, reason: check.reason };
    },
  );
}
