import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/secrets';
import {
  apiKeys,
  areas,
  closures,
  deviceConfigs,
  exports,
  hazards,
  integrationConfigurations,
  jobs,
  locationNotes,
  locations,
  organizations,
  passwordHistory,
  points,
  runs,
  thingExternalIdentifiers,
  thingRelationships,
  things,
  thingTypes,
  tokens,
  users,
  wzdxFeeds,
} from '../../server/db/schema';
import type { Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

/**
 * Properties over every call of the API (OWASP Input Validation, fuzzing): whatever a caller
 * sends — NUL characters, huge strings, extreme numbers, wrong types, nested objects, impossible
 * dates — the answer is never a 5xx, and a write call that is refused (4xx) leaves its tables
 * unchanged. The tables below list every route; a test reads the route files so a new route
 * must be added here.
 */
let server: TestServer;
let token: string;
const ids = { org: '', thing: '', otherUser: '' };
const UNKNOWN_ID = '00000000-0000-4000-8000-00000000abcd';
const API_KEY = 'lb_input_properties_key_01';
const HAAS_ID = 'HA5-PROP1';
/** Runs per call: enough to meet each kind of bad value, few enough for a 2-core machine (INPUT_PROPERTY_RUNS searches deeper). */
const DEFAULT_RUNS = 25;
const RUNS = Number(process.env.INPUT_PROPERTY_RUNS ?? DEFAULT_RUNS);
const CALL_TIMEOUT_MS = 600_000;

interface WriteCall {
  method: Exclude<Method, 'GET'>;
  /** The route as registered. */
  route: string;
  /** The tables the call may write, compared before and after a refused call. */
  tables: PgTable[];
  /** A body the call accepts, for the near-valid bodies with one or two fields poisoned. */
  valid?: () => Record<string, unknown>;
}

const THING_TABLES = [things, thingRelationships, thingExternalIdentifiers];
const WRITE_CALLS: WriteCall[] = [
  { method: 'POST', route: '/api_keys', tables: [apiKeys], valid: () => ({ description: 'Key', organization_id: ids.org }) },
  { method: 'DELETE', route: '/api_keys/:id', tables: [apiKeys] },
  {
    method: 'POST',
    route: '/organization/exclusion_zone',
    tables: [areas],
    valid: () => ({ name: 'Zone', type: 'circle', lat: 30.27, lon: -97.74, radius_dist: 1, organization_id: ids.org }),
  },
  { method: 'PUT', route: '/organization/exclusion_zone/:id', tables: [areas] },
  { method: 'DELETE', route: '/organization/exclusion_zone/:id', tables: [areas] },
  {
    method: 'POST',
    route: '/user_token',
    tables: [tokens],
    valid: () => ({ grant_type: 'password', application: 'dashboard', username: 'nobody@example.com', password: 'x' }),
  },
  { method: 'POST', route: '/verify_token', tables: [tokens] },
  { method: 'POST', route: '/revoke_token', tables: [tokens] },
  { method: 'POST', route: '/forgot_password', tables: [users], valid: () => ({ email: 'nobody@example.com' }) },
  { method: 'POST', route: '/unlock_account', tables: [users] },
  { method: 'PUT', route: '/reset_password', tables: [users, passwordHistory] },
  {
    method: 'PUT',
    route: '/profile',
    tables: [users],
    valid: () => ({
      firstname: 'A',
      lastname: 'B',
      phone: '',
      address1: '1 Main St',
      city: 'Austin',
      state: 'TX',
      postal_code: '78701',
      country_code: 'US',
    }),
  },
  { method: 'PUT', route: '/password', tables: [users, passwordHistory, tokens] },
  {
    method: 'POST',
    route: '/organization/closure',
    tables: [closures],
    valid: () => ({
      closure_type: 'manual',
      description: 'Closed',
      organization_id: ids.org,
      impacted_lanes: [],
      user_route: [],
      is_active: false,
      start_time: RECENT[0],
      end_time: RECENT[1],
    }),
  },
  { method: 'PUT', route: '/organization/closure/:id', tables: [closures] },
  // The closure form's router writes nothing: no answer ≥ 500 and no closure row from any body.
  { method: 'POST', route: '/closure/route', tables: [closures] },
  { method: 'DELETE', route: '/organization/closure/:id', tables: [closures] },
  // WZDx feed subscriptions: a refused body writes no subscription; a refresh of an unknown feed no closure.
  {
    method: 'POST',
    route: '/organization/wzdx_feeds',
    tables: [wzdxFeeds],
    valid: () => ({ url: 'https://feeds.example/wzdx', poll_interval_s: 300, enabled: false, organization_id: ids.org }),
  },
  { method: 'PUT', route: '/organization/wzdx_feeds/:id', tables: [wzdxFeeds] },
  { method: 'DELETE', route: '/organization/wzdx_feeds/:id', tables: [wzdxFeeds, closures] },
  { method: 'POST', route: '/organization/wzdx_feeds/:id/refresh', tables: [wzdxFeeds, closures] },
  { method: 'POST', route: '/organization/device_configs', tables: [deviceConfigs] },
  { method: 'PUT', route: '/organization/device_configs/:id', tables: [deviceConfigs] },
  { method: 'DELETE', route: '/organization/device_configs/:id', tables: [deviceConfigs] },
  {
    method: 'POST',
    route: '/organization/export',
    tables: [exports, jobs],
    valid: () => ({
      export_type: 'thing',
      title: 'T',
      use_utc: true,
      organization_id: ids.org,
      thing_uuids: [],
      export_start_time: RECENT[0],
      export_end_time: RECENT[1],
    }),
  },
  { method: 'DELETE', route: '/organization/export/:id', tables: [exports, jobs] },
  {
    method: 'POST',
    route: '/organization/hazards',
    tables: [hazards],
    valid: () => ({ thing_id: ids.thing, hazard_type: 'ice', severity: 'high', lat: 30.27, lng: -97.74, reported_at: RECENT[0] }),
  },
  { method: 'POST', route: '/organization/integrations', tables: [integrationConfigurations] },
  { method: 'PUT', route: '/organization/integrations/:id', tables: [integrationConfigurations] },
  { method: 'DELETE', route: '/organization/integrations/:id', tables: [integrationConfigurations] },
  // Writes nothing (it calls the provider with the stored settings): no body or id makes a row.
  { method: 'POST', route: '/organization/integrations/:id/test', tables: [integrationConfigurations] },
  { method: 'PUT', route: '/locations/:id', tables: [locations] },
  { method: 'POST', route: '/locations/:id/notes', tables: [locations, locationNotes], valid: () => ({ text: 'Lane 2 blocked' }) },
  { method: 'POST', route: '/locations/:id/acknowledge', tables: [locations] },
  { method: 'PUT', route: '/organization/:id', tables: [organizations], valid: () => ({ name: 'Input Properties Org' }) },
  { method: 'PUT', route: '/organization/', tables: [organizations] },
  { method: 'PUT', route: '/organization', tables: [organizations] },
  { method: 'DELETE', route: '/organization/:id', tables: [organizations, users] },
  { method: 'PUT', route: '/things/:id', tables: THING_TABLES, valid: () => ({ nickname: 'Car', in_service: true }) },
  { method: 'PUT', route: '/things/:id/associations', tables: THING_TABLES },
  { method: 'PUT', route: '/things/:id/r2r', tables: THING_TABLES },
  { method: 'PUT', route: '/things/:id/light_intensity', tables: THING_TABLES },
  {
    method: 'POST',
    route: '/users',
    tables: [users],
    valid: () => ({ first_name: 'F', last_name: 'L', email: 'new.user@example.com', organization_id: ids.org }),
  },
  { method: 'POST', route: '/users/', tables: [users] },
  { method: 'PUT', route: '/users/:id', tables: [users], valid: () => ({ first_name: 'F', last_name: 'L' }) },
  { method: 'PATCH', route: '/users/:id', tables: [users] },
  { method: 'DELETE', route: '/users/:id', tables: [users] },
  { method: 'POST', route: '/ingest', tables: [things, runs, hazards, points] },
];

const QUERY_PARAMS = [
  'last_updated_timestamp',
  'since',
  'start_date',
  'start_time',
  'end_time',
  'run_date',
  'thing_id',
  'thing_ids[]',
  'thing_ids',
  'org_ids[]',
  'org_ids',
  'organization_id',
  'types[]',
  'severities[]',
  'all_types',
  'page',
  'per_page',
  'filename',
  'is_downloadable',
  'expires',
  'signature',
  'sig',
  'search',
  'limit',
] as const;

/** Every GET route with the query parameters it reads (the others get the common list). */
const GET_CALLS: { route: string; params: readonly string[] }[] = [
  { route: '/api_keys', params: ['org_ids[]', 'organization_id'] },
  { route: '/ez_types', params: QUERY_PARAMS },
  { route: '/organization/exclusion_zone', params: ['org_ids[]'] },
  { route: '/organization/exclusion_zone/:id', params: QUERY_PARAMS },
  { route: '/profile', params: QUERY_PARAMS },
  { route: '/organization/billing', params: ['organization_id'] },
  { route: '/organization/closure', params: ['last_updated_timestamp', 'org_ids[]'] },
  { route: '/organization/closure/:id', params: QUERY_PARAMS },
  { route: '/organization/device_configs', params: ['org_ids[]'] },
  { route: '/organization/wzdx_feeds', params: ['org_ids[]'] },
  { route: '/organization/export', params: ['org_ids[]', 'is_downloadable'] },
  { route: '/organization/export/:id', params: ['is_downloadable'] },
  { route: '/files/:fileId', params: ['expires', 'signature', 'sig'] },
  { route: '/organization/hazards', params: ['start_time', 'end_time', 'all_types', 'types[]', 'severities[]', 'org_ids[]'] },
  { route: '/organization/integrations', params: ['org_ids[]'] },
  { route: '/locations', params: ['last_updated_timestamp', 'start_date', 'org_ids[]'] },
  { route: '/locations/active', params: ['org_ids[]'] },
  { route: '/locations/:id/notes', params: QUERY_PARAMS },
  { route: '/organization/:id', params: QUERY_PARAMS },
  { route: '/r2r', params: ['thing_id', 'start_time'] },
  { route: '/reports/:orgId/organization_monthly_report_list', params: QUERY_PARAMS },
  { route: '/reports/organization_monthly_report_pdf_link', params: ['filename'] },
  { route: '/roles', params: QUERY_PARAMS },
  { route: '/organization/things', params: ['last_updated_timestamp', 'org_ids[]', 'page'] },
  { route: '/organization/things/snapshot', params: ['since', 'org_ids[]'] },
  { route: '/organization/things_count', params: ['org_ids[]'] },
  { route: '/thing_types', params: QUERY_PARAMS },
  { route: '/thing_subtypes', params: QUERY_PARAMS },
  { route: '/organization/assignable', params: QUERY_PARAMS },
  { route: '/things/:thingId/trips', params: ['start_time', 'end_time', 'run_date'] },
  { route: '/things/coverage', params: ['thing_ids[]', 'start_time', 'end_time', 'run_date'] },
  { route: '/organization/users', params: ['organization_id'] },
  { route: '/version', params: QUERY_PARAMS },
  { route: '/health', params: QUERY_PARAMS },
  { route: '/ready', params: QUERY_PARAMS },
  { route: '/metrics', params: QUERY_PARAMS },
  { route: '/wzdx/:organizationId/feed', params: QUERY_PARAMS },
  { route: '/organization/alerting_zones', params: ['org_ids[]'] },
  { route: '/organization/alerting_zones/:id', params: QUERY_PARAMS },
  { route: '/cable', params: QUERY_PARAMS },
  { route: '/tiles/basemap.json', params: QUERY_PARAMS },
  { route: '/tiles/demo/:z/:x/:tile', params: QUERY_PARAMS },
  { route: '/tiles/region.pmtiles', params: QUERY_PARAMS },
];

/** The path of a route: ids of real records where the call reads or changes one, else an unknown id. */
function pathOf(method: Method, route: string): string {
  if (method === 'DELETE') return route.replace(/:\w+/g, UNKNOWN_ID);
  return route
    .replace(/^\/things\/:(id|thingId)/, `/things/${ids.thing}`)
    .replace(/^\/users\/:id/, `/users/${ids.otherUser}`)
    .replace(/^\/organization\/:id$/, `/organization/${ids.org}`)
    .replace(/:(orgId|organizationId)/, ids.org)
    .replace(/:\w+/g, UNKNOWN_ID);
}

// ── what a caller may send ───────────────────────────────────────────────────
const BODY_FIELDS = [
  'name',
  'nickname',
  'description',
  'title',
  'email',
  'first_name',
  'last_name',
  'firstname',
  'lastname',
  'username',
  'password',
  'grant_type',
  'application',
  'token',
  'refresh_token',
  'reset_password_token',
  'unlock_token',
  'password_confirmation',
  'organization_id',
  'thing_id',
  'thing_uuids',
  'role_id',
  'ez_type_id',
  'type',
  'haas_id',
  'on',
  'attributes',
  'messages',
  'lat',
  'lng',
  'lon',
  'radius_dist',
  'coordinates',
  'point_geom',
  'start_time',
  'end_time',
  'reported_at',
  'timestamp',
  'export_type',
  'export_start_time',
  'export_end_time',
  'use_utc',
  'closures_to_include',
  'include_no_thing_il',
  'closure_type',
  'impacted_lanes',
  'is_active',
  'user_route',
  'direction',
  'alert_message',
  'hazard_type',
  'severity',
  'model',
  'file_name',
  'heartbeat_interval',
  'location_type',
  'provider',
  'settings',
  'light_intensity',
  'in_service',
  'is_r2r_enabled',
  'external_identifiers',
  'thing_type_id',
  'thing_subtype_id',
  'display_name',
  'postal_code',
  'phone_number',
  'cell_phone_number',
  'time_zone',
  'timezone',
  'parent_id',
  'organization_type_id',
  'suspended',
  'organization_relationships',
] as const;

const HUGE = 'x'.repeat(200_000);
/** The values that have broken servers like this one: NUL, times Postgres cannot hold, off-calendar days. */
const dangerous = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '0000-01-01T00:00:00Z',
  '-99999999999',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00Z',
  '-275760',
  '2026-02-30',
  '2026-02-30T00:00:00Z',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  'garbage',
);
const nastyText = fc.oneof(
  { weight: 4, arbitrary: dangerous },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '275760',
      '__proto__',
      'constructor',
      "'; drop table things; --",
      '%00',
      '\uD800',
      '1e400',
      'NaN',
      '-1',
      UNKNOWN_ID,
      HAAS_ID,
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.uuid() },
);
const extremeNumber = fc.oneof(
  fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2, -1e21, 1e21, 2 ** 31, -(2 ** 31) - 1, 0.5, -0),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const scalar = fc.oneof(nastyText, extremeNumber, fc.boolean(), fc.constant(null), fc.constant(HUGE));
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...BODY_FIELDS, '\u0000'), scalar, { maxKeys: 3 }) },
);
const fieldsBody = fc.dictionary(fc.constantFrom(...BODY_FIELDS), nasty, { maxKeys: 6 });
const anyBody: fc.Arbitrary<unknown> = fc.oneof(fieldsBody, fieldsBody, fc.jsonValue({ maxDepth: 3 }));
/** A valid body with one or two of its fields (or of the known names) replaced by a bad value. */
const poisoned = (valid: Record<string, unknown>) =>
  fc
    .dictionary(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...Object.keys(valid)) }, { weight: 1, arbitrary: fc.constantFrom(...BODY_FIELDS) }),
      nasty,
      {
        minKeys: 1,
        maxKeys: 2,
      },
    )
    .map((bad) => ({ ...valid, ...bad }));
