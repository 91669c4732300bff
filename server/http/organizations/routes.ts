import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { organizationWireSchema } from '../../../src/domain/organization';
import { canEditOrganizationInAccounts, HAAS_MANAGE } from '../../../src/domain/permissions';
import type { Caller } from '../../auth/context';
import { canSeeOrg } from '../../auth/scope';
import type { Db } from '../../db/connection';
import type { ServerDeps } from '../../deps';
import { errorAnswer, forbidden, notFound, parse } from '../../core/errors';
import { canAdministerOrg, findLiveOrg, type OrganizationRow } from '../account-admin';
import { idPath, isUuid } from '../query';
import { documentedObject, documentedOnly } from '../route-validation';
import { expectVersion, ifMatchHeader, preconditionFailed, replyVersion } from '../versioning';
import { deleteOrganization, findOrganizationType, organizationWire, updateOrganization } from './repository';
import {
  cannotDeleteOwnOrganization,
  organizationBody,
  organizationDeletedAnswer,
  organizationHasAssets,
  organizationNotFound,
  organizationTypeNotFound,
  ORGANIZATION_TYPE_CHANGE_MESSAGE,
  validOrganization,
} from './schema';

/**
 * Organizations of account administration (part 2 §3 Organization, §5 "Organization and account
 * address", §7 PUT /organization/{id} and the legacy organization calls; §8 'Organization
 * update'), and the organization lookup GET /organization/{id} (part 1 §8 'Organization
 * lookups' 404).
 */

/**
 * Editing an organization: organization update or manage; or, by part 2 §6 "inside the accounts
 * context ... edit organization [is] always allowed", a caller who administers users there (user
 * or user-admin update/manage). Read-only accounts permissions edit nothing.
 */
export function canEditOrganization(caller: Caller): boolean {
  return canEditOrganizationInAccounts(caller.permissions);
}

/**
 * The organization type an edit leaves: the one it has, or the one asked for (unknown → 422).
 * The type carries the acs flag, which changes what the organization's users get: Lightbar staff only.
 */
async function editedType(db: Db, caller: Caller, org: OrganizationRow, requested: string | number | null | undefined) {
  if (requested === undefined || requested === null || String(requested) === org.organizationTypeId) return org.organizationTypeId;
  const type = await findOrganizationType(db, String(requested));
  if (!type) throw organizationTypeNotFound();
  if (!caller.permissions.has(HAAS_MANAGE)) throw forbidden(ORGANIZATION_TYPE_CHANGE_MESSAGE);
  return type.id;
}

export function organizationRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The organization lookup: any signed-in caller, for an organization they may see; else 404. */
  const lookupSchema = {
    summary: 'An organization the caller may see',
    params: idPath,
    response: { 200: organizationWireSchema, 404: errorAnswer },
  };
  api.get('/organization/:id', { config: { access: 'signed-in' }, schema: lookupSchema }, async (request, reply) => {
    const { caller } = request;
    const { id } = request.params;
    const org = isUuid(id) && canSeeOrg(caller.scope, id) ? await findLiveOrg(db, id) : null;
    if (!org) throw notFound('Organization');
    return replyVersion(reply, await organizationWire(db, org));
  });

  async function editOrganization(request: FastifyRequest, reply: FastifyReply, targetId: string) {
    const { caller } = request;
    const org = isUuid(targetId) && canAdministerOrg(caller.scope, targetId) ? await findLiveOrg(db, targetId) : null;
    if (!org) throw organizationNotFound();
    const expected = expectVersion(request, 'organization', org.version);
    const { fields, organizationTypeId } = validOrganization(parse(organizationBody, request.body), org);
    const edit = { ...fields, organizationTypeId: await editedType(db, caller, org, organizationTypeId) };
    const updated = await updateOrganization(db, org.id, expected, edit, deps.now());
    if (!updated) throw expected === null ? organizationNotFound() : preconditionFailed('organization');
    return replyVersion(reply, await organizationWire(db, updated));
  }

  /**
   * part 2 §7 PUT /organization/{id}; legacy PUT /organization/{targetId}. The body is parsed after
   * the lookup and the If-Match check (an unknown organization is 422, a stale copy 412, before
   * the body's 422): body and If-Match are documented only, each route its own schema objects.
   * 'Organization not found' is a 422 (part 2 §8).
   */
  const mayEdit = { access: canEditOrganization };
  const updateAnswers = { 200: organizationWireSchema, 412: errorAnswer, 422: errorAnswer };
  const updateRequest = () => ({
    body: documentedOnly(
      organizationBody.meta({
        description: 'Name and address; the legacy form adds e-mail, phones, contact and organization type (left out: kept).',
      }),
    ),
    headers: documentedObject({ ...ifMatchHeader }),
  });
  const updateSchema = {
    summary: "Edit an organization's name and address",
    params: idPath,
    ...updateRequest(),
    response: updateAnswers,
  };
  api.put('/organization/:id', { config: mayEdit, schema: updateSchema }, async (request, reply) =>
    editOrganization(request, reply, request.params.id),
  );
  /** Legacy PUT /organization/: the caller's (subscribed) organization. */
  const own = async (request: FastifyRequest, reply: FastifyReply) => editOrganization(request, reply, request.caller.scope.organizationId);
  const ownSchema = (summary: string) => ({ summary, ...updateRequest(), response: updateAnswers });
  api.put('/organization/', { config: mayEdit, schema: ownSchema("Edit the caller's organization (legacy)") }, own);
  api.put('/organization', { config: mayEdit, schema: ownSchema("Edit the caller's organization (legacy, without the slash)") }, own);

  /**
   * Legacy DELETE /organization/{uuid}: haas:manage only, never the caller's own organization, and
   * refused (422 organization_has_assets) while it owns live assets: they report live, so they are
   * moved or deleted first, never hidden. Otherwise one transaction ends everything it owns: the
   * organization and its users (soft), their sessions and API keys (revoked), its manager/accessor
   * relations with organizations and with single assets (removed: a shared asset no longer names
   * it), its closures, areas and events (soft-deleted, inactive), its alerting zones (inactive), its WZDx feed
   * subscriptions (disabled) and its integrations (removed, with their credentials).
   */
  const deleteSchema = {
    summary: 'Delete an organization without assets, with its users, sessions and keys',
    params: idPath,
    response: { 200: organizationDeletedAnswer, 404: errorAnswer },
  };
  api.delete('/organization/:id', { config: { access: [HAAS_MANAGE] }, schema: deleteSchema }, async (request) => {
    const { caller } = request;
    const org = await findLiveOrg(db, request.params.id);
    if (!org) throw notFound('Organization');
    if (org.id === caller.scope.organizationId) throw cannotDeleteOwnOrganization();
    const ended = await deleteOrganization(db, org.id, deps.now());
    if ('assets' in ended) throw organizationHasAssets(ended.assets);
    if (ended.revoked.length) deps.events.emit('tokens-revoked', ended.revoked);
    // Its relations are gone and its parent loses a child: every open socket re-checks its scope.
    deps.events.emit('access-changed', { all: true });
    return { id: org.id, uuid: org.id };
  });
}
