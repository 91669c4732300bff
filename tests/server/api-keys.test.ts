import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyWireSchema } from '../../src/domain/api-key';
import { API_KEY_LIMIT, INTEGRATION_PROVIDERS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { integrationWireSchema } from '../../src/domain/integration';
import { profileWireSchema } from '../../src/domain/profile';
import { apiKeys, integrationConfigurations, organizations, users } from '../../server/db/schema';
import { authenticateApiKey } from '../../server/auth/api-key-auth';
import { badBodies, badIds, call, refusedTokens, snapshot, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: typeof organizations.$inferSelect;
let orgB: typeof organizations.$inferSelect;
let orgM: typeof organizations.$inferSelect;
let orgX: typeof organizations.$inferSelect;
let adminA: typeof users.$inferSelect;
const token = { adminA: '', orgAdminA: '', plainA: '', adminB: '', orgAdminM: '', orgAdminX: '' };
let refused: { revoked: string; expired: string };

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  orgM = await server.createOrg({ name: 'Metro Manager' });
  orgX = await server.createOrg({ name: 'Xpress Access' });
  await server.relate(orgA.id, orgM.id, 'manager');
  await server.relate(orgA.id, orgX.id, 'accessor');
  adminA = await server.createUser({ org: orgA, role: 'ADMIN' });
  const people = {
    adminA,
    orgAdminA: await server.createUser({ org: orgA, role: 'MANUFACTURER ADMIN' }),
    plainA: await server.createUser({ org: orgA, role: 'USER' }),
    adminB: await server.createUser({ org: orgB, role: 'ADMIN' }),
    orgAdminM: await server.createUser({ org: orgM, role: 'MANUFACTURER ADMIN' }),
    orgAdminX: await server.createUser({ org: orgX, role: 'MANUFACTURER ADMIN' }),
  };
  for (const [key, user] of Object.entries(people)) token[key as keyof typeof token] = await server.signIn(user.email);
  refused = await refusedTokens(server, adminA);
}, 120_000);
afterAll(() => server.close());

const keysSnapshot = () => snapshot(server, apiKeys, apiKeys.id);
const integrationsSnapshot = () => snapshot(server, integrationConfigurations, integrationConfigurations.id);

describe('authorization matrix: no, revoked or expired token → 401 for every call of this area', () => {
  const calls: [Method, string, unknown][] = [
    ['GET', '/api_keys', undefined],
    ['POST', '/api_keys', { description: 'x' }],
    ['DELETE', '/api_keys/00000000-0000-4000-8000-000000000000', undefined],
    ['GET', '/organization/integrations', undefined],
    ['POST', '/organization/integrations', { provider: 'samsara', settings: {} }],
    ['DELETE', '/organization/integrations/00000000-0000-4000-8000-000000000000', undefined],
  ];
  it.each(calls)('%s %s', async (method, url, body) => {
    const before = (await keysSnapshot()) + (await integrationsSnapshot());
    for (const bearer of [null, refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer, body)).status).toBe(401);
    }
    expect((await keysSnapshot()) + (await integrationsSnapshot())).toBe(before);
  });
});

