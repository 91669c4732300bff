/**
 * The OpenAPI 3.1 document of the API (/openapi.json) and its reader (/docs/api), both made from
 * the routes' own schemas: valid, complete, and telling what each call takes and answers. That the
 * documented 401/403 and success statuses agree with what callers meet is the authorization
 * matrix's (tests/security/authz-matrix.test.ts).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installErrorHandler } from '../../server/core/errors';
import { documentedOnly, installRouteValidation } from '../../server/http/route-validation';
import { normalizeRoute, registeredRoutes, UNDOCUMENTED_ROUTES } from '../support/route-inventory';
import { createTestServer, type TestServer } from '../support/test-server';

interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

let server: TestServer;
let document: Document;
let operations: { route: string; path: string; operation: Operation }[];

beforeAll(async () => {
  server = await createTestServer();
  const answer = await server.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  document = answer.json();
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, path, operation })),
  );
});
afterAll(() => server.close());

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (an independent validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.info.title).toBe('Lightbar API');
  });

  it('lists every route the server registers, but the ones left out with why', () => {
    const documented = operations.map(({ route }) => normalizeRoute(route)).sort();
    const left = new Set(Object.keys(UNDOCUMENTED_ROUTES).map(normalizeRoute));
    const expected = registeredRoutes(server.app).filter((route) => !left.has(route));
    expect(documented).toEqual(expected);
    expect(documented.length).toBeGreaterThan(80);
  });

  it('says for every call what it does, under which tag', () => {
    const unsaid = operations.filter(({ operation }) => !operation.summary?.trim() || operation.tags?.length !== 1);
    expect(unsaid.map(({ route }) => route)).toEqual([]);
  });

  it('declares every path parameter of every call', () => {
    const undeclared = operations.flatMap(({ route, path, operation }) =>
      [...path.matchAll(/\{(\w+)\}/g)]
        .map((match) => match[1]!)
        .filter(
          (name) => !operation.parameters?.some((parameter) => parameter.in === 'path' && parameter.name === name && parameter.required),
        )
        .map((name) => `${route}: ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('gives every call a success answer with its content (a schema for JSON)', () => {
    const without = operations.filter(({ operation }) => {
      const success = Object.entries(operation.responses).filter(([status]) => /^[23]\d\d$/.test(status));
      return (
        success.length === 0 ||
        success.some(([status, response]) => {
          if (status === '204' || /^3/.test(status)) return false;
          const content = Object.entries(response.content ?? {});
          return content.length === 0 || content.some(([type, media]) => type.includes('json') && media.schema === undefined);
        })
      );
    });
    expect(without.map(({ route }) => route)).toEqual([]);
  });

  it('documents the error body once, as a component every error answer refers to', () => {
    const body = JSON.stringify(document);
    expect(body).toContain('"#/components/schemas/Error"');
    const user = document.paths['/users/{id}']!.delete!;
    expect(Object.keys(user.responses).sort()).toEqual(['200', '401', '403', '422']);
    expect(user.responses['401']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
  });
});

describe('GET /docs/api', () => {
  it('serves the API reader from this server, no CDN, reading the same document', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/docs/api/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^https?:/);
      const file = await server.app.inject({ method: 'GET', url: new URL(src, 'http://lightbar.test/docs/api/').pathname });
      expect({ src, status: file.statusCode }).toEqual({ src, status: 200 });
    }
    const initializer = await server.app.inject({ method: 'GET', url: '/docs/api/static/swagger-initializer.js' });
    expect(initializer.body).toContain("resolveUrl('./json')");
    expect(initializer.body).toContain('validatorUrl: null');
    const read = await server.app.inject({ method: 'GET', url: '/docs/api/json' });
    expect(read.json()).toEqual(document);
  });
});

describe('answers are written through their response schema', () => {
  const app = Fastify();
  beforeAll(async () => {
    installErrorHandler(app);
    installRouteValidation(app);
    const api = app.withTypeProvider<ZodTypeProvider>();
    const answer = z.object({ id: z.string(), name: z.string() });
    const row = { id: 'a1', name: 'Engine 7', password_digest: 'secret' };
    api.get('/named', { schema: { response: { 200: answer } } }, async () => row);
    api.get('/wrong', { schema: { response: { 200: answer } } }, async () => ({ id: 'a1', name: 7 }) as never);
    const listQuery = z.object({ 'org_ids[]': z.array(z.string().uuid()).optional() });
    api.get('/checked', { schema: { querystring: listQuery } }, async (request) => request.query);
    api.get('/read-by-handler', { schema: { querystring: documentedOnly(listQuery.clone()) } }, async (request) => request.query);
    await app.ready();
  });
  afterAll(() => app.close());

  it('leaves out a field the schema does not name', async () => {
    const answer = await app.inject({ method: 'GET', url: '/named' });
    expect(answer.json()).toEqual({ id: 'a1', name: 'Engine 7' });
  });

  it('a documented-only request part reaches the handler as sent; a checked one is refused with 422', async () => {
    const url = '?org_ids[]=not-a-uuid';
    expect((await app.inject({ method: 'GET', url: `/read-by-handler${url}` })).json()).toEqual({ 'org_ids[]': 'not-a-uuid' });
    const checked = await app.inject({ method: 'GET', url: `/checked${url}` });
    expect(checked.statusCode).toBe(422);
  });

  it("answers 500 'Unknown failure' when the handler breaks its own schema", async () => {
    const answer = await app.inject({ method: 'GET', url: '/wrong' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ error: 'internal', message: 'Unknown failure' });
  });
});
