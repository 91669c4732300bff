import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DAY_MS, MAX_FAILED_SIGN_INS, PASSWORD_EXPIRY_DAYS, PRODUCT_NAME } from '../../src/domain/constants';
import { SIGN_IN_ERROR_CODES } from '../../src/domain/errors';
import { ACCOUNT_RECOVERY_TEXT } from '../../src/domain/labels';
import { allowedSections } from '../../src/domain/permissions';
import { profileWireSchema, type ProfileWire } from '../../src/domain/profile';
import { tokenRequestSchema, tokenResponseSchema } from '../../src/domain/session';
import { passwordRules } from '../../src/domain/validation/auth';
import { ACCOUNT_INACTIVITY_EXPIRY_DAYS, RESET_TOKEN_TTL_MS } from '../auth/policy';
import { callerForToken } from '../auth/context';
import { replacingPassword } from '../auth/password-history';
import { hashToken, newToken, sameHash, verifyPassword } from '../auth/secrets';
import { claimSignInAttempt, clearSignInThrottles, settleSignInSuccess, signInEmailKey } from '../auth/sign-in-throttle';
import { issueTokens, revokeAllForUser, revokeFamilyOfReusedRefreshToken, revokeToken, rotateRefreshToken } from '../auth/tokens';
import { organizations, roles, users } from '../db/schema';
import { reserveRecoveryMail } from '../mail/recovery-mail-quota';
import { ACCOUNT_LOCKED_MESSAGE, lockAccount, mailUnlockLink } from '../auth/lockout';
import type { ServerDeps } from '../deps';
import { errorAnswer, HttpError, notFound, unprocessable } from '../core/errors';
import { profileFor } from './profile';

const emailBody = z.object({ email: z.string().trim().min(1, 'Required').max(320) });
const resetBody = z.object({ token: z.string().min(1), password: z.string().min(1).max(200) });

/** The answer of the recovery calls: one sentence, the same whether or not the e-mail exists. */
const messageAnswer = z.object({ message: z.string() });

/**
 * A refused sign-in (part 1 §8): the error body with the OAuth-style `error_description` (the
 * message again). Optional: Fastify's own 400 (malformed JSON) comes without it. The call is open,
 * so its 401 and 403 (the account's conditions) are told in its description, not as statuses: the
 * document keeps 401 and 403 for the access token and the role (./openapi).
 */
const signInErrorAnswer = errorAnswer.extend({
  error_description: z.string().optional().meta({ description: 'The message again, as OAuth clients read it.' }),
});
/** The rate limit of the sign-in and recovery calls (README, AUTH_RATE_LIMIT a minute per address): 429 rate_limited. */
const rateLimited = { 429: errorAnswer };

/** A sign-in failure: the OAuth-style body the client's catalogue reads (part 1 §8). */
function signInError(status: number, code: string, description: string): HttpError {
  return new HttpError(status, code, description, { error_description: description });
}

const INCORRECT = () => signInError(400, 'invalid_grant', 'Email and/or password incorrect.');
/** The same answer for a known and an unknown e-mail (README "Design decisions", the lockout). */
const LOCKED = () => signInError(401, SIGN_IN_ERROR_CODES.lockedOut, ACCOUNT_LOCKED_MESSAGE);

