/**
 * What the account-administration calls share (part 2 §2 "Account administration", §6, §7): which
 * organizations a caller administers, the lookup of a live organization, domain form schemas
 * applied to snake_case bodies (the set-password mail of a new user: server/mail/welcome-mail.ts).
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Caller } from '../auth/context';
import type { OrgScope } from '../auth/scope';
import type { Db } from '../db/connection';
import { organizations } from '../db/schema';
import { notFound } from '../core/errors';
import { isUuid, listValues } from './query';

/**
 * The organizations a caller administers: their own, its children and the ones it manages —
 * not those it merely accesses (an accessor sees assets, it does not run the organization).
 * haas:manage administers every organization.
 */
export function canAdministerOrg(scope: OrgScope, orgId: string): boolean {
  if (scope.visibleOrgIds === null) return true;
  if (orgId === scope.organizationId || scope.managedOrgIds.has(orgId)) return true;
  return scope.visibleOrgIds.has(orgId) && !scope.accessedOrgIds.has(orgId);
}

export type OrganizationRow = typeof organizations.$inferSelect;

/** A live (not deleted) organization by id, or null; ids that are not uuids are simply unknown. */
export async function findLiveOrg(db: Db, id: unknown): Promise<OrganizationRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), isNull(organizations.deletedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * The organization a call acts on: the given id (a body's organization_id or a query's) when the
 * caller administers it, else the caller's own (subscribed) one. Unknown, deleted or not
 * administered → 404 'Organization not found' (nothing tells a stranger it exists).
 */
export async function administeredOrg(db: Db, caller: Caller, requested: unknown): Promise<OrganizationRow> {
  const id = requested === undefined || requested === null || requested === '' ? caller.scope.organizationId : requested;
  const org = isUuid(id) && canAdministerOrg(caller.scope, id) ? await findLiveOrg(db, id) : null;
  if (!org) throw notFound('Organization');
  return org;
}

/** The ids of `org_ids[]` the caller administers; none asked: the caller's own organization. */
export function administeredOrgIds(scope: OrgScope, requested: readonly string[]): string[] {
  if (requested.length === 0) return [scope.organizationId];
  return requested.filter((id) => isUuid(id) && canAdministerOrg(scope, id));
}

/** `org_ids[]` as administeredOrgIds reads it (through listParam), for a list's documented-only query (./query). */
export const administeredOrgIdsQuery = {
  'org_ids[]': listValues(
    "The organizations asked; absent = the caller's own. Ids the caller does not administer (or that are no uuid) are left out.",
  ),
};
