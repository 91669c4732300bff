/**
 * Relations in the authorization matrix: an organization named **accessor** reads the other
 * organization's records and writes none of them; one named **manager** writes them
 * (docs/api/things-and-locations.md "an accessor organization only reads them"; the server's
 * `orgAccess`: write for the own organization, its children and managed ones, read for accessed
 * ones; OWASP ASVS V4.2.1, every write checks the caller's right to that record).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/domain/constants';
import { TOOLTIP } from '../../src/domain/labels';
import { PERMISSIONS } from '../../src/domain/permissions';
import { areas, closures, hazards, locations, things } from '../../server/db/schema';
import { call, snapshot, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';
import { AuthzWorld, type Actor } from './support/authz-world';

let server: TestServer;
let w: AuthzWorld;
/** Users of organizations the own organization names accessor and manager; they hold every permission but haas:manage. */
let accessor: Actor;
let manager: Actor;

const FORBIDDEN = { error: 'forbidden', message: TOOLTIP.notAuthorized };
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
const quickToggle = () => ({ is_active: true, end_time: new Date(server.clock.ms + HOUR_MS).toISOString(), isQuickUpdate: true });
const hazardBody = (extra: Record<string, unknown>) => ({ hazard_type: 'debris', severity: 'low', lat: 41.88, lng: -87.63, ...extra });

beforeAll(async () => {
  server = await createTestServer();
  w = await AuthzWorld.build(server);
  const everything = PERMISSIONS.filter((permission) => permission !== 'haas:manage');
  const accessing = await server.createOrg({ name: 'Charlie Access' });
  const managing = await server.createOrg({ name: 'Delta Manager' });
  await server.relate(w.own.orgId, accessing.id, 'accessor');
  await server.relate(w.own.orgId, managing.id, 'manager');
  accessor = await w.actor(everything, accessing.id);
  manager = await w.actor(everything, managing.id);
});
afterAll(() => server.close());

describe('an accessor organization reads the records it accesses', () => {
  it.each([
    { call: 'GET /organization/closure', url: () => `/organization/closure?org_ids[]=${w.own.orgId}`, id: () => w.own.closureId },
    { call: 'GET /organization/things', url: () => `/organization/things?org_ids[]=${w.own.orgId}`, id: () => w.own.thingId },
  ])('$call lists them', async ({ url, id }) => {
    const answer = await call(server, 'GET', url(), accessor.token);
    expect(answer.status).toBe(200);
    expect((answer.json as { data: { id: string }[] }).data.map((row) => row.id)).toContain(id());
  });
});

interface Req {
  method: Method;
  url: string;
  body?: unknown;
}

interface WriteCase {
  call: string;
  /** The request, on a fresh record where the call changes it (made before the snapshot). */
  request(): Promise<Req>;
  written: typeof closures | typeof hazards | typeof things | typeof locations | typeof areas;
  refusal: { status: number; body: Record<string, unknown> };
  managerStatus: number;
}

const WRITES: readonly WriteCase[] = [
  {
    call: 'POST /organization/closure in the accessed organization',
    request: async () => ({ method: 'POST', url: '/organization/closure', body: closureBody(w.own.orgId) }),
    written: closures,
    refusal: { status: 403, body: FORBIDDEN },
    managerStatus: 201,
  },
  {
    call: 'PUT /organization/closure/{id} of the accessed organization',
    request: async () => ({ method: 'PUT', url: `/organization/closure/${await w.closure(w.own.orgId)}`, body: quickToggle() }),
    written: closures,
    refusal: { status: 403, body: FORBIDDEN },
    managerStatus: 200,
  },
  {
    call: 'DELETE /organization/closure/{id} of the accessed organization',
    request: async () => ({ method: 'DELETE', url: `/organization/closure/${await w.closure(w.own.orgId)}` }),
    written: closures,
    refusal: { status: 403, body: FORBIDDEN },
    managerStatus: 200,
  },
  {
    call: 'POST /organization/hazards for the accessed organization',
    request: async () => ({ method: 'POST', url: '/organization/hazards', body: hazardBody({ organization_id: w.own.orgId }) }),
    written: hazards,
    refusal: { status: 403, body: FORBIDDEN },
    managerStatus: 201,
  },
  {
    call: "POST /organization/hazards for an accessed organization's asset",
    request: async () => ({ method: 'POST', url: '/organization/hazards', body: hazardBody({ thing_id: w.own.thingId }) }),
    written: hazards,
    refusal: { status: 403, body: FORBIDDEN },
    managerStatus: 201,
  },
  // The rules that already held, in the same table: the asset, the event, the area.
  {
    call: 'PUT /things/{id} of the accessed organization',
    request: async () => ({
      method: 'PUT',
      url: `/things/${w.own.thingId}`,
      body: { id: w.own.thingId, in_service: true, is_publicly_alerting: true },
    }),
    written: things,
    refusal: { status: 422, body: { error: 'read_only', message: 'Your organization can view this asset but not change it' } },
    managerStatus: 200,
  },
  {
    call: 'PUT /locations/{id} of the accessed organization',
    request: async () => ({
      method: 'PUT',
      url: `/locations/${await w.location(w.own.orgId)}`,
      body: { lat: 41.9, lng: -87.7, roadway_heading: 90, organization_id: w.own.orgId },
    }),
    written: locations,
    refusal: { status: 422, body: { error: 'no_access', message: 'User does not have access to Location' } },
    managerStatus: 200,
  },
  {
    call: 'DELETE /organization/exclusion_zone/{id} of the accessed organization (part 2 §6: owner only)',
    request: async () => ({ method: 'DELETE', url: `/organization/exclusion_zone/${await w.area(w.own.orgId)}` }),
    written: areas,
    refusal: { status: 403, body: FORBIDDEN },
    managerStatus: 403,
  },
];

describe('an accessor organization writes none of them; a manager organization does', () => {
  it.each(WRITES)('accessor: $call → $refusal.status, nothing written', async ({ request, written, refusal }) => {
    const req = await request();
    const before = await snapshot(server, written, written.id);
    const answer = await call(server, req.method, req.url, accessor.token, req.body);
    expect(answer.status, JSON.stringify(answer.json)).toBe(refusal.status);
    expect(answer.body).toEqual(refusal.body);
    expect(await snapshot(server, written, written.id)).toBe(before);
  });

  it.each(WRITES)('manager: $call → $managerStatus', async ({ request, managerStatus }) => {
    const req = await request();
    const answer = await call(server, req.method, req.url, manager.token, req.body);
    expect(answer.status, JSON.stringify(answer.json)).toBe(managerStatus);
  });
});
