import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';
import { buildServer } from '../../server/app';
import { readConfig } from '../../server/config';
import { ensureReferenceData } from '../../server/db/reference-data';
import type { Database } from '../../server/db/connection';
import { openTestDatabase } from '../support/test-db';

describe('security headers, rate limits and body limits', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildServer>>;
  beforeAll(async () => {
    database = await openTestDatabase();
    await ensureReferenceData(database.db);
    app = await buildServer(
      readConfig({ ...NO_LOAD_SHEDDING, DATA_DIR: '/tmp/lightbar-security', DIST_DIR: '/nonexistent', AUTH_RATE_LIMIT: '3' }, '1.0.0'),
      { database },
    );
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends a content security policy that allows the map, Google Maps and what3words, and never forces HTTPS', async () => {
    const response = await app.inject({ method: 'GET', url: '/version' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain('https://*.tile.openstreetmap.org');
    expect(csp).toContain('https://maps.googleapis.com');
    expect(csp).toContain('https://api.what3words.com');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it("lets the page open sockets to its own origin only: connect-src has no ws: or wss: to any host ('self' covers the page's own)", async () => {
    const response = await app.inject({ method: 'GET', url: '/version' });
    const connect = /connect-src ([^;]*)/.exec(String(response.headers['content-security-policy']))?.[1]?.split(' ') ?? [];
    expect(connect).toContain("'self'");
    expect(connect.filter((source) => /^wss?:/.test(source))).toEqual([]);
  });

  it.each(['/user_token', '/forgot_password', '/unlock_account'])('limits %s per address (429 past the limit)', async (url) => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url,
        payload: { email: 'x@example.com', grant_type: 'password', username: 'x@example.com', password: 'x', application: 'dashboard' },
        remoteAddress: `127.0.0.${url.length}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });

  it('refuses a body over 1 MiB with 413 and a clear message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/forgot_password',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(1_100_000) }),
      remoteAddress: '127.0.9.9',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  });
});
