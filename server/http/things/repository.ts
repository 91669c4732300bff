import { and, asc, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Caller } from '../../auth/context';
import type { ThingSubtypeWire, ThingTypeWire } from '../../../src/domain/thing-type';
import { thingVisibleSql, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import {
  organizationRelationships,
  organizations,
  r2rAlerts,
  thingExternalIdentifiers,
  thingRelationships,
  things,
  thingSubtypes,
  thingTypes,
} from '../../db/schema';
import { nextVersion, sameVersion } from '../../db/rows';
import { orgAccess, type OrgAccess } from '../organization-scope';
import { isUuid } from '../query';
import { loadThingWire, loadThingWires, thingSnapshotJson, type ThingWireOut } from '../../core/thing-wire';
import { THING_FIELD_ERRORS, type associationsSchema, type thingUpdateSchema } from './schema';

/**
 * The asset calls' reads and writes (who may touch an asset: ./routes). A missing record is
 * undefined or null; a refused write is a `SaveRefusal`, mapped by ./routes.
 */

export type ThingRow = typeof things.$inferSelect;

const ACCESS_RANK: Readonly<Record<OrgAccess, number>> = { none: 0, read: 1, write: 2 };
const strongest = (a: OrgAccess, b: OrgAccess): OrgAccess => (ACCESS_RANK[a] >= ACCESS_RANK[b] ? a : b);

/**
 * The asset `id` as the scope may see it, with the caller's access, removed ones too (`deletedAt`);
 * undefined when unknown or invisible (a non-uuid id too).
 */
export async function findThing(db: Db, scope: OrgScope, id: string): Promise<{ thing: ThingRow; access: OrgAccess } | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ thing: things, shared: thingRelationships.relationshipType })
    .from(things)
    .leftJoin(
      thingRelationships,
      and(eq(thingRelationships.thingId, things.id), eq(thingRelationships.organizationId, scope.organizationId)),
    )
    .where(eq(things.id, id))
    .limit(1);
  if (!row) return undefined;
  const byRelation: OrgAccess = row.shared === 'manager' ? 'write' : row.shared === 'accessor' ? 'read' : 'none';
  const access = strongest(orgAccess(scope, row.thing.organizationId), byRelation);
  return access === 'none' ? undefined : { thing: row.thing, access };
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

/** The thing's wire object now (after a write), or null when there is none. */
export const findThingWire = (db: Db, id: string, now: Date): Promise<ThingWireOut | null> => loadThingWire(db, id, now);

/** The visible things of a list: the scope's, narrowed to the organizations asked for (null: all). */
const visibleThings = (scope: OrgScope, orgIds: readonly string[] | null): SQL | undefined => thingVisibleSql(scope, orgIds);
/** The things a list answers: not deleted, and changed since the incremental time when there is one. */
const listedThings = (since: Date | null): SQL | undefined =>
  and(isNull(things.deletedAt), since ? gt(things.updatedAt, since) : undefined);

/**
 * The validator of a things list or count answer (RFC 9110 §8.8): the caller's scope, the exact
 * query, and one aggregate over the visible things — every id with its updated_at and deleted_at —
 * so an added, changed, shared, unshared or deleted asset changes it, without loading or
 * serializing one wire object. Weak: the answer also carries the time it was made
 * (server_timestamp, the status recomputed at now), which the client recomputes anyway. What the
 * incremental `last_updated_timestamp` answers see is exactly what this sees.
 *
 * The same scan counts the rows the answer lists (not deleted, and changed since `since`, the
 * incremental time): a page of 500 then reads the visible things once for both, not twice.
 */
export async function listValidator(
  db: Db,
  caller: Caller,
  orgIds: readonly string[] | null,
  url: string,
  since: Date | null,
): Promise<{ validator: string; total: number }> {
  const listed = listedThings(since);
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
    .where(visibleThings(caller.scope, orgIds));
  const hash = createHash('sha256')
    .update(JSON.stringify([caller.userId, caller.scope, orgIds, url, state?.digest ?? null]))
    .digest('base64url');
  return { validator: `W/"${hash}"`, total: state?.total ?? 0 };
}

