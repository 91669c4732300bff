/**
 * OWASP Logging Cheat Sheet: access tokens, passwords, API keys and session identifiers are never
 * written to the log. The request log of a real app (its pino output captured from a stream) names
 * the paths it served, with every secret-looking query value, path token and header masked.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type LightbarServer } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { redactUrl } from '../../server/http/log-redaction';
import { openTestDatabase } from '../support/test-db';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';

let database: Database;
let app: LightbarServer;
let logged = '';
beforeAll(async () => {
  database = await openTestDatabase();
  await ensureReferenceData(database.db);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  app = await buildServer(readConfig({ ...NO_LOAD_SHEDDING, DIST_DIR: '/nonexistent-dist', PUBLIC_URL: 'http://lightbar.test' }, '9.9.9'), {
    database,
    logStream: stream,
  });
}, 60_000);
afterAll(async () => {
  await app.close();
  await database.close();
});

const SECRETS = {
  access: 'AccessTok3nSecretValue',
  refresh: 'RefreshTok3nSecretValue',
  plainToken: 'PlainTok3nSecretValue',
  unlock: 'UnlockTok3nSecretValue',
  reset: 'ResetTok3nSecretValue',
  password: 'Passw0rdSecretValue',
  apiKeyQuery: 'ApiKeyQuerySecretValue',
  bearer: 'BearerHeaderSecretValue',
  apiKeyHeader: 'lb_ApiKeyHeaderSecretValue',
  cookie: 'CookieSecretValue',
  socket: 'SocketProtocolSecretValue',
  resetPath: 'ResetPathTok3nSecretValue',
  unlockPath: 'UnlockPathTok3nSecretValue',
};

describe('the request log masks secrets', () => {
  it('query values, path tokens and headers carrying secrets never reach the log; the paths do', async () => {
    await app.inject({ method: 'GET', url: `/oauth?access_token=${SECRETS.access}&refresh_token=${SECRETS.refresh}&state=keep-me` });
    await app.inject({
      method: 'GET',
      url: `/organization/things?token=${SECRETS.plainToken}&unlock_token=${SECRETS.unlock}&reset_password_token=${SECRETS.reset}&password=${SECRETS.password}&api_key=${SECRETS.apiKeyQuery}&page=2`,
      headers: { authorization: `Bearer ${SECRETS.bearer}`, cookie: `session=${SECRETS.cookie}` },
    });
    await app.inject({ method: 'POST', url: '/ingest', headers: { 'x-api-key': SECRETS.apiKeyHeader }, payload: { messages: [] } });
    await app.inject({ method: 'GET', url: '/cable', headers: { 'sec-websocket-protocol': `actioncable-v1-json, ${SECRETS.socket}` } });
    await app.inject({ method: 'GET', url: `/welcome/reset/someone%40example.com/${SECRETS.resetPath}` });
    await app.inject({ method: 'GET', url: `/welcome/unlock/someone%40example.com/${SECRETS.unlockPath}` });

    expect(logged).toContain('"url":"/oauth?access_token=[REDACTED]&refresh_token=[REDACTED]&state=keep-me"');
    expect(logged).toContain(
      '/organization/things?token=[REDACTED]&unlock_token=[REDACTED]&reset_password_token=[REDACTED]&password=[REDACTED]&api_key=[REDACTED]&page=2',
    );
    expect(logged).toContain('"url":"/ingest"');
    expect(logged).toContain('"url":"/welcome/reset/someone%40example.com/[REDACTED]"');
    expect(logged).toContain('"url":"/welcome/unlock/someone%40example.com/[REDACTED]"');
    for (const secret of Object.values(SECRETS)) expect(logged).not.toContain(secret);
  });
});

describe('redactUrl', () => {
  it('masks any query value whose name looks secret, keeps the others and the path', () => {
    expect(redactUrl('/a/b?client_secret=x&apiKey=y&x-api-key=z&session_id=s&code=c&signature=g&zip=78701&q=token')).toBe(
      '/a/b?client_secret=[REDACTED]&apiKey=[REDACTED]&x-api-key=[REDACTED]&session_id=[REDACTED]&code=[REDACTED]&signature=[REDACTED]&zip=78701&q=token',
    );
    expect(redactUrl('/version')).toBe('/version');
    expect(redactUrl('/x?ACCESS%5FTOKEN=abc&flag')).toBe('/x?ACCESS%5FTOKEN=[REDACTED]&flag');
  });
});
