import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/domain/constants';
import { hashToken } from '../../server/auth/secrets';
import { apiKeys, things, thingTypes } from '../../server/db/schema';
import { call, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

/**
 * One rule at the boundary (OWASP Input Validation): a time outside 1970-01-01..2100-01-01 or not
 * on the calendar, and a text holding a NUL character, are the route's 422 naming the field —
 * never a 500 from the database.
 */
let server: TestServer;
let token: string;
let orgId: string;
let userId: string;
let thingId: string;
const KEY = 'lb_input_validation_key_01';

const RANGE = 'must be a real date between 1970-01-01 and 2100-01-01';
const NOT_A_TIME = 'must be an ISO time or epoch seconds';
const NUL = 'must not contain a NUL character';

beforeAll(async () => {
  server = await createTestServer();
  const org = await server.createOrg({ name: 'Input Validation Org' });
  orgId = org.id;
  const user = await server.createUser({ org, role: 'ENGINEER' });
  userId = user.id;
  token = await server.signIn(user.email);
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const [thing] = await server.database.db
    .insert(things)
    .values({ organizationId: org.id, haasId: 'HA5-VALID1', thingTypeId: type!.id, lat: 30.27, lng: -97.74 })
    .returning();
  thingId = thing!.id;
  await server.database.db
    .insert(apiKeys)
    .values({ userId: user.id, organizationId: org.id, description: 'device', tokenHash: hashToken(KEY), tokenPrefix: KEY.slice(0, 6) });
  await (server.app as unknown as { ingest: { reload(): Promise<void> } }).ingest.reload();
});
afterAll(() => server.close());

describe('extreme or impossible times in query parameters are a 422 naming the parameter', () => {
  const recent = () => encodeURIComponent(new Date(server.clock.ms - HOUR_MS).toISOString());
  /** the parameter, the route (for the test name), the url with the value. */
  const urls: [string, string, (value: string) => string][] = [
    ['last_updated_timestamp', '/organization/things', (v) => `/organization/things?last_updated_timestamp=${v}`],
    ['last_updated_timestamp', '/organization/closure', (v) => `/organization/closure?last_updated_timestamp=${v}`],
    ['last_updated_timestamp', '/locations', (v) => `/locations?last_updated_timestamp=${v}`],
    ['start_date', '/locations', (v) => `/locations?start_date=${v}`],
    ['start_time', '/r2r', (v) => `/r2r?thing_id=${thingId}&start_time=${v}`],
    ['start_time', '/organization/hazards', (v) => `/organization/hazards?all_types=true&start_time=${v}&end_time=${recent()}`],
    ['end_time', '/organization/hazards', (v) => `/organization/hazards?all_types=true&start_time=${recent()}&end_time=${v}`],
    ['start_time', '/things/:id/trips', (v) => `/things/${thingId}/trips?start_time=${v}&end_time=${recent()}`],
  ];
  const values: [string, string][] = [
    ['-99999999999', RANGE],
    ['-275760', RANGE],
    ['0000-01-01T00:00:00Z', RANGE],
    ['+275760-09-13T00:00:00.000Z', RANGE],
    ['-271821-04-20T00:00:00.000Z', RANGE],
    ['1969-12-31T23:59:59Z', RANGE],
    ['2100-01-01T00:00:01Z', RANGE],
    ['2026-02-30T00:00:00Z', NOT_A_TIME],
    ['garbage', NOT_A_TIME],
  ];
  const cases = urls.flatMap(([name, route, url]) =>
    values.map(([value, message]) => [route, value, name, message, () => url(encodeURIComponent(value))] as const),
  );
  it.each(cases)('GET %s with %s → 422 "%s: %s"', async (_label, _value, name, message, url) => {
    const answer = await call(server, 'GET', url(), token);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: 'invalid', message: `${name}: ${message}` });
  });

  it('run_date must be a real calendar date (2026-02-30 is not 2 March)', async () => {
    const answer = await call(server, 'GET', `/things/${thingId}/trips?run_date=2026-02-30`, token);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: 'invalid', message: 'run_date: must be a date YYYY-MM-DD' });
    const ancient = await call(server, 'GET', `/things/${thingId}/trips?run_date=0000-01-01`, token);
    expect(ancient.status).toBe(422);
    expect(ancient.body).toMatchObject({ error: 'invalid', message: `run_date: ${RANGE}` });
  });
});

describe('extreme times in bodies are a 422 naming the field', () => {
  it.each([
    [
      'POST',
      '/organization/hazards',
      'reported_at',
      () => ({ thing_id: thingId, hazard_type: 'ice', severity: 'high', lat: 30.27, lng: -97.74, reported_at: '0000-01-01T00:00:00Z' }),
    ],
    [
      'POST',
      '/organization/export',
      'export_start_time',
      () => ({
        export_type: 'thing',
        title: 'T',
        use_utc: true,
        organization_id: orgId,
        thing_uuids: [],
        export_start_time: '0000-01-01T00:00:00Z',
        export_end_time: '2026-11-22T10:00:00Z',
      }),
    ],
  ] as const)('%s %s with year 0000 → 422 naming %s', async (method, url, field, body) => {
    const answer = await call(server, method, url, token, body());
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(`${field}: ${RANGE}`);
  });
});

describe('a NUL character in any text field is a 422 naming the field', () => {
  const nul = 'Bad\u0000Name';
  /** method, the field named, url, body, whether the call is signed in. */
  const cases: [Method, string, () => string, () => Record<string, unknown>, boolean][] = [
    ['POST', 'name', () => '/organization/exclusion_zone', () => ({ name: nul }), true],
    ['PUT', 'nickname', () => `/things/${thingId}`, () => ({ nickname: nul }), true],
    ['POST', 'first_name', () => '/users', () => ({ first_name: nul, last_name: 'L', email: 'nul@example.com' }), true],
    ['PUT', 'last_name', () => `/users/${userId}`, () => ({ last_name: nul }), true],
    ['POST', 'description', () => '/organization/closure', () => ({ description: nul }), true],
    ['POST', 'title', () => '/organization/export', () => ({ title: nul }), true],
    ['POST', 'description', () => '/api_keys', () => ({ description: nul }), true],
    ['PUT', 'name', () => `/organization/${orgId}`, () => ({ name: nul }), true],
    [
      'POST',
      'username',
      () => '/user_token',
      () => ({ grant_type: 'password', application: 'dashboard', username: nul, password: 'x' }),
      false,
    ],
    ['POST', 'email', () => '/forgot_password', () => ({ email: 'a\u0000@example.com' }), false],
  ];
  it.each(cases)('%s with a NUL in %s → 422 naming it', async (method, field, url, body, signedIn) => {
    const answer = await call(server, method, url(), signedIn ? token : null, body());
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: 'invalid', message: `${field}: ${NUL}` });
  });

  it('POST /ingest: an attributes message with a NUL is refused alone, naming the field', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { 'x-api-key': KEY },
      payload: {
        messages: [
          { type: 'attributes', haas_id: 'HA5-VALID1', timestamp: server.clock.now().toISOString(), attributes: { nickname: nul } },
          { type: 'heartbeat', haas_id: 'HA5-VALID1', timestamp: server.clock.now().toISOString() },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 1, rejected: [{ index: 0, reason: `attributes.nickname: ${NUL}` }] });
  });
});