const bodyFor = (call: WriteCall): fc.Arbitrary<unknown> =>
  call.route === '/ingest' ? ingestBody : call.valid ? fc.oneof(poisoned(call.valid()), poisoned(call.valid()), anyBody) : anyBody;
const DEVICE_TYPES = ['point', 'heartbeat', 'lights', 'attributes', 'hazard'] as const;
const deviceMessage = fc
  .tuple(fc.constantFrom(...DEVICE_TYPES), fieldsBody, fc.boolean())
  .map(([type, fields, known]) => ({ ...fields, type, ...(known ? { haas_id: HAAS_ID } : {}) }));
const ingestBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ messages: fc.array(deviceMessage, { minLength: 1, maxLength: 4 }) }),
  anyBody,
);

/** A valid time near the test clock, so one bad parameter meets otherwise good ones. */
const RECENT = ['2026-11-22T10:00:00Z', '2026-11-22T11:00:00Z', '2026-11-21'] as const;
const queryValue = () =>
  fc.oneof(
    { weight: 4, arbitrary: nastyText },
    { weight: 2, arbitrary: fc.constantFrom(...RECENT, ids.thing, ids.org) },
    { weight: 1, arbitrary: extremeNumber.map(String) },
    { weight: 1, arbitrary: fc.constant(HUGE.slice(0, 5_000)) },
  );