/** part 1 §7 auth calls: user_token, verify_token, revoke_token, forgot_password, reset_password, unlock_account. */
export function authRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db, mailer, config } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const limited = { config: { rateLimit: { max: config.authRateLimit, timeWindow: '1 minute' } } };

  async function findUserByEmail(email: string) {
    const [row] = await db
      .select({ user: users, organization: organizations, permissions: roles.permissions })
      .from(users)
      .innerJoin(organizations, eq(organizations.id, users.organizationId))
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(sql`lower(${users.email}) = lower(${email.trim()})`, isNull(users.deletedAt)))
      .limit(1);
    return row ?? null;
  }

  /** part 1 §7 POST /user_token: sign in (grant_type password) or refresh (grant_type refresh_token). */
  const userTokenSchema = {
    summary: 'Sign in with e-mail and password, or refresh the session',
    description:
      'A wrong e-mail or password is 400 invalid_grant; an account locked, suspended, expired, or whose organization is not enabled is 401, and a role with no section 403, each with `error_description` (part 1 §8). A refresh token that is expired or was used is 422 invalid_token.',
    body: tokenRequestSchema,
    response: { 200: tokenResponseSchema, 400: signInErrorAnswer, ...rateLimited },
  };
  api.post('/user_token', { ...limited, schema: userTokenSchema }, async (request) => {
    const body = request.body;
    const now = deps.now();
    if (body.grant_type === 'refresh_token') {
      const rotated = await rotateRefreshToken(db, body.refresh_token, now);
      if (!rotated) {
        const revoked = await revokeFamilyOfReusedRefreshToken(db, body.refresh_token, now);
        if (revoked.length) deps.events.emit('tokens-revoked', revoked);
        throw unprocessable('Access token is expired or does not exist.', 'invalid_token');
      }
      return rotated;
    }

    // Known and unknown e-mails go through the same steps and answers (README "Design decisions", the lockout).
    const emailKey = signInEmailKey(body.username);
    const found = await findUserByEmail(body.username);
    // A valid unlock link unlocks before the password is checked (README "the unlock flow").
    const unlockHash = found?.user.unlockTokenHash;
    if (found && unlockHash && body.unlock_token && sameHash(hashToken(body.unlock_token), unlockHash)) {
      await clearSignInThrottles(db, emailKey);
      // An unlock changes no password: a reset link mailed before it stays valid (a password change
      // or a reset ends every outstanding link).
      await db.update(users).set({ lockedAt: null, unlockTokenHash: null }).where(eq(users.id, found.user.id));
    }

    const attempt = await claimSignInAttempt(db, emailKey, request.ip, now);
    if (attempt === null) throw LOCKED();
    const passwordOk = await verifyPassword(found?.user.passwordHash ?? null, body.password);
    if (!found || !passwordOk) {
      if (attempt < MAX_FAILED_SIGN_INS) throw INCORRECT();
      if (found && attempt === MAX_FAILED_SIGN_INS) {
        await lockAccount(deps, found.user, now);
      }
      throw LOCKED();
    }
    if (!(await settleSignInSuccess(db, emailKey, request.ip, attempt))) throw LOCKED();
    const { user, organization } = found;

    // The password is right: now the account's own conditions, in the catalogue's words.
    if (user.suspended) throw signInError(401, SIGN_IN_ERROR_CODES.userSuspended, 'User is suspended.');
    if (organization.externalAccessManagement) {
      throw signInError(401, SIGN_IN_ERROR_CODES.notAuthorizedMethod, 'Your organization is managing user access to the dashboard.');
    }
    if (!organization.dashboardEnabled) {
      throw signInError(401, SIGN_IN_ERROR_CODES.notEnabled, `Your organization is not enabled for ${PRODUCT_NAME}.`);
    }
    const lastSeen = user.lastActivityAt ?? user.lastSignInAt ?? user.createdAt;
    if (now.getTime() - lastSeen.getTime() >= ACCOUNT_INACTIVITY_EXPIRY_DAYS * DAY_MS) {
      throw signInError(401, SIGN_IN_ERROR_CODES.expired, 'Your account has expired due to inactivity.');
    }
    if (user.passwordChangedAt && now.getTime() - user.passwordChangedAt.getTime() >= PASSWORD_EXPIRY_DAYS * DAY_MS) {
      throw signInError(
        401,
        SIGN_IN_ERROR_CODES.lockedOut,
        `Your password expired after ${PASSWORD_EXPIRY_DAYS} days. Use 'Forgot password?' to set a new one.`,
      );
    }
    if (allowedSections(found.permissions).length === 0) {
      throw signInError(403, 'not_authorized', `Your user is not authorized to access ${PRODUCT_NAME}.`);
    }

    await db
      .update(users)
      .set({ signInCount: sql`${users.signInCount} + 1`, lastSignInAt: now, lastActivityAt: now })
      .where(eq(users.id, user.id));
    return issueTokens(db, user.id, user.organizationId, now);
  });

  const verifyTokenSchema = {
    summary: 'Check that an access token is valid',
    body: z.object({ access_token: z.string().min(1) }),
    response: { 200: z.object({ valid: z.literal(true), user_id: z.string() }) },
  };
  api.post('/verify_token', { schema: verifyTokenSchema }, async (request) => {
    const body = request.body;
    const caller = await callerForToken(db, body.access_token, deps.now());
    if (!caller) throw unprocessable('Access token is expired or does not exist.', 'invalid_token');
    return { valid: true as const, user_id: caller.userId };
  });

  const revokeTokenSchema = {
    summary: 'Revoke an access or refresh token (sign out)',
    body: z.object({ token: z.string().min(1) }),
    response: { 200: z.object({}).meta({ description: 'Revoked, or no such token (RFC 7009).' }) },
  };
  api.post('/revoke_token', { schema: revokeTokenSchema }, async (request) => {
    const body = request.body;
    const revoked = await revokeToken(db, body.token, deps.now());
    if (revoked) deps.events.emit('tokens-revoked', [revoked]);
    // RFC 7009: revoking an unknown token is not an error.
    return {};
  });

  const forgotPasswordSchema = {
    summary: 'Mail a reset-password link to the e-mail, if it is a user',
    body: emailBody,
    response: { 200: messageAnswer, ...rateLimited },
  };
  api.post('/forgot_password', { ...limited, schema: forgotPasswordSchema }, async (request) => {
    const { email } = request.body;
    const found = await findUserByEmail(email);
    if (found && !found.user.suspended && (await reserveRecoveryMail(db, found.user.id, deps.now()))) {
      const resetToken = newToken();
      await db
        .update(users)
        .set({ resetTokenHash: hashToken(resetToken), resetTokenExpiresAt: new Date(deps.now().getTime() + RESET_TOKEN_TTL_MS) })
        .where(eq(users.id, found.user.id));
      const link = `${config.publicUrl}/welcome/reset/${encodeURIComponent(found.user.email)}/${resetToken}`;
      await mailer.send({
        to: found.user.email,
        kind: 'reset',
        subject: `Reset your ${PRODUCT_NAME} password`,
        text: `Someone asked to reset the password of your ${PRODUCT_NAME} account.\n\nSet a new password here (the link works for 24 hours):\n${link}\n\nIf it was not you, ignore this mail.`,
      });
    }
    // The same answer whether or not the e-mail exists (README "Spec decisions").
    return { message: ACCOUNT_RECOVERY_TEXT.emailSentIfFound };
  });

  const unlockAccountSchema = {
    summary: 'Mail an unlock link to the e-mail, if it is a locked user',
    body: emailBody,
    response: { 200: messageAnswer, ...rateLimited },
  };
  api.post('/unlock_account', { ...limited, schema: unlockAccountSchema }, async (request) => {
    const { email } = request.body;
    const found = await findUserByEmail(email);
    if (found?.user.lockedAt) await mailUnlockLink(deps, found.user, deps.now());
    return { message: ACCOUNT_RECOVERY_TEXT.emailSentIfFound };
  });

  api.put(
    '/reset_password',
    {
      ...limited,
      schema: {
        summary: 'Set a new password with the token of a reset or welcome link',
        description: 'An unknown token is 404, an expired one 422 token_expired, a suspended user 401 user_suspended.',
        body: resetBody,
        response: { 200: messageAnswer, 404: errorAnswer, ...rateLimited },
      },
    },
    async (request) => {
      const body = request.body;
      const now = deps.now();
      const [user] = await db
        .select()
        .from(users)
        .where(and(eq(users.resetTokenHash, hashToken(body.token)), isNull(users.deletedAt)))
        .limit(1);
      if (!user) throw new HttpError(404, 'not_found', 'Reset token is expired or does not exist.');
      if (!user.resetTokenExpiresAt || user.resetTokenExpiresAt <= now) {
        throw unprocessable('Reset token has expired.', 'token_expired');
      }
      if (user.suspended) throw new HttpError(401, SIGN_IN_ERROR_CODES.userSuspended, 'User is suspended.');
      if (!passwordRules(body.password).every((rule) => rule.met)) {
        throw unprocessable('Password does not fulfill password requirements.', 'weak_password');
      }
      // part 1 §4: not the current one, nor any of the last 10.
      const hash = await replacingPassword(db, user, body.password, now);
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
        .where(eq(users.id, user.id));
      await clearSignInThrottles(db, signInEmailKey(user.email));
      const revoked = await revokeAllForUser(db, user.id, now);
      if (revoked.length) deps.events.emit('tokens-revoked', revoked);
      return { message: 'Password updated' };
    },
  );

  /** part 1 §7 GET /profile: the signed-in user, their organization and permissions. */
  const profileSchema = { summary: "The signed-in user's profile and permissions", response: { 200: profileWireSchema, 404: errorAnswer } };
  api.get('/profile', { config: { access: 'signed-in' }, schema: profileSchema }, async (request) => {
    const { caller } = request;
    const profile = await profileFor(db, caller);
    if (!profile) throw notFound('User');
    await db.update(users).set({ lastActivityAt: deps.now() }).where(eq(users.id, caller.userId));
    // Every field is set (profileFor): the wire as the dashboard reads it, no default left to fill.
    return profile as ProfileWire;
  });
}
