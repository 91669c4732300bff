/**
 * API-key authentication for the device ingest (part 2 §1, §3 API key). The /api_keys routes that
 * make, list and revoke keys are in server/http/api-keys/; this is the check at each use, below
 * the routes, so the ingest (server/live/ingest-route.ts) needs no route module.
 */
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { apiKeyStillHeld } from '../../src/domain/permissions';
import type { Db } from '../db/connection';
import { apiKeys, organizations, roles, users } from '../db/schema';
import { hashToken } from './secrets';

/** Keys read `lb_` + 43 base64url characters. */
export const API_KEY_PREFIX = 'lb_';
const API_KEY_MAX_LENGTH = 200;

/**
 * The device ingest (POST /ingest, x-api-key): the organization and user an API key acts for, or null when the key is
 * unknown or revoked, its user or organization is deleted or suspended, or its user's role no longer
 * grants the right to make keys (read at every use, so a role change applies to the next batch, in
 * every process).
 */
export async function authenticateApiKey(db: Db, key: string, now: Date): Promise<{ organizationId: string; userId: string } | null> {
  if (typeof key !== 'string' || !key.startsWith(API_KEY_PREFIX) || key.length > API_KEY_MAX_LENGTH) return null;
  const [row] = await db
    .select({ organizationId: apiKeys.organizationId, userId: apiKeys.userId, permissions: roles.permissions })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(
      and(
        eq(apiKeys.tokenHash, hashToken(key)),
        or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, now)),
        isNull(users.deletedAt),
        eq(users.suspended, false),
        isNull(organizations.deletedAt),
      ),
    )
    .limit(1);
  if (!row || !apiKeyStillHeld(row.permissions)) return null;
  return { organizationId: row.organizationId, userId: row.userId };
}
