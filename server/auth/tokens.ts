import { and, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { TokenResponse } from '../../src/domain/session';
import type { Db } from '../db/connection';
import { tokens } from '../db/schema';
import { hashToken, newToken } from './secrets';

/** Access tokens live 2 hours; the dashboard refreshes them 10 s before expiry (part 1 §4). */
export const ACCESS_TOKEN_TTL_S = 2 * 60 * 60;
/** A refresh token lives 30 days and is used once: refresh rotates both. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;

/**
 * Issues a fresh access and refresh pair; only their hashes are stored. A sign-in starts a new
 * family; a refresh passes the family of the pair it rotates.
 */
export async function issueTokens(db: Db, userId: string, organizationId: string, now: Date, familyId?: string): Promise<TokenResponse> {
  const access = newToken();
  const refresh = newToken();
  const createdAt = Math.floor(now.getTime() / 1000);
  await db.insert(tokens).values({
    userId,
    organizationId,
    ...(familyId ? { familyId } : {}),
    accessHash: hashToken(access),
    refreshHash: hashToken(refresh),
    accessExpiresAt: new Date((createdAt + ACCESS_TOKEN_TTL_S) * 1000),
    refreshExpiresAt: new Date((createdAt + REFRESH_TOKEN_TTL_S) * 1000),
    createdAt: now,
  });
  return { access_token: access, refresh_token: refresh, expires_in: ACCESS_TOKEN_TTL_S, created_at: createdAt };
}

/**
 * Rotates a refresh token: a new pair of the same family is issued and the old one revoked. Null
 * when it is unknown, used or expired. The new pair is written before the old one is revoked, so
 * a reuse detected at any moment sees one of them live and revokes it (revokeFamilyOfReusedRefreshToken),
 * and a rotation that loses the old pair to a revocation meanwhile revokes its own new pair.
 */
export async function rotateRefreshToken(db: Db, refreshToken: string, now: Date): Promise<TokenResponse | null> {
  const hash = hashToken(refreshToken);
  const live = and(eq(tokens.refreshHash, hash), isNull(tokens.revokedAt), gt(tokens.refreshExpiresAt, now));
  const [old] = await db
    .select({ id: tokens.id, userId: tokens.userId, organizationId: tokens.organizationId, familyId: tokens.familyId })
    .from(tokens)
    .where(live)
    .limit(1);
  if (!old) return null;
  const issued = await issueTokens(db, old.userId, old.organizationId, now, old.familyId);
  const revoked = await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.id, old.id), live))
    .returning({ id: tokens.id });
  if (revoked.length === 0) {
    await db
      .update(tokens)
      .set({ revokedAt: now })
      .where(eq(tokens.accessHash, hashToken(issued.access_token)));
    return null;
  }
  return issued;
}

/**
 * A refresh token that was already used (or revoked) came back: someone holds a copy. Revokes
 * every live pair of its family (RFC 9700 §4.14.2, refresh token reuse detection) and returns
 * their ids, so open sockets of those tokens are closed too.
 */
export async function revokeFamilyOfReusedRefreshToken(db: Db, refreshToken: string, now: Date): Promise<string[]> {
  const [used] = await db
    .select({ familyId: tokens.familyId })
    .from(tokens)
    .where(and(eq(tokens.refreshHash, hashToken(refreshToken)), isNotNull(tokens.revokedAt)))
    .limit(1);
  if (!used) return [];
  const rows = await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.familyId, used.familyId), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  return rows.map((row) => row.id);
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
