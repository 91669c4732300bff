/**
 * part 1 §7 asset calls: GET /organization/things (paged, incremental), GET /organization/things_count,
 * GET /thing_types, GET /thing_subtypes, PUT /things/{id}, PUT /things/{thingId}/associations,
 * PUT /things/{id}/r2r, PUT /things/{thingId}/light_intensity, GET /organization/assignable.
 *
 * Who may touch an asset: it is visible when its organization is (own, children, managed,
 * accessed; haas:manage all) or when it is shared with the caller's organization through
 * thing_relationships. Changing it needs write access: the owner, a child's parent or a manager
 * organization, or a manager asset relation; an accessor (organization or asset relation) only
 * reads it (422, the message says so). Anything else answers 404, exactly as an unknown id.
 */
import { and, asc, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { associationsPayloadSchema, RELATIONSHIP_TYPES } from '../../src/domain/asset';
import { ASSET_STATUS, statusFromServer } from '../../src/domain/asset-status';
import {
  INTEGRATION_PROVIDERS,
  LIGHT_INTENSITY_OPTIONS,
  NICKNAME_MAX,
  PLATE_MAX,
  REGISTRY_MAX,
  THINGS_PAGE_SIZE,
  VEHICLE_ID_MAX,
} from '../../src/domain/constants';
import {
  canChangeLightIntensity,
  canEditAsset,
  canRunR2RTest,
  HAAS_MANAGE,
  section,
  showsAssetCount,
  showsManageAccounts,
  type Permission,
} from '../../src/domain/permissions';
import { INTEGRATIONS_LIMIT, VIN_PATTERN } from '../../src/domain/validation/asset';
import { requiredString } from '../../src/domain/validation/fields';
import { MESSAGES } from '../../src/domain/validation/messages';
import { requireAny, requireCaller, type Caller } from '../auth/context';
import { thingVisibleSql, type OrgScope } from '../auth/scope';
import type { Db } from '../db/connection';
import {
  organizationRelationships,
  organizations,
  r2rAlerts,
  thingExternalIdentifiers,
  thingRelationships,
  things,
  thingSubtypes,
  thingTypes,
} from '../db/schema';
import type { ServerDeps } from '../deps';
import { forbidden, HttpError, notFound, parse, unprocessable } from './errors';
import { orgAccess, requestedOrgs, type OrgAccess } from './organization-scope';
import { isUuid } from './query';
import { sinceParam } from './query';
import { loadThingWire, loadThingWires, type ThingWireOut } from './thing-wire';

/** The texts the asset calls answer with; each carries the word part 1 §8's catalogue reads. */
export const THING_ERRORS = {
  /** 404 for unknown and invisible; 422 for a visible asset since removed (assetSave's 'found' row). */
  notFound: 'Asset not found',
  /** assetSave's 'nickname' row: another asset of the organization has this nickname. */
  nicknameTaken: 'nickname is already used by another asset of this organization',
  readOnly: 'Your organization can view this asset but not change it',
  ownerOnly: "Only the asset's owner organization can change its organization access",
  testModeNotAllowed: 'Test mode is not allowed for this asset',
} as const;

/** Permission rows of part 1 §6 this module checks, written once. */
const THINGS_VIEW = section('things').anyOf;
const ASSOCIATIONS_EDIT: readonly Permission[] = ['thing:update', 'thing:manage', HAAS_MANAGE];
const R2R_TEST: readonly Permission[] = ['thing:invoke_r2r'];
const LIGHT_INTENSITY: readonly Permission[] = ['thing:ha5_light_intensity_change'];
/** chosen: the longest external identifier an integration row may carry. */
export const IDENTIFIER_ID_MAX = 100;
/** chosen: VINs are 17 characters; older and foreign ones vary, so the shared 50 caps them. */
export const VIN_MAX = 50;
/** chosen: the highest page number accepted (keeps the SQL offset an exact integer). */
const MAX_PAGE = 1_000_000;
/** chosen: most organization relations one associations call may set. */
const MAX_RELATIONS = 200;

const uuid = () => z.uuid({ error: 'must be a uuid' });
const max50 = (max: number) => ({ error: MESSAGES.max50.replace('50', String(max)) });
/** An optional text; blank or null clears it. */
const clearableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, max50(max))
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

