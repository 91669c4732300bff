import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { organizationRelationships, organizations, thingRelationships, things } from '../db/schema';

/**
 * What a signed-in caller may see: their own organization, its
 * child organizations, and the organizations that name it as manager or accessor. haas:manage
 * sees every organization. Assets shared one by one (thing_relationships) are visible too.
 */
export interface OrgScope {
  /** The caller's own organization. */
  readonly organizationId: string;
  /** null: every organization (haas:manage). */
  readonly visibleOrgIds: ReadonlySet<string> | null;
  readonly managedOrgIds: ReadonlySet<string>;
  readonly accessedOrgIds: ReadonlySet<string>;
}

export async function loadOrgScope(db: Db, organizationId: string, seesAll: boolean): Promise<OrgScope> {
  const relations = await db
    .select({ organizationId: organizationRelationships.organizationId, type: organizationRelationships.relationshipType })
    .from(organizationRelationships)
    .where(eq(organizationRelationships.relatedOrganizationId, organizationId));
  const children = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.parentId, organizationId), isNull(organizations.deletedAt)));
  const managed = new Set(relations.filter((r) => r.type === 'manager').map((r) => r.organizationId));
  const accessed = new Set(relations.filter((r) => r.type === 'accessor').map((r) => r.organizationId));
  const visible = new Set<string>([organizationId, ...children.map((c) => c.id), ...managed, ...accessed]);
  return { organizationId, visibleOrgIds: seesAll ? null : visible, managedOrgIds: managed, accessedOrgIds: accessed };
}

export function canSeeOrg(scope: OrgScope, orgId: string): boolean {
  return scope.visibleOrgIds === null || scope.visibleOrgIds.has(orgId);
}

/**
 * The organizations a list call covers: the requested `org_ids[]` the caller may see (unknown
 * ones are dropped, never an error that would confirm they exist), or every visible one.
 */
export function requestedOrgIds(scope: OrgScope, requested: readonly string[]): string[] | null {
  if (requested.length === 0) return scope.visibleOrgIds === null ? null : [...scope.visibleOrgIds];
  return requested.filter((id) => canSeeOrg(scope, id));
}

/** SQL condition on `things`: owned by a visible organization, or shared with the caller's organization. */
export function thingVisibleSql(scope: OrgScope, orgIds: readonly string[] | null) {
  if (orgIds === null) return sql`true`;
  const shared = sql`exists (select 1 from ${thingRelationships} where ${thingRelationships.thingId} = ${things.id} and ${thingRelationships.organizationId} = ${scope.organizationId})`;
  return orgIds.length === 0 ? shared : or(inArray(things.organizationId, [...orgIds]), shared)!;
}

/**
 * The ids of the assets a scope sees, by the rule of GET /organization/things with no `org_ids[]`
 * (thingVisibleSql over every visible organization, live assets only); null: every asset
 * (haas:manage). The live socket loads it once per organization and filters frames with it.
 */
export async function visibleThingIds(db: Db, scope: OrgScope): Promise<ReadonlySet<string> | null> {
  const orgIds = requestedOrgIds(scope, []);
  if (orgIds === null) return null;
  const rows = await db
    .select({ id: things.id })
    .from(things)
    .where(and(isNull(things.deletedAt), thingVisibleSql(scope, orgIds)));
  return new Set(rows.map((row) => row.id));
}
