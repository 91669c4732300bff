/**
 * OWASP (Session Management, REST Security): answers carrying tokens or account data are never
 * kept by a browser or proxy cache: every API answer says `Cache-Control: no-store`. Only the
 * built app's hashed files may be cached; index.html is revalidated on every load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type LightbarServer } from '../../server/app';
import { readConfig } from '../../server/config';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';
import { createTestServer, PASSWORD, type TestServer } from '../support/test-server';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await createTestServer();
  const org = await server.createOrg();
  const user = await server.createUser({ org, role: 'ADMIN' });
  token = await server.signIn(user.email);
}, 60_000);
afterAll(async () => server.close());

describe('API answers are not cached', () => {
  it('POST /user_token (the tokens) answers Cache-Control: no-store', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'ADMIN' });
    const response = await server.app.inject({
      method: 'POST',
      url: '/user_token',
      payload: { grant_type: 'password', application: 'dashboard', username: user.email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveProperty('access_token');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('a refused sign-in, /verify_token, /profile, the asset list, snapshot and count, /version and an unknown path: no-store', async () => {
    const calls = [
      server.app.inject({
        method: 'POST',
        url: '/user_token',
        payload: { grant_type: 'password', application: 'dashboard', username: 'nobody@example.com', password: 'x' },
      }),
      server.app.inject({ method: 'POST', url: '/verify_token', payload: { access_token: token } }),
      server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(token) }),
      server.app.inject({ method: 'GET', url: '/organization/things', headers: server.auth(token) }),
      server.app.inject({ method: 'GET', url: '/organization/things/snapshot', headers: server.auth(token) }),
      server.app.inject({ method: 'GET', url: '/organization/things_count', headers: server.auth(token) }),
      server.app.inject({ method: 'GET', url: '/profile' }),
      server.app.inject({ method: 'GET', url: '/version' }),
      server.app.inject({ method: 'GET', url: '/no/such/call' }),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.statusCode)).toEqual([400, 200, 200, 200, 200, 200, 401, 200, 404]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });
});

describe('the built app', () => {
  let dist: string;
  let app: LightbarServer;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Lightbar</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-3f9a1c2b.js'), 'console.log(1);');
    app = await buildServer(readConfig({ ...NO_LOAD_SHEDDING, DIST_DIR: dist, DATA_DIR: dist }, '9.9.9'));
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('a hashed file under /assets is cached for good; index.html on a client route is revalidated', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-3f9a1c2b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await app.inject({ method: 'GET', url: '/dashboard/map' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Lightbar</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const missing = await app.inject({ method: 'GET', url: '/assets/gone-00000000.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});
