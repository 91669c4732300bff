/**
 * The lockout (part 1 §8; docs/decisions/design.md, the lockout): the attempt that reaches
 * MAX_FAILED_SIGN_INS failures of an e-mail and address locks the account and mails an unlock
 * link. Wrong passwords at sign-in and wrong current passwords at a password change both count.
 */
import { eq, sql } from 'drizzle-orm';
import { MAX_FAILED_SIGN_INS, PRODUCT_NAME } from '../../src/domain/constants';
import { users } from '../db/schema';
import type { ServerDeps } from '../deps';
import { reserveRecoveryMail } from '../mail/recovery-mail-quota';
import { hashToken, newToken } from './secrets';

export const ACCOUNT_LOCKED_MESSAGE = `Your account is locked after ${MAX_FAILED_SIGN_INS} failed sign-in attempts. Use the unlock link we e-mailed you.`;

/** Mails a fresh unlock link, within the account's recovery mail limit (the old link stays valid when none is sent). */
export async function mailUnlockLink(deps: ServerDeps, user: { id: string; email: string }, now: Date): Promise<void> {
  const { db, mailer, config } = deps;
  if (!(await reserveRecoveryMail(db, user.id, now))) return;
  const unlockToken = newToken();
  await db
    .update(users)
    .set({ unlockTokenHash: hashToken(unlockToken) })
    .where(eq(users.id, user.id));
  const link = `${config.publicUrl}/welcome/unlock/${encodeURIComponent(user.email)}/${unlockToken}`;
  await mailer.send({
    to: user.email,
    kind: 'unlock',
    subject: `Unlock your ${PRODUCT_NAME} account`,
    text: `Your ${PRODUCT_NAME} account was locked after ${MAX_FAILED_SIGN_INS} failed sign-in attempts.\n\nUnlock it and sign in here:\n${link}\n`,
  });
}

/** Locks the account (the first lock's time is kept) and mails its unlock link. */
export async function lockAccount(deps: ServerDeps, user: { id: string; email: string }, now: Date): Promise<void> {
  await deps.db
    .update(users)
    .set({ lockedAt: sql`coalesce(${users.lockedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(users.id, user.id));
  await mailUnlockLink(deps, user, now);
}
