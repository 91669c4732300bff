/**
 * The operations calls (docs/operations.md) on a real server and database: GET /health answers
 * while the process lives; GET /ready says whether it can serve and why not (stopping, database
 * gone, migrations missing, bus closed); GET /metrics counts what devices and sockets did, in
 * Prometheus text, behind METRICS_TOKEN when one is set. The stop itself (SIGTERM, drain) is
 * tests/security/ops-graceful-stop.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_API_KEY, seedFaultFleet, type FaultFleet } from '../support/fault-seed';
import { createTestServer, type TestServer } from '../support/test-server';
import { releasedMigrations } from '../../server/http/health/repository';

let server: TestServer;
let fleet: FaultFleet;

beforeAll(async () => {
  server = await createTestServer();
  fleet = await seedFaultFleet(server.database.db, 2);
  await server.app.ingest!.reload();
});
afterAll(() => server.close());

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

/** The value of one sample line of a scrape (`name{labels} value`), or undefined. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((row) => row.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('GET /health and GET /ready', () => {
  it('answer ok and ready with every check on a running server', async () => {
    const health = await get('/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await get('/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true, checks: { database: 'ok', migrations: 'ok', bus: 'ok', draining: false } });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('/ready is 503 draining while the process stops; /health still answers', async () => {
    server.app.lifecycle.draining = true;
    try {
      const ready = await get('/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        ready: false,
        reason: 'draining',
        checks: { database: 'ok', migrations: 'ok', bus: 'ok', draining: true },
      });
      expect((await get('/health')).statusCode).toBe(200);
    } finally {
      server.app.lifecycle.draining = false;
    }
    expect((await get('/ready')).statusCode).toBe(200);
  });
});

describe('GET /metrics', () => {
  it('counts the messages devices posted (accepted and rejected), the flush, the sockets and the jobs', async () => {
    const [thing] = fleet.things;
    const posted = await server.app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { 'x-api-key': FAULT_API_KEY },
      payload: {
        messages: [
          { type: 'point', haas_id: thing!.haasId, lat: 30.3, lng: -97.7, speed: 10, timestamp: server.clock.now().toISOString() },
          { type: 'point', haas_id: 'HA5-NOBODY', lat: 30.3, lng: -97.7, speed: 10, timestamp: server.clock.now().toISOString() },
        ],
      },
    });
    expect(posted.json()).toMatchObject({ accepted: 1 });
    await server.app.ingest!.flush();
    const answer = await get('/metrics');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = answer.body;
    expect(sample(text, 'lightbar_ingest_messages_total{result="accepted"}')).toBe(1);
    expect(sample(text, 'lightbar_ingest_messages_total{result="rejected"}')).toBe(1);
    expect(sample(text, 'lightbar_ingest_messages_total{result="busy"}')).toBe(0);
    expect(sample(text, 'lightbar_ingest_flush_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'lightbar_ingest_backlog{kind="points"}')).toBe(0);
    expect(sample(text, 'lightbar_cable_connections')).toBe(0);
    expect(sample(text, 'lightbar_cable_frames_coalesced_total')).toBe(0);
    expect(sample(text, 'lightbar_http_shed_total')).toBe(0);
    expect(sample(text, 'lightbar_jobs{status="failed"}')).toBe(0);
    expect(text).toContain('# HELP lightbar_nodejs_eventloop_lag_seconds');
  });

  it('with METRICS_TOKEN asks for it as a Bearer token', async () => {
    const guarded = await createTestServer({ env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
    try {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: 'scrape-token-0123456789' }]) {
        const refused = await guarded.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toEqual({
          error: 'unauthorized',
          message: 'A valid metrics token is required in the Authorization header (Bearer).',
        });
      }
      const allowed = await guarded.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-token-0123456789' },
      });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.body).toContain('lightbar_ingest_messages_total');
      // /health and /ready stay open: a proxy has no token.
      expect((await guarded.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('GET /ready when a dependency is missing', () => {
  it('names a migration the database lacks', async () => {
    const lacking = await createTestServer();
    try {
      await lacking.database.db.execute(
        sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
      );
      const ready = await lacking.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      const released = releasedMigrations();
      expect(ready.json()).toMatchObject({
        ready: false,
        reason: `migrations pending (${released - 1} of ${released} applied)`,
        checks: { migrations: 'pending' },
      });
    } finally {
      await lacking.close();
    }
  });

  it('says the bus is disconnected once it is closed, and the database unreachable once it is gone', async () => {
    const failing = await createTestServer();
    try {
      await failing.deps.bus.close();
      const noBus = await failing.app.inject({ method: 'GET', url: '/ready' });
      expect(noBus.statusCode).toBe(503);
      expect(noBus.json()).toEqual({
        ready: false,
        reason: 'bus disconnected',
        checks: { database: 'ok', migrations: 'ok', bus: 'disconnected', draining: false },
      });
      await failing.database.close();
      const noDatabase = await failing.app.inject({ method: 'GET', url: '/ready' });
      expect(noDatabase.statusCode).toBe(503);
      const body = noDatabase.json() as { reason: string; checks: { database: string } };
      expect(body.checks.database).toBe('unreachable');
      expect(body.reason).toMatch(/^database unreachable: [^\n]+; bus disconnected$/);
      expect(body.reason).not.toContain('Failed query');
    } finally {
      await failing.close().catch(() => undefined);
    }
  });
});
