/**
 * Fleet telematics integrations (part 2 §1 "integrations (two providers)", §6 integration
 * configuration permissions, §9 "Integration providers: two"). Paths designed (§7 "Paths not shown"):
 *   GET /organization/integrations?org_ids[]=..., POST /organization/integrations,
 *   DELETE /organization/integrations/{id}.
 * An organization has at most one configuration per provider (README INTEGRATION_PROVIDERS).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { INTEGRATION_PROVIDERS } from '../../src/domain/constants';
import { areaCrud, type Crud } from '../../src/domain/permissions';
import { MESSAGES } from '../../src/domain/validation/messages';
import type { Caller } from '../auth/context';
import { integrationConfigurations, organizations } from '../db/schema';
import type { ServerDeps } from '../deps';
import { administeredOrg, administeredOrgIds, canAdministerOrg } from './account-admin';
import { idPath, isUuid } from './query';
import { notFound, unprocessable } from './errors';
import { listParam } from './query';

const SETTINGS_MAX_ENTRIES = 20;
const SETTING_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;
const SETTING_VALUE_MAX = 500;
/** Settings whose name says they are a credential are never answered in full. */
const SECRET_SETTING = /token|secret|password|key/i;
const SECRET_SHOWN = 4;

/** The integration wire (designed): what the accounts integrations page lists. */
export const integrationWireSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  provider: z.enum(INTEGRATION_PROVIDERS),
  settings: z.record(z.string(), z.string()),
  created_at: z.string(),
});
export type IntegrationWire = z.infer<typeof integrationWireSchema>;

const createBody = z.object({
  provider: z.enum(INTEGRATION_PROVIDERS, { error: `must be one of ${INTEGRATION_PROVIDERS.join(', ')}` }),
  settings: z
    .record(
      z.string().regex(SETTING_KEY, 'setting names are letters, digits and _'),
      z.string().trim().max(SETTING_VALUE_MAX, `${SETTING_VALUE_MAX} Max Characters`),
    )
    .refine((value) => Object.keys(value).length <= SETTINGS_MAX_ENTRIES, `at most ${SETTINGS_MAX_ENTRIES} settings`)
    .default({}),
  organization_id: z.string().max(100).nullish(),
});

/** part 2 §6: integration configuration read, create, delete; manage sets all. */
const integrationAction =
  (action: keyof Crud) =>
  (caller: Caller): boolean =>
    areaCrud(caller.permissions, 'integration_configuration')[action];

function masked(settings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) =>
      SECRET_SETTING.test(key) ? [key, `••••${value.length > SECRET_SHOWN * 2 ? value.slice(-SECRET_SHOWN) : ''}`] : [key, value],
    ),
  );
}

type IntegrationRow = typeof integrationConfigurations.$inferSelect;

function integrationWire(row: IntegrationRow): IntegrationWire {
  return {
    id: row.id,
    organization_id: row.organizationId,
    provider: row.provider as IntegrationWire['provider'],
    settings: masked(row.settings),
    created_at: row.createdAt.toISOString(),
  };
}

export function integrationRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The configurations of the organizations asked (those the caller administers; default their own). */
  app.get('/organization/integrations', { config: { access: integrationAction('canRead') } }, async (request) => {
    const { caller } = request;
    const orgIds = administeredOrgIds(caller.scope, listParam(request.query, 'org_ids'));
    if (orgIds.length === 0) return [];
    const rows = await db
      .select()
      .from(integrationConfigurations)
      .where(inArray(integrationConfigurations.organizationId, orgIds))
      .orderBy(asc(integrationConfigurations.provider), asc(integrationConfigurations.createdAt));
    return rows.map(integrationWire);
  });

  /** Adds a provider's configuration; a provider already configured → 422 'Provider already used'. */
  api.post('/organization/integrations', { config: { access: integrationAction('canCreate') }, schema: { body: createBody } }, async (request, reply) => {
    const { caller, body } = request;
    const org = await administeredOrg(db, caller, body.organization_id);
    const created = await db.transaction(async (tx) => {
      // Lock the organization's row: two concurrent additions of one provider cannot both pass.
      await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, org.id)).for('update');
      const existing = await tx
        .select({ id: integrationConfigurations.id })
        .from(integrationConfigurations)
        .where(and(eq(integrationConfigurations.organizationId, org.id), eq(integrationConfigurations.provider, body.provider)));
      if (existing.length) return null;
      const [row] = await tx
        .insert(integrationConfigurations)
        .values({ organizationId: org.id, provider: body.provider, settings: body.settings, createdAt: deps.now() })
        .returning();
      return row ?? null;
    });
    if (!created) {
      throw unprocessable(`provider: ${MESSAGES.providerAlreadyUsed}`, 'provider_used', { fields: { provider: MESSAGES.providerAlreadyUsed } });
    }
    return reply.code(201).send(integrationWire(created));
  });

  /** Removes a configuration of an organization the caller administers; others are 'not found'. */
  api.delete('/organization/integrations/:id', { config: { access: integrationAction('canDelete') }, schema: { params: idPath } }, async (request) => {
    const { caller } = request;
    const { id } = request.params;
    const [row] = isUuid(id)
      ? await db.select().from(integrationConfigurations).where(eq(integrationConfigurations.id, id)).limit(1)
      : [];
    if (!row || !canAdministerOrg(caller.scope, row.organizationId)) throw notFound('Integration');
    await db.delete(integrationConfigurations).where(eq(integrationConfigurations.id, row.id));
    return { id: row.id };
  });
}
