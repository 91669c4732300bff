/**
 * Organizations of account administration (part 2 §3 Organization, §5 "Organization and account
 * address", §7 PUT /organization/{id} and the legacy organization calls; §8 'Organization
 * update'), and the organization lookup GET /organization/{id} (part 1 §8 'Organization
 * lookups' 404).
 */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CLIENT_ERROR_CODES } from '../../src/domain/errors';
import { organizationWireSchema, type OrganizationWire } from '../../src/domain/organization';
import { canEditOrganizationInAccounts, HAAS_MANAGE } from '../../src/domain/permissions';
import { organizationFormSchema } from '../../src/domain/validation/accounts';
import type { Caller } from '../auth/context';
import { canSeeOrg } from '../auth/scope';
import type { Db } from '../db/connection';
import { nextVersion, queryRows, sameVersion } from '../db/rows';
import {
  alertingZones,
  apiKeys,
  areas,
  closures,
  integrationConfigurations,
  locations,
  organizationRelationships,
  organizations,
  organizationTypes,
  thingRelationships,
  things,
  tokens,
  users,
  wzdxFeeds,
} from '../db/schema';
import type { ServerDeps } from '../deps';
import { canAdministerOrg, findLiveOrg, type OrganizationRow } from './account-admin';
import { addressBodyShape, addressFormValues, ADDRESS_WIRE_NAMES, bodyText } from './address-body';
import { idPath, isUuid } from './query';
import { documentedObject, documentedOnly } from './route-validation';
import { expectVersion, ifMatchHeader, preconditionFailed, replyVersion } from './versioning';
import { errorAnswer, forbidden, notFound, parse, parseForm, unprocessable } from '../core/errors';

/** part 2 §8 'Organization update': a 422 shows 'Organization not found'. */
export const ORGANIZATION_NOT_FOUND_MESSAGE = 'Organization not found';
export const CANNOT_DELETE_OWN_ORGANIZATION_MESSAGE = 'You cannot delete your own organization';
/** DELETE /organization/{id} of an organization that still owns assets (designed): they report live, so they are never hidden silently. */
export const organizationHasAssetsMessage = (count: number) =>
  `This organization still has ${count} ${count === 1 ? 'asset' : 'assets'}. Move or delete them before deleting the organization.`;
export const ORGANIZATION_TYPE_CHANGE_MESSAGE = 'Not authorized to change the organization type';

/**
 * The body of PUT /organization/{id} (name and address) and of the legacy PUT /organization/ and
 * /organization/{targetId} (adds e-mail, phones, contact and organization type). Types and sizes
 * here; the domain's organization form schema gives the spec's messages.
 */
const organizationBody = z.object({
  name: bodyText(),
  ...addressBodyShape,
  email: z.string().max(254).nullish(),
  phone_number: z.string().max(50).nullish(),
  cell_phone_number: z.string().max(50).nullish(),
  contact_name: bodyText(),
  organization_type_id: z.union([z.string().max(100), z.number()]).nullish(),
  timezone: z.string().max(64).nullish(),
});

/** Domain form field → wire field, so a 422 names what the client sent. */
const ORGANIZATION_FIELDS = {
  name: 'name',
  ...ADDRESS_WIRE_NAMES,
  email: 'email',
  phoneNumber: 'phone_number',
  cellPhoneNumber: 'cell_phone_number',
  contactName: 'contact_name',
  organizationTypeId: 'organization_type_id',
  timezone: 'timezone',
} as const;

const organizationNotFound = () => unprocessable(ORGANIZATION_NOT_FOUND_MESSAGE, 'not_found');

/** '' and absent both mean none for optional text. */
const orNull = (value: string | null | undefined): string | null => (value ? value : null);

/** Managers and accessors of an organization: the organizations that manage or access it. */
async function relatedOrgs(db: Db, orgId: string, type: 'manager' | 'accessor') {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizationRelationships)
    .innerJoin(organizations, eq(organizations.id, organizationRelationships.relatedOrganizationId))
    .where(
      and(
        eq(organizationRelationships.organizationId, orgId),
        eq(organizationRelationships.relationshipType, type),
        isNull(organizations.deletedAt),
      ),
    )
    .orderBy(sql`upper(${organizations.name})`);
}

