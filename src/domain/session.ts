/**
 * Session tokens (part 1 §3 "Session and profile", §4 Session, §7 POST /user_token): the token
 * response, the stored session, when to refresh, and the sign-in and refresh request bodies.
 */
import { z } from 'zod';
import { SECOND_MS, TOKEN_REFRESH_LEAD_MS } from './constants';

/** POST /user_token answer; expires_in and created_at are in seconds. */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().nonnegative(),
  created_at: z.number().nonnegative().nullish(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export interface Session {
  token: string;
  refreshToken: string;
  /** Seconds, as the server gave it. */
  expiresIn: number;
  /** ms since epoch. */
  expiresAt: number;
}

/**
 * part 1 §3: expiresAt = (created_at + expires_in) × 1000, created_at defaulting to now (seconds).
 * Without created_at this is now + expires_in × 1000, computed without a float division.
 */
export function toSession(resp: TokenResponse, now: number): Session {
  const expiresAt =
    resp.created_at === null || resp.created_at === undefined
      ? now + resp.expires_in * SECOND_MS
      : (resp.created_at + resp.expires_in) * SECOND_MS;
  return { token: resp.access_token, refreshToken: resp.refresh_token, expiresIn: resp.expires_in, expiresAt };
}

/**
 * part 1 §4: the refresh runs TOKEN_REFRESH_LEAD_MS before expiry. The delay in ms from `now`;
 * zero or less means the session is already expired ('Session Expired', sign-out).
 */
export function refreshDelay(session: Pick<Session, 'expiresAt'>, now: number): number {
  return session.expiresAt - TOKEN_REFRESH_LEAD_MS - now;
}

export function isSessionExpired(session: Pick<Session, 'expiresAt'>, now: number): boolean {
  return refreshDelay(session, now) <= 0;
}

// ── request bodies (part 1 §7 POST /user_token) ──────────────────────────────
export const SIGN_IN_APPLICATION = 'dashboard';

export const signInRequestSchema = z.object({
  grant_type: z.literal('password'),
  application: z.literal(SIGN_IN_APPLICATION),
  username: z.string(),
  password: z.string(),
  unlock_token: z.string().optional(),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const refreshRequestSchema = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string(),
});
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

/** What POST /user_token accepts: either grant. */
export const tokenRequestSchema = z.discriminatedUnion('grant_type', [signInRequestSchema, refreshRequestSchema]);
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** The e-mail is sent as username; unlock_token only when given (the unlock flow, docs/decisions/spec.md). */
export function signInRequest(email: string, password: string, unlockToken?: string | null): SignInRequest {
  const body: SignInRequest = { grant_type: 'password', application: SIGN_IN_APPLICATION, username: email, password };
  if (unlockToken) body.unlock_token = unlockToken;
  return body;
}

export function refreshRequest(refreshToken: string): RefreshRequest {
  return { grant_type: 'refresh_token', refresh_token: refreshToken };
}
