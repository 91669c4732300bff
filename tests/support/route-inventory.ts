import type { FastifyInstance } from 'fastify';

const TREE_LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/;

/**
 * A route as `METHOD /path` with its path parameters compared by position, not name: find-my-way
 * prints shared ones as `:thingId|:id`, and the OpenAPI document writes `{id}`.
 */
export const normalizeRoute = (route: string): string =>
  route.replace(/:[A-Za-z_]+(?:\|:[A-Za-z_]+)*/g, ':').replace(/\{[A-Za-z_]+\}/g, ':');

/** Every `METHOD /path` the app registers, read from Fastify's route tree; a GET's automatic HEAD is left out. */
export function registeredRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = TREE_LINE.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const methods = (match[3] ?? '').split(', ').filter(Boolean);
    for (const method of methods) {
      if (method === 'HEAD' && methods.includes('GET')) continue;
      routes.push(`${method} ${stack.join('')}`);
    }
  }
  return routes.map(normalizeRoute).sort();
}

/**
 * The routes the OpenAPI document leaves out, each with why; every other route is in it
 * (tests/server/openapi.test.ts).
 */
export const UNDOCUMENTED_ROUTES: Readonly<Record<string, string>> = {
  'GET /openapi.json': 'the document itself',
  'GET /docs/api': 'the API reader (Swagger UI) and its files, served beside the document',
  'GET /docs/api/': 'the API reader',
  'GET /docs/api/*': "the API reader's files",
  'GET /docs/api/json': 'the document again, where the reader reads it',
  'GET /docs/api/yaml': 'the document in YAML',
  'GET /docs/api/static/index.html': 'the API reader (a redirect)',
  'GET /docs/api/static/swagger-initializer.js': "the API reader's start script",
  'GET /docs/api/static/theme/lightbar.svg': "the API reader's icon, the dashboard's",
  'GET /cable':
    'the WebSocket of live data, not an HTTP call: its protocol is docs/architecture.md "The live data path" and src/domain/live-message.ts',
};
