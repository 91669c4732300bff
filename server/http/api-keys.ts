/**
 * API keys (part 2 §1, §2 "API keys and integrations", §3 API key, §8 'Your User has reached the
 * API Key limit'). The spec shows no paths (§7 "Paths not shown"); these are designed:
 *   GET /api_keys, POST /api_keys {description}, DELETE /api_keys/{id}.
 * A key belongs to the user who made it and acts for the organization they were signed in to.
 * The key is answered once, on creation; only its SHA-256 hash and a short prefix are stored.
 */
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ApiKeyWire } from '../../src/domain/api-key';
import { API_KEY_DESCRIPTION_MAX, API_KEY_LIMIT } from '../../src/domain/constants';
import { CLIENT_ERROR_CODES } from '../../src/domain/errors';
import { apiKeyAccess, type Crud } from '../../src/domain/permissions';
import type { Caller } from '../auth/context';
import { hashToken, newToken } from '../auth/secrets';
import type { Db } from '../db/connection';
import { apiKeys, organizations, users } from '../db/schema';
import type { ServerDeps } from '../deps';
import { idPath, isUuid } from './query';
import { notFound, unprocessable } from './errors';

/** Keys read `lb_` + 43 base64url characters; the prefix shown is the first 11 characters. */
export const API_KEY_PREFIX = 'lb_';
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
const MASK = '••••••••';
const API_KEY_MAX_LENGTH = 200;
/** part 2 §8 'API keys, limit reached': the message and the code the catalogue reads. */
export const API_KEY_LIMIT_MESSAGE = 'Your User has reached the API Key limit';

const createBody = z.object({
  description: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(API_KEY_DESCRIPTION_MAX, `${API_KEY_DESCRIPTION_MAX} Max Characters`),
});

/** Who holds keys: the domain's rule (integration configuration or user:admin variants), the one the UI shows. */
const keyAction =
  (action: keyof Crud) =>
  (caller: Caller): boolean =>
    apiKeyAccess(caller.permissions)[action];

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The §3 wire; lists carry only the masked prefix as the token. */
function apiKeyWire(row: ApiKeyRow, token = `${row.tokenPrefix}${MASK}`): ApiKeyWire {
  return { id: row.id, description: row.description, token, created_date: row.createdAt.toISOString() };
}

/**
 * The device ingest (POST /ingest, x-api-key): the organization and user an API key acts for, or null when the key is
 * unknown or revoked, or its user or organization is deleted or suspended.
 */
export async function authenticateApiKey(db: Db, key: string, now: Date): Promise<{ organizationId: string; userId: string } | null> {
  if (typeof key !== 'string' || !key.startsWith(API_KEY_PREFIX) || key.length > API_KEY_MAX_LENGTH) return null;
  const [row] = await db
    .select({ organizationId: apiKeys.organizationId, userId: apiKeys.userId })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
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
  return row ?? null;
}

export function apiKeyRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The caller's live keys, newest first, each with only its prefix. */
  app.get('/api_keys', { config: { access: keyAction('canRead') } }, async (request) => {
    const { caller } = request;
    const rows = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, caller.userId), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return rows.map((row) => apiKeyWire(row));
  });

  /** Creates a key and answers it once. At most API_KEY_LIMIT live keys per user → 422 api_key_limit. */
  api.post('/api_keys', { config: { access: keyAction('canCreate') }, schema: { body: createBody } }, async (request, reply) => {
    const { caller, body } = request;
    const token = `${API_KEY_PREFIX}${newToken()}`;
    const now = deps.now();
    const created = await db.transaction(async (tx) => {
      // Lock the user's row so two concurrent creations cannot both pass the count.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.userId)).for('update');
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, caller.userId), isNull(apiKeys.revokedAt)));
      if ((count?.n ?? 0) >= API_KEY_LIMIT) return null;
      const [row] = await tx
        .insert(apiKeys)
        .values({
          userId: caller.userId,
          organizationId: caller.scope.organizationId,
          description: body.description,
          tokenHash: hashToken(token),
          tokenPrefix: token.slice(0, SHOWN_PREFIX_LENGTH),
          createdAt: now,
        })
        .returning();
      return row ?? null;
    });
    if (!created) throw unprocessable(API_KEY_LIMIT_MESSAGE, CLIENT_ERROR_CODES.apiKeyLimit, { limit: API_KEY_LIMIT });
    return reply.code(201).send(apiKeyWire(created, token));
  });

  /** Revokes one of the caller's keys; another user's key is 'not found'. */
  api.delete('/api_keys/:id', { config: { access: keyAction('canDelete') }, schema: { params: idPath } }, async (request) => {
    const { caller } = request;
    const { id } = request.params;
    if (!isUuid(id)) throw notFound('API key');
    const [row] = await db
      .update(apiKeys)
      .set({ revokedAt: deps.now() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, caller.userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    if (!row) throw notFound('API key');
    return { id: row.id };
  });
}