describe('API keys (designed: GET/POST /api_keys, DELETE /api_keys/{id})', () => {
  it('creates a key answered once; it is stored hashed, listed masked, and authenticates device ingest', async () => {
    const created = await call(server, 'POST', '/api_keys', token.adminA, { description: ' CAD bridge ' });
    expect(created.status).toBe(201);
    const key = apiKeyWireSchema.parse(created.json);
    expect(key.description).toBe('CAD bridge');
    expect(key.token).toMatch(/^lb_[A-Za-z0-9_-]{43}$/);
    expect(key.created_date).toBe(server.clock.now().toISOString());

    const stored = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(JSON.stringify(stored)).not.toContain(key.token);
    expect(stored[0]).toMatchObject({ userId: adminA.id, organizationId: orgA.id, tokenPrefix: key.token.slice(0, 11) });

    const list = await call(server, 'GET', '/api_keys', token.adminA);
    expect(list.status).toBe(200);
    const listed = apiKeyWireSchema.array().parse(list.json);
    expect(listed.map((k) => k.id)).toContain(key.id);
    expect(JSON.stringify(list.json)).not.toContain(key.token);
    expect(listed.find((k) => k.id === key.id)!.token.startsWith(key.token.slice(0, 11))).toBe(true);

    expect(await authenticateApiKey(server.database.db, key.token, server.clock.now())).toEqual({
      organizationId: orgA.id,
      userId: adminA.id,
    });
    expect(await authenticateApiKey(server.database.db, `${key.token}x`, server.clock.now())).toBeNull();
    expect(await authenticateApiKey(server.database.db, 'garbage', server.clock.now())).toBeNull();

    // The profile reports has_api_keys (part 1 §3).
    expect(profileWireSchema.parse((await call(server, 'GET', '/profile', token.adminA)).json).has_api_keys).toBe(true);

    const removed = await call(server, 'DELETE', `/api_keys/${key.id}`, token.adminA);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: key.id });
    expect(await authenticateApiKey(server.database.db, key.token, server.clock.now())).toBeNull();
    expect(
      apiKeyWireSchema
        .array()
        .parse((await call(server, 'GET', '/api_keys', token.adminA)).json)
        .map((k) => k.id),
    ).not.toContain(key.id);
  });

  it(`part2 §8 'API keys' limit reached: the ${API_KEY_LIMIT + 1}th key → 422 api_key_limit, 'Your User has reached the API Key limit'`, async () => {
    const user = await server.createUser({ org: orgA, role: 'ADMIN' });
    const bearer = await server.signIn(user.email);
    for (let n = 0; n < API_KEY_LIMIT; n += 1) {
      expect((await call(server, 'POST', '/api_keys', bearer, { description: `key ${n}` })).status).toBe(201);
    }
    const before = await keysSnapshot();
    const over = await call(server, 'POST', '/api_keys', bearer, { description: 'one too many' });
    expect(over.status).toBe(422);
    expect(errorText('apiKeys', { status: over.status, code: over.body.error, message: over.body.message }).text).toBe(
      'Your User has reached the API Key limit',
    );
    expect(await keysSnapshot()).toBe(before);
    // Revoking one frees a place.
    const [first] = apiKeyWireSchema.array().parse((await call(server, 'GET', '/api_keys', bearer)).json);
    expect((await call(server, 'DELETE', `/api_keys/${first!.id}`, bearer)).status).toBe(200);
    expect((await call(server, 'POST', '/api_keys', bearer, { description: 'replacement' })).status).toBe(201);
  });

  it('concurrent creations never pass the limit', async () => {
    const user = await server.createUser({ org: orgA, role: 'ADMIN' });
    const bearer = await server.signIn(user.email);
    const answers = await Promise.all(
      Array.from({ length: API_KEY_LIMIT + 3 }, (_, n) => call(server, 'POST', '/api_keys', bearer, { description: `race ${n}` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(API_KEY_LIMIT);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(3);
  });

  it("a deleted user's keys stop working", async () => {
    const user = await server.createUser({ org: orgA, role: 'ADMIN' });
    const created = apiKeyWireSchema.parse(
      (await call(server, 'POST', '/api_keys', await server.signIn(user.email), { description: 'soon gone' })).json,
    );
    expect(await authenticateApiKey(server.database.db, created.token, server.clock.now())).not.toBeNull();
    expect((await call(server, 'DELETE', `/users/${user.id}`, token.orgAdminA)).status).toBe(200);
    expect(await authenticateApiKey(server.database.db, created.token, server.clock.now())).toBeNull();
  });

  it("another user's key: not listed, and deleting it is 404 — unchanged", async () => {
    const mine = apiKeyWireSchema.parse((await call(server, 'POST', '/api_keys', token.adminA, { description: 'private' })).json);
    const theirs = await call(server, 'GET', '/api_keys', token.adminB);
    expect(
      apiKeyWireSchema
        .array()
        .parse(theirs.json)
        .map((k) => k.id),
    ).not.toContain(mine.id);
    const before = await keysSnapshot();
    expect((await call(server, 'DELETE', `/api_keys/${mine.id}`, token.adminB)).status).toBe(404);
    // The administrator of a manager organization is not an administrator of this one.
    expect((await call(server, 'DELETE', `/api_keys/${mine.id}`, token.orgAdminM)).status).toBe(404);
    expect(await keysSnapshot()).toBe(before);
  });

  it("the organization's administrator lists every key of the organization with its owner, and revokes another user's", async () => {
    const mine = apiKeyWireSchema.parse((await call(server, 'POST', '/api_keys', token.adminA, { description: 'depot' })).json);
    expect(mine.owner).toEqual({ id: adminA.id, name: `${adminA.firstname} ${adminA.lastname}`, email: adminA.email });
    const listed = apiKeyWireSchema.array().parse((await call(server, 'GET', '/api_keys', token.orgAdminA)).json);
    expect(listed.find((k) => k.id === mine.id)).toEqual({ ...mine, token: `${mine.token.slice(0, 11)}••••••••` });
    expect((await call(server, 'DELETE', `/api_keys/${mine.id}`, token.orgAdminA)).json).toEqual({ id: mine.id });
    const [row] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, mine.id));
    expect(row!.revokedAt).not.toBeNull();
    expect(await authenticateApiKey(server.database.db, mine.token, server.clock.now())).toBeNull();
  });

  it('a user without integration configuration or user admin permissions → 403 for each call, unchanged', async () => {
    const mine = apiKeyWireSchema.parse((await call(server, 'POST', '/api_keys', token.adminA, { description: 'for 403' })).json);
    const before = await keysSnapshot();
    expect((await call(server, 'GET', '/api_keys', token.plainA)).status).toBe(403);
    expect((await call(server, 'POST', '/api_keys', token.plainA, { description: 'nope' })).status).toBe(403);
    expect((await call(server, 'DELETE', `/api_keys/${mine.id}`, token.plainA)).status).toBe(403);
    expect(await keysSnapshot()).toBe(before);
  });

  it('property: bad bodies and ids never give a 5xx and never change a row', async () => {
    const bodies = badBodies({ description: 'fine' }, { description: fc.constantFrom('', '   ', null, 4, 'd'.repeat(101), ['a']) });
    const before = await keysSnapshot();
    await fc.assert(
      fc.asyncProperty(bodies, badIds, async (payload, id) => {
        const created = await call(server, 'POST', '/api_keys', token.orgAdminA, payload);
        const removed = await call(server, 'DELETE', `/api_keys/${encodeURIComponent(id)}`, token.orgAdminA);
        for (const answer of [created, removed]) {
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        }
      }),
      { numRuns: 40 },
    );
    expect(await keysSnapshot()).toBe(before);
  });
});

