/**
 * The authorization matrix: every call the server registers has a row here (a route without a row
 * fails the inventory test), and every row is driven through the real app with the four refused
 * tokens, a user of an unrelated organization, a role without the call's permission, each role
 * that holds one of its permissions and the spec's five roles.
 *
 * Sources: part 1 §4 (a 401 signs out), §6 and part 2 §6 (the permission per call, "any one of";
 * 'Not authorized'), part 2 §7 calls, docs/api/*.md for the designed calls; OWASP ASVS V4
 * (access control: deny by default, enforce on the server, per record).
 */
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, LIGHT_INTENSITY_OPTIONS } from '../../src/domain/constants';
import { TOOLTIP } from '../../src/domain/labels';
import { hasAny, PERMISSIONS, section, type Permission } from '../../src/domain/permissions';
import { ACCESS_TOKEN_TTL_S } from '../../server/auth/tokens';
import { austinRoadNetwork, nodePosition } from '../../server/region/geography';
import { ROLE_DEFINITIONS } from '../../server/db/reference-data';
import {
  apiKeys,
  areas,
  closures,
  deviceConfigs,
  exports,
  hazards,
  integrationConfigurations,
  locationNotes,
  locations,
  organizations,
  thingRelationships,
  things,
  users,
  wzdxFeeds,
} from '../../server/db/schema';
import { call, refusedTokens, snapshot, type Answer, type Method } from '../support/account-calls';
import { normalizeRoute, registeredRoutes, UNDOCUMENTED_ROUTES } from '../support/route-inventory';
import { createTestServer, PASSWORD, type TestServer } from '../support/test-server';
import { AuthzWorld, type Actor } from './support/authz-world';

// ── the catalogue's words ────────────────────────────────────────────────────
/** part 1 §8 token verify: the text of every refused token. */
const UNAUTHORIZED = { error: 'unauthorized', message: 'Access token is expired or does not exist.' };
/** part 2 §6 "Tooltip when not allowed: 'Not authorized'". */
const FORBIDDEN = { error: 'forbidden', message: TOOLTIP.notAuthorized };
const MOBILE = { 'x-lightbar-client': 'mobile' } as const;

// ── the permission rows (part 1 §6, part 2 §6, docs/api) ─────────────────────
const THINGS_VIEW = section('things').anyOf;
const EVENTS_VIEW = section('events').anyOf;
const AREAS_VIEW = section('areas').anyOf;
const CLOSURES_VIEW = section('closures').anyOf;
const ZONES_VIEW = section('zones').anyOf;
const TRIPS_VIEW = section('trips').anyOf;
const R2R_VIEW = section('r2r').anyOf;
const HAZARDS_VIEW = section('hazards').anyOf;
const REPORTS_VIEW = section('reports').anyOf;
const EXPORTS_VIEW = section('exports').anyOf;
const ACCOUNTS = section('accounts').anyOf;
const EDIT_ASSET: readonly Permission[] = ['thing:update', 'thing:manage'];
const EDIT_EVENT: readonly Permission[] = ['incident:update', 'haas:manage'];
const ORG_EDIT: readonly Permission[] = [
  'organization:update',
  'organization:manage',
  'user:update',
  'user:manage',
  'user:admin:update',
  'user:admin:manage',
];
const userAction = (action: 'create' | 'update' | 'delete'): readonly Permission[] => [
  'user:manage',
  `user:${action}`,
  'user:admin:manage',
  `user:admin:${action}`,
];
const keyAction = (action: 'read' | 'create' | 'delete'): readonly Permission[] => [
  'integration_configuration:manage',
  `integration_configuration:${action}`,
  'user:admin:manage',
  `user:admin:${action}`,
];
const integrationAction = (action: 'read' | 'create' | 'delete'): readonly Permission[] => [
  'integration_configuration:manage',
  `integration_configuration:${action}`,
];
const DEVICE_ADMIN: readonly Permission[] = ['thing:admin:manage', 'haas:manage'];
/** WZDx feed subscriptions (docs/api/areas-closures-zones-trips.md): read with the closures section, write with closure manage. */
const WZDX_FEEDS_WRITE: readonly Permission[] = ['closure:manage', 'haas:manage'];

