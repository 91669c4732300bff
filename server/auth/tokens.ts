import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { TokenResponse } from '../../src/domain/session';
import type { Db } from '../db/connection';
import { tokens } from '../db/schema';
import { hashToken, newToken } from './secrets';

/** Access tokens live 2 hours; the dashboard refreshes them 10 s before expiry (part 1 §4). */
export const ACCESS_TOKEN_TTL_S = 2 * 60 * 60;
/** A refresh token lives 30 days and is used once: refresh rotates both. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;

/** Issues a fresh access and refresh pair; only their hashes are stored. */
export async function issueTokens(db: Db, userId: string, organizationId: string, now: Date): Promise<TokenResponse> {
  const access = newToken();
  const refresh = newToken();
  const createdAt = Math.floor(now.getTime() / 1000);
  await db.insert(tokens).values({
    userId,
    organizationId,
    accessHash: hashToken(access),
    refreshHash: hashToken(refresh),
    accessExpiresAt: new Date((createdAt + ACCESS_TOKEN_TTL_S) * 1000),
    refreshExpiresAt: new Date((createdAt + REFRESH_TOKEN_TTL_S) * 1000),
    createdAt: now,
  });
  return { access_token: access, refresh_token: refresh, expires_in: ACCESS_TOKEN_TTL_S, created_at: createdAt };
}

/** Rotates a refresh token: the old pair is revoked, a new one issued. Null when it is unknown, used or expired. */
export async function rotateRefreshToken(db: Db, refreshToken: string, now: Date) {
  const [row] = await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.refreshHash, hashToken(refreshToken)), isNull(tokens.revokedAt), gt(tokens.refreshExpiresAt, now)))
    .returning({ userId: tokens.userId, organizationId: tokens.organizationId });
  return row ?? null;
}

/** Revokes the pair that holds this token (access or refresh). Returns the revoked token's id, if any. */
export async function revokeToken(db: Db, token: string, now: Date): Promise<string | null> {
  const hash = hashToken(token);
  const [row] = await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(or(eq(tokens.accessHash, hash), eq(tokens.refreshHash, hash)), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  return row?.id ?? null;
}

/** Ends every session of a user (suspension, password reset). */
export async function revokeAllForUser(db: Db, userId: string, now: Date): Promise<string[]> {
  const rows = await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.userId, userId), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  return rows.map((row) => row.id);
}
