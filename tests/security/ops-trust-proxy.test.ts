/**
 * Per-address limits behind a reverse proxy (OWASP Authentication: throttle per client): with
 * TRUST_PROXY naming the proxy, the sign-in limit counts each client's X-Forwarded-For address;
 * without it the header is never believed (a client could forge it to dodge the limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type LightbarServer } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';
import { openTestDatabase } from '../support/test-db';

const LIMIT = 2;
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await ensureReferenceData(database.db);
}, 60_000);
afterAll(async () => database.close());

async function serverWith(env: Record<string, string>): Promise<LightbarServer> {
  emails += 1;
  return buildServer(readConfig({ ...NO_LOAD_SHEDDING, DIST_DIR: '/nonexistent-dist', AUTH_RATE_LIMIT: String(LIMIT), ...env }, '9.9.9'), {
    database,
  });
}

/**
 * A wrong sign-in from `forwardedFor`. Each server gets its own unknown e-mail: the sign-in
 * throttle counts failures per e-mail and address in the shared database (its own suite,
 * auth-lockout), and must not answer in place of the per-address request limit under test.
 */
let emails = 0;
const signIn = (app: LightbarServer, forwardedFor: string, username = `nobody${emails}@example.com`) =>
  app.inject({
    method: 'POST',
    url: '/user_token',
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { grant_type: 'password', application: 'dashboard', username, password: 'wrong' },
  });

describe('TRUST_PROXY and the sign-in limit', () => {
  it('without TRUST_PROXY two X-Forwarded-For values share the proxy’s limit', async () => {
    const app = await serverWith({});
    try {
      for (let i = 0; i < LIMIT; i += 1) expect((await signIn(app, '198.51.100.1')).statusCode).toBe(400);
      const other = await signIn(app, '198.51.100.2');
      expect(other.statusCode).toBe(429);
      expect(other.json()).toEqual({ error: 'rate_limited', message: 'Too many requests. Please wait a minute and try again.' });
    } finally {
      await app.close();
    }
  });

  it.each(['127.0.0.1', '1', '127.0.0.0/8, ::1'])('with TRUST_PROXY=%s they are counted apart', async (trustProxy) => {
    const app = await serverWith({ TRUST_PROXY: trustProxy });
    try {
      for (let i = 0; i < LIMIT; i += 1) expect((await signIn(app, '198.51.100.1')).statusCode).toBe(400);
      expect((await signIn(app, '198.51.100.1')).statusCode).toBe(429);
      expect((await signIn(app, '198.51.100.2')).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});

describe('TRUST_PROXY values', () => {
  it('reads a hop count, true, addresses and CIDRs', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(readConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each(['banana', '-1', '1.5', '10.0.0.0/33', '300.1.1.1', '10.0.0.1,', 'fd00::/129'])(
    'refuses TRUST_PROXY=%s with a clear error',
    (value) => {
      expect(() => readConfig({ TRUST_PROXY: value })).toThrow(
        `TRUST_PROXY must be true, a hop count (a whole number from 0), or a comma-separated list of addresses or CIDR ranges, got "${value}"`,
      );
    },
  );
});
