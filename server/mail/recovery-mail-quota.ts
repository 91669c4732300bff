import { eq, sql } from 'drizzle-orm';
import { HOUR_MS } from '../../src/domain/constants';
import type { Db } from '../db/connection';
import { users } from '../db/schema';

/**
 * Reset and unlock mails an account receives per hour, both kinds together (OWASP Forgot Password
 * Cheat Sheet: limit the mails one address can be sent). Past it the caller gets the same answer
 * and no mail goes out, so a stranger cannot flood a mailbox or learn anything from the answer.
 */
export const MAX_RECOVERY_MAILS_PER_HOUR = 3;
export const RECOVERY_MAIL_WINDOW_MS = HOUR_MS;

/**
 * Counts one recovery mail for the user in one UPDATE … RETURNING (concurrent requests each get
 * their own count) and says whether it may be sent. A window starts with the first mail and lasts
 * an hour.
 */
export async function reserveRecoveryMail(db: Db, userId: string, now: Date): Promise<boolean> {
  const windowOver = sql`(${users.recoveryMailWindowAt} is null or ${users.recoveryMailWindowAt} <= ${new Date(now.getTime() - RECOVERY_MAIL_WINDOW_MS).toISOString()}::timestamptz)`;
  const [row] = await db
    .update(users)
    .set({
      recoveryMailCount: sql`case when ${windowOver} then 1 else ${users.recoveryMailCount} + 1 end`,
      recoveryMailWindowAt: sql`case when ${windowOver} then ${now.toISOString()}::timestamptz else ${users.recoveryMailWindowAt} end`,
    })
    .where(eq(users.id, userId))
    .returning({ count: users.recoveryMailCount });
  return row !== undefined && row.count <= MAX_RECOVERY_MAILS_PER_HOUR;
}