// ── the table ────────────────────────────────────────────────────────────────
interface Req {
  readonly method: Method;
  readonly url: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

type Access =
  /** Any signed-in user: the call reads no organization's records, or only the caller's own. */
  { readonly kind: 'signed in' } | { readonly kind: 'permission'; readonly anyOf: readonly Permission[] };

/** What a user of another organization (no relation) meets, checked with real rows of both. */
interface StrangerCase {
  readonly says: string;
  run(stranger: Actor): Promise<void>;
}

interface Row {
  /** The route as registered: `METHOD /path`. */
  readonly route: string;
  /** A second row for one route (the mobile closure permissions, the export file link). */
  readonly variant?: string;
  readonly access: Access;
  /** The status a caller allowed to make the call gets. */
  readonly ok: number;
  /** A valid request by `caller` (a user of the own organization) on fresh rows of its own. */
  request(caller: Actor): Promise<Req>;
  readonly stranger: StrangerCase;
}

let server: TestServer;
let w: AuthzWorld;
let emails = 0;
/** PUT /password rows: each user's password now (they start with the test server's). */
const passwords = new Map<string, string>();

const past = (ms: number) => new Date(server.clock.ms - ms).toISOString();
const q = (value: string) => encodeURIComponent(value);
const idsOf = (list: unknown): string[] => (Array.isArray(list) ? list.map((item) => String((item as { id?: unknown }).id)) : []);
const send = (req: Req, token: string | null): Promise<Answer> => call(server, req.method, req.url, token, req.body, req.headers);

const address = { address1: '1 Main St', address2: '', city: 'Springfield', state: 'IL', postal_code: '62701', country_code: 'US' };
const areaBody = (organizationId: string, extra: Record<string, unknown> = {}) => ({
  organization_id: organizationId,
  name: 'Station 12 yard',
  desc: 'Apparatus bay',
  ez_type_id: w.stationTypeId,
  area_geom: null,
  point_geom: { lat: 41.8805, lon: -87.6295 },
  ...address,
  ...extra,
});
const closureBody = (organizationId: string) => ({
  organization_id: organizationId,
  closure_type: 'manual',
  is_active: true,
  description: 'Bridge deck repair',
  direction: 'N',
  user_route: [
    { lat: 41.88, lng: -87.63 },
    { lat: 41.89, lng: -87.63 },
  ],
  impacted_lanes: [1],
  end_time: new Date(server.clock.ms + 7 * 24 * HOUR_MS).toISOString(),
});
const deviceConfigBody = (extra: Record<string, unknown> = {}) => ({
  thing_type_id: w.policeTypeId,
  model: 'HA5',
  platform: 'linux-arm',
  file_name: 'patrol.conf',
  warning_light_pin: 17,
  ...extra,
});
const userBody = (roleId: number, extra: Record<string, unknown> = {}) => ({
  firstname: 'Casey',
  lastname: 'Jones',
  email: `authz.${++emails}@example.com`,
  role_id: roleId,
  ...extra,
});

// ── what a stranger meets ────────────────────────────────────────────────────
/** Refused with `status` (and `message` when the route has one); the written table did not change. */
function refuses(status: number, req: () => Req, table?: { table: PgTable; order: PgColumn }, message?: string): StrangerCase {
  return {
    says: `refused ${status}${table ? ', nothing written' : ''}`,
    async run(stranger) {
      const before = table ? await snapshot(server, table.table, table.order) : '';
      const answer = await send(req(), stranger.token);
      expect(answer.status, JSON.stringify(answer.json)).toBe(status);
      if (message) expect(answer.body.message).toBe(message);
      if (table) expect(await snapshot(server, table.table, table.order)).toBe(before);
    },
  };
}

/**
 * A list: unfiltered it holds the stranger's own row and never the other organization's; asked for
 * the other organization, it answers 404 'Organization not found' or a list without its rows.
 */
function lists(
  url: (filterOrgId: string | null) => string,
  ids: (json: unknown) => string[],
  rowOf: (rows: AuthzWorld['own']) => string,
): StrangerCase {
  return {
    says: "lists its own rows, never the other organization's",
    async run(stranger) {
      const all = await send({ method: 'GET', url: url(null) }, stranger.token);
      expect(all.status, JSON.stringify(all.json)).toBe(200);
      expect(ids(all.json)).toContain(rowOf(w.other));
      expect(ids(all.json)).not.toContain(rowOf(w.own));
      const asked = await send({ method: 'GET', url: url(w.own.orgId) }, stranger.token);
      if (asked.status === 404) expect(asked.body.message).toBe('Organization not found');
      else {
        expect(asked.status, JSON.stringify(asked.json)).toBe(200);
        expect(ids(asked.json)).not.toContain(rowOf(w.own));
      }
    },
  };
}

/** Several checks of one call: its own record reached, and its own record pointed at the other organization. */
function allOf(...cases: StrangerCase[]): StrangerCase {
  return {
    says: cases.map((one) => one.says).join('; '),
    async run(stranger) {
      for (const one of cases) await one.run(stranger);
    },
  };
}

/** The stranger's own record (or a new one) pointed at the other organization or its record: refused, nothing written. */
function pointsAtOther(status: number, req: () => Req, written: { table: PgTable; order: PgColumn }, message: string): StrangerCase {
  return { ...refuses(status, req, written, message), says: `its own record pointed at the other organization: ${status} '${message}'` };
}

function noOrganizationData(why: string): StrangerCase {
  return {
    says: `nothing of another organization to reach: ${why}`,
    async run(stranger) {
      expect(stranger.organizationId).toBe(w.other.orgId);
    },
  };
}

const withOrg = (base: string, param: string) => (orgId: string | null) =>
  orgId ? `${base}${base.includes('?') ? '&' : '?'}${param}=${orgId}` : base;
const get = (url: string): Req => ({ method: 'GET', url });

const table = (t: PgTable, order: PgColumn) => ({ table: t, order });

// Each row reads like part 2 §7's table: the call, who may make it, what a stranger meets.
const ROWS: readonly Row[] = [
  // ── profile and reference data (part 1 §7) ──
  {
    route: 'GET /profile',
    access: { kind: 'signed in' },
    ok: 200,
    request: async () => get('/profile'),
    stranger: noOrganizationData("the caller's own user"),
  },
  // ── the signed-in user's own account (designed: PUT /profile, PUT /password) ──
  {
    route: 'PUT /profile',
    access: { kind: 'signed in' },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: '/profile',
      body: {
        firstname: 'Casey',
        lastname: 'Jones',
        phone: '',
        address1: '1 Main St',
        city: 'Austin',
        state: 'TX',
        postal_code: '78701',
        country_code: 'US',
      },
    }),
    stranger: noOrganizationData("the caller's own user only"),
  },
  {
    route: 'PUT /password',
    access: { kind: 'signed in' },
    ok: 200,
    request: async (caller) => {
      const current = passwords.get(caller.id) ?? PASSWORD;
      const next = `Rotate#${++emails}pass`;
      passwords.set(caller.id, next);
      return { method: 'PUT', url: '/password', body: { current_password: current, password: next, password_confirmation: next } };
    },
    stranger: noOrganizationData("the caller's own user only"),
  },
  {
    route: 'GET /thing_types',
    access: { kind: 'signed in' },
    ok: 200,
    request: async () => get('/thing_types'),
    stranger: noOrganizationData('reference data of every installation'),
  },
  {
    route: 'GET /thing_subtypes',
    access: { kind: 'signed in' },
    ok: 200,
    request: async () => get('/thing_subtypes'),
    stranger: noOrganizationData('reference data of every installation'),
  },
  // ── organizations (part 1 §8 organization lookup, part 2 §7) ──
  {
    route: 'GET /organization/:id',
    access: { kind: 'signed in' },
    ok: 200,
    request: async () => get(`/organization/${w.own.orgId}`),
    stranger: refuses(404, () => get(`/organization/${w.own.orgId}`), undefined, 'Organization not found'),
  },
  {
    route: 'PUT /organization/:id',
    access: { kind: 'permission', anyOf: ORG_EDIT },
    ok: 200,
    request: async () => ({ method: 'PUT', url: `/organization/${w.own.orgId}`, body: { name: 'Alpha County', ...address } }),
    stranger: refuses(
      422,
      () => ({ method: 'PUT', url: `/organization/${w.own.orgId}`, body: { name: 'Taken', ...address } }),
      table(organizations, organizations.id),
      'Organization not found',
    ),
  },
  {
    route: 'PUT /organization/',
    access: { kind: 'permission', anyOf: ORG_EDIT },
    ok: 200,
    request: async () => ({ method: 'PUT', url: '/organization/', body: { name: 'Alpha County', ...address } }),
    stranger: noOrganizationData("it edits the caller's own organization"),
  },
  {
    route: 'PUT /organization',
    access: { kind: 'permission', anyOf: ORG_EDIT },
    ok: 200,
    request: async () => ({ method: 'PUT', url: '/organization', body: { name: 'Alpha County', ...address } }),
    stranger: noOrganizationData("it edits the caller's own organization"),
  },
  {
    route: 'DELETE /organization/:id',
    access: { kind: 'permission', anyOf: ['haas:manage'] },
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/organization/${(await server.createOrg({ name: 'Short-lived' })).id}` }),
    stranger: noOrganizationData('only haas:manage may call it, and haas:manage sees every organization'),
  },
  // ── assets (part 1 §6, §7) ──
  {
    route: 'GET /organization/things',
    access: { kind: 'permission', anyOf: THINGS_VIEW },
    ok: 200,
    request: async () => get('/organization/things'),
    stranger: lists(
      withOrg('/organization/things', 'org_ids[]'),
      (json) => idsOf((json as { data?: unknown }).data),
      (rows) => rows.thingId,
    ),
  },
  {
    route: 'GET /organization/things/snapshot',
    access: { kind: 'permission', anyOf: THINGS_VIEW },
    ok: 200,
    request: async () => get('/organization/things/snapshot'),
    stranger: lists(
      withOrg('/organization/things/snapshot', 'org_ids[]'),
      (json) => ((json as { rows?: unknown[][] }).rows ?? []).map((row) => String(row[0])),
      (rows) => rows.thingId,
    ),
  },
  {
    // The snapshot since a time (docs/decisions/spec.md "The fleet snapshot since a time"): the same rule, the changed rows only.
    route: 'GET /organization/things/snapshot',
    variant: 'since a time',
    access: { kind: 'permission', anyOf: THINGS_VIEW },
    ok: 200,
    request: async () => get(`/organization/things/snapshot?since=${q(past(DAY_MS))}`),
    stranger: lists(
      (orgId) => withOrg(`/organization/things/snapshot?since=${q(past(DAY_MS))}`, 'org_ids[]')(orgId),
      (json) => ((json as { rows?: unknown[][] }).rows ?? []).map((row) => String(row[0])),
      (rows) => rows.thingId,
    ),
  },
  {
    route: 'GET /organization/things_count',
    access: { kind: 'permission', anyOf: ['thing:read', 'thing:manage'] },
    ok: 200,
    request: async () => get('/organization/things_count'),
    stranger: {
      says: "counts its own assets, never the other organization's",
      async run(stranger) {
        const ownCount = (await server.database.db.select().from(things).where(eq(things.organizationId, w.other.orgId))).length;
        expect((await send(get('/organization/things_count'), stranger.token)).json).toEqual({ count: ownCount });
        expect((await send(get(`/organization/things_count?org_ids[]=${w.own.orgId}`), stranger.token)).json).toEqual({ count: 0 });
      },
    },
  },
  {
    route: 'GET /organization/assignable',
    access: {
      kind: 'permission',
      anyOf: [
        ...EDIT_ASSET,
        'haas:manage',
        'user:admin:manage',
        'user:admin:create',
        'user:admin:read',
        'user:admin:update',
        'user:admin:delete',
        'organization:manage',
        'organization:create',
        'organization:update',
        'organization:delete',
      ],
    },
    ok: 200,
    request: async () => get('/organization/assignable'),
    stranger: {
      says: 'never offers the unrelated organization',
      async run(stranger) {
        const answer = await send(get('/organization/assignable'), stranger.token);
        expect(answer.status).toBe(200);
        expect(idsOf(answer.json)).not.toContain(w.own.orgId);
      },
    },
  },
  {
    route: 'PUT /things/:id',
    access: { kind: 'permission', anyOf: EDIT_ASSET },
    ok: 200,
    request: async () => {
      const id = await w.thing(w.own.orgId);
      return { method: 'PUT', url: `/things/${id}`, body: { id, in_service: true, is_publicly_alerting: true } };
    },
    stranger: refuses(
      404,
      () => ({
        method: 'PUT',
        url: `/things/${w.own.thingId}`,
        body: { id: w.own.thingId, in_service: false, is_publicly_alerting: false },
      }),
      table(things, things.id),
    ),
  },
  {
    route: 'PUT /things/:id/associations',
    access: { kind: 'permission', anyOf: [...EDIT_ASSET, 'haas:manage'] },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/things/${await w.thing(w.own.orgId)}/associations`,
      body: { organization_relationships: [] },
    }),
    stranger: allOf(
      refuses(
        404,
        () => ({
          method: 'PUT',
          url: `/things/${w.own.thingId}/associations`,
          body: {
            organization_relationships: [
              { organization_uuid: w.other.orgId, organization_name: 'Bravo City', relationship_type: 'manager' },
            ],
          },
        }),
        table(thingRelationships, thingRelationships.thingId),
      ),
      pointsAtOther(
        422,
        () => ({
          method: 'PUT',
          url: `/things/${w.other.thingId}/associations`,
          body: {
            organization_relationships: [
              { organization_uuid: w.own.orgId, organization_name: 'Alpha County', relationship_type: 'accessor' },
            ],
          },
        }),
        table(thingRelationships, thingRelationships.thingId),
        'organization_relationships.0.organization_uuid: unknown organization',
      ),
    ),
  },
  {
    route: 'PUT /things/:id/r2r',
    access: { kind: 'permission', anyOf: ['thing:invoke_r2r'] },
    ok: 200,
    request: async () => ({ method: 'PUT', url: `/things/${await w.thing(w.own.orgId)}/r2r`, body: { test_mode: false } }),
    stranger: refuses(
      404,
      () => ({ method: 'PUT', url: `/things/${w.own.thingId}/r2r`, body: { test_mode: false } }),
      table(things, things.id),
    ),
  },
  {
    route: 'PUT /things/:id/light_intensity',
    access: { kind: 'permission', anyOf: ['thing:ha5_light_intensity_change'] },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/things/${await w.thing(w.own.orgId)}/light_intensity`,
      body: { light_intensity: LIGHT_INTENSITY_OPTIONS[0] },
    }),
    stranger: refuses(
      404,
      () => ({ method: 'PUT', url: `/things/${w.own.thingId}/light_intensity`, body: { light_intensity: LIGHT_INTENSITY_OPTIONS[1] } }),
      table(things, things.id),
    ),
  },
  // ── trips and R2R search (part 2 §7) ──
  {
    route: 'GET /things/:thingId/trips',
    access: { kind: 'permission', anyOf: TRIPS_VIEW },
    ok: 200,
    request: async () => get(`/things/${w.own.thingId}/trips?start_time=${q(past(2 * HOUR_MS))}&end_time=${q(past(HOUR_MS))}`),
    stranger: refuses(
      404,
      () => get(`/things/${w.own.thingId}/trips?start_time=${q(past(2 * HOUR_MS))}&end_time=${q(past(HOUR_MS))}`),
      undefined,
      'Asset not found',
    ),
  },
  {
    route: 'GET /things/coverage',
    access: { kind: 'permission', anyOf: TRIPS_VIEW },
    ok: 200,
    request: async () => get(`/things/coverage?thing_ids[]=${w.own.thingId}`),
    stranger: {
      says: "covers its own asset, never the other organization's",
      async run(stranger) {
        const answer = await send(get(`/things/coverage?thing_ids[]=${w.own.thingId}&thing_ids[]=${w.other.thingId}`), stranger.token);
        expect(answer.status).toBe(200);
        expect((answer.json as { thing_id: string }[]).map((row) => row.thing_id)).toEqual([w.other.thingId]);
      },
    },
  },
  {
    route: 'GET /r2r',
    access: { kind: 'permission', anyOf: R2R_VIEW },
    ok: 200,
    request: async () => get(`/r2r?thing_id=${w.own.thingId}&start_time=${q(past(HOUR_MS))}`),
    stranger: refuses(404, () => get(`/r2r?thing_id=${w.own.thingId}&start_time=${q(past(HOUR_MS))}`), undefined, 'Asset not found'),
  },
  // ── events (part 1 §7) ──
  {
    route: 'GET /locations',
    access: { kind: 'permission', anyOf: EVENTS_VIEW },
    ok: 200,
    request: async () => get('/locations'),
    stranger: lists(
      withOrg('/locations', 'org_ids[]'),
      (json) => idsOf((json as { data?: unknown }).data),
      (rows) => rows.locationId,
    ),
  },
  {
    route: 'GET /locations/active',
    access: { kind: 'permission', anyOf: EVENTS_VIEW },
    ok: 200,
    request: async () => get('/locations/active'),
    stranger: lists(
      withOrg('/locations/active', 'org_ids[]'),
      (json) => idsOf((json as { data?: unknown }).data),
      (rows) => rows.locationId,
    ),
  },
  {
    route: 'PUT /locations/:id',
    access: { kind: 'permission', anyOf: EDIT_EVENT },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/locations/${await w.location(w.own.orgId)}`,
      body: { lat: 41.9, lng: -87.7, roadway_heading: 180, organization_id: w.own.orgId },
    }),
    stranger: allOf(
      refuses(
        404,
        () => ({
          method: 'PUT',
          url: `/locations/${w.own.locationId}`,
          body: { lat: 40, lng: -80, roadway_heading: 90, organization_id: w.own.orgId },
        }),
        table(locations, locations.id),
      ),
      pointsAtOther(
        422,
        () => ({
          method: 'PUT',
          url: `/locations/${w.other.locationId}`,
          body: { lat: 40, lng: -80, roadway_heading: 90, organization_id: w.own.orgId },
        }),
        table(locations, locations.id),
        "organization_id: is not the Location's organization",
      ),
    ),
  },
  // Incident notes and acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement").
  {
    route: 'GET /locations/:id/notes',
    access: { kind: 'permission', anyOf: EVENTS_VIEW },
    ok: 200,
    request: async () => get(`/locations/${await w.location(w.own.orgId)}/notes`),
    stranger: refuses(404, () => get(`/locations/${w.own.locationId}/notes`), undefined, 'Location not found'),
  },
  {
    route: 'POST /locations/:id/notes',
    access: { kind: 'permission', anyOf: EVENTS_VIEW },
    ok: 201,
    request: async () => ({ method: 'POST', url: `/locations/${await w.location(w.own.orgId)}/notes`, body: { text: 'Lane 2 blocked' } }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: `/locations/${w.own.locationId}/notes`, body: { text: 'Lane 2 blocked' } }),
      table(locationNotes, locationNotes.id),
      'Location not found',
    ),
  },
  {
    route: 'POST /locations/:id/acknowledge',
    access: { kind: 'permission', anyOf: EDIT_EVENT },
    ok: 200,
    request: async () => ({ method: 'POST', url: `/locations/${await w.location(w.own.orgId)}/acknowledge` }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: `/locations/${w.own.locationId}/acknowledge` }),
      table(locations, locations.id),
      'Location not found',
    ),
  },
  // ── areas (part 2 §6, §7) ──
  {
    route: 'GET /ez_types',
    access: { kind: 'permission', anyOf: AREAS_VIEW },
    ok: 200,
    request: async () => get('/ez_types'),
    stranger: noOrganizationData('reference data of every installation'),
  },
  {
    route: 'GET /organization/exclusion_zone',
    access: { kind: 'permission', anyOf: AREAS_VIEW },
    ok: 200,
    request: async () => get('/organization/exclusion_zone'),
    stranger: lists(withOrg('/organization/exclusion_zone', 'org_ids[]'), idsOf, (rows) => rows.areaId),
  },
  {
    route: 'GET /organization/exclusion_zone/:id',
    access: { kind: 'permission', anyOf: AREAS_VIEW },
    ok: 200,
    request: async () => get(`/organization/exclusion_zone/${w.own.areaId}`),
    stranger: refuses(404, () => get(`/organization/exclusion_zone/${w.own.areaId}`), undefined, 'Area not found'),
  },
  {
    route: 'POST /organization/exclusion_zone',
    access: { kind: 'permission', anyOf: ['exclusion:create', 'exclusion:manage', 'haas:manage'] },
    ok: 201,
    request: async () => ({ method: 'POST', url: '/organization/exclusion_zone', body: areaBody(w.own.orgId) }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: '/organization/exclusion_zone', body: areaBody(w.own.orgId) }),
      table(areas, areas.id),
    ),
  },
  {
    route: 'PUT /organization/exclusion_zone/:id',
    access: { kind: 'permission', anyOf: ['exclusion:update', 'exclusion:manage', 'haas:manage'] },
    ok: 200,
    request: async () => {
      const id = await w.area(w.own.orgId);
      return { method: 'PUT', url: `/organization/exclusion_zone/${id}`, body: areaBody(w.own.orgId, { id }) };
    },
    stranger: allOf(
      refuses(
        404,
        () => ({
          method: 'PUT',
          url: `/organization/exclusion_zone/${w.own.areaId}`,
          body: areaBody(w.own.orgId, { id: w.own.areaId, name: 'Taken' }),
        }),
        table(areas, areas.id),
      ),
      pointsAtOther(
        422,
        () => ({
          method: 'PUT',
          url: `/organization/exclusion_zone/${w.other.areaId}`,
          body: areaBody(w.own.orgId, { id: w.other.areaId }),
        }),
        table(areas, areas.id),
        'organization_id: an area cannot move to another organization',
      ),
    ),
  },
  {
    route: 'DELETE /organization/exclusion_zone/:id',
    access: { kind: 'permission', anyOf: ['exclusion:delete', 'exclusion:manage', 'haas:manage'] },
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/organization/exclusion_zone/${await w.area(w.own.orgId)}` }),
    stranger: refuses(404, () => ({ method: 'DELETE', url: `/organization/exclusion_zone/${w.own.areaId}` }), table(areas, areas.id)),
  },
  // ── closures (part 2 §6, §7; mobile: part 1 §2) ──
  {
    route: 'GET /organization/closure',
    access: { kind: 'permission', anyOf: CLOSURES_VIEW },
    ok: 200,
    request: async () => get('/organization/closure'),
    stranger: lists(
      withOrg('/organization/closure', 'org_ids[]'),
      (json) => idsOf((json as { data?: unknown }).data),
      (rows) => rows.closureId,
    ),
  },
  {
    route: 'GET /organization/closure/:id',
    access: { kind: 'permission', anyOf: CLOSURES_VIEW },
    ok: 200,
    request: async () => get(`/organization/closure/${w.own.closureId}`),
    stranger: refuses(404, () => get(`/organization/closure/${w.own.closureId}`), undefined, 'Closure not found'),
  },
  {
    route: 'POST /organization/closure',
    access: { kind: 'permission', anyOf: ['closure:create', 'closure:manage'] },
    ok: 201,
    request: async () => ({ method: 'POST', url: '/organization/closure', body: closureBody(w.own.orgId) }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: '/organization/closure', body: closureBody(w.own.orgId) }),
      table(closures, closures.id),
    ),
  },
  {
    route: 'POST /organization/closure',
    variant: 'mobile',
    access: { kind: 'permission', anyOf: ['mobile:closure:create', 'mobile:closure:manage'] },
    ok: 201,
    request: async () => ({ method: 'POST', url: '/organization/closure', body: closureBody(w.own.orgId), headers: MOBILE }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: '/organization/closure', body: closureBody(w.own.orgId), headers: MOBILE }),
      table(closures, closures.id),
    ),
  },
  {
    // The closure form's offline router: roads of the demo network, no organization's rows.
    route: 'POST /closure/route',
    access: {
      kind: 'permission',
      anyOf: [
        'closure:create',
        'closure:update',
        'closure:manage',
        'mobile:closure:create',
        'mobile:closure:update',
        'mobile:closure:manage',
        'haas:manage',
      ],
    },
    ok: 200,
    request: async () => {
      const network = austinRoadNetwork();
      return {
        method: 'POST',
        url: '/closure/route',
        body: { points: [nodePosition(network, network.gridNode(4, 4)), nodePosition(network, network.gridNode(6, 6))] },
      };
    },
    stranger: noOrganizationData('the route runs over the shared road network'),
  },
  {
    route: 'PUT /organization/closure/:id',
    access: { kind: 'permission', anyOf: ['closure:update', 'closure:manage'] },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/organization/closure/${await w.closure(w.own.orgId)}`,
      body: { is_active: false, isQuickUpdate: true },
    }),
    stranger: allOf(
      refuses(
        404,
        () => ({
          method: 'PUT',
          url: `/organization/closure/${w.own.closureId}`,
          body: { is_active: true, end_time: new Date(server.clock.ms + HOUR_MS).toISOString(), isQuickUpdate: true },
        }),
        table(closures, closures.id),
      ),
      pointsAtOther(
        422,
        () => ({ method: 'PUT', url: `/organization/closure/${w.other.closureId}`, body: closureBody(w.own.orgId) }),
        table(closures, closures.id),
        'organization_id: a closure cannot move to another organization',
      ),
    ),
  },
  {
    route: 'PUT /organization/closure/:id',
    variant: 'mobile',
    access: { kind: 'permission', anyOf: ['mobile:closure:update', 'mobile:closure:manage'] },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/organization/closure/${await w.closure(w.own.orgId)}`,
      body: { is_active: false, isQuickUpdate: true },
      headers: MOBILE,
    }),
    stranger: refuses(
      404,
      () => ({
        method: 'PUT',
        url: `/organization/closure/${w.own.closureId}`,
        body: { is_active: true, end_time: new Date(server.clock.ms + HOUR_MS).toISOString(), isQuickUpdate: true },
        headers: MOBILE,
      }),
      table(closures, closures.id),
    ),
  },
  {
    route: 'DELETE /organization/closure/:id',
    access: { kind: 'permission', anyOf: ['closure:delete', 'closure:manage'] },
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/organization/closure/${await w.closure(w.own.orgId)}` }),
    stranger: refuses(404, () => ({ method: 'DELETE', url: `/organization/closure/${w.own.closureId}` }), table(closures, closures.id)),
  },
  {
    route: 'DELETE /organization/closure/:id',
    variant: 'mobile',
    access: { kind: 'permission', anyOf: ['closure:delete', 'closure:manage', 'mobile:closure:manage'] },
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/organization/closure/${await w.closure(w.own.orgId)}`, headers: MOBILE }),
    stranger: refuses(
      404,
      () => ({ method: 'DELETE', url: `/organization/closure/${w.own.closureId}`, headers: MOBILE }),
      table(closures, closures.id),
    ),
  },
  // ── alerting zones (part 2 §7) ──
  // ── WZDx feed subscriptions (beyond the spec; docs/api/areas-closures-zones-trips.md) ──
  {
    route: 'GET /organization/wzdx_feeds',
    access: { kind: 'permission', anyOf: CLOSURES_VIEW },
    ok: 200,
    request: async () => get('/organization/wzdx_feeds'),
    stranger: lists(withOrg('/organization/wzdx_feeds', 'org_ids[]'), idsOf, (rows) => rows.wzdxFeedId),
  },
  {
    route: 'POST /organization/wzdx_feeds',
    access: { kind: 'permission', anyOf: WZDX_FEEDS_WRITE },
    ok: 201,
    request: async (caller) => {
      await w.clearWzdxFeeds(caller.organizationId, w.own.wzdxFeedId);
      return { method: 'POST', url: '/organization/wzdx_feeds', body: { url: 'https://feeds.example/wzdx', enabled: false } };
    },
    stranger: refuses(
      404,
      () => ({
        method: 'POST',
        url: '/organization/wzdx_feeds',
        body: { url: 'https://feeds.example/wzdx', organization_id: w.own.orgId },
      }),
      table(wzdxFeeds, wzdxFeeds.id),
      'Organization not found',
    ),
  },
  {
    route: 'PUT /organization/wzdx_feeds/:id',
    access: { kind: 'permission', anyOf: WZDX_FEEDS_WRITE },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/organization/wzdx_feeds/${await w.wzdxFeed(w.own.orgId)}`,
      body: { url: 'https://feeds.example/moved', poll_interval_s: 600, enabled: false },
    }),
    stranger: refuses(
      404,
      () => ({ method: 'PUT', url: `/organization/wzdx_feeds/${w.own.wzdxFeedId}`, body: { url: 'https://evil.example/feed' } }),
      table(wzdxFeeds, wzdxFeeds.id),
      'WZDx feed not found',
    ),
  },
  {
    route: 'DELETE /organization/wzdx_feeds/:id',
    access: { kind: 'permission', anyOf: WZDX_FEEDS_WRITE },
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/organization/wzdx_feeds/${await w.wzdxFeed(w.own.orgId)}` }),
    stranger: refuses(
      404,
      () => ({ method: 'DELETE', url: `/organization/wzdx_feeds/${w.own.wzdxFeedId}` }),
      table(wzdxFeeds, wzdxFeeds.id),
      'WZDx feed not found',
    ),
  },
  {
    route: 'POST /organization/wzdx_feeds/:id/refresh',
    access: { kind: 'permission', anyOf: WZDX_FEEDS_WRITE },
    ok: 200,
    request: async () => ({ method: 'POST', url: `/organization/wzdx_feeds/${await w.wzdxFeed(w.own.orgId)}/refresh` }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: `/organization/wzdx_feeds/${w.own.wzdxFeedId}/refresh` }),
      table(wzdxFeeds, wzdxFeeds.id),
      'WZDx feed not found',
    ),
  },
  {
    route: 'GET /organization/alerting_zones',
    access: { kind: 'permission', anyOf: ZONES_VIEW },
    ok: 200,
    request: async () => get('/organization/alerting_zones'),
    stranger: lists(withOrg('/organization/alerting_zones', 'org_ids[]'), idsOf, (rows) => rows.zoneId),
  },
  {
    route: 'GET /organization/alerting_zones/:id',
    access: { kind: 'permission', anyOf: ZONES_VIEW },
    ok: 200,
    request: async () => get(`/organization/alerting_zones/${w.own.zoneId}`),
    stranger: refuses(404, () => get(`/organization/alerting_zones/${w.own.zoneId}`), undefined, 'Alerting zone not found'),
  },
  // ── hazards (part 2 §2; designed paths, docs/api) ──
  {
    route: 'GET /organization/hazards',
    access: { kind: 'permission', anyOf: HAZARDS_VIEW },
    ok: 200,
    request: async () => get(`/organization/hazards?all_types=true&start_time=${q(past(2 * HOUR_MS))}&end_time=${q(past(0))}`),
    stranger: lists(
      (orgId) =>
        withOrg(`/organization/hazards?all_types=true&start_time=${q(past(2 * HOUR_MS))}&end_time=${q(past(0))}`, 'org_ids[]')(orgId),
      (json) => idsOf((json as { hazards?: unknown }).hazards),
      (rows) => rows.hazardId,
    ),
  },
  {
    route: 'POST /organization/hazards',
    access: { kind: 'permission', anyOf: ['thing:manage', 'haas:manage'] },
    ok: 201,
    request: async () => ({
      method: 'POST',
      url: '/organization/hazards',
      body: { hazard_type: 'debris', severity: 'low', lat: 41.88, lng: -87.63 },
    }),
    stranger: allOf(
      refuses(
        404,
        () => ({
          method: 'POST',
          url: '/organization/hazards',
          body: { hazard_type: 'debris', severity: 'low', lat: 41.88, lng: -87.63, organization_id: w.own.orgId },
        }),
        table(hazards, hazards.id),
      ),
      pointsAtOther(
        422,
        () => ({
          method: 'POST',
          url: '/organization/hazards',
          body: { hazard_type: 'debris', severity: 'low', lat: 41.88, lng: -87.63, thing_id: w.own.thingId },
        }),
        table(hazards, hazards.id),
        'thing_id: Asset not found',
      ),
    ),
  },
  // ── data: reports, exports (part 2 §6, §7) ──
  {
    route: 'GET /reports/:orgId/organization_monthly_report_list',
    access: { kind: 'permission', anyOf: REPORTS_VIEW },
    ok: 200,
    request: async () => get(`/reports/${w.own.orgId}/organization_monthly_report_list`),
    stranger: refuses(404, () => get(`/reports/${w.own.orgId}/organization_monthly_report_list`), undefined, 'Organization not found'),
  },
  {
    route: 'GET /reports/organization_monthly_report_pdf_link',
    access: { kind: 'permission', anyOf: REPORTS_VIEW },
    ok: 200,
    request: async () => get(`/reports/organization_monthly_report_pdf_link?filename=${w.own.reportFileId}`),
    stranger: refuses(
      404,
      () => get(`/reports/organization_monthly_report_pdf_link?filename=${w.own.reportFileId}`),
      undefined,
      'File not found',
    ),
  },
  {
    route: 'GET /organization/export',
    access: { kind: 'permission', anyOf: EXPORTS_VIEW },
    ok: 200,
    request: async () => get('/organization/export'),
    stranger: lists(withOrg('/organization/export', 'org_ids[]'), idsOf, (rows) => rows.exportId),
  },
  {
    route: 'POST /organization/export',
    access: { kind: 'permission', anyOf: ['export:create', 'export:manage'] },
    ok: 201,
    request: async () => {
      await w.finishRunningExports();
      return {
        method: 'POST',
        url: '/organization/export',
        body: { export_type: 'thing', title: 'Assets', use_utc: true, organization_id: w.own.orgId, thing_uuids: [] },
      };
    },
    stranger: allOf(
      refuses(
        404,
        () => ({
          method: 'POST',
          url: '/organization/export',
          body: { export_type: 'thing', title: 'Assets', use_utc: true, organization_id: w.own.orgId, thing_uuids: [] },
        }),
        table(exports, exports.id),
      ),
      pointsAtOther(
        422,
        () => ({
          method: 'POST',
          url: '/organization/export',
          body: { export_type: 'thing', title: 'Assets', use_utc: true, organization_id: w.other.orgId, thing_uuids: [w.own.thingId] },
        }),
        table(exports, exports.id),
        'thing_uuids: Asset not found',
      ),
    ),
  },
  {
    route: 'GET /organization/export/:id',
    access: { kind: 'permission', anyOf: EXPORTS_VIEW },
    ok: 200,
    request: async () => get(`/organization/export/${w.own.exportId}`),
    stranger: refuses(404, () => get(`/organization/export/${w.own.exportId}`), undefined, 'Export not found'),
  },
  {
    route: 'GET /organization/export/:id',
    variant: 'file link',
    access: { kind: 'permission', anyOf: EXPORTS_VIEW },
    ok: 200,
    request: async () => get(`/organization/export/${w.own.exportId}?is_downloadable=true`),
    stranger: refuses(404, () => get(`/organization/export/${w.own.exportId}?is_downloadable=true`), undefined, 'Export not found'),
  },
  {
    route: 'DELETE /organization/export/:id',
    access: { kind: 'permission', anyOf: EXPORTS_VIEW },
    ok: 200,
    request: async (caller) => ({ method: 'DELETE', url: `/organization/export/${await w.export(w.own.orgId, caller.id)}` }),
    stranger: refuses(404, () => ({ method: 'DELETE', url: `/organization/export/${w.own.exportId}` }), table(exports, exports.id)),
  },
  // ── account administration (part 2 §6 accounts row, §7) ──
  {
    route: 'GET /organization/users',
    access: { kind: 'permission', anyOf: ACCOUNTS },
    ok: 200,
    request: async () => get('/organization/users'),
    stranger: lists(
      withOrg('/organization/users', 'organization_id'),
      (json) => idsOf((json as { organization_users?: unknown }).organization_users),
      (rows) => rows.member.id,
    ),
  },
  {
    route: 'GET /roles',
    access: { kind: 'permission', anyOf: ACCOUNTS },
    ok: 200,
    request: async () => get('/roles'),
    stranger: noOrganizationData('roles are the same for every organization'),
  },
  ...(['POST /users', 'POST /users/'] as const).map((route): Row => ({
    route,
    access: { kind: 'permission', anyOf: userAction('create') },
    ok: 201,
    request: async (caller) => ({ method: 'POST', url: route.slice('POST '.length), body: userBody(caller.roleId) }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: route.slice('POST '.length), body: userBody(w.other.member.roleId, { organization_id: w.own.orgId }) }),
      table(users, users.id),
      'Organization not found',
    ),
  })),
  {
    route: 'PUT /users/:id',
    access: { kind: 'permission', anyOf: userAction('update') },
    ok: 200,
    request: async (caller) => {
      const target = await server.createUser({ org: { id: w.own.orgId }, role: 'USER', roleId: caller.roleId });
      return { method: 'PUT', url: `/users/${target.id}`, body: userBody(caller.roleId, { id: target.id }) };
    },
    stranger: refuses(
      422,
      () => ({ method: 'PUT', url: `/users/${w.own.member.id}`, body: userBody(w.own.member.roleId, { id: w.own.member.id }) }),
      table(users, users.id),
    ),
  },
  {
    route: 'PATCH /users/:id',
    access: { kind: 'permission', anyOf: userAction('update') },
    ok: 200,
    request: async (caller) => {
      const target = await server.createUser({ org: { id: w.own.orgId }, role: 'USER', roleId: caller.roleId });
      return { method: 'PATCH', url: `/users/${target.id}`, body: { firstName: 'Robin', lastName: 'Hill' } };
    },
    stranger: refuses(
      422,
      () => ({ method: 'PATCH', url: `/users/${w.own.member.id}`, body: { firstName: 'Taken', lastName: 'Over' } }),
      table(users, users.id),
    ),
  },
  {
    route: 'DELETE /users/:id',
    access: { kind: 'permission', anyOf: userAction('delete') },
    ok: 200,
    request: async (caller) => ({
      method: 'DELETE',
      url: `/users/${(await server.createUser({ org: { id: w.own.orgId }, role: 'USER', roleId: caller.roleId })).id}`,
    }),
    stranger: refuses(422, () => ({ method: 'DELETE', url: `/users/${w.own.member.id}` }), table(users, users.id)),
  },
  // ── API keys, integrations, device configuration, billing (designed; docs/api/accounts.md) ──
  {
    route: 'GET /api_keys',
    access: { kind: 'permission', anyOf: keyAction('read') },
    ok: 200,
    request: async () => get('/api_keys'),
    stranger: {
      says: "lists the caller's own keys, never another user's",
      async run(stranger) {
        const mine = await w.apiKey(stranger.id, stranger.organizationId);
        const answer = await send(get('/api_keys'), stranger.token);
        expect(idsOf(answer.json)).toContain(mine.id);
        expect(idsOf(answer.json)).not.toContain(w.own.apiKeyId);
      },
    },
  },
  {
    route: 'POST /api_keys',
    access: { kind: 'permission', anyOf: keyAction('create') },
    ok: 201,
    request: async () => ({ method: 'POST', url: '/api_keys', body: { description: 'Fleet gateway' } }),
    stranger: noOrganizationData("a key is made for the caller's own user and organization"),
  },
  {
    route: 'DELETE /api_keys/:id',
    access: { kind: 'permission', anyOf: keyAction('delete') },
    ok: 200,
    request: async (caller) => ({ method: 'DELETE', url: `/api_keys/${(await w.apiKey(caller.id, caller.organizationId)).id}` }),
    stranger: refuses(
      404,
      () => ({ method: 'DELETE', url: `/api_keys/${w.own.apiKeyId}` }),
      table(apiKeys, apiKeys.id),
      'API key not found',
    ),
  },
  {
    route: 'GET /organization/integrations',
    access: { kind: 'permission', anyOf: integrationAction('read') },
    ok: 200,
    request: async () => get('/organization/integrations'),
    stranger: lists(withOrg('/organization/integrations', 'org_ids[]'), idsOf, (rows) => rows.integrationId),
  },
  {
    route: 'POST /organization/integrations',
    access: { kind: 'permission', anyOf: integrationAction('create') },
    ok: 201,
    request: async () => {
      await w.clearIntegration(w.own.orgId, 'geotab');
      return { method: 'POST', url: '/organization/integrations', body: { provider: 'geotab', settings: { database: 'fleet' } } };
    },
    stranger: refuses(
      404,
      () => ({
        method: 'POST',
        url: '/organization/integrations',
        body: { provider: 'geotab', settings: {}, organization_id: w.own.orgId },
      }),
      table(integrationConfigurations, integrationConfigurations.id),
      'Organization not found',
    ),
  },
  {
    // Designed: who may add a configuration may replace its settings (docs/api/accounts.md).
    route: 'PUT /organization/integrations/:id',
    access: { kind: 'permission', anyOf: integrationAction('create') },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/organization/integrations/${await w.integration(w.own.orgId, 'geotab')}`,
      body: { settings: { database: 'fleet' } },
    }),
    stranger: refuses(
      404,
      () => ({ method: 'PUT', url: `/organization/integrations/${w.own.integrationId}`, body: { settings: { database: 'x' } } }),
      table(integrationConfigurations, integrationConfigurations.id),
      'Integration not found',
    ),
  },
  {
    route: 'DELETE /organization/integrations/:id',
    access: { kind: 'permission', anyOf: integrationAction('delete') },
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/organization/integrations/${await w.integration(w.own.orgId, 'geotab')}` }),
    stranger: refuses(
      404,
      () => ({ method: 'DELETE', url: `/organization/integrations/${w.own.integrationId}` }),
      table(integrationConfigurations, integrationConfigurations.id),
    ),
  },
  {
    // Designed: read or create may test a stored configuration (docs/api/accounts.md); the test
    // server's provider URLs are a closed local port, so the answer is 200 'could not be reached'.
    route: 'POST /organization/integrations/:id/test',
    access: { kind: 'permission', anyOf: [...integrationAction('read'), 'integration_configuration:create'] },
    ok: 200,
    request: async () => ({ method: 'POST', url: `/organization/integrations/${w.own.integrationId}/test` }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: `/organization/integrations/${w.own.integrationId}/test` }),
      undefined,
      'Integration not found',
    ),
  },
  {
    route: 'GET /organization/device_configs',
    access: { kind: 'permission', anyOf: DEVICE_ADMIN },
    ok: 200,
    request: async () => get('/organization/device_configs'),
    stranger: lists(withOrg('/organization/device_configs', 'org_ids[]'), idsOf, (rows) => rows.deviceConfigId),
  },
  {
    route: 'POST /organization/device_configs',
    access: { kind: 'permission', anyOf: DEVICE_ADMIN },
    ok: 201,
    request: async () => ({ method: 'POST', url: '/organization/device_configs', body: deviceConfigBody() }),
    stranger: refuses(
      404,
      () => ({ method: 'POST', url: '/organization/device_configs', body: deviceConfigBody({ organization_id: w.own.orgId }) }),
      table(deviceConfigs, deviceConfigs.id),
    ),
  },
  {
    route: 'PUT /organization/device_configs/:id',
    access: { kind: 'permission', anyOf: DEVICE_ADMIN },
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/organization/device_configs/${await w.deviceConfig(w.own.orgId)}`,
      body: deviceConfigBody(),
    }),
    stranger: allOf(
      refuses(
        404,
        () => ({ method: 'PUT', url: `/organization/device_configs/${w.own.deviceConfigId}`, body: deviceConfigBody({ model: 'Taken' }) }),
        table(deviceConfigs, deviceConfigs.id),
      ),
      pointsAtOther(
        404,
        () => ({
          method: 'PUT',
          url: `/organization/device_configs/${w.other.deviceConfigId}`,
          body: deviceConfigBody({ organization_id: w.own.orgId }),
        }),
        table(deviceConfigs, deviceConfigs.id),
        'Organization not found',
      ),
    ),
  },
  {
    route: 'DELETE /organization/device_configs/:id',
    access: { kind: 'permission', anyOf: DEVICE_ADMIN },
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/organization/device_configs/${await w.deviceConfig(w.own.orgId)}` }),
    stranger: refuses(
      404,
      () => ({ method: 'DELETE', url: `/organization/device_configs/${w.own.deviceConfigId}` }),
      table(deviceConfigs, deviceConfigs.id),
    ),
  },
  {
    route: 'GET /organization/billing',
    access: { kind: 'permission', anyOf: ['billing:read'] },
    ok: 200,
    request: async () => get('/organization/billing'),
    stranger: refuses(404, () => get(`/organization/billing?organization_id=${w.own.orgId}`), undefined, 'Organization not found'),
  },
];

/**
 * The calls that need no bearer token, each with what stands in for it (tests: authz-public).
 * Listed here so the inventory covers every route of the app.
 */
const OPEN_ROUTES: Readonly<Record<string, string>> = {
  'GET /version': 'public: the client polls it to offer a reload (part 1 §7)',
  'GET /health': 'public: liveness for a proxy or container check; holds no account data (docs/operations.md)',
  'GET /ready': 'public: readiness for a proxy; says which dependency is missing, holds no account data (docs/operations.md)',
  'GET /metrics': 'METRICS_TOKEN as a Bearer token when set, else public: counts, no account data (docs/operations.md)',
  'POST /user_token': 'public: sign-in and refresh (part 1 §7), rate limited',
  'POST /verify_token': 'public: the token is the body (part 1 §7)',
  'POST /revoke_token': 'public: the token is the body (RFC 7009)',
  'POST /forgot_password': 'public: sign-in help (part 1 §7), rate limited',
  'POST /unlock_account': 'public: sign-in help (part 1 §7), rate limited',
  'PUT /reset_password': 'public: the reset token is the body (part 1 §7), rate limited',
  'GET /wzdx/:organizationId/feed': 'public: the WZDx feed is read by third parties (part 2 §1)',
  'GET /files/:fileId': 'a signed link: the signature is the permission (docs/api/data.md)',
  'POST /ingest': 'an API key in x-api-key (device ingest)',
  'GET /cable': 'the socket: the token is the second subprotocol (part 1 §4)',
  'GET /tiles/basemap.json': 'public: the map\'s basemap holds no account data (README "Basemap")',
  'GET /tiles/demo/:z/:x/:tile': 'public: tiles of the demo road network (README "Basemap")',
  'GET /tiles/region.pmtiles': 'public: the operator\'s regional basemap file (README "Basemap")',
  'GET /openapi.json': 'public: the API document, made from the route schemas; it holds no account data',
  'GET /docs/api': 'public: the API reader (Swagger UI) and its files',
  'GET /docs/api/': 'public: the API reader',
  'GET /docs/api/*': "public: the API reader's files",
  'GET /docs/api/json': 'public: the API document, as the reader reads it',
  'GET /docs/api/yaml': 'public: the API document in YAML',
  'GET /docs/api/static/index.html': 'public: the API reader (redirects to /docs/api/)',
  'GET /docs/api/static/swagger-initializer.js': "public: the API reader's start script",
  'GET /docs/api/static/theme/lightbar.svg': "public: the API reader's icon",
};

// ── cases ────────────────────────────────────────────────────────────────────
const name = (row: Row) => (row.variant ? `${row.route} (${row.variant})` : row.route);
const guarded = ROWS.filter(
  (row): row is Row & { access: { kind: 'permission'; anyOf: readonly Permission[] } } => row.access.kind === 'permission',
);
const holderCases = guarded.flatMap((row) => row.access.anyOf.map((permission) => ({ call: name(row), permission, row })));
const REFUSED_TOKENS = ['no token', 'a garbage token', 'a revoked token', 'an expired token'] as const;
const tokenCases = ROWS.flatMap((row) =>
  REFUSED_TOKENS.filter((kind) => kind !== 'an expired token').map((kind) => ({ call: name(row), kind, row })),
);
/** part 1 §3, part 2 §6: "USER (Incidents / Events only) is shown as Media; USER as User; ADMIN as Admin; MANUFACTURER ADMIN as Org Admin". */
const SHOWN_ROLE: Readonly<Record<string, string>> = {
  'USER (Incidents / Events only)': 'Media',
  USER: 'User',
  ADMIN: 'Admin',
  'MANUFACTURER ADMIN': 'Org Admin',
  ENGINEER: 'Engineer',
};
const roleCases = ROLE_DEFINITIONS.flatMap((role) =>
  ROWS.map((row) => {
    const allowed = row.access.kind === 'signed in' || hasAny(role.permissions, row.access.anyOf);
    return {
      role: SHOWN_ROLE[role.name] ?? role.name,
      roleName: role.name,
      call: name(row),
      outcome: allowed ? 'allowed' : '403 Not authorized',
      allowed,
      row,
    };
  }),
);

/** Every permission of the catalogue: the caller of the 401 cases, so only the token refuses. */
const EVERY_PERMISSION: readonly string[] = PERMISSIONS;

beforeAll(async () => {
  server = await createTestServer();
  w = await AuthzWorld.build(server);
});
afterAll(() => server.close());

describe('the route inventory', () => {
  it('every route the app registers has a row, and every row names a registered route', () => {
    const registered = registeredRoutes(server.app);
    const tabled = [...new Set([...ROWS.map((row) => row.route), ...Object.keys(OPEN_ROUTES)])].map(normalizeRoute).sort();
    expect({
      withoutRow: registered.filter((route) => !tabled.includes(route)),
      withoutRoute: tabled.filter((route) => !registered.includes(route)),
    }).toEqual({ withoutRow: [], withoutRoute: [] });
    // The parse itself is checked: a route known to exist is found.
    expect(registered).toContain(normalizeRoute('GET /things/:thingId/trips'));
  });
});

describe('the OpenAPI document states what the matrix sees', () => {
  type Operation = { responses: Record<string, unknown>; security?: unknown[] };
  let operations: Map<string, Operation>;
  beforeAll(async () => {
    const answer = await server.app.inject({ method: 'GET', url: '/openapi.json' });
    const paths = (answer.json() as { paths: Record<string, Record<string, Operation>> }).paths;
    operations = new Map(
      Object.entries(paths).flatMap(([path, byMethod]) =>
        Object.entries(byMethod).map(([method, operation]) => [normalizeRoute(`${method.toUpperCase()} ${path}`), operation] as const),
      ),
    );
  });

  it.each(ROWS.map((row) => ({ call: name(row), row })))(
    '$call documents its success status, 401 and, for a permission, 403',
    ({ row }) => {
      const operation = operations.get(normalizeRoute(row.route));
      const statuses = Object.keys(operation?.responses ?? {});
      expect({ ok: statuses.includes(String(row.ok)), 401: statuses.includes('401'), 403: statuses.includes('403') }).toEqual({
        ok: true,
        401: true,
        403: row.access.kind === 'permission',
      });
      expect(operation?.security).toEqual([{ accessToken: [] }]);
    },
  );

  it.each(Object.keys(OPEN_ROUTES).filter((route) => !(route in UNDOCUMENTED_ROUTES)))(
    '%s, open, is documented without the access token',
    (route) => {
      const operation = operations.get(normalizeRoute(route));
      expect(operation).toBeDefined();
      // The device ingest's credential is its API key; a 401 or 403 an open call documents is its own
      // (a wrong password, key or link signature), never the access hook's.
      expect(operation!.security).toEqual(route === 'POST /ingest' ? [{ apiKey: [] }] : undefined);
    },
  );
});

describe('part 1 §4 a call without a valid token answers 401 (the client signs out)', () => {
  let caller: Actor;
  let revoked: string;
  beforeAll(async () => {
    caller = await w.actor(EVERY_PERMISSION);
    revoked = (await refusedTokens(server, { id: caller.id, email: caller.email, organizationId: caller.organizationId })).revoked;
  });

  it.each(tokenCases)('$call with $kind → 401', async ({ kind, row }) => {
    const token = kind === 'no token' ? null : kind === 'a garbage token' ? 'not-a-token' : revoked;
    const answer = await send(await row.request(caller), token);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(UNAUTHORIZED);
  });

  describe('an access token past its 2 hours on the server clock', () => {
    let expiring: string;
    beforeAll(async () => {
      const user = await server.createUser({ org: { id: w.own.orgId }, role: 'ENGINEER' });
      expiring = await server.signIn(user.email);
      server.clock.advance(ACCESS_TOKEN_TTL_S * 1000);
    });
    afterAll(() => server.clock.advance(-ACCESS_TOKEN_TTL_S * 1000));

    it.each(ROWS.map((row) => ({ call: name(row), row })))('$call with an expired token → 401', async ({ row }) => {
      const answer = await send(await row.request(caller), expiring);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(UNAUTHORIZED);
    });
  });
});

describe("part 1 §6, part 2 §6 a role without the call's permission → 403 'Not authorized'", () => {
  it.each(guarded.map((row) => ({ call: name(row), anyOf: row.access.anyOf.join(' | '), row })))(
    '$call without any of $anyOf → 403',
    async ({ row }) => {
      const lacking = PERMISSIONS.filter((permission) => !row.access.anyOf.includes(permission));
      const caller = await w.actor(lacking);
      const answer = await send(await row.request(caller), caller.token);
      expect(answer.status, JSON.stringify(answer.json)).toBe(403);
      expect(answer.body).toEqual(FORBIDDEN);
    },
  );

  it.each(holderCases)('$call with $permission alone → allowed', async ({ permission, row }) => {
    const caller = await w.actor([permission]);
    const answer = await send(await row.request(caller), caller.token);
    expect(answer.status, JSON.stringify(answer.json)).toBe(row.ok);
  });
});

describe("part 2 §6 the spec's roles, call by call", () => {
  it.each(roleCases)('$role: $call → $outcome', async ({ allowed, roleName, row }) => {
    const caller = await w.roleActor(roleName);
    const answer = await send(await row.request(caller), caller.token);
    if (allowed) expect(answer.status, JSON.stringify(answer.json)).toBe(row.ok);
    else {
      expect(answer.status, JSON.stringify(answer.json)).toBe(403);
      expect(answer.body).toEqual(FORBIDDEN);
    }
  });
});

describe('OWASP ASVS V4.2 a user of an unrelated organization reaches none of its records', () => {
  /** Holds every permission but haas:manage (which sees every organization by design). */
  let stranger: Actor;
  beforeAll(async () => {
    stranger = await w.actor(
      PERMISSIONS.filter((permission) => permission !== 'haas:manage'),
      w.other.orgId,
    );
  });

  it.each(ROWS.map((row) => ({ call: name(row), says: row.stranger.says, row })))('$call: $says', async ({ row }) => {
    await row.stranger.run(stranger);
  });
});
