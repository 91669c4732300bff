import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound, parse, type HttpError } from '../core/errors';
import { compileProjection } from './response-projection';

/**
 * Route schemas are zod schemas (fastify-type-provider-zod types `request.params`, `.body` and
 * `.query` from them; routes are declared on `app.withTypeProvider<ZodTypeProvider>()`). They are
 * checked by `parse` of ./errors, exactly as the handlers checked them before: a NUL character
 * anywhere is refused first, a failure is the 422 `{ error: 'invalid', message: '<field>: <text>',
 * fields }`, and a part that is absent reads as `{}`. Fastify checks params, then body, then
 * querystring, after the access hook (./route-access).
 *
 * A schema made by `pathIds` answers its failure with a 404 instead: a path id that is no uuid
 * names no record (never a 422, never a 500).
 */
const FAILURE_ANSWERS = new WeakMap<z.ZodType, () => HttpError>();

/**
 * The params schema of a path whose ids must be uuids; a failure is 404 '<what> not found'. Pass a
 * schema made for this path alone: the answer is tied to the schema object.
 */
export function pathIds<S extends z.ZodType>(schema: S, what: string): S {
  FAILURE_ANSWERS.set(schema, () => notFound(what));
  return schema;
}

/** Whether a route's schema part is a zod schema (the routes' only kind). */
export const isZodSchema = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

const DOCUMENTED_ONLY = new WeakSet<z.ZodType>();

/**
 * A request part the OpenAPI document shows but the validator lets through untouched: the handler
 * reads that part itself, where its own order of answers or messages matters (the list parameters
 * of ./query, a body read only after its record is found). Such a route declares the 422 its
 * handler answers in `schema.response` itself.
 */
export function documentedOnly<S extends z.ZodType>(schema: S): S {
  DOCUMENTED_ONLY.add(schema);
  return schema;
}

/** A documented-only object (query or headers) of `shape`, made fresh for the one route that declares it. */
export const documentedObject = <S extends z.core.$ZodLooseShape>(shape: S) => documentedOnly(z.object(shape));

/** Whether the validator checks this part, so that a failure is the shared 422 (not a 404, not the handler's own). */
export const validatesAs422 = (schema: unknown): boolean =>
  isZodSchema(schema) && !DOCUMENTED_ONLY.has(schema) && !FAILURE_ANSWERS.has(schema);

/**
 * The server's own failure to answer by its schema: the handler made an answer its route does not
 * declare. The error handler answers it as every unforeseen error (500 'Unknown failure', logged).
 */
export class ResponseSchemaError extends Error {
  constructor(
    route: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`The answer of ${route} does not match its response schema: ${z.prettifyError(new z.ZodError(issues))}`);
  }
}

/**
 * Whether every answer is also checked against its schema (zod), the mismatch a 500: the tests
 * run so (LIGHTBAR_CHECK_RESPONSES=1, vite.config.ts and tests/support/spawn-server.ts), so a
 * schema that drifts from its handler fails the suite that calls the route. Production only
 * projects: the check costs about as much as writing the JSON (a page of 5,000 assets: 55 ms).
 */
const CHECK_RESPONSES = process.env.LIGHTBAR_CHECK_RESPONSES === '1';

export function installRouteValidation(app: FastifyInstance): void {
  /**
   * An answer is written through its route's response schema for its status: checked, and a field
   * the schema does not name is left out, so a column added to a row never leaks to the wire.
   * The schemas are the domain's wire schemas, the ones the dashboard reads the answers with.
   */
  app.setSerializerCompiler<z.ZodType>(({ schema, method, url }) => {
    // A plugin's own route (the API page's files) may bring a JSON schema: written as it is.
    if (!isZodSchema(schema)) return (data) => JSON.stringify(data);
    const project = compileProjection(schema);
    return (data) => {
      if (CHECK_RESPONSES) {
        const result = schema.safeParse(data);
        if (!result.success) throw new ResponseSchemaError(`${method} ${url}`, result.error.issues);
      }
      return JSON.stringify(project(data));
    };
  });
  app.setValidatorCompiler<z.ZodType>(({ schema }) => (data) => {
    // No `value`: the part stays exactly as Fastify gave it (an absent body stays undefined, not null).
    if (DOCUMENTED_ONLY.has(schema)) return {};
    try {
      return { value: parse(schema, data) };
    } catch (error) {
      const answer = FAILURE_ANSWERS.get(schema);
      return { error: answer ? answer() : (error as Error) };
    }
  });
}
