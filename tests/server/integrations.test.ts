/**
 * POST /organization/integrations/{id}/test (designed; part 2 §9 "Integration providers: two fleet
 * telematics providers", §6 integration configuration permissions): the server signs in to the
 * provider with the stored settings. The providers are a local fake (node:http on 127.0.0.1)
 * playing Samsara's REST API and Geotab's JSON-RPC API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_TEST_REASONS, integrationTestWireSchema, integrationWireSchema } from '../../src/domain/integration';
import { readConfig } from '../../server/config';
import { ROLE_DEFINITIONS } from '../../server/db/reference-data';
import { integrationConfigurations, organizations, roles, users } from '../../server/db/schema';
import { providerAdapters, PROVIDER_TIMEOUT_MS } from '../../server/integrations';
import { call, snapshot } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

const GOOD_TOKEN = 'samsara-good-token-1234';
const GEOTAB = { server: 'my.geotab.com', database: 'alpha_fleet', user_name: 'ops@alpha.example', password: 'geotab-pass-9876' };

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: unknown;
}

/** The fake providers: Samsara under /samsara, Geotab under /geotab/apiv1; `mode` makes them fail in other ways. */
class FakeProviders {
  readonly seen: Seen[] = [];
  mode: 'normal' | 'error' | 'hang' = 'normal';
  private readonly server = http.createServer((request, response) => void this.answer(request, response));
  port = 0;

  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private async answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += String(chunk);
    const body: unknown = raw ? JSON.parse(raw) : null;
    this.seen.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, body });
    if (this.mode === 'hang') return; // never answers
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (this.mode === 'error') return send(503, { message: 'maintenance' });
    if (request.method === 'GET' && request.url === '/samsara/fleet/vehicles?limit=1') {
      if (request.headers.authorization === `Bearer ${GOOD_TOKEN}`)
        return send(200, { data: [{ id: '281474978683353', name: 'Engine 12' }] });
      return send(401, { message: 'Unauthorized', requestId: 'abc' });
    }
    if (request.method === 'POST' && request.url === '/geotab/apiv1') {
      const { params } = body as { params: { database: string; userName: string; password: string } };
      if (params.database !== GEOTAB.database) {
        return send(200, { error: { name: 'JSONRPCError', errors: [{ name: 'DbUnavailableException', message: 'Unknown database' }] } });
      }
      if (params.userName !== GEOTAB.user_name || params.password !== GEOTAB.password) {
        return send(200, { error: { name: 'JSONRPCError', errors: [{ name: 'InvalidUserException', message: 'Incorrect login' }] } });
      }
      return send(200, {
        result: { credentials: { database: params.database, sessionId: 's-1', userName: params.userName }, path: 'ThisServer' },
      });
    }
    send(404, { message: 'no such call' });
  }
}

let server: TestServer;
const fake = new FakeProviders();
const token = { admin: '', reader: '', plain: '', otherAdmin: '' };
let orgA: typeof organizations.$inferSelect;
let orgB: typeof organizations.$inferSelect;

beforeAll(async () => {
  await fake.start();
  server = await createTestServer({ env: { SAMSARA_API_URL: `${fake.base}/samsara/`, GEOTAB_API_URL: `${fake.base}/geotab/apiv1` } });
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  const admin = await server.createUser({ org: orgA, role: 'ADMIN' });
  const reader = await server.createUser({ org: orgA, role: 'USER' });
  const plain = await server.createUser({ org: orgA, role: 'USER' });
  const otherAdmin = await server.createUser({ org: orgB, role: 'ADMIN' });
  // A USER who may also read integration configurations (and not create or delete them).
  const userPermissions = ROLE_DEFINITIONS.find((role) => role.name === 'USER')!.permissions;
  const [readRole] = await server.database.db
    .insert(roles)
    .values({ name: 'INTEGRATION READER', order: 9, permissions: [...userPermissions, 'integration_configuration:read'] })
    .returning();
  await server.database.db.update(users).set({ roleId: readRole!.id }).where(eq(users.id, reader.id));
  token.admin = await server.signIn(admin.email);
  token.reader = await server.signIn(reader.email);
  token.plain = await server.signIn(plain.email);
  token.otherAdmin = await server.signIn(otherAdmin.email);
}, 120_000);

afterAll(async () => {
  await server.close();
  await fake.stop();
});

async function configure(bearer: string, provider: 'samsara' | 'geotab', settings: Record<string, string>): Promise<string> {
  const answer = await call(server, 'POST', '/organization/integrations', bearer, { provider, settings });
  expect(answer.status).toBe(201);
  return integrationWireSchema.parse(answer.json).id;
}

