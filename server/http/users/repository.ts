import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { UserWire } from '../../../src/domain/user';
import { revokeAllForUser } from '../../auth/tokens';
import type { Db } from '../../db/connection';
import { apiKeys, organizationRelationships, organizations, roles, users } from '../../db/schema';
import { nextVersion, sameVersion } from '../../db/rows';
import { isUniqueViolation } from '../../core/errors';
import { isUuid } from '../query';

/**
 * The user calls' reads and writes, and the user wire (who may do what: ./routes). A write the
 * unique e-mail index refuses answers 'email_taken'; one whose row is gone or changed answers undefined.
 */

// ── wire ─────────────────────────────────────────────────────────────────────

export type UserRow = typeof users.$inferSelect;

/** The user wire of part 2 §3 (src/domain/user.ts), with the organization it belongs to. */
export function userWire(
  user: UserRow,
  organizationName: string | null = null,
  roleName: string | null = null,
): UserWire & { organization_id: string; organization_name: string | null } {
  return {
    ...(roleName === null ? {} : { role_name: roleName }),
    id: user.id,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    role_id: user.roleId,
    sign_in_count: user.signInCount,
    last_sign_in_at: user.lastSignInAt?.toISOString() ?? null,
    organization_id: user.organizationId,
    organization_name: organizationName,
    version: user.version,
  };
}

// ── reads ────────────────────────────────────────────────────────────────────

/** A live user of a live organization, with its role's permissions, or null; ids that are not uuids are simply unknown. */
export async function findUserWithRole(db: Db, id: string): Promise<{ user: UserRow; permissions: string[] } | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ user: users, permissions: roles.permissions })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.id, id), isNull(users.deletedAt), isNull(organizations.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Whether a live user other than `exceptId` has this e-mail (in any case). */
export async function isEmailTaken(db: Db, email: string, exceptId: string | null): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deletedAt)))
    .limit(2);
  return rows.some((row) => row.id !== exceptId);
}

export async function findOrganizationName(db: Db, id: string): Promise<string | null> {
  const [row] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, id)).limit(1);
  return row?.name ?? null;
}

/** The wires of the live users of live organizations among `orgIds` (with organization and role names), by last name, first name, id. */
export async function listUsersOf(db: Db, orgIds: readonly string[]): Promise<ReturnType<typeof userWire>[]> {
  if (orgIds.length === 0) return [];
  const rows = await db
    .select({ user: users, orgName: organizations.name, roleName: roles.name })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(inArray(users.organizationId, [...orgIds]), isNull(users.deletedAt), isNull(organizations.deletedAt)))
    .orderBy(asc(sql`lower(${users.lastname})`), asc(sql`lower(${users.firstname})`), asc(users.id));
  return rows.map((row) => userWire(row.user, row.orgName, row.roleName));
}

/** The organizations that manage (or access) an organization. */
export async function listRelatedOrgIds(db: Db, orgId: string, type: 'manager' | 'accessor'): Promise<string[]> {
  const rows = await db
    .select({ id: organizationRelationships.relatedOrganizationId })
    .from(organizationRelationships)
    .where(and(eq(organizationRelationships.organizationId, orgId), eq(organizationRelationships.relationshipType, type)));
  return rows.map((row) => row.id);
}

// ── writes ───────────────────────────────────────────────────────────────────

/** A write the unique e-mail index refused. */
export type EmailTaken = 'email_taken';

/** A new user as the add form gives it (no password: the route mails a set-password link). */
export interface NewUser {
  organizationId: string;
  email: string;
  firstname: string;
  lastname: string;
  roleId: number;
  createdBy: string;
}

export async function insertUser(db: Db, values: NewUser, now: Date): Promise<UserRow | EmailTaken | undefined> {
  try {
    const [created] = await db
      .insert(users)
      .values({ ...values, createdAt: now, updatedAt: now })
      .returning();
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) return 'email_taken';
    throw error;
  }
}

/** What PUT /users/{id} writes. */
export interface UserEdit {
  firstname: string;
  lastname: string;
  email: string;
  roleId: number;
}

/** Saves a user's edit when its version is still `expected` (null: any), moving the counter on. */
export async function updateUser(
  db: Db,
  id: string,
  expected: number | null,
  values: UserEdit,
  now: Date,
): Promise<UserRow | EmailTaken | undefined> {
  try {
    const [updated] = await db
      .update(users)
      .set({ ...values, updatedAt: now, version: nextVersion(users.version) })
      .where(and(eq(users.id, id), sameVersion(users.version, expected)))
      .returning();
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) return 'email_taken';
    throw error;
  }
}

/** Saves a user's names when its version is still `expected` (null: any), moving the counter on. */
export async function renameUser(
  db: Db,
  id: string,
  expected: number | null,
  names: { firstname: string; lastname: string },
  now: Date,
): Promise<UserRow | undefined> {
  const [updated] = await db
    .update(users)
    .set({ ...names, updatedAt: now, version: nextVersion(users.version) })
    .where(and(eq(users.id, id), sameVersion(users.version, expected)))
    .returning();
  return updated;
}

/** Soft-deletes a user and revokes their API keys and tokens; the ids of the tokens revoked. */
export async function deleteUser(db: Db, id: string, now: Date): Promise<string[]> {
  await db.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, id));
  await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.userId, id), isNull(apiKeys.revokedAt)));
  return revokeAllForUser(db, id, now);
}
