/**
 * The calls without a bearer token (the open rows of the authorization matrix): the public ones
 * stay public, the signed file link and the API-key ingest refuse what is not theirs.
 * Sources: part 1 §7 (sign-in calls, /version), part 2 §1 (the WZDx feed), docs/api/data.md (the
 * signed link), device ingest (x-api-key); OWASP ASVS V4.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINK_TTL_MS } from '../../server/auth/signed-links';
import { roles, things } from '../../server/db/schema';
import { call, snapshot } from '../support/account-calls';
import { createTestServer, PASSWORD, type TestServer } from '../support/test-server';
import { AuthzWorld, type Actor } from './support/authz-world';

const INGEST_REFUSED = { error: 'unauthorized', message: 'A valid API key is required in the x-api-key header.' };

let server: TestServer;
let w: AuthzWorld;
let member: Actor;

beforeAll(async () => {
  server = await createTestServer();
  w = await AuthzWorld.build(server);
  member = await w.roleActor('ADMIN');
});
afterAll(() => server.close());

describe('part 1 §7, part 2 §1 the public calls answer without a token', () => {
  it.each([
    { call: 'GET /version', status: 200, send: () => call(server, 'GET', '/version', null) },
    { call: 'GET /health', status: 200, send: () => call(server, 'GET', '/health', null) },
    { call: 'GET /ready', status: 200, send: () => call(server, 'GET', '/ready', null) },
    {
      call: 'POST /user_token',
      status: 200,
      send: () =>
        call(server, 'POST', '/user_token', null, {
          grant_type: 'password',
          application: 'dashboard',
          username: member.email,
          password: PASSWORD,
        }),
    },
    { call: 'POST /verify_token', status: 200, send: () => call(server, 'POST', '/verify_token', null, { access_token: member.token }) },
    { call: 'POST /revoke_token', status: 200, send: () => call(server, 'POST', '/revoke_token', null, { token: 'unknown-token' }) },
    {
      call: 'POST /forgot_password',
      status: 200,
      send: () => call(server, 'POST', '/forgot_password', null, { email: 'nobody@example.com' }),
    },
    {
      call: 'POST /unlock_account',
      status: 200,
      send: () => call(server, 'POST', '/unlock_account', null, { email: 'nobody@example.com' }),
    },
    {
      call: 'PUT /reset_password',
      status: 404,
      send: () => call(server, 'PUT', '/reset_password', null, { token: 'unknown-token', password: 'New#Password2' }),
    },
    { call: 'GET /wzdx/{organizationId}/feed', status: 200, send: () => call(server, 'GET', `/wzdx/${w.own.orgId}/feed`, null) },
    // docs/map.md "Basemap": the map's streets (a tile over the demo city; no BASEMAP_PMTILES here).
    { call: 'GET /tiles/basemap.json', status: 200, send: () => call(server, 'GET', '/tiles/basemap.json', null) },
    {
      call: 'GET /tiles/demo/{z}/{x}/{y}.mvt',
      status: 200,
      send: async () => ({ status: (await server.app.inject({ method: 'GET', url: '/tiles/demo/14/3743/6745.mvt' })).statusCode }),
    },
    { call: 'GET /tiles/region.pmtiles', status: 404, send: () => call(server, 'GET', '/tiles/region.pmtiles', null) },
  ])('$call → $status', async ({ status, send }) => {
    expect((await send()).status).toBe(status);
  });
});

describe('docs/api/data.md the file download: the signature is the permission, never a bearer token', () => {
  let fileUrl: string;
  beforeAll(async () => {
    const link = await call(server, 'GET', `/organization/export/${w.own.exportId}?is_downloadable=true`, member.token);
    fileUrl = String((link.json as { file_url: string }).file_url);
  });
  const path = () => fileUrl.split('?')[0]!;

  it.each([
    { link: 'no signature', url: () => path(), token: () => null, message: 'The download link is not valid' },
    {
      link: 'no signature, with a valid bearer token',
      url: () => path(),
      token: () => member.token,
      message: 'The download link is not valid',
    },
    {
      link: 'a changed signature',
      // The first character changed to another one (a signature may begin with any of them).
      url: () => fileUrl.replace(/signature=(.)/, (_all, first: string) => `signature=${first === '0' ? '1' : '0'}`),
      token: () => null,
      message: 'The download link is not valid',
    },
    {
      link: "another file's signature",
      url: () => fileUrl.replace(path(), `/files/${w.other.reportFileId}`),
      token: () => null,
      message: 'The download link is not valid',
    },
  ])('$link → 403', async ({ url, token, message }) => {
    const answer = await call(server, 'GET', url(), token());
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(message);
  });

  it('the signed link downloads; past its 5 minutes → 403 expired', async () => {
    expect((await server.app.inject({ method: 'GET', url: fileUrl })).statusCode).toBe(200);
    server.clock.advance(FILE_LINK_TTL_MS + 1000);
    try {
      const answer = await call(server, 'GET', fileUrl, null);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: 'link_expired', message: 'The download link has expired' });
    } finally {
      server.clock.advance(-(FILE_LINK_TTL_MS + 1000));
    }
  });
});

describe('device ingest needs a live API key of the device organization', () => {
  let key: string;
  let ownHaasId: string;
  let otherHaasId: string;
  const ingest = (apiKey: string | null, haasId: string) =>
    server.app.inject({
      method: 'POST',
      url: '/ingest',
      headers: apiKey === null ? {} : { 'x-api-key': apiKey },
      payload: {
        messages: [{ type: 'point', haas_id: haasId, lat: 41.9, lng: -87.7, speed: 12, timestamp: server.clock.now().toISOString() }],
      },
    });
  const haasOf = async (id: string) => (await server.database.db.select().from(things).where(eq(things.id, id)))[0]!.haasId;
  beforeAll(async () => {
    key = (await w.apiKey(member.id, member.organizationId)).key;
    ownHaasId = await haasOf(w.own.thingId);
    otherHaasId = await haasOf(w.other.thingId);
    // The engine keeps the devices in memory; the world's were inserted after it started.
    await server.app.ingest?.reload();
  });

  it.each([
    { key: 'no key', value: () => null },
    { key: 'a wrong key', value: () => 'lb_not-a-key' },
    { key: 'a bearer access token in its place', value: () => member.token },
  ])('$key → 401, nothing written', async ({ value }) => {
    const before = await snapshot(server, things, things.id);
    const response = await ingest(value(), ownHaasId);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(INGEST_REFUSED);
    expect(await snapshot(server, things, things.id)).toBe(before);
  });

  it('a key revoked through DELETE /api_keys/{id} → 401', async () => {
    const made = await call(server, 'POST', '/api_keys', member.token, { description: 'Soon revoked' });
    const { id, token } = made.json as { id: string; token: string };
    expect((await ingest(token, ownHaasId)).statusCode).toBe(200);
    expect((await call(server, 'DELETE', `/api_keys/${id}`, member.token)).status).toBe(200);
    const response = await ingest(token, ownHaasId);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(INGEST_REFUSED);
  });

  it("a key whose owner is given a role without the right to make keys is refused (401); the organization's administrator lists and revokes it", async () => {
    const owner = await server.createUser({ org: { id: w.own.orgId }, role: 'ADMIN' });
    const ownerToken = await server.signIn(owner.email);
    const made = await call(server, 'POST', '/api_keys', ownerToken, { description: 'Yard gateway' });
    expect(made.status).toBe(201);
    const { id, token } = made.json as { id: string; token: string };
    expect((await ingest(token, ownHaasId)).statusCode).toBe(200);

    const orgAdmin = await w.roleActor('MANUFACTURER ADMIN');
    const [userRole, adminRole] = await Promise.all(
      ['USER', 'ADMIN'].map(async (name) => (await server.database.db.select().from(roles).where(eq(roles.name, name)))[0]!.id),
    );
    const setRole = (roleId: number) =>
      call(server, 'PUT', `/users/${owner.id}`, orgAdmin.token, { firstname: owner.firstname, lastname: owner.lastname, role_id: roleId });
    expect((await setRole(userRole!)).status).toBe(200);
    // The next batch sees the new role: the key no longer acts for its owner.
    const refused = await ingest(token, ownHaasId);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(INGEST_REFUSED);
    expect((await call(server, 'GET', '/api_keys', ownerToken)).status).toBe(403);

    // The organization's administrator sees it, with its owner, and revokes it.
    const listed = await call(server, 'GET', '/api_keys', orgAdmin.token);
    expect(listed.status).toBe(200);
    expect(listed.json).toContainEqual(
      expect.objectContaining({
        id,
        description: 'Yard gateway',
        owner: { id: owner.id, name: `${owner.firstname} ${owner.lastname}`, email: owner.email },
      }),
    );
    // An administrator of another organization cannot.
    const stranger = await w.actor(['user:admin:manage'], w.other.orgId);
    expect((await call(server, 'DELETE', `/api_keys/${id}`, stranger.token)).status).toBe(404);
    expect(((await call(server, 'GET', '/api_keys', stranger.token)).json as { id: string }[]).map((k) => k.id)).not.toContain(id);
    expect((await call(server, 'DELETE', `/api_keys/${id}`, orgAdmin.token)).status).toBe(200);

    // Given the right back, the owner's revoked key stays refused.
    expect((await setRole(adminRole!)).status).toBe(200);
    expect((await ingest(token, ownHaasId)).statusCode).toBe(401);
  });

  it("the organization's key reports its own device; another organization's device is rejected, unchanged", async () => {
    expect((await ingest(key, ownHaasId)).json()).toMatchObject({ accepted: 1, rejected: [] });
    const before = await snapshot(server, things, things.id);
    const response = await ingest(key, otherHaasId);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ accepted: 0, rejected: [{ index: 0 }] });
    expect(await snapshot(server, things, things.id)).toBe(before);
  });
});
