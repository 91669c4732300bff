/**
 * The set-password mail of a new user (part 2 §7 POST /users) and of the first administrator
 * (server/seed/first-admin.ts).
 */
import { eq } from 'drizzle-orm';
import { PRODUCT_NAME } from '../../src/domain/constants';
import { RESET_TOKEN_TTL_MS } from '../auth/policy';
import { hashToken, newToken } from '../auth/secrets';
import { users } from '../db/schema';
import type { ServerDeps } from '../deps';

/** A welcome link stays valid a week: a new user may not read the mail the same day. */
export const WELCOME_TOKEN_TTL_MS = 7 * RESET_TOKEN_TTL_MS;

/**
 * A new user has no password: like 'Forgot password?' (server/http/auth/routes.ts) it gets a reset token
 * (stored hashed, with an expiry) and a mail with the /welcome/reset/{email}/{token} link, which
 * sets the first password through PUT /reset_password. Answers the link (the first administrator's
 * is printed at start too: server/seed/first-admin.ts).
 */
export async function mailSetPasswordLink(
  deps: Pick<ServerDeps, 'db' | 'mailer' | 'config'>,
  user: { id: string; email: string; firstname: string },
  now: Date,
): Promise<string> {
  const token = newToken();
  await deps.db
    .update(users)
    .set({ resetTokenHash: hashToken(token), resetTokenExpiresAt: new Date(now.getTime() + WELCOME_TOKEN_TTL_MS) })
    .where(eq(users.id, user.id));
  const link = `${deps.config.publicUrl}/welcome/reset/${encodeURIComponent(user.email)}/${token}`;
  await deps.mailer.send({
    to: user.email,
    kind: 'welcome',
    subject: `Welcome to ${PRODUCT_NAME}`,
    text: `Hello ${user.firstname},\n\nAn account was created for you on ${PRODUCT_NAME}.\n\nSet your password here (the link works for 7 days):\n${link}\n\nWhen it has expired, use 'Forgot password?' on the sign-in page.`,
  });
  return link;
}
