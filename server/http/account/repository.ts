import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { ProfileWireInput } from '../../../src/domain/profile';
import type { ProfileForm } from '../../../src/domain/validation/accounts';
import type { Caller } from '../../auth/context';
import type { Db } from '../../db/connection';
import { nextVersion } from '../../db/rows';
import { apiKeys, organizations, organizationTypes, tokens, users } from '../../db/schema';

/**
 * The signed-in user's own account: the profile (read by GET /profile of ../auth/routes and by
 * PUT /profile here), its edit and the change of password. The caller is the target: no other
 * user or organization is reached.
 */

export type UserRow = typeof users.$inferSelect;

// ── the profile ──────────────────────────────────────────────────────────────

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

/** Saves a live user's names, phone and address (an empty phone or line 2 is none; state and country upper case). */
export async function saveProfile(db: Db, userId: string, form: ProfileForm, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      firstname: form.firstName,
      lastname: form.lastName,
      phone: form.phone ? form.phone : null,
      address1: form.address1,
      address2: form.address2 ? form.address2 : null,
      city: form.city,
      state: form.state.toUpperCase(),
      postalCode: form.postalCode,
      countryCode: form.countryCode.toUpperCase(),
      updatedAt: now,
      // The same names an administrator's user form edits: their save from an older copy is refused.
      version: nextVersion(users.version),
    })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
}

// ── the password ─────────────────────────────────────────────────────────────

/** A live (not deleted) user, or undefined. */
export async function findLiveUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  return user;
}

/** Sets a new password hash; a new password ends every outstanding recovery link (reset or unlock). */
export async function savePassword(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      passwordHash: hash,
      passwordChangedAt: now,
      updatedAt: now,
      resetTokenHash: null,
      resetTokenExpiresAt: null,
      unlockTokenHash: null,
    })
    .where(eq(users.id, userId));
}

/** Revokes every live token of the user but those of the family of `ownTokenId` (the caller's session); the ids revoked. */
export async function revokeOtherSessions(db: Db, userId: string, ownTokenId: string, now: Date): Promise<string[]> {
  const [own] = await db.select({ familyId: tokens.familyId }).from(tokens).where(eq(tokens.id, ownTokenId)).limit(1);
  const ended = await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.userId, userId), isNull(tokens.revokedAt), own ? ne(tokens.familyId, own.familyId) : undefined))
    .returning({ id: tokens.id });
  return ended.map((row) => row.id);
}
