import { z } from 'zod';
import { DAY_MS, PASSWORD_EXPIRY_DAYS, PRODUCT_NAME } from '../../../src/domain/constants';
import { SIGN_IN_ERROR_CODES } from '../../../src/domain/errors';
import { allowedSections } from '../../../src/domain/permissions';
import { ACCOUNT_INACTIVITY_EXPIRY_DAYS } from '../../auth/policy';
import { ACCOUNT_LOCKED_MESSAGE } from '../../auth/lockout';
import { errorAnswer, HttpError, unprocessable } from '../../core/errors';
import type { Mail } from '../../mail/mailer';

/**
 * The bodies, answers and texts of the auth calls (part 1 §7 user_token, verify_token,
 * revoke_token, forgot_password, reset_password, unlock_account; part 1 §8 the sign-in errors).
 */

// ── requests ─────────────────────────────────────────────────────────────────

export const emailBody = z.object({ email: z.string().trim().min(1, 'Required').max(320) });
export const resetBody = z.object({ token: z.string().min(1), password: z.string().min(1).max(200) });
export const verifyTokenBody = z.object({ access_token: z.string().min(1) });
export const revokeTokenBody = z.object({ token: z.string().min(1) });

// ── answers ──────────────────────────────────────────────────────────────────

/** The answer of the recovery calls: one sentence, the same whether or not the e-mail exists. */
export const messageAnswer = z.object({ message: z.string() });
export const verifyTokenAnswer = z.object({ valid: z.literal(true), user_id: z.string() });
export const revokeTokenAnswer = z.object({}).meta({ description: 'Revoked, or no such token (RFC 7009).' });

/**
 * A refused sign-in (part 1 §8): the error body with the OAuth-style `error_description` (the
 * message again). Optional: Fastify's own 400 (malformed JSON) comes without it. The call is open,
 * so its 401 and 403 (the account's conditions) are told in its description, not as statuses: the
 * document keeps 401 and 403 for the access token and the role (../openapi).
 */
export const signInErrorAnswer = errorAnswer.extend({
  error_description: z.string().optional().meta({ description: 'The message again, as OAuth clients read it.' }),
});
/** The rate limit of the sign-in and recovery calls (docs/configuration.md, AUTH_RATE_LIMIT a minute per address): 429 rate_limited. */
export const rateLimited = { 429: errorAnswer };

// ── errors ───────────────────────────────────────────────────────────────────

/** A sign-in failure: the OAuth-style body the client's catalogue reads (part 1 §8). */
function signInError(status: number, code: string, description: string): HttpError {
  return new HttpError(status, code, description, { error_description: description });
}

export const INCORRECT = () => signInError(400, 'invalid_grant', 'Email and/or password incorrect.');
/** The same answer for a known and an unknown e-mail (docs/decisions/design.md, the lockout). */
export const LOCKED = () => signInError(401, SIGN_IN_ERROR_CODES.lockedOut, ACCOUNT_LOCKED_MESSAGE);

/** A refresh or access token that is expired, was used, or does not exist. */
export const invalidToken = () => unprocessable('Access token is expired or does not exist.', 'invalid_token');

/** PUT /reset_password: a token no live user has. */
export const resetTokenUnknown = () => new HttpError(404, 'not_found', 'Reset token is expired or does not exist.');
export const resetTokenExpired = () => unprocessable('Reset token has expired.', 'token_expired');
export const resetUserSuspended = () => new HttpError(401, SIGN_IN_ERROR_CODES.userSuspended, 'User is suspended.');
export const weakPassword = () => unprocessable('Password does not fulfill password requirements.', 'weak_password');

/** The mail of POST /forgot_password: the reset link (it works for 24 hours, RESET_TOKEN_TTL_MS). */
export function resetPasswordMail(to: string, link: string): Mail {
  return {
    to,
    kind: 'reset',
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: `Someone asked to reset the password of your ${PRODUCT_NAME} account.\n\nSet a new password here (the link works for 24 hours):\n${link}\n\nIf it was not you, ignore this mail.`,
  };
}

// ── rules ────────────────────────────────────────────────────────────────────

/** What the account's own conditions read of a signed-in user, their organization and role. */
export interface SignInAccount {
  user: {
    suspended: boolean;
    lastActivityAt: Date | null;
    lastSignInAt: Date | null;
    createdAt: Date;
    passwordChangedAt: Date | null;
  };
  organization: { externalAccessManagement: boolean; dashboardEnabled: boolean };
  permissions: readonly string[];
}

/**
 * The password is right: the account's own conditions, in the catalogue's words (part 1 §8), in
 * this order: suspended, organization managing access, organization not enabled, inactive, password
 * expired (401), no section (403). Undefined when the account may sign in.
 */
export function accountRefusal({ user, organization, permissions }: SignInAccount, now: Date): HttpError | undefined {
  if (user.suspended) return signInError(401, SIGN_IN_ERROR_CODES.userSuspended, 'User is suspended.');
  if (organization.externalAccessManagement) {
    return signInError(401, SIGN_IN_ERROR_CODES.notAuthorizedMethod, 'Your organization is managing user access to the dashboard.');
  }
  if (!organization.dashboardEnabled) {
    return signInError(401, SIGN_IN_ERROR_CODES.notEnabled, `Your organization is not enabled for ${PRODUCT_NAME}.`);
  }
  const lastSeen = user.lastActivityAt ?? user.lastSignInAt ?? user.createdAt;
  if (now.getTime() - lastSeen.getTime() >= ACCOUNT_INACTIVITY_EXPIRY_DAYS * DAY_MS) {
    return signInError(401, SIGN_IN_ERROR_CODES.expired, 'Your account has expired due to inactivity.');
  }
  if (user.passwordChangedAt && now.getTime() - user.passwordChangedAt.getTime() >= PASSWORD_EXPIRY_DAYS * DAY_MS) {
    return signInError(
      401,
      SIGN_IN_ERROR_CODES.lockedOut,
      `Your password expired after ${PASSWORD_EXPIRY_DAYS} days. Use 'Forgot password?' to set a new one.`,
    );
  }
  if (allowedSections(permissions).length === 0) {
    return signInError(403, 'not_authorized', `Your user is not authorized to access ${PRODUCT_NAME}.`);
  }
  return undefined;
}
