import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';

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

export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
export const unauthorized = (message = 'Access token is expired or does not exist.', code = 'unauthorized') =>
  new HttpError(401, code, message);
export const forbidden = (message = 'Not authorized', code = 'forbidden') => new HttpError(403, code, message);
/** A record the caller may not see is "not found", never "forbidden": nothing leaks. */
export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} not found`);
export const unprocessable = (message: string, code = 'unprocessable', extra: Record<string, unknown> = {}) =>
  new HttpError(422, code, message, extra);

/** The first issue of a failed parse as one line naming the field. */
export function describeZodError(error: z.ZodError): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '(body)';
    fields[key] ??= issue.message;
  }
  const first = error.issues[0];
  const where = first?.path.join('.') || 'body';
  return { message: `${where}: ${first?.message ?? 'invalid'}`, fields };
}

/** Parses a body, query or params with a zod schema; a failure is a 422 naming the field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    const { message, fields } = describeZodError(result.error);
    throw new HttpError(422, 'invalid', message, { fields });
  }
  return result.data;
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
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'internal', message: 'Unknown failure' });
  });
}
