/**
 * API keys (part 2 §1, §2 "API keys and integrations", §3 API key, §8 'Your User has reached the
 * API Key limit'). The spec shows no paths (§7 "Paths not shown"); these are designed:
 *   GET /api_keys, POST /api_keys {description}, DELETE /api_keys/{id}.
 * A key belongs to the user who made it and acts for the organization they were signed in to,
 * while its owner's role still grants the right to make keys (checked at each use). The key is
 * answered once, on creation; only its SHA-256 hash and a short prefix are stored. An
 * organization's administrators (user:admin read, delete) list and revoke every key of their
 * organization, each with its owner.
 */
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiKeyWireSchema, type ApiKeyWire } from '../../src/domain/api-key';
import { API_KEY_DESCRIPTION_MAX, API_KEY_LIMIT } from '../../src/domain/constants';
import { CLIENT_ERROR_CODES } from '../../src/domain/errors';
import { apiKeyAccess, organizationApiKeyAccess, type Crud } from '../../src/domain/permissions';
import { API_KEY_PREFIX } from '../auth/api-key-auth';
import type { Caller } from '../auth/context';
import { hashToken, newToken } from '../auth/secrets';
import { apiKeys, users } from '../db/schema';
import type { ServerDeps } from '../deps';
import { deletedAnswer, idPath, isUuid } from './query';
import { errorAnswer, notFound, unprocessable } from '../core/errors';

/** Keys read `lb_` + 43 base64url characters; the prefix shown is the first 11 characters. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
const MASK = '••••••••';
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

/** Listing keys: one's own, or (an organization's administrators) every key of the organization. */
const listAccess = (caller: Caller): boolean => keyAction('canRead')(caller) || organizationApiKeyAccess(caller.permissions).canRead;
const revokeAccess = (caller: Caller): boolean => keyAction('canDelete')(caller) || organizationApiKeyAccess(caller.permissions).canDelete;

type ApiKeyRow = typeof apiKeys.$inferSelect;
type Owner = NonNullable<ApiKeyWire['owner']>;

/** The §3 wire and its owner; lists carry only the masked prefix as the token. */
function apiKeyWire(row: ApiKeyRow, owner: Owner, token = `${row.tokenPrefix}${MASK}`): ApiKeyWire {
  return { id: row.id, description: row.description, token, created_date: row.createdAt.toISOString(), owner };
}

const ownerColumns = { id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email };
function ownerOf(row: { id: string; firstname: string; lastname: string; email: string }): Owner {
  const name = `${row.firstname} ${row.lastname}`.trim();
  return { id: row.id, name: name || row.email, email: row.email };
}

export function apiKeyRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The caller's live keys, newest first, each with only its prefix and its owner; an
   * organization's administrators get every live key of the organization they are signed in to.
   */
  const listSchema = {
    summary: "The caller's API keys (an administrator: the organization's), masked",
    response: { 200: z.array(apiKeyWireSchema) },
  };
  api.get('/api_keys', { config: { access: listAccess }, schema: listSchema }, async (request) => {
    const { caller } = request;
    const whose = organizationApiKeyAccess(caller.permissions).canRead
      ? eq(apiKeys.organizationId, caller.scope.organizationId)
      : eq(apiKeys.userId, caller.userId);
    const rows = await db
      .select({ key: apiKeys, owner: ownerColumns })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(whose, isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return rows.map((row) => apiKeyWire(row.key, ownerOf(row.owner)));
  });

  /** Creates a key and answers it once. At most API_KEY_LIMIT live keys per user → 422 api_key_limit. */
  const createSchema = {
    summary: 'Make an API key; the key is answered this once',
    body: createBody,
    response: { 201: apiKeyWireSchema },
  };
  api.post('/api_keys', { config: { access: keyAction('canCreate') }, schema: createSchema }, async (request, reply) => {
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
    const [owner] = await db.select(ownerColumns).from(users).where(eq(users.id, caller.userId)).limit(1);
    return reply.code(201).send(apiKeyWire(created, ownerOf(owner!), token));
  });

  /**
   * Revokes one of the caller's keys, or (an organization's administrators) any key of the
   * organization they are signed in to; another's key is 'not found'.
   */
  const revokeSchema = {
    summary: 'Revoke an API key',
    params: idPath,
    response: { 200: deletedAnswer, 404: errorAnswer },
  };
  api.delete('/api_keys/:id', { config: { access: revokeAccess }, schema: revokeSchema }, async (request) => {
    const { caller } = request;
    const { id } = request.params;
    if (!isUuid(id)) throw notFound('API key');
    const own = keyAction('canDelete')(caller) ? eq(apiKeys.userId, caller.userId) : undefined;
    const organization = organizationApiKeyAccess(caller.permissions).canDelete
      ? eq(apiKeys.organizationId, caller.scope.organizationId)
      : undefined;
    const [row] = await db
      .update(apiKeys)
      .set({ revokedAt: deps.now() })
      .where(and(eq(apiKeys.id, id), or(own, organization), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    if (!row) throw notFound('API key');
    return { id: row.id };
  });
}
