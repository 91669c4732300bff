/**
 * Which organizations a call covers and what the caller may do to their records, shared by the
 * map-object, asset and event calls (part 2 §8 "Lists and organization", part 1 §6).
 */
import { and, eq, inArray, isNull, sql, type Column, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { writesOrg } from '../../src/domain/permissions';
import type { Caller } from '../auth/context';
import { canSeeOrg, requestedOrgIds, type OrgScope } from '../auth/scope';
import type { Db } from '../db/connection';
import { organizations } from '../db/schema';
import { notFound, parse } from '../core/errors';
import { listParam, listValues } from './query';

/** A live organization the caller may see, or 404 'Organization not found'. */
export async function visibleOrganization(db: Db, caller: Caller, id: string) {
  const [org] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), isNull(organizations.deletedAt)))
    .limit(1);
  if (!org || !canSeeOrg(caller.scope, org.id)) throw notFound('Organization');
  return org;
}

/**
 * The organizations a list covers. part 2 §8 "Lists and organization: 404 'Organization not
 * found'": `org_ids[]` naming only organizations the caller cannot see (or that do not exist)
 * answers 404; absent, every visible organization (null: all, for haas:manage).
 */
export async function listOrgIds(db: Db, caller: Caller, query: unknown): Promise<string[] | null> {
  const requested = listParam(query, 'org_ids');
  if (requested.length === 0) return requestedOrgIds(caller.scope, requested);
  // A malformed id names no organization (and must not reach a uuid column).
  const wellFormed = requested.filter((id) => z.uuid().safeParse(id).success);
  // (requestedOrgIds reads an empty list as "none asked", hence the guard.)
  const visible = wellFormed.length === 0 ? [] : (requestedOrgIds(caller.scope, wellFormed) ?? []);
  const existing =
    visible.length === 0
      ? []
      : await db
          .select({ id: organizations.id })
          .from(organizations)
          .where(and(inArray(organizations.id, visible), isNull(organizations.deletedAt)));
  if (existing.length === 0) throw notFound('Organization');
  return existing.map((org) => org.id);
}

/** `org_ids[]` as listOrgIds reads it, for a list's documented-only query (./query). */
export const orgIdsQuery = {
  'org_ids[]': listValues(
    "The organizations to list; absent = every organization the caller sees. Ids the caller cannot see, or that name no organization, are left out; none left: 404 'Organization not found'.",
  ),
};

/**
 * `org_ids[]` of a list call, checked to be uuids (422 naming the field), reduced to the ones the
 * caller may see; null = every organization (haas:manage with no filter).
 */
export function requestedOrgs(query: unknown, scope: OrgScope): string[] | null {
  const ids = listParam(query, 'org_ids');
  parse(z.object({ org_ids: z.array(z.uuid({ error: 'must be a uuid' })) }), { org_ids: ids });
  return requestedOrgIds(scope, ids);
}

/** `org_ids[]` as requestedOrgs reads it, for a list's documented-only query (./query). */
export const requestedOrgIdsQuery = {
  'org_ids[]': listValues(
    'The organizations to list, each a uuid (else 422); absent = every organization the caller sees. Ids the caller cannot see are left out.',
    z.uuid(),
  ),
};

/** A condition `column ∈ orgIds` (null: no condition; an empty list: nothing). */
export function orgCondition(column: Column, orgIds: readonly string[] | null): SQL | undefined {
  if (orgIds === null) return undefined;
  return orgIds.length === 0 ? sql`false` : inArray(column, [...orgIds]);
}

/**
 * What the caller may do to an organization's records: `write` for their own organization, its
 * children and the organizations they manage (haas:manage: all); `read` for organizations they
 * only access (accessor relation); `none` for the rest (404, nothing leaks).
 */
export type OrgAccess = 'none' | 'read' | 'write';

export function orgAccess(scope: OrgScope, orgId: string): OrgAccess {
  if (scope.visibleOrgIds === null) return 'write';
  if (!scope.visibleOrgIds.has(orgId)) return 'none';
  // The one rule the screens use too (src/domain/permissions.ts): own, managed or child write.
  return writesOrg(scope, orgId) ? 'write' : 'read';
}