async function remove(id: string): Promise<void> {
  await server.database.db.delete(integrationConfigurations).where(eq(integrationConfigurations.id, id));
}

const test = (id: string, bearer = token.admin) => call(server, 'POST', `/organization/integrations/${id}/test`, bearer);

describe('Samsara: GET {SAMSARA_API_URL}/fleet/vehicles?limit=1 with the bearer token', () => {
  it('a good token → { ok: true, checked_at } (the server clock), the provider saw the stored token', async () => {
    const id = await configure(token.admin, 'samsara', { api_token: GOOD_TOKEN });
    fake.seen.length = 0;
    const answer = await test(id);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, checked_at: '2026-11-22T12:00:00.000Z' });
    expect(integrationTestWireSchema.parse(answer.json).ok).toBe(true);
    // The trailing slash of SAMSARA_API_URL is dropped; the token is the whole stored one, not the masked answer.
    expect(fake.seen).toEqual([
      { method: 'GET', url: '/samsara/fleet/vehicles?limit=1', authorization: `Bearer ${GOOD_TOKEN}`, body: null },
    ]);
    await remove(id);
  });

  it("a bad token → 200 { ok: false, reason: 'The provider refused the credentials' }", async () => {
    const id = await configure(token.admin, 'samsara', { api_token: 'samsara-wrong-token' });
    const answer = await test(id);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: false, reason: 'The provider refused the credentials' });
    await remove(id);
  });

  it('a provider error (503) names its status; a configuration without a token says so without calling', async () => {
    const id = await configure(token.admin, 'samsara', { api_token: GOOD_TOKEN });
    fake.mode = 'error';
    try {
      expect((await test(id)).json).toEqual({ ok: false, reason: 'The provider answered with an error (HTTP 503)' });
    } finally {
      fake.mode = 'normal';
    }
    await remove(id);
    const empty = await configure(token.admin, 'samsara', {});
    fake.seen.length = 0;
    expect((await test(empty)).json).toEqual({ ok: false, reason: 'The configuration has no API Token' });
    expect(fake.seen).toEqual([]);
    await remove(empty);
  });
});

describe('Geotab: JSON-RPC Authenticate at GEOTAB_API_URL', () => {
  it('good credentials → ok; the provider got the Authenticate call with database, userName and password', async () => {
    const id = await configure(token.admin, 'geotab', GEOTAB);
    fake.seen.length = 0;
    const answer = await test(id);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, checked_at: '2026-11-22T12:00:00.000Z' });
    expect(fake.seen).toEqual([
      {
        method: 'POST',
        url: '/geotab/apiv1',
        authorization: undefined,
        body: { method: 'Authenticate', params: { database: GEOTAB.database, userName: GEOTAB.user_name, password: GEOTAB.password } },
      },
    ]);
    await remove(id);
  });

  it('a wrong password (InvalidUserException) or an unknown database (DbUnavailableException) → refused', async () => {
    for (const settings of [
      { ...GEOTAB, password: 'wrong-pass' },
      { ...GEOTAB, database: 'no_such_db' },
    ]) {
      const id = await configure(token.admin, 'geotab', settings);
      const answer = await test(id);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ ok: false, reason: 'The provider refused the credentials' });
      await remove(id);
    }
  });
});

describe('the provider down', () => {
  it("nothing listening → 200 { ok: false, reason: 'The provider could not be reached' }, for both providers", async () => {
    const samsara = await configure(token.admin, 'samsara', { api_token: GOOD_TOKEN });
    const geotab = await configure(token.admin, 'geotab', GEOTAB);
    const port = fake.port;
    await fake.stop();
    try {
      for (const id of [samsara, geotab]) {
        const answer = await test(id);
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({ ok: false, reason: 'The provider could not be reached' });
      }
    } finally {
      await fake.start(port);
    }
    expect((await test(samsara)).json).toMatchObject({ ok: true });
    await remove(samsara);
    await remove(geotab);
  });

  it('a provider that does not answer in time is unreachable (10 s on the route; shortened here)', async () => {
    expect(PROVIDER_TIMEOUT_MS).toBe(10_000);
    const adapters = providerAdapters({ samsara: `${fake.base}/samsara`, geotab: `${fake.base}/geotab/apiv1` });
    fake.mode = 'hang';
    try {
      const started = Date.now();
      expect(await adapters.samsara.check({ api_token: GOOD_TOKEN }, 300)).toEqual({
        ok: false,
        reason: INTEGRATION_TEST_REASONS.unreachable,
      });
      expect(await adapters.geotab.check(GEOTAB, 300)).toEqual({ ok: false, reason: INTEGRATION_TEST_REASONS.unreachable });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      fake.mode = 'normal';
    }
  });
});

