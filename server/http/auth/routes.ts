import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { MAX_FAILED_SIGN_INS } from '../../../src/domain/constants';
import { ACCOUNT_RECOVERY_TEXT } from '../../../src/domain/labels';
import { profileWireSchema, type ProfileWire } from '../../../src/domain/profile';
import { tokenRequestSchema, tokenResponseSchema } from '../../../src/domain/session';
import { passwordRules } from '../../../src/domain/validation/auth';
import { RESET_TOKEN_TTL_MS } from '../../auth/policy';
import { callerForToken } from '../../auth/context';
import { replacingPassword } from '../../auth/password-history';
import { hashToken, newToken, sameHash, verifyPassword } from '../../auth/secrets';
import { claimSignInAttempt, clearSignInThrottles, settleSignInSuccess, signInEmailKey } from '../../auth/sign-in-throttle';
import { issueTokens, revokeAllForUser, revokeFamilyOfReusedRefreshToken, revokeToken, rotateRefreshToken } from '../../auth/tokens';
import { reserveRecoveryMail } from '../../mail/recovery-mail-quota';
import { lockAccount, mailUnlockLink } from '../../auth/lockout';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound } from '../../core/errors';
import { profileFor } from '../account/repository';
import {
  findUserByEmail,
  findUserByResetToken,
  recordActivity,
  recordSignIn,
  saveResetPassword,
  setResetToken,
  unlockUser,
} from './repository';
import {
  accountRefusal,
  emailBody,
  INCORRECT,
  invalidToken,
  LOCKED,
  messageAnswer,
  rateLimited,
  resetBody,
  resetPasswordMail,
  resetTokenExpired,
  resetTokenUnknown,
  resetUserSuspended,
  revokeTokenAnswer,
  revokeTokenBody,
  signInErrorAnswer,
  verifyTokenAnswer,
  verifyTokenBody,
  weakPassword,
} from './schema';

/** part 1 §7 auth calls: user_token, verify_token, revoke_token, forgot_password, reset_password, unlock_account. */
export function authRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db, mailer, config } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const limited = { config: { rateLimit: { max: config.authRateLimit, timeWindow: '1 minute' } } };

  /** grant_type refresh_token: the next tokens; a refresh token used twice ends its whole family. */
  async function refreshSession(refreshToken: string, now: Date) {
    const rotated = await rotateRefreshToken(db, refreshToken, now);
    if (!rotated) {
      const revoked = await revokeFamilyOfReusedRefreshToken(db, refreshToken, now);
      if (revoked.length) deps.events.emit('tokens-revoked', revoked);
      throw invalidToken();
    }
    return rotated;
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
    if (body.grant_type === 'refresh_token') return refreshSession(body.refresh_token, now);

    // Known and unknown e-mails go through the same steps and answers (docs/decisions/design.md, the lockout).
    const emailKey = signInEmailKey(body.username);
    const found = await findUserByEmail(db, body.username);
    // A valid unlock link unlocks before the password is checked (docs/decisions/spec.md "the unlock flow").
    const unlockHash = found?.user.unlockTokenHash;
    if (found && unlockHash && body.unlock_token && sameHash(hashToken(body.unlock_token), unlockHash)) {
      await clearSignInThrottles(db, emailKey);
      // An unlock changes no password: a reset link mailed before it stays valid (a password change
      // or a reset ends every outstanding link).
      await unlockUser(db, found.user.id);
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
    const { user } = found;

    // The password is right: now the account's own conditions, in the catalogue's words.
    const refused = accountRefusal(found, now);
    if (refused) throw refused;

    await recordSignIn(db, user.id, now);
    return issueTokens(db, user.id, user.organizationId, now);
  });

  const verifyTokenSchema = {
    summary: 'Check that an access token is valid',
    body: verifyTokenBody,
    response: { 200: verifyTokenAnswer },
  };
  api.post('/verify_token', { schema: verifyTokenSchema }, async (request) => {
    const body = request.body;
    const caller = await callerForToken(db, body.access_token, deps.now());
    if (!caller) throw invalidToken();
    return { valid: true as const, user_id: caller.userId };
  });

  const revokeTokenSchema = {
    summary: 'Revoke an access or refresh token (sign out)',
    body: revokeTokenBody,
    response: { 200: revokeTokenAnswer },
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
    const found = await findUserByEmail(db, email);
    if (found && !found.user.suspended && (await reserveRecoveryMail(db, found.user.id, deps.now()))) {
      const resetToken = newToken();
      await setResetToken(db, found.user.id, hashToken(resetToken), new Date(deps.now().getTime() + RESET_TOKEN_TTL_MS));
      const link = `${config.publicUrl}/welcome/reset/${encodeURIComponent(found.user.email)}/${resetToken}`;
      await mailer.send(resetPasswordMail(found.user.email, link));
    }
    // The same answer whether or not the e-mail exists (docs/decisions/spec.md).
    return { message: ACCOUNT_RECOVERY_TEXT.emailSentIfFound };
  });

  const unlockAccountSchema = {
    summary: 'Mail an unlock link to the e-mail, if it is a locked user',
    body: emailBody,
    response: { 200: messageAnswer, ...rateLimited },
  };
  api.post('/unlock_account', { ...limited, schema: unlockAccountSchema }, async (request) => {
    const { email } = request.body;
    const found = await findUserByEmail(db, email);
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
      const user = await findUserByResetToken(db, hashToken(body.token));
      if (!user) throw resetTokenUnknown();
      if (!user.resetTokenExpiresAt || user.resetTokenExpiresAt <= now) throw resetTokenExpired();
      if (user.suspended) throw resetUserSuspended();
      if (!passwordRules(body.password).every((rule) => rule.met)) throw weakPassword();
      // part 1 §4: not the current one, nor any of the last 10.
      const hash = await replacingPassword(db, user, body.password, now);
      await saveResetPassword(db, user.id, hash, now);
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
    await recordActivity(db, caller.userId, deps.now());
    // Every field is set (profileFor): the wire as the dashboard reads it, no default left to fill.
    return profile as ProfileWire;
  });
}
