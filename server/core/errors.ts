import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findNul, NUL_MESSAGE } from '../../src/domain/validation/boundary';
import { isDatabaseUnavailable } from '../db/connection';

/** The answer while the database server is away (a restart, a failover). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Please try again in a moment.';
/** Seconds a client waits before trying again (the Retry-After header). */
const DATABASE_RETRY_AFTER_S = 5;

/**
 * Every error leaves the server as `{ error: <code>, message: <text> }` with a status the client's
 * catalogue (src/domain/errors.ts) maps to the spec's words. The sign-in call adds the OAuth-style
 * `error_description`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The body of every error answer, as a schema: a route declares it for the statuses its handler
 * answers itself (404, 409, 412); the shared 401, 403 and 422 the OpenAPI document adds from the
 * route's access and request schemas (http/openapi.ts).
 */
export const ERROR_SCHEMA_ID = 'Error';
export const errorAnswer = z
  .looseObject({
    error: z.string().meta({ description: 'A stable code, e.g. not_found, invalid, precondition_failed.' }),
    message: z.string().meta({ description: "The spec's text, shown to the user as it is." }),
    fields: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'A 422 of a form: the message of each field that failed, by its wire name.' }),
  })
  .meta({ id: ERROR_SCHEMA_ID });

export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
export const unauthorized = (message = 'Access token is expired or does not exist.', code = 'unauthorized') =>
  new HttpError(401, code, message);
export const forbidden = (message = 'Not authorized', code = 'forbidden') => new HttpError(403, code, message);
/** A record the caller may not see is "not found", never "forbidden": nothing leaks. */
export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} not found`);
export const unprocessable = (message: string, code = 'unprocessable', extra: Record<string, unknown> = {}) =>
  new HttpError(422, code, message, extra);

/** The body of a call shed under load (503, with Retry-After). */
export const OVERLOADED_MESSAGE = 'The server is busy. Please try again in a few seconds.';

/**
 * The issues of a failed parse by field, and the first as one line naming its field. `wireNames`
 * renames a domain form's top-level fields (camelCase) to the wire names the client sent.
 */
export function describeZodError(
  error: z.ZodError,
  wireNames: Readonly<Record<string, string>> = {},
): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const [head, ...rest] = issue.path.map(String);
    const key = head === undefined ? '(body)' : [wireNames[head] ?? head, ...rest].join('.');
    fields[key] ??= issue.message;
  }
  const [first] = Object.entries(fields);
  const where = !first || first[0] === '(body)' ? 'body' : first[0];
  return { message: `${where}: ${first?.[1] ?? 'invalid'}`, fields };
}

/** Parses a body, query or params with a zod schema; a failure is a 422 naming the field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  return parseForm(schema, value ?? {});
}

/**
 * Validates with one of the domain's form schemas (camelCase, the spec's messages); a failure is
 * a 422 naming the wire field the client sent (`wireNames`: form field → wire field). Any text
 * holding a NUL character is refused first, wherever it sits (boundary.ts): Postgres cannot store
 * one, so every call gets the rule, whatever its schema declares.
 */
export function parseForm<S extends z.ZodType>(schema: S, value: unknown, wireNames: Readonly<Record<string, string>> = {}): z.infer<S> {
  const nulAt = findNul(value);
  if (nulAt) {
    const [head, ...rest] = nulAt.map(String);
    const key = head === undefined ? 'body' : [wireNames[head] ?? head, ...rest].join('.');
    throw new HttpError(422, 'invalid', `${key}: ${NUL_MESSAGE}`, { fields: { [key]: NUL_MESSAGE } });
  }
  return parseShape(schema, value, wireNames);
}

/**
 * `parseForm` without the NUL rule: for a container whose items are validated one by one later
 * (POST /ingest, where a bad message is refused alone, by the device schema that carries the rule).
 */
export function parseShape<S extends z.ZodType>(schema: S, value: unknown, wireNames: Readonly<Record<string, string>> = {}): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const { message, fields } = describeZodError(result.error, wireNames);
    throw new HttpError(422, 'invalid', message, { fields });
  }
  return result.data;
}

/**
 * Whether an error (or one it wraps: Drizzle wraps the driver's error as `cause`) is Postgres's
 * unique_violation (23505) — of the named index when one is given. node-postgres and PGlite both
 * carry `code` and `constraint`; the message names the index too.
 */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (candidate.code === '23505') {
      return (
        index === undefined ||
        candidate.constraint === index ||
        (typeof candidate.message === 'string' && candidate.message.includes(index))
      );
    }
    current = candidate.cause;
  }
  return false;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ error: error.code, message: error.message, ...error.extra });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.statusCode === 429) {
      return reply.code(429).send({ error: 'rate_limited', message: 'Too many requests. Please wait a minute and try again.' });
    }
    if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      // Malformed JSON, a body over the limit, an unsupported media type: Fastify's own 4xx.
      return reply.code(fastifyError.statusCode).send({ error: fastifyError.code ?? 'bad_request', message: fastifyError.message });
    }
    if (isDatabaseUnavailable(error)) {
      // The database server is stopped, restarting or unreachable: a retry may succeed (RFC 9110 §15.6.4).
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ error: 'database_unavailable', message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'internal', message: 'Unknown failure' });
  });
}
