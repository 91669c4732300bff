import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { ApiKeyWire } from '../../../src/domain/api-key';
import { API_KEY_LIMIT } from '../../../src/domain/constants';
import type { Db } from '../../db/connection';
import { apiKeys, users } from '../../db/schema';

/**
 * The API key calls' reads and writes, and the §3 wire (who may do what: ./routes). A creation past
 * API_KEY_LIMIT live keys answers 'limit_reached'; a key not revoked (unknown, another's) answers undefined.
 */

// ── wire ─────────────────────────────────────────────────────────────────────

export type ApiKeyRow = typeof apiKeys.$inferSelect;
type Owner = NonNullable<ApiKeyWire['owner']>;

const MASK = '••••••••';

/** The §3 wire and its owner; lists carry only the masked prefix as the token. */
export function apiKeyWire(row: ApiKeyRow, owner: Owner, token = `${row.tokenPrefix}${MASK}`): ApiKeyWire {
  return { id: row.id, description: row.description, token, created_date: row.createdAt.toISOString(), owner };
}

const ownerColumns = { id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email };
function ownerOf(row: { id: string; firstname: string; lastname: string; email: string }): Owner {
  const name = `${row.firstname} ${row.lastname}`.trim();
  return { id: row.id, name: name || row.email, email: row.email };
}

// ── reads ────────────────────────────────────────────────────────────────────

/** Whose keys a list holds: one user's, or every key of an organization. */
export type KeyHolder = { userId: string } | { organizationId: string };

/** The live keys of the holder, newest first, masked, each with its owner. */
export async function listApiKeys(db: Db, holder: KeyHolder): Promise<ApiKeyWire[]> {
  const whose = 'organizationId' in holder ? eq(apiKeys.organizationId, holder.organizationId) : eq(apiKeys.userId, holder.userId);
  const rows = await db
    .select({ key: apiKeys, owner: ownerColumns })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(whose, isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => apiKeyWire(row.key, ownerOf(row.owner)));
}

/** A key's owner as the wire names them (the user exists: they just made the key). */
export async function findKeyOwner(db: Db, userId: string): Promise<Owner> {
  const [owner] = await db.select(ownerColumns).from(users).where(eq(users.id, userId)).limit(1);
  return ownerOf(owner!);
}

// ── writes ───────────────────────────────────────────────────────────────────

/** A creation the per-user limit refused. */
export type LimitReached = 'limit_reached';

/** A new key as POST /api_keys makes it: only the token's hash and shown prefix are stored. */
export interface NewApiKey {
  userId: string;
  organizationId: string;
  description: string;
  tokenHash: string;
  tokenPrefix: string;
}

/** Writes a key unless its user already has API_KEY_LIMIT live keys. */
export async function insertApiKey(db: Db, values: NewApiKey, now: Date): Promise<ApiKeyRow | LimitReached | undefined> {
  return db.transaction(async (tx) => {
    // Lock the user's row so two concurrent creations cannot both pass the count.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for('update');
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, values.userId), isNull(apiKeys.revokedAt)));
    if ((count?.n ?? 0) >= API_KEY_LIMIT) return 'limit_reached';
    const [row] = await tx
      .insert(apiKeys)
      .values({ ...values, createdAt: now })
      .returning();
    return row;
  });
}

/**
 * Revokes a live key that is the owner's (`ownerId`) or the organization's (`organizationId`),
 * whichever of the two is given; its id, or undefined when no such key is live.
 */
export async function revokeApiKey(
  db: Db,
  id: string,
  whose: { ownerId: string | undefined; organizationId: string | undefined },
  now: Date,
): Promise<{ id: string } | undefined> {
  const own = whose.ownerId === undefined ? undefined : eq(apiKeys.userId, whose.ownerId);
  const organization = whose.organizationId === undefined ? undefined : eq(apiKeys.organizationId, whose.organizationId);
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), or(own, organization), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return row;
}
