import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ProfileWireInput } from '../../src/domain/profile';
import type { Caller } from '../auth/context';
import type { Db } from '../db/connection';
import { apiKeys, organizations, organizationTypes, users } from '../db/schema';

async function orgRefs(db: Db, ids: ReadonlySet<string>) {
  if (ids.size === 0) return [];
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(and(inArray(organizations.id, [...ids]), isNull(organizations.deletedAt)))
    .orderBy(sql`upper(${organizations.name})`);
  return rows;
}

/** part 1 §7 GET /profile: the user with user_org, managed_orgs and accessed_orgs (wire names of src/domain/profile.ts). */
export async function profileFor(db: Db, caller: Caller): Promise<ProfileWireInput | null> {
  const [row] = await db
    .select({ user: users, org: organizations, type: organizationTypes })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(organizationTypes, eq(organizationTypes.id, organizations.organizationTypeId))
    .where(eq(users.id, caller.userId))
    .limit(1);
  if (!row) return null;
  const [keys] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, caller.userId), isNull(apiKeys.revokedAt)));
  const { user, org, type } = row;
  return {
    id: user.id,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    phone: user.phone,
    address1: user.address1,
    address2: user.address2,
    city: user.city,
    state: user.state?.toUpperCase() ?? null,
    postal_code: user.postalCode,
    country_code: user.countryCode ?? org.countryCode,
    timezone: org.timezone,
    // The token's organization: the one the user is subscribed to now.
    organization_id: caller.scope.organizationId,
    organization_type: type?.name ?? null,
    acs: type?.acs ?? false,
    permissions: [...caller.permissions].sort(),
    has_api_keys: (keys?.count ?? 0) > 0,
    is_ha_direct_enabled: false,
    show_infinite_timeout_option: org.showInfiniteTimeoutOption,
    user_access: true,
    dashboard_access: org.dashboardEnabled,
    role_id: user.roleId,
    user_org: { id: org.id, name: org.name, maxio_cust_id: org.maxioCustId },
    managed_orgs: await orgRefs(db, caller.scope.managedOrgIds),
    accessed_orgs: await orgRefs(db, caller.scope.accessedOrgIds),
  };
}
