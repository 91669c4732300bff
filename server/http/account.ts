/**
 * The signed-in user's own account (part 2 §2 accounts, tab "account"; §3 User "Profile adds ...
 * phone and address fields"; §5 address and "Reset password (applies to account administration as
 * well)"). Paths designed (§7 shows none for them):
 *   PUT /profile  {firstname, lastname, phone, address1, address2, city, state, postal_code, country_code} → the profile
 *   PUT /password {current_password, password, password_confirmation} → {message}
 * Any signed-in user, and only for their own user: the caller is the target, so no other user or
 * organization can be reached through them.
 */
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_FAILED_SIGN_INS } from '../../src/domain/constants';
import { SIGN_IN_ERROR_CODES, WRONG_CURRENT_PASSWORD_TEXT } from '../../src/domain/errors';
import { profileWireSchema, type ProfileWire } from '../../src/domain/profile';
import { changePasswordSchema, profileFormSchema } from '../../src/domain/validation/accounts';
import { replacingPassword } from '../auth/password-history';
import { ACCOUNT_LOCKED_MESSAGE, lockAccount } from '../auth/lockout';
import { verifyPassword } from '../auth/secrets';
import { claimSignInAttempt, settleSignInSuccess, signInEmailKey } from '../auth/sign-in-throttle';
import { tokens, users } from '../db/schema';
import type { ServerDeps } from '../deps';
import { addressBodyShape, addressFormValues, ADDRESS_WIRE_NAMES, bodyText } from './address-body';
import { nextVersion } from '../db/rows';
import { errorAnswer, notFound, parseForm, unprocessable } from '../core/errors';
import { profileFor } from './profile';

export const WRONG_CURRENT_PASSWORD_MESSAGE = WRONG_CURRENT_PASSWORD_TEXT;

const profileBody = z.object({
  firstname: bodyText(),
  lastname: bodyText(),
  phone: z.string().max(50).nullish(),
  ...addressBodyShape,
});

const PROFILE_FIELDS = { firstName: 'firstname', lastName: 'lastname', phone: 'phone', ...ADDRESS_WIRE_NAMES } as const;

const passwordBody = z.object({
  current_password: z.string().max(200).nullish(),
  password: z.string().max(200).nullish(),
  password_confirmation: z.string().max(200).nullish(),
});

const PASSWORD_FIELDS = {
  currentPassword: 'current_password',
  password: 'password',
  passwordConfirmation: 'password_confirmation',
} as const;

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
    const body = request.body;
    const form = parseForm(
      profileFormSchema,
      {
        firstName: body.firstname ?? '',
        lastName: body.lastname ?? '',
        phone: body.phone ?? '',
        ...addressFormValues(body),
      },
      PROFILE_FIELDS,
    );
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
        updatedAt: deps.now(),
        // The same names an administrator's user form edits: their save from an older copy is refused.
        version: nextVersion(users.version),
      })
      .where(and(eq(users.id, caller.userId), isNull(users.deletedAt)));
    const profile = await profileFor(db, caller);
    if (!profile) throw notFound('User');
    // Every field is set (profileFor): the wire as the dashboard reads it, no default left to fill.
    return profile as ProfileWire;
  });

  /**
   * Change password: the current one must be right (a stolen session alone cannot take the
   * account), the new one meets the rules and is none of the last 10. The caller's own session
   * stays; every other session of the user ends (README "Spec decisions").
   */
  api.put(
    '/password',
    {
      config: { access: 'signed-in', rateLimit: { max: config.authRateLimit, timeWindow: '1 minute' } },
      schema: {
        summary: "Change the signed-in user's password (the current one required)",
        body: passwordBody,
        // 429: the sign-in's rate limit (README, AUTH_RATE_LIMIT).
        response: { 200: z.object({ message: z.string() }), 404: errorAnswer, 429: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const body = request.body;
      const form = parseForm(
        changePasswordSchema,
        {
          currentPassword: body.current_password ?? '',
          password: body.password ?? '',
          passwordConfirmation: body.password_confirmation ?? '',
        },
        PASSWORD_FIELDS,
      );
      const now = deps.now();
      const [user] = await db
        .select()
        .from(users)
        .where(and(eq(users.id, caller.userId), isNull(users.deletedAt)))
        .limit(1);
      if (!user) throw notFound('User');
      // A wrong current password counts toward the account's lockout as a wrong sign-in does (the
      // same e-mail and address pair): a stolen session cannot guess the password without limit.
      const emailKey = signInEmailKey(user.email);
      const locked = () =>
        unprocessable(ACCOUNT_LOCKED_MESSAGE, SIGN_IN_ERROR_CODES.lockedOut, { fields: { current_password: ACCOUNT_LOCKED_MESSAGE } });
      const attempt = await claimSignInAttempt(db, emailKey, request.ip, now);
      if (attempt === null) throw locked();
      if (!(await verifyPassword(user.passwordHash, form.currentPassword))) {
        if (attempt === MAX_FAILED_SIGN_INS) await lockAccount(deps, user, now);
        if (attempt >= MAX_FAILED_SIGN_INS) throw locked();
        throw unprocessable(WRONG_CURRENT_PASSWORD_MESSAGE, 'wrong_password', {
          fields: { current_password: WRONG_CURRENT_PASSWORD_MESSAGE },
        });
      }
      if (!(await settleSignInSuccess(db, emailKey, request.ip, attempt))) throw locked();
      const hash = await replacingPassword(db, user, form.password, now);
      // A new password ends every outstanding recovery link: a reset or unlock link mailed before it no longer works.
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
        .where(eq(users.id, user.id));
      const [own] = await db.select({ familyId: tokens.familyId }).from(tokens).where(eq(tokens.id, caller.tokenId)).limit(1);
      const ended = await db
        .update(tokens)
        .set({ revokedAt: now })
        .where(and(eq(tokens.userId, user.id), isNull(tokens.revokedAt), own ? ne(tokens.familyId, own.familyId) : undefined))
        .returning({ id: tokens.id });
      if (ended.length)
        deps.events.emit(
          'tokens-revoked',
          ended.map((row) => row.id),
        );
      return { message: 'Password updated' };
    },
  );
}