/** PUT /things/{id} (part 1 §7) with the rules of part 1 §5 (server side of src/domain/validation/asset.ts). */
const thingUpdateSchema = z.object({
  id: uuid(),
  in_service: z.boolean(),
  is_publicly_alerting: z.boolean(),
  nickname: requiredString({ max: NICKNAME_MAX, message: MESSAGES.max50 }).optional(),
  thing_type_id: uuid().optional(),
  thing_subtype_id: uuid().nullable().optional(),
  vin_number: z
    .string()
    .trim()
    .max(VIN_MAX, max50(VIN_MAX))
    .regex(VIN_PATTERN, { error: MESSAGES.onlyNumbersOrLetters })
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value)),
  license_plate_number: clearableText(PLATE_MAX),
  registry_number: clearableText(Math.min(REGISTRY_MAX, VEHICLE_ID_MAX)),
  external_identifiers: z
    .array(
      z.object({
        identifier_id: requiredString({ max: IDENTIFIER_ID_MAX, message: `Must be ${IDENTIFIER_ID_MAX} or fewer characters` }),
        system_name: z.enum(INTEGRATION_PROVIDERS, { error: MESSAGES.required }),
        is_deleted: z.boolean().default(false),
      }),
    )
    .max(INTEGRATION_PROVIDERS.length * 2, { error: MESSAGES.providersInUse })
    .default([])
    .superRefine((rows, ctx) => {
      const seen = new Set<string>();
      rows.forEach((row, index) => {
        if (seen.has(row.system_name)) {
          ctx.addIssue({ code: 'custom', path: [index, 'system_name'], message: MESSAGES.providerAlreadyUsed });
        }
        seen.add(row.system_name);
      });
      if (rows.filter((row) => !row.is_deleted).length > INTEGRATIONS_LIMIT) {
        ctx.addIssue({ code: 'custom', path: [], message: MESSAGES.providersInUse });
      }
    }),
});

const associationsSchema = z.object({
  organization_relationships: z
    .array(
      associationsPayloadSchema.shape.organization_relationships.element.extend({
        organization_uuid: uuid(),
        organization_name: z.string().max(500).default(''),
        relationship_type: z.enum(RELATIONSHIP_TYPES, { error: 'must be manager or accessor' }),
      }),
    )
    .max(MAX_RELATIONS),
});

/** `{ action: 'test' }` sends an R2R test alert; `{ test_mode: boolean }` switches test mode. */
const r2rSchema = z
  .object({ action: z.literal('test', { error: "must be 'test'" }).optional(), test_mode: z.boolean().optional() })
  .refine((body) => (body.action === undefined) !== (body.test_mode === undefined), {
    error: "send either action: 'test' or test_mode: true|false",
  });

const lightIntensitySchema = z.object({
  light_intensity: z.literal([...LIGHT_INTENSITY_OPTIONS], { error: `must be one of ${LIGHT_INTENSITY_OPTIONS.join(', ')}` }),
});

const pagingSchema = z.object({
  page: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(MAX_PAGE).default(1),
  per_page: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(THINGS_PAGE_SIZE, { error: `must be at most ${THINGS_PAGE_SIZE}` })
    .default(THINGS_PAGE_SIZE),
});

type ThingRow = typeof things.$inferSelect;

const ACCESS_RANK: Readonly<Record<OrgAccess, number>> = { none: 0, read: 1, write: 2 };
const strongest = (a: OrgAccess, b: OrgAccess): OrgAccess => (ACCESS_RANK[a] >= ACCESS_RANK[b] ? a : b);

/**
 * The asset `id` as the caller may see it: 404 when unknown or invisible (a non-uuid id too);
 * when it was removed since, 404 or 422 'Asset not found' as the call's catalogue row wants.
 */