const queryOf = (params: readonly string[]) => fc.array(fc.tuple(fc.constantFrom(...params), queryValue()), { maxLength: 5 });

// ── helpers ──────────────────────────────────────────────────────────────────
/** Every row of the tables as sorted JSON: equal snapshots mean nothing changed (the order of rows is not compared). */
async function snapshotOf(tables: readonly PgTable[]): Promise<string[]> {
  const out: string[] = [];
  for (const table of tables) {
    const rows = await server.database.db.select().from(table);
    out.push(JSON.stringify(rows.map((row) => JSON.stringify(row)).sort()));
  }
  return out;
}

async function send(method: Method, url: string, body?: unknown) {
  const response = await server.app.inject({
    method,
    url,
    headers: { ...server.auth(token), 'x-api-key': API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: response.statusCode, body: response.body };
}

beforeAll(async () => {
  server = await createTestServer();
  const org = await server.createOrg({ name: 'Input Properties Org' });
  ids.org = org.id;
  const user = await server.createUser({ org, role: 'ENGINEER' });
  ids.otherUser = (await server.createUser({ org, role: 'USER' })).id;
  token = await server.signIn(user.email);
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const [thing] = await server.database.db
    .insert(things)
    .values({ organizationId: org.id, haasId: HAAS_ID, thingTypeId: type!.id, lat: 30.27, lng: -97.74 })
    .returning();
  ids.thing = thing!.id;
  await server.database.db.insert(apiKeys).values({
    userId: user.id,
    organizationId: org.id,
    description: 'device',
    tokenHash: hashToken(API_KEY),
    tokenPrefix: API_KEY.slice(0, 6),
  });
  await (server.app as unknown as { ingest: { reload(): Promise<void> } }).ingest.reload();
});
afterAll(() => server.close());

describe('the tables list every route', () => {
  it('every route registered in server/http (and its folders) and server/live/ingest-route.ts is in a table', () => {
    const files = [
      ...fs
        .readdirSync('server/http', { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => path.join('server/http', name)),
      'server/live/ingest-route.ts',
      'server/live/cable.ts',
    ];
    const registered = new Set<string>();
    for (const file of files) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/\b(?:app|api)\.(get|post|put|patch|delete)\(\s*'([^']+)'/g)) {
        registered.add(`${match[1]!.toUpperCase()} ${match[2]}`);
      }
    }
    const listed = new Set([...WRITE_CALLS.map((call) => `${call.method} ${call.route}`), ...GET_CALLS.map((call) => `GET ${call.route}`)]);
    expect([...registered].filter((route) => !listed.has(route))).toEqual([]);
    expect([...listed].filter((route) => !registered.has(route))).toEqual([]);
  });
});

