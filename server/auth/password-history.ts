/**
 * part 1 §4, part 2 §5: a new password is not the current one nor any of the last
 * PASSWORD_HISTORY; setting one files the old hash in the history. `replacingPassword` does both
 * for the reset and the change of a password.
 */
import { desc, eq } from 'drizzle-orm';
import { PASSWORD_HISTORY } from '../../src/domain/constants';
import type { Db } from '../db/connection';
import { passwordHistory } from '../db/schema';
import { unprocessable } from '../core/errors';
import { hashPassword, verifyPassword } from './secrets';

/** The 422 the catalogue's reset row reads ('same' / 'used' → 'Cannot be same as last 10 passwords.'). */
async function refuseReusedPassword(db: Db, user: { id: string; passwordHash: string | null }, password: string): Promise<void> {
  const history = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, user.id))
    .orderBy(desc(passwordHistory.createdAt))
    .limit(PASSWORD_HISTORY);
  const previous = [user.passwordHash, ...history.map((h) => h.hash)];
  for (const hash of previous) {
    if (await verifyPassword(hash, password)) {
      throw unprocessable(`Password was used before: it cannot be the same as the last ${PASSWORD_HISTORY} passwords.`, 'password_reused');
    }
  }
}

/** Files the replaced hash (none for a user who never had a password). */
async function fileOldPassword(db: Db, user: { id: string; passwordHash: string | null }, now: Date): Promise<void> {
  if (user.passwordHash) await db.insert(passwordHistory).values({ userId: user.id, passwordHash: user.passwordHash, createdAt: now });
}

/**
 * A new password for `user`: refused (422) when used before; else the old hash is filed and the
 * new hash returned, for the caller to store with what else it changes.
 */
export async function replacingPassword(
  db: Db,
  user: { id: string; passwordHash: string | null },
  password: string,
  now: Date,
): Promise<string> {
  await refuseReusedPassword(db, user, password);
  const hash = await hashPassword(password);
  await fileOldPassword(db, user, now);
  return hash;
}