/**
 * A page of the things list: the wire objects of the visible, listed things (ordered by id: a
 * stable order, so consecutive pages neither repeat nor skip an asset), and with an incremental
 * time the ids of the visible things deleted since.
 */
export async function listThingsPage(
  db: Db,
  scope: OrgScope,
  orgIds: readonly string[] | null,
  since: Date | null,
  paging: { page: number; perPage: number },
  now: Date,
): Promise<{ data: ThingWireOut[]; deletedIds: string[] }> {
  const visible = visibleThings(scope, orgIds);
  const pageIds = await db
    .select({ id: things.id })
    .from(things)
    .where(and(listedThings(since), visible))
    .orderBy(asc(things.id))
    .limit(paging.perPage)
    .offset((paging.page - 1) * paging.perPage);
  return {
    data: await loadThingWires(
      db,
      pageIds.map((row) => row.id),
      now,
    ),
    deletedIds: since ? await deletedSince(db, visible, since) : [],
  };
}

/**
 * The fleet snapshot's JSON text: the live things the scope sees, of the organizations asked for
 * (null: all); with `since`, only those changed after it (as the list's `last_updated_timestamp`)
 * and the ids of the visible things deleted since, as the list's `deleted_ids`
 * (docs/decisions/spec.md "The fleet snapshot since a time").
 */
export async function fleetSnapshotJson(
  db: Db,
  scope: OrgScope,
  orgIds: readonly string[] | null,
  now: Date,
  since: Date | null = null,
): Promise<string> {
  const visible = visibleThings(scope, orgIds);
  const deletedIds = since ? await deletedSince(db, visible, since) : null;
  return thingSnapshotJson(db, and(listedThings(since), visible), now, deletedIds);
}

/** The ids of the `visible` things deleted after `since` (an incremental answer's `deleted_ids`). */
async function deletedSince(db: Db, visible: SQL | undefined, since: Date): Promise<string[]> {
  const rows = await db
    .select({ id: things.id })
    .from(things)
    .where(and(gt(things.deletedAt, since), visible))
    .orderBy(asc(things.id));
  return rows.map((row) => row.id);
}

/** GET /thing_types: every asset type, by name. */
export async function listThingTypes(db: Db): Promise<ThingTypeWire[]> {
  const rows = await db.select().from(thingTypes).orderBy(asc(thingTypes.name));
  return rows.map((row) => ({ id: row.id, name: row.name, display_name: row.displayName, is_emergency: row.isEmergency }));
}

/** GET /thing_subtypes: every asset subtype, by type and name. */
export async function listThingSubtypes(db: Db): Promise<ThingSubtypeWire[]> {
  const rows = await db.select().from(thingSubtypes).orderBy(asc(thingSubtypes.thingTypeId), asc(thingSubtypes.name));
  return rows.map((row) => ({ id: row.id, name: row.name, display_name: row.displayName, thing_type_id: row.thingTypeId }));
}

/** Switches an asset's R2R test mode. */
export async function setTestMode(db: Db, id: string, on: boolean, now: Date): Promise<void> {
  await db.update(things).set({ isTestModeOn: on, updatedAt: now }).where(eq(things.id, id));
}

/** Records an R2R test alert sent to an asset, at its place, delivered or not. */
export async function insertTestAlert(db: Db, thing: ThingRow, delivered: boolean, now: Date): Promise<void> {
  await db.insert(r2rAlerts).values({
    organizationId: thing.organizationId,
    thingId: thing.id,
    isTest: true,
    delivered,
    lat: thing.lat,
    lng: thing.lng,
    alertTime: now,
  });
}

/** Sets an asset's light intensity. */
export async function setLightIntensity(db: Db, id: string, lightIntensity: ThingRow['lightIntensity'], now: Date): Promise<void> {
  await db.update(things).set({ lightIntensity, updatedAt: now }).where(eq(things.id, id));
}