/** Every live descendant, flat with parent ids (UNION, not UNION ALL: a parent cycle cannot loop). */
async function childStructure(db: Db, orgId: string) {
  const rows = await queryRows<{ id: string; name: string; parent_id: string | null }>(
    db,
    sql`with recursive tree as (
          select id, name, parent_id from ${organizations} where parent_id = ${orgId} and deleted_at is null
          union
          select o.id, o.name, o.parent_id from ${organizations} o join tree t on o.parent_id = t.id where o.deleted_at is null
        )
        select id::text as id, name, parent_id::text as parent_id from tree where id <> ${orgId} order by upper(name), id`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name, parent_id: row.parent_id }));
}

/** The organization wire of part 1 §3 / part 2 §3 (src/domain/organization.ts). */
export async function organizationWire(db: Db, org: OrganizationRow): Promise<OrganizationWire> {
  const [type] = org.organizationTypeId
    ? await db.select().from(organizationTypes).where(eq(organizationTypes.id, org.organizationTypeId)).limit(1)
    : [];
  return {
    id: org.id,
    name: org.name,
    email: org.email,
    address1: org.address1,
    address2: org.address2,
    city: org.city,
    state: org.state,
    postal_code: org.postalCode,
    country_code: org.countryCode,
    lat: org.lat,
    lng: org.lng,
    timezone: org.timezone,
    organization_type: type ? { id: type.id, name: type.name, acs: type.acs, icon_urls: type.iconUrl ? { icon: type.iconUrl } : {} } : null,
    show_infinite_timeout_option: org.showInfiniteTimeoutOption,
    organization_managers: await relatedOrgs(db, org.id, 'manager'),
    organization_accessors: await relatedOrgs(db, org.id, 'accessor'),
    is_wzdx_org: org.isWzdxOrg,
    is_large_org: org.isLargeOrg,
    billing_id: org.billingId,
    child_structure: await childStructure(db, org.id),
    version: org.version,
  };
}

/**
 * Editing an organization: organization update or manage; or, by part 2 §6 "inside the accounts
 * context ... edit organization [is] always allowed", a caller who administers users there (user
 * or user-admin update/manage). Read-only accounts permissions edit nothing.
 */