async function findThing(db: Db, caller: Caller, id: string, removed: 404 | 422): Promise<{ thing: ThingRow; access: OrgAccess }> {
  if (!isUuid(id)) throw notFound('Asset');
  const [row] = await db
    .select({ thing: things, shared: thingRelationships.relationshipType })
    .from(things)
    .leftJoin(
      thingRelationships,
      and(eq(thingRelationships.thingId, things.id), eq(thingRelationships.organizationId, caller.scope.organizationId)),
    )
    .where(eq(things.id, id))
    .limit(1);
  if (!row) throw notFound('Asset');
  const byRelation: OrgAccess = row.shared === 'manager' ? 'write' : row.shared === 'accessor' ? 'read' : 'none';
  const access = strongest(orgAccess(caller.scope, row.thing.organizationId), byRelation);
  if (access === 'none') throw notFound('Asset');
  if (row.thing.deletedAt) {
    throw removed === 404 ? notFound('Asset') : unprocessable(THING_ERRORS.notFound, 'not_found');
  }
  return { thing: row.thing, access };
}

function requireWrite(access: OrgAccess): void {
  if (access !== 'write') throw unprocessable(THING_ERRORS.readOnly, 'read_only');
}

/** A 422 naming a field, like `parse` does. */
function fieldError(field: string, message: string): HttpError {
  return new HttpError(422, 'invalid', `${field}: ${message}`, { fields: { [field]: message } });
}

/**
 * GET /organization/assignable: the organizations an asset may be related to. haas:manage: every
 * organization; others: their children, the organizations they manage or access, and those that
 * manage or access theirs. The caller's own organization is never listed (it cannot be related to
 * its own assets). Sorted by upper-cased name (part 1 §3).
 */
export async function assignableOrganizations(db: Db, scope: OrgScope): Promise<{ id: string; name: string }[]> {
  const notOwn = ne(organizations.id, scope.organizationId);
  if (scope.visibleOrgIds === null) {
    return db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(and(isNull(organizations.deletedAt), notOwn))
      .orderBy(sql`upper(${organizations.name})`, asc(organizations.id));
  }
  const relatedToOwn = await db
    .select({ id: organizationRelationships.relatedOrganizationId })
    .from(organizationRelationships)
    .where(eq(organizationRelationships.organizationId, scope.organizationId));
  const ids = [...new Set([...scope.visibleOrgIds, ...relatedToOwn.map((row) => row.id)])].filter((id) => id !== scope.organizationId);
  if (ids.length === 0) return [];
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(and(isNull(organizations.deletedAt), inArray(organizations.id, ids)))
    .orderBy(sql`upper(${organizations.name})`, asc(organizations.id));
}

/** The thing's wire object now (after a write). */
async function wireOf(db: Db, id: string, now: Date): Promise<ThingWireOut> {
  const wire = await loadThingWire(db, id, now);
  if (!wire) throw notFound('Asset');
  return wire;
}

/**
 * The validator of a things list or count answer (RFC 9110 §8.8): the caller's scope, the exact
 * query, and one aggregate over the visible things — every id with its updated_at and deleted_at —
 * so an added, changed, shared, unshared or deleted asset changes it, without loading or
 * serializing one wire object. Weak: the answer also carries the time it was made
 * (server_timestamp, the status recomputed at now), which the client recomputes anyway. What the
 * incremental `last_updated_timestamp` answers see is exactly what this sees.
 */
async function listValidator(db: Db, visible: SQL | undefined, caller: Caller, orgIds: readonly string[] | null, url: string): Promise<string> {
  const [state] = await db
    .select({
      digest: sql<string | null>`md5(string_agg(${things.id}::text || ':' || coalesce(${things.updatedAt}::text, '') || ':' || coalesce(${things.deletedAt}::text, ''), ',' order by ${things.id}))`,
    })
    .from(things)
    .where(visible);
  const hash = createHash('sha256')
    .update(JSON.stringify([caller.userId, caller.scope, orgIds, url, state?.digest ?? null]))
    .digest('base64url');
  return `W/"${hash}"`;
}

/**
 * Sets the ETag; answers whether the client's If-None-Match names it (then the reply is a 304 with
 * no body). Cache-Control stays no-store (OWASP): the asset list must not land in a browser's disk
 * cache; the live worker keeps its last answer in memory and revalidates it itself.
 */
