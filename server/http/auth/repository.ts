import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { organizations, roles, users } from '../../db/schema';

/**
 * The auth calls' reads and writes of the user (the tokens, throttles, lockout and password
 * history are ../../auth's). The profile GET /profile answers is ../account/repository's.
 */

export type UserRow = typeof users.$inferSelect;

/** A live user by e-mail (in any case, trimmed), with their organization and role's permissions, or null. */
export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ user: users, organization: organizations, permissions: roles.permissions })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(sql`lower(${users.email}) = lower(${email.trim()})`, isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Unlocks an account (its unlock link used). */
export async function unlockUser(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ lockedAt: null, unlockTokenHash: null }).where(eq(users.id, userId));
}

/** Counts a sign-in: one more, and the time of the last sign-in and activity. */
export async function recordSignIn(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ signInCount: sql`${users.signInCount} + 1`, lastSignInAt: now, lastActivityAt: now })
    .where(eq(users.id, userId));
}

/** Keeps the hash of a new reset token and until when it works. */
export async function setResetToken(db: Db, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.update(users).set({ resetTokenHash: tokenHash, resetTokenExpiresAt: expiresAt }).where(eq(users.id, userId));
}

/** The live user whose reset token has this hash, or undefined. */
export async function findUserByResetToken(db: Db, tokenHash: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.resetTokenHash, tokenHash), isNull(users.deletedAt)))
    .limit(1);
  return user;
}

/** Sets the password a reset link chose: the link is used up, and the account reactivated. */
export async function saveResetPassword(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      passwordHash: hash,
      passwordChangedAt: now,
      resetTokenHash: null,
      resetTokenExpiresAt: null,
      // A reset reactivates: it unlocks and counts as activity (part 1 §8 "click 'Forgot password?' to reactivate").
      lockedAt: null,
      unlockTokenHash: null,
      // The reset proved the mailbox is the user's: the mail limit starts again.
      recoveryMailCount: 0,
      recoveryMailWindowAt: null,
      lastActivityAt: now,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
}

/** Counts activity (GET /profile: the dashboard is open). */
export async function recordActivity(db: Db, userId: string, now: Date): Promise<void> {
  await db.update(users).set({ lastActivityAt: now }).where(eq(users.id, userId));
}