describe('PUT /organization/integrations/{id}: a configuration mended, not deleted and added again', () => {
  it('a configuration without a token gets one: the answer masks it, the database keeps it whole, the test now passes', async () => {
    const id = await configure(token.admin, 'samsara', {});
    expect((await test(id)).json).toEqual({ ok: false, reason: 'The configuration has no API Token' });
    const answer = await call(server, 'PUT', `/organization/integrations/${id}`, token.admin, { settings: { api_token: GOOD_TOKEN } });
    expect(answer.status).toBe(200);
    expect(integrationWireSchema.parse(answer.json)).toMatchObject({ id, provider: 'samsara', settings: { api_token: '••••1234' } });
    const [row] = await server.database.db.select().from(integrationConfigurations).where(eq(integrationConfigurations.id, id));
    expect(row!.settings).toEqual({ api_token: GOOD_TOKEN });
    expect((await test(id)).json).toMatchObject({ ok: true });
    await remove(id);
  });

  it("another organization's → 404 'Integration not found'; a reader → 403; bad settings → 422; nothing changes", async () => {
    const id = await configure(token.admin, 'samsara', { api_token: 'kept-token-0000' });
    const before = await snapshot(server, integrationConfigurations, integrationConfigurations.id);
    const theirs = await call(server, 'PUT', `/organization/integrations/${id}`, token.otherAdmin, { settings: { api_token: 'x' } });
    expect([theirs.status, theirs.body.message]).toEqual([404, 'Integration not found']);
    expect((await call(server, 'PUT', `/organization/integrations/${id}`, token.reader, { settings: { api_token: 'x' } })).status).toBe(
      403,
    );
    const bad = await call(server, 'PUT', `/organization/integrations/${id}`, token.admin, { settings: { 'bad name': 'x' } });
    expect(bad.status).toBe(422);
    expect((await call(server, 'PUT', `/organization/integrations/${id}`, token.admin, {})).status).toBe(422);
    expect(await snapshot(server, integrationConfigurations, integrationConfigurations.id)).toBe(before);
    await remove(id);
  });
});

describe('who may test which configuration', () => {
  it("another organization's configuration → 404 'Integration not found'; an unknown or malformed id → 404", async () => {
    const ours = await configure(token.admin, 'samsara', { api_token: GOOD_TOKEN });
    fake.seen.length = 0;
    const theirs = await test(ours, token.otherAdmin);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Integration not found');
    expect((await test('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await test('not-a-uuid')).status).toBe(404);
    expect(fake.seen).toEqual([]);
    await remove(ours);
  });

  it('a caller without integration configuration permissions → 403; a reader (read only) may test; nothing changes', async () => {
    const id = await configure(token.admin, 'geotab', GEOTAB);
    const before = await snapshot(server, integrationConfigurations, integrationConfigurations.id);
    fake.seen.length = 0;
    const refused = await test(id, token.plain);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: 'Not authorized' });
    expect(fake.seen).toEqual([]);
    expect((await test(id, token.reader)).json).toMatchObject({ ok: true });
    expect((await call(server, 'POST', '/organization/integrations', token.reader, { provider: 'samsara', settings: {} })).status).toBe(
      403,
    );
    expect(await snapshot(server, integrationConfigurations, integrationConfigurations.id)).toBe(before);
    await remove(id);
  });

  it('no token → 401', async () => {
    expect((await call(server, 'POST', `/organization/integrations/${orgA.id}/test`, null)).status).toBe(401);
  });
});

describe('SAMSARA_API_URL and GEOTAB_API_URL (README "Configuration")', () => {
  it('default to the providers’ public APIs; a value that is not an http(s) URL stops the start', () => {
    expect(readConfig({}).providers).toEqual({ samsara: 'https://api.samsara.com', geotab: 'https://my.geotab.com/apiv1' });
    expect(readConfig({ SAMSARA_API_URL: 'http://127.0.0.1:4010/', GEOTAB_API_URL: 'https://geo.example/apiv1' }).providers).toEqual({
      samsara: 'http://127.0.0.1:4010',
      geotab: 'https://geo.example/apiv1',
    });
    expect(() => readConfig({ SAMSARA_API_URL: 'api.samsara.com' })).toThrow(
      'SAMSARA_API_URL must be an http or https URL without a query, got "api.samsara.com"',
    );
    expect(() => readConfig({ GEOTAB_API_URL: 'ftp://my.geotab.com' })).toThrow(/^GEOTAB_API_URL must be/);
  });
});