describe('write calls: arbitrary bodies never answer 5xx; a refused call changes nothing', () => {
  it.each(WRITE_CALLS.map((call) => [call.method, call.route, call] as const))(
    '%s %s',
    async (method, route, call) => {
      const url = pathOf(method, route);
      await fc.assert(
        fc.asyncProperty(bodyFor(call), async (body) => {
          const before = await snapshotOf(call.tables);
          const answer = await send(method, url, body);
          expect(answer.status, answer.body).toBeLessThan(500);
          if (answer.status >= 400) expect(await snapshotOf(call.tables)).toEqual(before);
        }),
        { numRuns: RUNS },
      );
    },
    CALL_TIMEOUT_MS,
  );
});

describe('GET calls: arbitrary query parameters never answer 5xx', () => {
  it.each(GET_CALLS.map((call) => [call.route, call.params] as const))(
    'GET %s',
    async (route, params) => {
      const url = pathOf('GET', route);
      await fc.assert(
        fc.asyncProperty(queryOf(params), async (pairs) => {
          const search = new URLSearchParams(pairs).toString();
          const answer = await send('GET', search ? `${url}?${search}` : url);
          expect(answer.status, answer.body.slice(0, 500)).toBeLessThan(500);
        }),
        { numRuns: RUNS },
      );
    },
    CALL_TIMEOUT_MS,
  );
});
