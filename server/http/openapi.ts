import http from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ERROR_SCHEMA_ID } from '../core/errors';
import { validatesAs422 } from './route-validation';

/** Where the document and its reader are served (docs/api/README.md). */
export const OPENAPI_PATH = '/openapi.json';
export const API_DOCS_PREFIX = '/docs/api';

/** The dashboard's icon (index.html), the API page's too. */
const LIGHTBAR_ICON =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='6' y='5' rx='2' fill='#d32f2f'/><rect width='8' height='6' x='8' y='5' rx='2' fill='#1565c0'/></svg>";

const VALIDATION_MEANING = "A parameter or field failed validation: '<field>: <text>', with `fields`.";

/** What the error statuses the routes declare themselves mean, the same for every route. */
const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  404: "Not found: no such record, or one the caller may not see ('<what> not found'); nothing leaks.",
  409: 'Conflict: the request clashes with the record as it stands.',
  412: 'Precondition failed: someone saved the record since the copy `If-Match` names; nothing was saved.',
  422: VALIDATION_MEANING,
  429: 'Too many requests from this address: wait a minute and try again.',
};

/** An answer's description where the route gives none: the error's meaning, or its status's name ('OK', 'Created'). */
function describeAnswers(responses: Record<string, object>): Record<string, object> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      if ('description' in response) return [status, response];
      const code = Number(status);
      return [status, { description: ERROR_MEANINGS[code] ?? http.STATUS_CODES[code] ?? status, ...response }];
    }),
  );
}

/** The error body in the document: the routes' own `errorAnswer`, one component all refer to. */
const errorDoc = (description: string) => ({ description, $ref: `#/components/schemas/${ERROR_SCHEMA_ID}` });

/**
 * The statuses every route shares, from what the route declares: its `config.access` (401 without
 * a valid token, 403 without the permission; route-access.ts) and its request schemas (422 naming
 * the field; route-validation.ts). What a handler answers beyond these it declares in
 * `schema.response` itself.
 */
function sharedAnswers(route: RouteOptions): Record<number, object> {
  const answers: Record<number, object> = {};
  const access = route.config?.access;
  if (access !== undefined) {
    answers[401] = errorDoc('No valid access token: the dashboard signs out (part 1 §4).');
    if (access !== 'signed-in') answers[403] = errorDoc("The caller's role lacks the call's permission: 'Not authorized'.");
  }
  const schema = route.schema ?? {};
  if ([schema.params, schema.querystring, schema.body].some(validatesAs422)) {
    answers[422] = errorDoc(VALIDATION_MEANING);
  }
  return answers;
}

/**
 * The OpenAPI 3.1 document of every route, made from the routes' own zod schemas when they are
 * registered (@fastify/swagger reads each route as it is added, so this runs before the routes),
 * served at /openapi.json, with Swagger UI (its files from npm, no CDN) at /docs/api.
 */
export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lightbar API',
        version,
        description: 'The calls of the Lightbar server. Flows, permissions by role and examples: docs/api/*.md in the repository.',
      },
      components: {
        securitySchemes: {
          accessToken: { type: 'http', scheme: 'bearer', description: 'The access token of POST /user_token.' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "A device's API key (POST /ingest)." },
        },
      },
    },
    // The schemas named in zod's registry (`.meta({ id })`) become components the routes refer to.
    transformObject: jsonSchemaTransformObject,
    transform: (document) => {
      const { schema, url } = jsonSchemaTransform(document);
      const route = document.route as RouteOptions;
      const shared = sharedAnswers(route);
      const own = (schema?.response ?? {}) as Record<string, object>;
      const security = route.config?.access === undefined ? {} : { security: [{ accessToken: [] }] };
      return { schema: { ...security, ...schema, response: { ...shared, ...describeAnswers(own) } }, url };
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // BaseLayout: no top bar (its logo and its box to load another document).
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, layout: 'BaseLayout' },
    theme: {
      title: 'Lightbar API',
      favicon: [{ filename: 'lightbar.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(LIGHTBAR_ICON) }],
    },
  });
}
