import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Caller } from '../../auth/context';
import type { OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import {
  organizationRelationships,
  organizations,
  thingExternalIdentifiers,
  thingRelationships,
  things,
  thingSubtypes,
  thingTypes,
} from '../../db/schema';
import { nextVersion, sameVersion } from '../../db/rows';
import { notFound, unprocessable } from '../../core/errors';
import { preconditionFailed } from '../versioning';
import { orgAccess, type OrgAccess } from '../organization-scope';
import { isUuid } from '../query';
import { loadThingWire, type ThingWireOut } from '../../core/thing-wire';
import { fieldError, THING_ERRORS, type associationsSchema, type thingUpdateSchema } from './schema';

/** The asset calls' reads and writes (who may touch an asset: ./routes). */

export type ThingRow = typeof things.$inferSelect;

const ACCESS_RANK: Readonly<Record<OrgAccess, number>> = { none: 0, read: 1, write: 2 };
const strongest = (a: OrgAccess, b: OrgAccess): OrgAccess => (ACCESS_RANK[a] >= ACCESS_RANK[b] ? a : b);

/**
 * The asset `id` as the caller may see it: 404 when unknown or invisible (a non-uuid id too);
 * when it was removed since, 404 or 422 'Asset not found' as the call's catalogue row wants.
 */
export async function findThing(db: Db, caller: Caller, id: string, removed: 404 | 422): Promise<{ thing: ThingRow; access: OrgAccess }> {
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

export function requireWrite(access: OrgAccess): void {
  if (access !== 'write') throw unprocessable(THING_ERRORS.readOnly, 'read_only');
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
export async function wireOf(db: Db, id: string, now: Date): Promise<ThingWireOut> {
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
 *
 * The same scan counts the rows the answer lists (`listed`: not deleted, and changed since the
 * incremental time): a page of 500 then reads the visible things once for both, not twice.
 */
export async function listValidator(
  db: Db,
  visible: SQL | undefined,
  caller: Caller,
  orgIds: readonly string[] | null,
  url: string,
  listed: SQL | undefined,
): Promise<{ validator: string; total: number }> {
  // Sums, not a digest of every row's text: a list of 100,000 assets is asked for in 200 pages,
  // and each page's validator read the whole list (an md5 of a 10 MB string per page). Any row
  // coming, going or written changes one of the sums (updated_at and deleted_at to the microsecond).
  const [state] = await db
    .select({
      digest: sql<string | null>`count(*)::text || ':' || coalesce(sum(hashtext(${things.id}::text)::bigint), 0)::text
        || ':' || coalesce(sum(extract(epoch from ${things.updatedAt})), 0)::text
        || ':' || coalesce(sum(extract(epoch from ${things.deletedAt})), 0)::text`,
      total: sql<number>`(count(*) filter (where ${listed ?? sql`true`}))::int`,
    })
    .from(things)
    .where(visible);
  const hash = createHash('sha256')
    .update(JSON.stringify([caller.userId, caller.scope, orgIds, url, state?.digest ?? null]))
    .digest('base64url');
  return { validator: `W/"${hash}"`, total: state?.total ?? 0 };
}

/**
 * PUT /things/{id}: the part 1 §5 rules that need the database, then the write of the profile's
 * fields, one version on (412 when `expected`, the If-Match, is no longer its version); the asset's
 * wire object.
 */
export async function saveThing(
  db: Db,
  thing: ThingRow,
  body: z.infer<typeof thingUpdateSchema>,
  now: Date,
  expected: number | null = null,
): Promise<ThingWireOut> {
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

  // part 1 §4: alerting switched off turns back on after 60 minutes; remember when it went off.
  const alertingOffAt = body.is_publicly_alerting ? null : thing.isPubliclyAlerting ? now : thing.alertingOffAt;
  await db.transaction(async (tx) => {
    const saved = await tx
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
        version: nextVersion(things.version),
      })
      .where(and(eq(things.id, thing.id), isNull(things.deletedAt), sameVersion(things.version, expected)))
      .returning({ id: things.id });
    // Saved by someone else since the read (If-Match), or deleted meanwhile: nothing changes.
    if (!saved[0]) {
      const [live] = await tx
        .select({ id: things.id })
        .from(things)
        .where(and(eq(things.id, thing.id), isNull(things.deletedAt)));
      throw live ? preconditionFailed('asset') : unprocessable(THING_ERRORS.notFound, 'not_found');
    }
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
}

/**
 * PUT /things/{id}/associations: checks each relation (not the owner, not twice, assignable) and
 * replaces the asset's relations; the organizations that gained or lost the asset.
 */
export async function setAssociations(
  db: Db,
  scope: OrgScope,
  thing: ThingRow,
  relations: z.infer<typeof associationsSchema>['organization_relationships'],
  now: Date,
): Promise<{ organizationIds: string[] }> {
  const assignable = new Map((await assignableOrganizations(db, scope)).map((org) => [org.id, org.name]));
  const seen = new Set<string>();
  relations.forEach((relation, index) => {
    const field = `organization_relationships.${index}.organization_uuid`;
    if (relation.organization_uuid === thing.organizationId) throw fieldError(field, 'is the organization that owns the asset');
    if (seen.has(relation.organization_uuid)) throw fieldError(field, 'is listed twice');
    // Unknown and not assignable read the same: nothing tells a stranger an organization exists.
    if (!assignable.has(relation.organization_uuid)) throw fieldError(field, 'unknown organization');
    seen.add(relation.organization_uuid);
  });
  const before = await db
    .select({ organizationId: thingRelationships.organizationId })
    .from(thingRelationships)
    .where(eq(thingRelationships.thingId, thing.id));
  await db.transaction(async (tx) => {
    await tx.delete(thingRelationships).where(eq(thingRelationships.thingId, thing.id));
    if (relations.length > 0) {
      await tx.insert(thingRelationships).values(
        relations.map((relation) => ({
          thingId: thing.id,
          organizationId: relation.organization_uuid,
          relationshipType: relation.relationship_type,
        })),
      );
    }
    await tx.update(things).set({ updatedAt: now }).where(eq(things.id, thing.id));
  });
  return { organizationIds: [...new Set([...before.map((row) => row.organizationId), ...seen])] };
}
