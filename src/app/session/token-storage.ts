/**
 * Where the session's tokens live between page loads and tabs (part 1 §3 "Stored as token,
 * refreshToken, expiresIn, expiresAt"): one JSON record in local storage, parsed on the way in.
 * `organizationId` is the token's organization, learned from the first profile of the session;
 * the profile check compares every later profile with it (part 1 §7 GET /profile).
 */
import { z } from 'zod';
import type { Session } from '../../domain/session';

export const SESSION_STORAGE_KEY = 'lightbar.session';

export const storedSessionSchema = z.object({
  token: z.string().min(1),
  refreshToken: z.string().min(1),
  expiresIn: z.number(),
  expiresAt: z.number(),
  organizationId: z.string().nullish(),
});
export type StoredSession = Session & { organizationId?: string | null };

export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function readSession(storage: TokenStorage | null): StoredSession | null {
  const raw = storage?.getItem(SESSION_STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = storedSessionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeSession(storage: TokenStorage | null, session: StoredSession): void {
  storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

export function clearSession(storage: TokenStorage | null): void {
  storage?.removeItem(SESSION_STORAGE_KEY);
}