export function canEditOrganization(caller: Caller): boolean {
  return canEditOrganizationInAccounts(caller.permissions);
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

  async function updateOrganization(request: FastifyRequest, reply: FastifyReply, targetId: string) {
    const { caller } = request;
    const org = isUuid(targetId) && canAdministerOrg(caller.scope, targetId) ? await findLiveOrg(db, targetId) : null;
    if (!org) throw organizationNotFound();
    const expected = expectVersion(request, 'organization', org.version);
    const body = parse(organizationBody, request.body);
    const form = parseForm(
      organizationFormSchema,
      {
        name: body.name ?? '',
        ...addressFormValues(body),
        email: body.email ?? undefined,
        phoneNumber: body.phone_number ?? undefined,
        cellPhoneNumber: body.cell_phone_number ?? undefined,
        contactName: body.contact_name ?? undefined,
        organizationTypeId: body.organization_type_id,
        timezone: body.timezone ?? undefined,
      },
      ORGANIZATION_FIELDS,
    );
    // The type carries the acs flag, which changes what the organization's users get: Lightbar staff only.
    let organizationTypeId = org.organizationTypeId;
    if (
      form.organizationTypeId !== undefined &&
      form.organizationTypeId !== null &&
      String(form.organizationTypeId) !== org.organizationTypeId
    ) {
      const typeId = String(form.organizationTypeId);
      const [type] = isUuid(typeId) ? await db.select().from(organizationTypes).where(eq(organizationTypes.id, typeId)).limit(1) : [];
      if (!type) {
        throw unprocessable('organization_type_id: Organization type not found', 'invalid', {
          fields: { organization_type_id: 'Organization type not found' },
        });
      }
      if (!caller.permissions.has(HAAS_MANAGE)) throw forbidden(ORGANIZATION_TYPE_CHANGE_MESSAGE);
      organizationTypeId = type.id;
    }
    // Fields the legacy form sends and the new one does not: left out, they keep their value.
    const [updated] = await db
      .update(organizations)
      .set({
        name: form.name,
        address1: form.address1,
        address2: orNull(form.address2),
        city: form.city,
        state: form.state,
        postalCode: form.postalCode,
        countryCode: form.countryCode.toUpperCase(),
        email: body.email === undefined ? org.email : orNull(form.email),
        phoneNumber: body.phone_number === undefined ? org.phoneNumber : orNull(form.phoneNumber),
        cellPhoneNumber: body.cell_phone_number === undefined ? org.cellPhoneNumber : orNull(form.cellPhoneNumber),
        contactName: body.contact_name === undefined ? org.contactName : orNull(form.contactName),
        organizationTypeId,
        timezone: form.timezone ?? org.timezone,
        updatedAt: deps.now(),
        version: nextVersion(organizations.version),
      })
      .where(and(eq(organizations.id, org.id), sameVersion(organizations.version, expected)))
      .returning();
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
    updateOrganization(request, reply, request.params.id),
  );
  /** Legacy PUT /organization/: the caller's (subscribed) organization. */
  const own = async (request: FastifyRequest, reply: FastifyReply) =>
    updateOrganization(request, reply, request.caller.scope.organizationId);
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
    response: { 200: z.object({ id: z.string(), uuid: z.string() }), 404: errorAnswer },
  };
  api.delete('/organization/:id', { config: { access: [HAAS_MANAGE] }, schema: deleteSchema }, async (request) => {
    const { caller } = request;
    const { id } = request.params;
    const org = await findLiveOrg(db, id);
    if (!org) throw notFound('Organization');
    if (org.id === caller.scope.organizationId)
      throw unprocessable(CANNOT_DELETE_OWN_ORGANIZATION_MESSAGE, CLIENT_ERROR_CODES.cannotDeleteOwnOrganization);
    const now = deps.now();
    const revoked = await db.transaction(async (tx) => {
      // Counted inside the transaction, with the organization's row locked: an asset created meanwhile is seen.
      await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, org.id)).for('update');
      const [assets] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(things)
        .where(and(eq(things.organizationId, org.id), isNull(things.deletedAt)));
      if ((assets?.n ?? 0) > 0)
        throw unprocessable(organizationHasAssetsMessage(assets!.n), CLIENT_ERROR_CODES.organizationHasAssets, { assets: assets!.n });
      await tx.update(organizations).set({ deletedAt: now, updatedAt: now }).where(eq(organizations.id, org.id));
      await tx.delete(thingRelationships).where(eq(thingRelationships.organizationId, org.id));
      await tx
        .update(closures)
        .set({ deletedAt: now, isActive: false, updatedAt: now })
        .where(and(eq(closures.organizationId, org.id), isNull(closures.deletedAt)));
      await tx
        .update(areas)
        .set({ deletedAt: now, isActive: false, updatedAt: now })
        .where(and(eq(areas.organizationId, org.id), isNull(areas.deletedAt)));
      await tx.update(alertingZones).set({ isActive: false, updatedAt: now }).where(eq(alertingZones.organizationId, org.id));
      await tx
        .update(locations)
        .set({ deletedAt: now, isActive: false, updatedAt: now })
        .where(and(eq(locations.organizationId, org.id), isNull(locations.deletedAt)));
      await tx.update(wzdxFeeds).set({ enabled: false, updatedAt: now }).where(eq(wzdxFeeds.organizationId, org.id));
      await tx.delete(integrationConfigurations).where(eq(integrationConfigurations.organizationId, org.id));
      const gone = await tx
        .update(users)
        .set({ deletedAt: now, updatedAt: now })
        .where(and(eq(users.organizationId, org.id), isNull(users.deletedAt)))
        .returning({ id: users.id });
      const userIds = gone.map((row) => row.id);
      if (userIds.length) {
        await tx
          .update(apiKeys)
          .set({ revokedAt: now })
          .where(and(inArray(apiKeys.userId, userIds), isNull(apiKeys.revokedAt)));
      }
      await tx
        .delete(organizationRelationships)
        .where(or(eq(organizationRelationships.organizationId, org.id), eq(organizationRelationships.relatedOrganizationId, org.id)));
      const ended = await tx
        .update(tokens)
        .set({ revokedAt: now })
        .where(
          and(
            isNull(tokens.revokedAt),
            userIds.length ? or(eq(tokens.organizationId, org.id), inArray(tokens.userId, userIds)) : eq(tokens.organizationId, org.id),
          ),
        )
        .returning({ id: tokens.id });
      return ended.map((row) => row.id);
    });
    if (revoked.length) deps.events.emit('tokens-revoked', revoked);
    // Its relations are gone and its parent loses a child: every open socket re-checks its scope.
    deps.events.emit('access-changed', { all: true });
    return { id: org.id, uuid: org.id };
  });
}
