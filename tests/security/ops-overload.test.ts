/**
 * Overload: a busy server sheds requests early with a clear 503 and Retry-After instead of queueing
 * them for tens of seconds, while device ingest (/ingest), the socket (/cable) and /version stay
 * served. The 15 s poll of a large organization's asset list is cheap: GET /organization/things and
 * things_count answer an ETag, and 304 Not Modified to If-None-Match while nothing changed (RFC 9110 §13).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type LightbarServer } from '../../server/app';
import { hashToken } from '../../server/auth/secrets';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { apiKeys, organizations, roles, things, thingTypes, users } from '../../server/db/schema';
import { OVERLOADED_MESSAGE } from '../../server/core/errors';
import { openTestDatabase } from '../support/test-db';
import { createTestServer, type TestServer } from '../support/test-server';
import { until, untilAsync } from '../support/until';

describe('load shedding', () => {
  let database: Database;
  let app: LightbarServer;
  const key = 'lb_ops_overload_key_0001';
  beforeAll(async () => {
    database = await openTestDatabase();
    await ensureReferenceData(database.db);
    const [org] = await database.db.insert(organizations).values({ name: 'Busy Org' }).returning();
    const [role] = await database.db.select().from(roles).where(eq(roles.name, 'ADMIN'));
    const [user] = await database.db
      .insert(users)
      .values({ organizationId: org!.id, email: 'busy@example.com', firstname: 'B', lastname: 'U', roleId: role!.id, passwordHash: 'x' })
      .returning();
    await database.db.insert(apiKeys).values({
      userId: user!.id,
      organizationId: org!.id,
      description: 'device',
      tokenHash: hashToken(key),
      tokenPrefix: key.slice(0, 6),
    });
    // A threshold any running process exceeds: the server is "under pressure" from its first sample.
    const config = readConfig(
      {
        DIST_DIR: '/nonexistent-dist',
        PRESSURE_MAX_EVENT_LOOP_UTILIZATION: '0.000001',
        PRESSURE_SAMPLE_MS: '10',
        PRESSURE_RETRY_AFTER_S: '7',
        // Every API call is shed, however few are in progress (the gate is its own test below).
        PRESSURE_MAX_IN_FLIGHT: '0',
      },
      '9.9.9',
    );
    app = await buildServer(config, { database });
    await until(() => app.isUnderPressure(), 'the server to be under pressure', 10_000);
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('an API call answers 503 with Retry-After and the error body; /ingest, /cable and /version are still served', async () => {
    const shed = await app.inject({ method: 'GET', url: '/organization/things' });
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('7');
    expect(shed.json()).toEqual({ error: 'overloaded', message: OVERLOADED_MESSAGE });
    expect(OVERLOADED_MESSAGE).toBe('The server is busy. Please try again in a few seconds.');
    expect((await app.inject({ method: 'POST', url: '/user_token', payload: {} })).statusCode).toBe(503);

    const ingest = await app.inject({ method: 'POST', url: '/ingest', headers: { 'x-api-key': key }, payload: { messages: [{}] } });
    expect(ingest.statusCode).toBe(422);
    expect(ingest.json()).toMatchObject({ accepted: 0, rejected: [expect.objectContaining({ index: 0 })] });
    const version = await app.inject({ method: 'GET', url: '/version' });
    expect(version.statusCode).toBe(200);
    // Not a WebSocket upgrade: the socket route itself answers, not the pressure gate.
    expect((await app.inject({ method: 'GET', url: '/cable' })).statusCode).not.toBe(503);
  });

  it('the app itself is never shed: its built files and its routes load (this server has no build: 404), its API calls are shed', async () => {
    for (const url of ['/assets/index-abc123.js', '/assets/index-abc123.css', '/dashboard/things', '/welcome/signin?next=1']) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).not.toBe(503);
    }
    expect((await app.inject({ method: 'POST', url: '/assets/x.js', payload: {} })).statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: '/organization/closure' })).statusCode).toBe(503);
  });
});

describe('load shedding refuses a queue, not one client', () => {
  let database: Database;
  let app: LightbarServer;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  beforeAll(async () => {
    database = await openTestDatabase();
    await ensureReferenceData(database.db);
    const config = readConfig(
      {
        DIST_DIR: '/nonexistent-dist',
        PRESSURE_MAX_EVENT_LOOP_UTILIZATION: '0.000001',
        PRESSURE_SAMPLE_MS: '10',
        PRESSURE_MAX_IN_FLIGHT: '2',
      },
      '9.9.9',
    );
    app = await buildServer(config, { database });
    // A call that stays in progress until the test lets it go, like a large page on a busy database.
    app.get('/test/held', async () => {
      await held;
      return { done: true };
    });
    await until(() => app.isUnderPressure(), 'the server to be under pressure', 10_000);
  }, 60_000);
  afterAll(async () => {
    release();
    await app.close();
    await database.close();
  });

  it('under pressure a call is answered while fewer than PRESSURE_MAX_IN_FLIGHT others are in progress, and shed beyond', async () => {
    // One client asking one call after another is served, however busy the loop.
    for (let i = 0; i < 3; i += 1) {
      const alone = await app.inject({ method: 'GET', url: '/organization/things' });
      expect(alone.statusCode, `call ${i + 1}`).toBe(401);
    }
    const first = app.inject({ method: 'GET', url: '/test/held' });
    const second = app.inject({ method: 'GET', url: '/test/held' });
    // Two in progress: the next call is a queue, and is shed.
    await untilAsync(
      async () => (await app.inject({ method: 'GET', url: '/organization/things' })).statusCode === 503,
      'a call shed while two are in progress',
      10_000,
    );
    const shed = await app.inject({ method: 'GET', url: '/organization/closure' });
    expect(shed.statusCode).toBe(503);
    expect(shed.json()).toEqual({ error: 'overloaded', message: OVERLOADED_MESSAGE });
    release();
    expect((await first).json()).toEqual({ done: true });
    expect((await second).statusCode).toBe(200);
    // Both answered: the count went back down and calls are served again.
    expect((await app.inject({ method: 'GET', url: '/organization/things' })).statusCode).toBe(401);
  });
});

describe('GET /organization/things and things_count: ETag and 304', () => {
  let server: TestServer;
  let token: string;
  let orgId: string;
  let policeTypeId: string;
  beforeAll(async () => {
    server = await createTestServer();
    const org = await server.createOrg();
    orgId = org.id;
    token = await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email);
    const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
    policeTypeId = type!.id;
    for (let i = 0; i < 3; i += 1) {
      await server.database.db.insert(things).values({
        organizationId: orgId,
        haasId: `OPS-ETAG-${i}`,
        thingTypeId: policeTypeId,
        lat: 30.2,
        lng: -97.7,
        updatedAt: server.clock.now(),
      });
    }
  }, 60_000);
  afterAll(async () => server.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers: { ...server.auth(token), ...headers } });

  it('the list: an ETag; the same ETag back → 304 with no body; a change → 200 with a new ETag', async () => {
    const first = await get('/organization/things?page=1&per_page=500');
    expect(first.statusCode).toBe(200);
    expect((first.json() as { data: unknown[] }).data).toHaveLength(3);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);

    const again = await get('/organization/things?page=1&per_page=500', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    // Another page is another answer.
    expect((await get('/organization/things?page=2&per_page=500', { 'if-none-match': etag })).statusCode).toBe(200);

    server.clock.advance(1_000);
    await server.database.db
      .update(things)
      .set({ nickname: 'Unit 7', updatedAt: server.clock.now() })
      .where(eq(things.haasId, 'OPS-ETAG-1'));
    const changed = await get('/organization/things?page=1&per_page=500', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect((changed.json() as { data: { nickname: string | null }[] }).data.map((t) => t.nickname)).toContain('Unit 7');
    expect(changed.headers.etag).not.toBe(etag);

    server.clock.advance(1_000);
    await server.database.db.update(things).set({ deletedAt: server.clock.now() }).where(eq(things.haasId, 'OPS-ETAG-2'));
    const removed = await get('/organization/things?page=1&per_page=500', { 'if-none-match': changed.headers.etag as string });
    expect(removed.statusCode).toBe(200);
    expect((removed.json() as { data: unknown[] }).data).toHaveLength(2);
  });

  it('an incremental poll (last_updated_timestamp) revalidates too, and still answers the deleted ids after a change', async () => {
    const since = new Date(server.clock.ms).toISOString();
    const url = `/organization/things?last_updated_timestamp=${encodeURIComponent(since)}`;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect((await get(url, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    server.clock.advance(1_000);
    await server.database.db.update(things).set({ deletedAt: server.clock.now() }).where(eq(things.haasId, 'OPS-ETAG-0'));
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    const [row] = await server.database.db.select().from(things).where(eq(things.haasId, 'OPS-ETAG-0'));
    expect((changed.json() as { meta: { deleted_ids: string[] } }).meta.deleted_ids).toEqual([row!.id]);
  });

  it('the count: ETag and 304; a new asset → 200 with the new count', async () => {
    const first = await get('/organization/things_count');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect((await get('/organization/things_count', { 'if-none-match': etag })).statusCode).toBe(304);
    const before = (first.json() as { count: number }).count;
    await server.database.db
      .insert(things)
      .values({ organizationId: orgId, haasId: 'OPS-ETAG-NEW', thingTypeId: policeTypeId, lat: 30.2, lng: -97.7 });
    const changed = await get('/organization/things_count', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ count: before + 1 });
  });

  it('another user with another scope never gets the first user’s 304', async () => {
    const first = await get('/organization/things');
    const otherOrg = await server.createOrg();
    const other = await server.signIn((await server.createUser({ org: otherOrg, role: 'ADMIN' })).email);
    const answer = await server.app.inject({
      method: 'GET',
      url: '/organization/things',
      headers: { ...server.auth(other), 'if-none-match': first.headers.etag as string },
    });
    expect(answer.statusCode).toBe(200);
    expect((answer.json() as { data: unknown[] }).data).toEqual([]);
  });
});
