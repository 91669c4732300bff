/**
 * The signed-in user's own account (part 2 §2 accounts, tab "account"; §3 User "Profile adds ...
 * phone and address fields"; §5 address and "Reset password (applies to account administration as
 * well)"). Paths designed (§7 shows none for them):
 *   PUT /profile  {firstname, lastname, phone, address1, address2, city, state, postal_code, country_code} → the profile
 *   PUT /password {current_password, password, password_confirmation} → {message}
 * Any signed-in user, and only for their own user: the caller is the target, so no other user or
 * organization can be reached through them.
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { MAX_FAILED_SIGN_INS } from '../../../src/domain/constants';
import { profileWireSchema, type ProfileWire } from '../../../src/domain/profile';
import { replacingPassword } from '../../auth/password-history';
import { lockAccount } from '../../auth/lockout';
import { verifyPassword } from '../../auth/secrets';
import { claimSignInAttempt, settleSignInSuccess, signInEmailKey } from '../../auth/sign-in-throttle';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound } from '../../core/errors';
import { findLiveUser, profileFor, revokeOtherSessions, savePassword, saveProfile } from './repository';
import {
  currentPasswordLocked,
  passwordBody,
  passwordChangedAnswer,
  profileBody,
  validPasswordChange,
  validProfile,
  wrongCurrentPassword,
} from './schema';

export function accountRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db, config } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const profileSchema = {
    summary: "Edit the signed-in user's names, phone and address",
    body: profileBody,
    response: { 200: profileWireSchema, 404: errorAnswer },
  };
  api.put('/profile', { config: { access: 'signed-in' }, schema: profileSchema }, async (request) => {
    const { caller } = request;
    const form = validProfile(request.body);
    await saveProfile(db, caller.userId, form, deps.now());
    const profile = await profileFor(db, caller);
    if (!profile) throw notFound('User');
    // Every field is set (profileFor): the wire as the dashboard reads it, no default left to fill.
    return profile as ProfileWire;
  });

  /**
   * Change password: the current one must be right (a stolen session alone cannot take the
   * account), the new one meets the rules and is none of the last 10. The caller's own session
   * stays; every other session of the user ends (docs/decisions/spec.md).
   */
  api.put(
    '/password',
    {
      config: { access: 'signed-in', rateLimit: { max: config.authRateLimit, timeWindow: '1 minute' } },
      schema: {
        summary: "Change the signed-in user's password (the current one required)",
        body: passwordBody,
        // 429: the sign-in's rate limit (docs/configuration.md, AUTH_RATE_LIMIT).
        response: { 200: passwordChangedAnswer, 404: errorAnswer, 429: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const form = validPasswordChange(request.body);
      const now = deps.now();
      const user = await findLiveUser(db, caller.userId);
      if (!user) throw notFound('User');
      // A wrong current password counts toward the account's lockout as a wrong sign-in does (the
      // same e-mail and address pair): a stolen session cannot guess the password without limit.
      const emailKey = signInEmailKey(user.email);
      const attempt = await claimSignInAttempt(db, emailKey, request.ip, now);
      if (attempt === null) throw currentPasswordLocked();
      if (!(await verifyPassword(user.passwordHash, form.currentPassword))) {
        if (attempt === MAX_FAILED_SIGN_INS) await lockAccount(deps, user, now);
        if (attempt >= MAX_FAILED_SIGN_INS) throw currentPasswordLocked();
        throw wrongCurrentPassword();
      }
      if (!(await settleSignInSuccess(db, emailKey, request.ip, attempt))) throw currentPasswordLocked();
      const hash = await replacingPassword(db, user, form.password, now);
      // A new password ends every outstanding recovery link: a reset or unlock link mailed before it no longer works.
      await savePassword(db, user.id, hash, now);
      const ended = await revokeOtherSessions(db, user.id, caller.tokenId, now);
      if (ended.length) deps.events.emit('tokens-revoked', ended);
      return { message: 'Password updated' };
    },
  );
}