async function notModified(request: FastifyRequest, reply: FastifyReply, etag: string): Promise<boolean> {
  reply.header('etag', etag);
  const header = request.headers['if-none-match'];
  if (!header) return false;
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes do not matter.
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const matches = header.trim() === '*' || header.split(',').some((tag) => opaque(tag) === opaque(etag));
  if (matches) reply.code(304);
  return matches;
}

export function thingRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;

  app.get('/organization/things', async (request, reply) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, THINGS_VIEW);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const orgIds = requestedOrgs(query, caller.scope);
    const since = sinceParam(query);
    const { page, per_page } = parse(pagingSchema, { page: query.page, per_page: query.per_page });
    const now = deps.now();
    const visible = thingVisibleSql(caller.scope, orgIds);
    if (await notModified(request, reply, await listValidator(db, visible, caller, orgIds, request.url))) return reply.send();
    const where = and(isNull(things.deletedAt), visible, since ? gt(things.updatedAt, since) : undefined);
    const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(things).where(where);
    // Ordered by id: a stable order, so consecutive pages neither repeat nor skip an asset.
    const pageIds = await db
      .select({ id: things.id })
      .from(things)
      .where(where)
      .orderBy(asc(things.id))
      .limit(per_page)
      .offset((page - 1) * per_page);
    const deleted = since
      ? await db
          .select({ id: things.id })
          .from(things)
          .where(and(gt(things.deletedAt, since), visible))
          .orderBy(asc(things.id))
      : [];
    return {
      data: await loadThingWires(db, pageIds.map((row) => row.id), now),
      meta: {
        page,
        per_page,
        total: counted?.total ?? 0,
        server_timestamp: now.toISOString(),
        deleted_ids: deleted.map((row) => row.id),
      },
    };
  });

  app.get('/organization/things_count', async (request, reply) => {
    const caller = await requireCaller(db, request);
    // part 1 §2: the top bar's asset count shows with thing read or manage.
    if (!showsAssetCount(caller.permissions)) throw forbidden();
    // The same org_ids[] as GET /organization/things, so an acs user's top bar counts the chosen organization.
    const orgIds = requestedOrgs(request.query ?? {}, caller.scope);
    const validator = await listValidator(db, thingVisibleSql(caller.scope, orgIds), caller, orgIds, request.url);
    if (await notModified(request, reply, validator)) return reply.send();
    const [counted] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(things)
      .where(and(isNull(things.deletedAt), thingVisibleSql(caller.scope, orgIds)));
    return { count: counted?.count ?? 0 };
  });

  // Reference data of every installation (no organization's record): any signed-in user.
  app.get('/thing_types', async (request) => {
    await requireCaller(db, request);
    const rows = await db.select().from(thingTypes).orderBy(asc(thingTypes.name));
    return rows.map((row) => ({ id: row.id, name: row.name, display_name: row.displayName, is_emergency: row.isEmergency }));
  });

  app.get('/thing_subtypes', async (request) => {
    await requireCaller(db, request);
    const rows = await db.select().from(thingSubtypes).orderBy(asc(thingSubtypes.thingTypeId), asc(thingSubtypes.name));
    return rows.map((row) => ({ id: row.id, name: row.name, display_name: row.displayName, thing_type_id: row.thingTypeId }));
  });

  app.get('/organization/assignable', async (request) => {
    const caller = await requireCaller(db, request);
    // Used by the asset's organization access edit and by account administration.
    if (!canEditAsset(caller.permissions) && !caller.permissions.has(HAAS_MANAGE) && !showsManageAccounts(caller.permissions)) {
      throw forbidden();
    }
    return assignableOrganizations(db, caller.scope);
  });

  app.put('/things/:id', async (request) => {
    const caller = await requireCaller(db, request);
    if (!canEditAsset(caller.permissions)) throw forbidden();
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound('Asset');
    const body = parse(thingUpdateSchema, request.body);
    if (body.id !== id) throw fieldError('id', 'must be the asset of the path');
    const { thing, access } = await findThing(db, caller, id, 422);
    requireWrite(access);

    // part 1 §5: the type keeps the asset's emergency kind; the subtype belongs to the type.
    let typeId = thing.thingTypeId;
    if (body.thing_type_id !== undefined && body.thing_type_id !== thing.thingTypeId) {
      const found = await db
        .select({ id: thingTypes.id, isEmergency: thingTypes.isEmergency })
        .from(thingTypes)
        .where(inArray(thingTypes.id, [body.thing_type_id, thing.thingTypeId]));
      const next = found.find((t) => t.id === body.thing_type_id);
      const current = found.find((t) => t.id === thing.thingTypeId);
      if (!next) throw fieldError('thing_type_id', 'unknown thing type');
      if (current && current.isEmergency !== next.isEmergency) {
        throw fieldError('thing_type_id', `must be ${current.isEmergency ? 'an emergency' : 'a non-emergency'} type like the asset's`);
      }
      typeId = next.id;
    }
    let subtypeId = thing.thingSubtypeId;
    if (body.thing_subtype_id !== undefined) subtypeId = body.thing_subtype_id;
    if (subtypeId !== null) {
      const [subtype] = await db.select({ typeId: thingSubtypes.thingTypeId }).from(thingSubtypes).where(eq(thingSubtypes.id, subtypeId));
      if (!subtype || subtype.typeId !== typeId) {
        // A subtype the body names must fit; the stored one resets when the type changes (part 1 §5).
        if (body.thing_subtype_id !== undefined) throw fieldError('thing_subtype_id', "is not a subtype of the asset's type");
        subtypeId = null;
      }
    }

    if (body.nickname !== undefined && body.nickname !== thing.nickname) {
      const [clash] = await db
        .select({ id: things.id })
        .from(things)
        .where(
          and(
            eq(things.organizationId, thing.organizationId),
            ne(things.id, thing.id),
            isNull(things.deletedAt),
            sql`lower(${things.nickname}) = lower(${body.nickname})`,
          ),
        )
        .limit(1);
      if (clash) throw unprocessable(THING_ERRORS.nicknameTaken, 'nickname_taken');
    }

    const now = deps.now();
    // part 1 §4: alerting switched off turns back on after 60 minutes; remember when it went off.
    const alertingOffAt = body.is_publicly_alerting ? null : thing.isPubliclyAlerting ? now : thing.alertingOffAt;
    await db.transaction(async (tx) => {
      await tx
        .update(things)
        .set({
          inService: body.in_service,
          isPubliclyAlerting: body.is_publicly_alerting,
          alertingOffAt,
          ...(body.nickname !== undefined ? { nickname: body.nickname } : {}),
          thingTypeId: typeId,
          thingSubtypeId: subtypeId,
          ...(body.vin_number !== undefined ? { vinNumber: body.vin_number } : {}),
          ...(body.license_plate_number !== undefined ? { licensePlateNumber: body.license_plate_number } : {}),
          ...(body.registry_number !== undefined ? { registryNumber: body.registry_number } : {}),
          updatedAt: now,
        })
        .where(eq(things.id, thing.id));
      const removedProviders = body.external_identifiers.filter((e) => e.is_deleted).map((e) => e.system_name);
      if (removedProviders.length > 0) {
        await tx
          .delete(thingExternalIdentifiers)
          .where(and(eq(thingExternalIdentifiers.thingId, thing.id), inArray(thingExternalIdentifiers.systemName, removedProviders)));
      }
      for (const identifier of body.external_identifiers.filter((e) => !e.is_deleted)) {
        await tx
          .insert(thingExternalIdentifiers)
          .values({ thingId: thing.id, systemName: identifier.system_name, identifierId: identifier.identifier_id })
          .onConflictDoUpdate({
            target: [thingExternalIdentifiers.thingId, thingExternalIdentifiers.systemName],
            set: { identifierId: identifier.identifier_id },
          });
      }
    });
    return wireOf(db, thing.id, now);
  });

  app.put('/things/:id/associations', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, ASSOCIATIONS_EDIT);
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound('Asset');
    const body = parse(associationsSchema, request.body);
    const { thing } = await findThing(db, caller, id, 422);
    if (caller.scope.visibleOrgIds !== null && thing.organizationId !== caller.scope.organizationId) {
      throw unprocessable(THING_ERRORS.ownerOnly, 'owner_only');
    }
    const assignable = new Map((await assignableOrganizations(db, caller.scope)).map((org) => [org.id, org.name]));
    const seen = new Set<string>();
    body.organization_relationships.forEach((relation, index) => {
      const field = `organization_relationships.${index}.organization_uuid`;
      if (relation.organization_uuid === thing.organizationId) throw fieldError(field, 'is the organization that owns the asset');
      if (seen.has(relation.organization_uuid)) throw fieldError(field, 'is listed twice');
      // Unknown and not assignable read the same: nothing tells a stranger an organization exists.
      if (!assignable.has(relation.organization_uuid)) throw fieldError(field, 'unknown organization');
      seen.add(relation.organization_uuid);
    });
    const now = deps.now();
    const before = await db.select({ organizationId: thingRelationships.organizationId }).from(thingRelationships).where(eq(thingRelationships.thingId, thing.id));
    await db.transaction(async (tx) => {
      await tx.delete(thingRelationships).where(eq(thingRelationships.thingId, thing.id));
      if (body.organization_relationships.length > 0) {
        await tx.insert(thingRelationships).values(
          body.organization_relationships.map((relation) => ({
            thingId: thing.id,
            organizationId: relation.organization_uuid,
            relationshipType: relation.relationship_type,
          })),
        );
      }
      await tx.update(things).set({ updatedAt: now }).where(eq(things.id, thing.id));
    });
    // The organizations that gained or lost the asset: their open sockets re-check what they see.
    deps.events.emit('access-changed', {
      organizationIds: [...new Set([...before.map((row) => row.organizationId), ...seen])],
    });
    const wire = await wireOf(db, thing.id, now);
    return { organization_relationships: wire.organization_relationships };
  });

  app.put('/things/:id/r2r', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, R2R_TEST);
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound('Asset');
    const body = parse(r2rSchema, request.body);
    const { thing, access } = await findThing(db, caller, id, 404);
    requireWrite(access);
    const now = deps.now();

    if (body.test_mode !== undefined) {
      if (body.test_mode && !thing.isAllowedForTestMode) throw unprocessable(THING_ERRORS.testModeNotAllowed, 'test_mode_not_allowed');
      await db.update(things).set({ isTestModeOn: body.test_mode, updatedAt: now }).where(eq(things.id, thing.id));
      return { id: thing.id, is_test_mode_on: body.test_mode };
    }

    // part 1 §5: the same conditions as the button, at the server's now.
    const wire = await wireOf(db, thing.id, now);
    const status = wire.status ? statusFromServer(wire.status) : ASSET_STATUS.offline;
    const allowed = canRunR2RTest(
      { deviceType: thing.deviceType, isR2REnabled: thing.isR2rEnabled, thingType: wire.thing_type, status, inService: thing.inService },
      caller.permissions,
    );
    if (!allowed.allowed) throw unprocessable(`R2R test not allowed: ${allowed.tooltip ?? 'Not authorized'}`, 'r2r_not_allowed');
    // Delivered when the device is connected now (a heartbeat younger than the stale threshold);
    // a standby asset that has gone quiet cannot receive the alert.
    const delivered = !wire.is_stale;
    await db.insert(r2rAlerts).values({
      organizationId: thing.organizationId,
      thingId: thing.id,
      isTest: true,
      delivered,
      lat: thing.lat,
      lng: thing.lng,
      alertTime: now,
    });
    return { delivered };
  });

  app.put('/things/:id/light_intensity', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, LIGHT_INTENSITY);
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound('Asset');
    const body = parse(lightIntensitySchema, request.body);
    const { thing, access } = await findThing(db, caller, id, 404);
    requireWrite(access);
    const now = deps.now();
    const wire = await wireOf(db, thing.id, now);
    const status = wire.status ? statusFromServer(wire.status) : ASSET_STATUS.offline;
    const allowed = canChangeLightIntensity({ status, inService: thing.inService }, caller.permissions, body.light_intensity);
    if (!allowed.allowed) {
      throw unprocessable(`Light intensity cannot change: ${allowed.tooltip ?? 'no intensity chosen'}`, 'light_intensity_not_allowed');
    }
    await db.update(things).set({ lightIntensity: body.light_intensity, updatedAt: now }).where(eq(things.id, thing.id));
    return { id: thing.id, light_intensity: body.light_intensity };
  });
}
