import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { notFound, parse, type HttpError } from './errors';

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

export function installRouteValidation(app: FastifyInstance): void {
  app.setValidatorCompiler<z.ZodType>(({ schema }) => (data) => {
    try {
      return { value: parse(schema, data) };
    } catch (error) {
      const answer = FAILURE_ANSWERS.get(schema);
      return { error: answer ? answer() : (error as Error) };
    }
  });
}