describe('integrations (designed: GET/POST /organization/integrations, DELETE /organization/integrations/{id})', () => {
  it('adds one configuration per provider, round-trips its settings and masks credentials', async () => {
    const created = await call(server, 'POST', '/organization/integrations', token.adminA, {
      provider: 'samsara',
      settings: { fleet_name: 'Alpha Fleet', api_token: 'samsara-secret-abcd1234' },
    });
    expect(created.status).toBe(201);
    const wire = integrationWireSchema.parse(created.json);
    expect(wire).toMatchObject({
      organization_id: orgA.id,
      provider: 'samsara',
      settings: { fleet_name: 'Alpha Fleet', api_token: '••••1234' },
    });
    const [row] = await server.database.db.select().from(integrationConfigurations).where(eq(integrationConfigurations.id, wire.id));
    expect(row!.settings).toEqual({ fleet_name: 'Alpha Fleet', api_token: 'samsara-secret-abcd1234' });

    const list = await call(server, 'GET', '/organization/integrations', token.adminA);
    expect(list.status).toBe(200);
    const listed = integrationWireSchema.array().parse(list.json);
    expect(listed.map((i) => i.id)).toEqual([wire.id]);
    expect(JSON.stringify(list.json)).not.toContain('samsara-secret');

    // part 2 §9 providers not repeated: the same provider again → 422 'Provider already used'.
    const before = await integrationsSnapshot();
    const again = await call(server, 'POST', '/organization/integrations', token.adminA, { provider: 'samsara', settings: {} });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('provider: Provider already used');
    expect(await integrationsSnapshot()).toBe(before);
    // The other provider is fine.
    expect(
      (await call(server, 'POST', '/organization/integrations', token.adminA, { provider: INTEGRATION_PROVIDERS[1], settings: {} })).status,
    ).toBe(201);

    const removed = await call(server, 'DELETE', `/organization/integrations/${wire.id}`, token.adminA);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: wire.id });
    expect(
      integrationWireSchema
        .array()
        .parse((await call(server, 'GET', '/organization/integrations', token.adminA)).json)
        .map((i) => i.provider),
    ).toEqual([INTEGRATION_PROVIDERS[1]]);
  });

  it('a manager organization configures the organization it manages; an accessor does not (404)', async () => {
    const managed = await call(server, 'POST', '/organization/integrations', token.orgAdminM, {
      provider: 'samsara',
      settings: {},
      organization_id: orgA.id,
    });
    // A already has no samsara configuration after the test above deleted it.
    expect(managed.status).toBe(201);
    const listed = await call(server, 'GET', `/organization/integrations?org_ids[]=${orgA.id}`, token.orgAdminM);
    expect(
      integrationWireSchema
        .array()
        .parse(listed.json)
        .map((i) => i.organization_id),
    ).toContain(orgA.id);
    const before = await integrationsSnapshot();
    const accessor = await call(server, 'POST', '/organization/integrations', token.orgAdminX, {
      provider: 'geotab',
      settings: {},
      organization_id: orgA.id,
    });
    expect(accessor.status).toBe(404);
    expect(errorText('lists', { status: 404 }).text).toBe('Organization not found');
    expect(
      integrationWireSchema
        .array()
        .parse((await call(server, 'GET', `/organization/integrations?org_ids[]=${orgA.id}`, token.orgAdminX)).json),
    ).toEqual([]);
    expect(await integrationsSnapshot()).toBe(before);
  });

  it('another organization: its list is empty of ours, naming ours is 404, deleting ours is 404 — unchanged', async () => {
    const [ours] = integrationWireSchema.array().parse((await call(server, 'GET', '/organization/integrations', token.adminA)).json);
    const theirs = await call(server, 'GET', `/organization/integrations?org_ids[]=${orgA.id}`, token.adminB);
    expect(theirs.json).toEqual([]);
    const before = await integrationsSnapshot();
    expect(
      (await call(server, 'POST', '/organization/integrations', token.adminB, { provider: 'geotab', organization_id: orgA.id })).status,
    ).toBe(404);
    expect((await call(server, 'DELETE', `/organization/integrations/${ours!.id}`, token.adminB)).status).toBe(404);
    expect(await integrationsSnapshot()).toBe(before);
  });

  it('a user without integration configuration permissions → 403, unchanged', async () => {
    const [ours] = integrationWireSchema.array().parse((await call(server, 'GET', '/organization/integrations', token.adminA)).json);
    const before = await integrationsSnapshot();
    expect((await call(server, 'GET', '/organization/integrations', token.plainA)).status).toBe(403);
    expect((await call(server, 'POST', '/organization/integrations', token.plainA, { provider: 'geotab' })).status).toBe(403);
    expect((await call(server, 'DELETE', `/organization/integrations/${ours!.id}`, token.plainA)).status).toBe(403);
    expect(await integrationsSnapshot()).toBe(before);
  });

  it('property: bad bodies and ids never give a 5xx and never change a row', async () => {
    const org = await server.createOrg({ name: 'Fresh Org' });
    const admin = await server.createUser({ org, role: 'ADMIN' });
    const bearer = await server.signIn(admin.email);
    const bodies = badBodies(
      { provider: 'samsara', settings: { a: 'b' } },
      {
        provider: fc.constantFrom('', 'verizon', 'SAMSARA', null, 1),
        settings: fc.constantFrom(
          'text',
          [],
          { 'bad key': 'x' },
          { a: 1 },
          { a: 'v'.repeat(501) },
          Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, 'v'])),
        ),
        organization_id: fc.constantFrom(orgA.id, orgB.id, 'nope', '66666666-6666-4666-8666-666666666666'),
      },
    );
    const before = await integrationsSnapshot();
    await fc.assert(
      fc.asyncProperty(bodies, badIds, async (payload, id) => {
        const created = await call(server, 'POST', '/organization/integrations', bearer, payload);
        const removed = await call(server, 'DELETE', `/organization/integrations/${encodeURIComponent(id)}`, bearer);
        for (const answer of [created, removed]) {
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        }
      }),
      { numRuns: 40 },
    );
    expect(await integrationsSnapshot()).toBe(before);
  });
});
