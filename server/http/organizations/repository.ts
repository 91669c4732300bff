import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { OrganizationWire } from '../../../src/domain/organization';
import type { Db } from '../../db/connection';
import { nextVersion, queryRows, sameVersion } from '../../db/rows';
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
} from '../../db/schema';
import type { OrganizationRow } from '../account-admin';
import { isUuid } from '../query';

/**
 * The organization calls' reads and writes, and the organization wire (who may do what: ./routes;
 * the lookup of a live organization: ../account-admin).
 */

// ── reads ────────────────────────────────────────────────────────────────────

/** An organization type by id, or null; ids that are not uuids are simply unknown. */
export async function findOrganizationType(db: Db, id: string) {
  return isUuid(id) ? selectOrganizationType(db, id) : null;
}

async function selectOrganizationType(db: Db, id: string) {
  const [type] = await db.select().from(organizationTypes).where(eq(organizationTypes.id, id)).limit(1);
  return type ?? null;
}

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
  const type = org.organizationTypeId ? await selectOrganizationType(db, org.organizationTypeId) : null;
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
    phone_number: org.phoneNumber,
    cell_phone_number: org.cellPhoneNumber,
    contact_name: org.contactName,
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

// ── writes ───────────────────────────────────────────────────────────────────

/** What PUT /organization/{id} writes. */
export type OrganizationEdit = Pick<
  typeof organizations.$inferInsert,
  | 'name'
  | 'address1'
  | 'address2'
  | 'city'
  | 'state'
  | 'postalCode'
  | 'countryCode'
  | 'email'
  | 'phoneNumber'
  | 'cellPhoneNumber'
  | 'contactName'
  | 'organizationTypeId'
  | 'timezone'
>;

/** Saves an organization's edit when its version is still `expected` (null: any), moving the counter on. */
export async function updateOrganization(
  db: Db,
  id: string,
  expected: number | null,
  values: OrganizationEdit,
  now: Date,
): Promise<OrganizationRow | undefined> {
  const [updated] = await db
    .update(organizations)
    .set({ ...values, updatedAt: now, version: nextVersion(organizations.version) })
    .where(and(eq(organizations.id, id), sameVersion(organizations.version, expected)))
    .returning();
  return updated;
}

/**
 * Ends an organization in one transaction, unless it owns live assets (then nothing is written and
 * their count is answered): the organization and its users (soft), their API keys and sessions
 * (revoked: the ids of the tokens are answered), its manager/accessor relations with organizations
 * and with single assets (removed), its closures, areas and events (soft-deleted, inactive), its
 * alerting zones (inactive), its WZDx feed subscriptions (disabled) and its integrations (removed).
 */
export async function deleteOrganization(db: Db, orgId: string, now: Date): Promise<{ assets: number } | { revoked: string[] }> {
  return db.transaction(async (tx) => {
    // Counted inside the transaction, with the organization's row locked: an asset created meanwhile is seen.
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('update');
    const [assets] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(things)
      .where(and(eq(things.organizationId, orgId), isNull(things.deletedAt)));
    if ((assets?.n ?? 0) > 0) return { assets: assets!.n };
    await tx.update(organizations).set({ deletedAt: now, updatedAt: now }).where(eq(organizations.id, orgId));
    await retireOwnedRecords(tx, orgId, now);
    const userIds = await deleteOrganizationUsers(tx, orgId, now);
    await tx
      .delete(organizationRelationships)
      .where(or(eq(organizationRelationships.organizationId, orgId), eq(organizationRelationships.relatedOrganizationId, orgId)));
    return { revoked: await revokeOrganizationTokens(tx, orgId, userIds, now) };
  });
}

/** What an ended organization owns besides its users: asset relations, closures, areas, zones, events, feeds, integrations. */
async function retireOwnedRecords(tx: Db, orgId: string, now: Date): Promise<void> {
  await tx.delete(thingRelationships).where(eq(thingRelationships.organizationId, orgId));
  await tx
    .update(closures)
    .set({ deletedAt: now, isActive: false, updatedAt: now })
    .where(and(eq(closures.organizationId, orgId), isNull(closures.deletedAt)));
  await tx
    .update(areas)
    .set({ deletedAt: now, isActive: false, updatedAt: now })
    .where(and(eq(areas.organizationId, orgId), isNull(areas.deletedAt)));
  await tx.update(alertingZones).set({ isActive: false, updatedAt: now }).where(eq(alertingZones.organizationId, orgId));
  await tx
    .update(locations)
    .set({ deletedAt: now, isActive: false, updatedAt: now })
    .where(and(eq(locations.organizationId, orgId), isNull(locations.deletedAt)));
  await tx.update(wzdxFeeds).set({ enabled: false, updatedAt: now }).where(eq(wzdxFeeds.organizationId, orgId));
  await tx.delete(integrationConfigurations).where(eq(integrationConfigurations.organizationId, orgId));
}

/** Soft-deletes the organization's live users and revokes their API keys; their ids. */
async function deleteOrganizationUsers(tx: Db, orgId: string, now: Date): Promise<string[]> {
  const gone = await tx
    .update(users)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(users.organizationId, orgId), isNull(users.deletedAt)))
    .returning({ id: users.id });
  const userIds = gone.map((row) => row.id);
  if (userIds.length) {
    await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(inArray(apiKeys.userId, userIds), isNull(apiKeys.revokedAt)));
  }
  return userIds;
}

/** Revokes the live tokens of the organization and of its users; their ids. */
async function revokeOrganizationTokens(tx: Db, orgId: string, userIds: readonly string[], now: Date): Promise<string[]> {
  const ended = await tx
    .update(tokens)
    .set({ revokedAt: now })
    .where(
      and(
        isNull(tokens.revokedAt),
        userIds.length ? or(eq(tokens.organizationId, orgId), inArray(tokens.userId, [...userIds])) : eq(tokens.organizationId, orgId),
      ),
    )
    .returning({ id: tokens.id });
  return ended.map((row) => row.id);
}
