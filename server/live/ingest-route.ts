import { isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { organizations } from '../db/schema';
import type { ServerDeps } from '../deps';
import { authenticateApiKey } from '../auth/api-key-auth';
import { errorAnswer, parseShape, unauthorized } from '../core/errors';
import { ingestBatchSchema } from './device-message';
import { INGEST_BUSY_MESSAGE, INGEST_RETRY_AFTER_S, type IngestEngine } from './ingest';

/** What a batch came to: how many messages were kept, and each refused one with its reason. */
const ingestAnswer = z.object({
  accepted: z.number().int().min(0).meta({ description: 'The messages kept.' }),
  rejected: z
    .array(z.object({ index: z.number().int().min(0), reason: z.string() }))
    .meta({ description: "Each refused message: its place in `messages` and why ('<field>: <text>')." }),
});

/**
 * The answers of POST /ingest. The body (`{ messages: [...] }`, each message checked alone) is read
 * by the handler after the API key, with the ingest's own messages: it has no request schema, which
 * would refuse it before the key is checked. No `config.access` either (the key is no session): the
 * 401 (no key, or one revoked) and the 422 the handler answers are its own.
 */
const ingestAnswers = {
  200: ingestAnswer.meta({ description: 'At least one message kept (or none sent refused): the batch is done.' }),
  401: errorAnswer,
  413: errorAnswer,
  422: z
    .union([ingestAnswer, errorAnswer])
    .meta({ description: 'Every message refused (the batch answer), or a body that is no `{ messages: [1 to 10,000] }` (the error).' }),
  503: {
    description:
      'ingest_busy: the ingest holds as much as it may (or database_unavailable); nothing was applied. Send the batch again after Retry-After seconds.',
    content: { 'application/json': { schema: errorAnswer } },
  },
};

/** The organizations an API key may report for: its own and every organization below it. */
async function reportingOrgs(deps: ServerDeps, organizationId: string): Promise<Set<string>> {
  const rows = await deps.db
    .select({ id: organizations.id, parentId: organizations.parentId })
    .from(organizations)
    .where(isNull(organizations.deletedAt));
  const children = new Map<string, string[]>();
  for (const row of rows) {
    if (!row.parentId) continue;
    children.set(row.parentId, [...(children.get(row.parentId) ?? []), row.id]);
  }
  const result = new Set<string>();
  const stack = [organizationId];
  while (stack.length) {
    const id = stack.pop()!;
    if (result.has(id)) continue;
    result.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return result;
}

/**
 * POST /ingest: devices post batches of messages with an API key (`x-api-key` header, the
 * keys of part 2's account administration). Bad messages are rejected one by one with a reason;
 * good ones in the same batch are kept: `{ accepted, rejected: [{ index, reason }] }`. While the
 * ingest holds as much as it may (its queue, or trip points the database has not taken yet), a
 * batch is refused whole: 503 with Retry-After, nothing applied.
 */
export function ingestRoutes(app: FastifyInstance, deps: ServerDeps, engine: IngestEngine): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/ingest',
    {
      bodyLimit: 8 * 1_048_576,
      schema: {
        summary: "A device's batch of messages (positions, heartbeats), with an API key",
        description: 'Without a valid key in the x-api-key header: 401 `unauthorized` (the error body).',
        security: [{ apiKey: [] }],
        response: ingestAnswers,
      },
    },
    async (request, reply) => {
      const key = request.headers['x-api-key'];
      const owner = typeof key === 'string' ? await authenticateApiKey(deps.db, key, deps.now()) : null;
      if (!owner) throw unauthorized('A valid API key is required in the x-api-key header.');
      const { messages } = parseShape(ingestBatchSchema, request.body ?? {});
      const organizationIds = await reportingOrgs(deps, owner.organizationId);
      if (!engine.hasRoomFor(messages.length)) {
        engine.counts.busy += messages.length;
        // Nothing of the batch is applied: the device sends it again (RFC 9110 §15.6.4, Retry-After).
        return reply
          .code(503)
          .header('retry-after', String(INGEST_RETRY_AFTER_S))
          .send({ error: 'ingest_busy', message: INGEST_BUSY_MESSAGE });
      }
      const result = await engine.ingest(messages, organizationIds);
      return reply.code(result.accepted > 0 || result.rejected.length === 0 ? 200 : 422).send(result);
    },
  );
}