/**
 * Why a save of an asset was refused: a field breaks a part 1 §5 rule that needs the database (the
 * field and its text), another asset of the organization has the nickname ('nickname_taken'), it was
 * saved since the copy the save was made from ('stale'), or it was removed meanwhile ('gone').
 */
export type SaveRefusal = { field: 'thing_type_id' | 'thing_subtype_id'; message: string } | 'nickname_taken' | 'stale' | 'gone';

/**
 * PUT /things/{id}: the part 1 §5 rules that need the database, then the write of the profile's
 * fields, one version on ('stale' when `expected`, the If-Match, is no longer its version):
 * 'saved', or why nothing was.
 */
export async function saveThing(
  db: Db,
  thing: ThingRow,
  body: z.infer<typeof thingUpdateSchema>,
  now: Date,
  expected: number | null = null,
): Promise<'saved' | SaveRefusal> {
  // part 1 §5: the type keeps the asset's emergency kind; the subtype belongs to the type.
  let typeId = thing.thingTypeId;
  if (body.thing_type_id !== undefined && body.thing_type_id !== thing.thingTypeId) {
    const found = await db
      .select({ id: thingTypes.id, isEmergency: thingTypes.isEmergency })
      .from(thingTypes)
      .where(inArray(thingTypes.id, [body.thing_type_id, thing.thingTypeId]));
    const next = found.find((t) => t.id === body.thing_type_id);
    const current = found.find((t) => t.id === thing.thingTypeId);
    if (!next) return { field: 'thing_type_id', message: THING_FIELD_ERRORS.unknownType };
    if (current && current.isEmergency !== next.isEmergency) {
      return { field: 'thing_type_id', message: THING_FIELD_ERRORS.typeKind(current.isEmergency) };
    }
    typeId = next.id;
  }
  let subtypeId = thing.thingSubtypeId;
  if (body.thing_subtype_id !== undefined) subtypeId = body.thing_subtype_id;
  if (subtypeId !== null) {
    const [subtype] = await db.select({ typeId: thingSubtypes.thingTypeId }).from(thingSubtypes).where(eq(thingSubtypes.id, subtypeId));
    if (!subtype || subtype.typeId !== typeId) {
      // A subtype the body names must fit; the stored one resets when the type changes (part 1 §5).
      if (body.thing_subtype_id !== undefined) return { field: 'thing_subtype_id', message: THING_FIELD_ERRORS.subtypeOfType };
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
    if (clash) return 'nickname_taken';
  }

  // part 1 §4: alerting switched off turns back on after 60 minutes; remember when it went off.
  const alertingOffAt = body.is_publicly_alerting ? null : thing.isPubliclyAlerting ? now : thing.alertingOffAt;
  return db.transaction(async (tx): Promise<'saved' | SaveRefusal> => {
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
      return live ? 'stale' : 'gone';
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
    return 'saved';
  });
}

/**
 * PUT /things/{id}/associations: replaces the asset's relations with `relations` (checked by the
 * route); the organizations that gained or lost the asset.
 */
export async function replaceAssociations(
  db: Db,
  thingId: string,
  relations: z.infer<typeof associationsSchema>['organization_relationships'],
  now: Date,
): Promise<{ organizationIds: string[] }> {
  const before = await db
    .select({ organizationId: thingRelationships.organizationId })
    .from(thingRelationships)
    .where(eq(thingRelationships.thingId, thingId));
  await db.transaction(async (tx) => {
    await tx.delete(thingRelationships).where(eq(thingRelationships.thingId, thingId));
    if (relations.length > 0) {
      await tx.insert(thingRelationships).values(
        relations.map((relation) => ({
          thingId,
          organizationId: relation.organization_uuid,
          relationshipType: relation.relationship_type,
        })),
      );
    }
    await tx.update(things).set({ updatedAt: now }).where(eq(things.id, thingId));
  });
  const related = relations.map((relation) => relation.organization_uuid);
  return { organizationIds: [...new Set([...before.map((row) => row.organizationId), ...related])] };
}
