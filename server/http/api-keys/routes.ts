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
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiKeyWireSchema } from '../../../src/domain/api-key';
import { apiKeyAccess, organizationApiKeyAccess, type Crud } from '../../../src/domain/permissions';
import { API_KEY_PREFIX } from '../../auth/api-key-auth';
import type { Caller } from '../../auth/context';
import { hashToken, newToken } from '../../auth/secrets';
import type { ServerDeps } from '../../deps';
import { deletedAnswer, idPath, isUuid } from '../query';
import { errorAnswer, notFound } from '../../core/errors';
import { apiKeyWire, findKeyOwner, insertApiKey, listApiKeys, revokeApiKey } from './repository';
import { apiKeyLimitReached, createBody, SHOWN_PREFIX_LENGTH } from './schema';

/** Who holds keys: the domain's rule (integration configuration or user:admin variants), the one the UI shows. */
const keyAction =
  (action: keyof Crud) =>
  (caller: Caller): boolean =>
    apiKeyAccess(caller.permissions)[action];

/** Listing keys: one's own, or (an organization's administrators) every key of the organization. */
const listAccess = (caller: Caller): boolean => keyAction('canRead')(caller) || organizationApiKeyAccess(caller.permissions).canRead;
const revokeAccess = (caller: Caller): boolean => keyAction('canDelete')(caller) || organizationApiKeyAccess(caller.permissions).canDelete;

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
    const holder = organizationApiKeyAccess(caller.permissions).canRead
      ? { organizationId: caller.scope.organizationId }
      : { userId: caller.userId };
    return listApiKeys(db, holder);
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
    const created = await insertApiKey(
      db,
      {
        userId: caller.userId,
        organizationId: caller.scope.organizationId,
        description: body.description,
        tokenHash: hashToken(token),
        tokenPrefix: token.slice(0, SHOWN_PREFIX_LENGTH),
      },
      now,
    );
    if (!created || created === 'limit_reached') throw apiKeyLimitReached();
    return reply.code(201).send(apiKeyWire(created, await findKeyOwner(db, caller.userId), token));
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
    const whose = {
      ownerId: keyAction('canDelete')(caller) ? caller.userId : undefined,
      organizationId: organizationApiKeyAccess(caller.permissions).canDelete ? caller.scope.organizationId : undefined,
    };
    const row = await revokeApiKey(db, id, whose, deps.now());
    if (!row) throw notFound('API key');
    return { id: row.id };
  });
}
