import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText, staleEditText, type EditedResource, type ErrorContext } from '../../src/domain/errors';
import { hashToken } from '../../server/auth/secrets';
import { apiKeys, areas, areaTypes, closures, organizations, things, thingTypes, users } from '../../server/db/schema';
import type { IngestEngine } from '../../server/live/ingest';
import { call, snapshot, type Answer } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

/**
 * Lost updates (docs/security.md): two people edit the same closure, area, asset, user or
 * organization. Each record carries a version (its ETag); a save that sends If-Match with the
 * version its form was opened on is refused with 412 and the resource's sentence once someone else
 * saved it since, and changes nothing. A save without If-Match, and the closure's quick toggle,
 * stay last-write-wins.
 */
let server: TestServer;
let admin: string;
let other: string;
let orgId: string;
let staffOrgId: string;
let stationTypeId: string;
let ids: { closure: string; area: string; asset: string; user: string };
const KEY = 'lb_lost_updates_device_key';

const SQUARE = [
  [-87.63, 41.88],
  [-87.629, 41.88],
  [-87.629, 41.881],
  [-87.63, 41.881],
  [-87.63, 41.88],
];

beforeAll(async () => {
  server = await createTestServer();
  const org = await server.createOrg({ name: 'Lost Updates Org' });
  orgId = org.id;
  const staffOrg = await server.createOrg({ name: 'Staff Org' });
  staffOrgId = staffOrg.id;
  const adminUser = await server.createUser({ org, role: 'MANUFACTURER ADMIN' });
  const otherUser = await server.createUser({ org, role: 'MANUFACTURER ADMIN' });
  const plain = await server.createUser({ org, role: 'USER' });
  admin = await server.signIn(adminUser.email);
  await server.database.db.insert(apiKeys).values({
    userId: adminUser.id,
    organizationId: org.id,
    description: 'device',
    tokenHash: hashToken(KEY),
    tokenPrefix: KEY.slice(0, 6),
  });
  other = await server.signIn(otherUser.email);
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const [thing] = await server.database.db
    .insert(things)
    .values({ organizationId: orgId, haasId: 'HA5-LOST01', thingTypeId: type!.id, lat: 41.88, lng: -87.63 })
    .returning();
  const [station] = await server.database.db.select().from(areaTypes).where(eq(areaTypes.dbName, 'station'));
  stationTypeId = station!.id;
  const area = await call(server, 'POST', '/organization/exclusion_zone', admin, areaBody('Station 1'));
  const closure = await call(server, 'POST', '/organization/closure', admin, closureBody('Bridge deck repair'));
  expect([area.status, closure.status]).toEqual([201, 201]);
  await (server.app as unknown as { ingest: IngestEngine }).ingest.reload();
  ids = { closure: String(closure.body.id), area: String(area.body.id), asset: thing!.id, user: plain.id };
});
afterAll(() => server.close());

function closureBody(description: string): Record<string, unknown> {
  return {
    organization_id: orgId,
    closure_type: 'manual',
    thing_id: null,
    is_dashboard_managed: true,
    is_active: true,
    is_in_service: true,
    description,
    direction: 'N',
    street_start: 'Main St',
    street_end: '5th Ave',
    user_route: [
      { lat: 41.88, lng: -87.63 },
      { lat: 41.89, lng: -87.63 },
    ],
    impacted_lanes: [1],
    start_time: null,
    end_time: new Date(server.clock.ms + 86_400_000).toISOString(),
  };
}

function areaBody(name: string): Record<string, unknown> {
  return {
    organization_id: orgId,
    name,
    desc: '',
    ez_type_id: stationTypeId,
    area_geom: { type: 'Polygon', coordinates: [SQUARE] },
    point_geom: { lat: 41.8805, lon: -87.6295 },
    address1: '12 W Lake St',
    address2: '',
    city: 'Chicago',
    state: 'IL',
    postal_code: '60601',
    country_code: 'US',
  };
}

interface Resource {
  name: EditedResource;
  context: ErrorContext;
  /** The record's version as a form would load it: its detail call with the ETag, or its list row. */
  read: () => Promise<{ version: number; etag: string | undefined }>;
  /** A save's URL and body whose `text` is the field two people change. */
  save: (text: string) => { method: 'PUT' | 'PATCH'; url: string; body: Record<string, unknown> };
  /** The field as stored now. */
  stored: () => Promise<string>;
}

async function detail(url: string): Promise<{ version: number; etag: string | undefined }> {
  const answer = await server.app.inject({ method: 'GET', url, headers: server.auth(admin) });
  expect(answer.statusCode, answer.body).toBe(200);
  const header = answer.headers.etag;
  return { version: (answer.json() as { version: number }).version, etag: typeof header === 'string' ? header : undefined };
}

async function fromList(url: string, pick: (json: unknown) => { version: number }): Promise<{ version: number; etag: undefined }> {
  const answer = await call(server, 'GET', url, admin);
  expect(answer.status).toBe(200);
  return { version: pick(answer.json).version, etag: undefined };
}

const RESOURCES: Resource[] = [
  {
    name: 'closure',
    context: 'closureSave',
    read: () => detail(`/organization/closure/${ids.closure}`),
    save: (text) => ({ method: 'PUT', url: `/organization/closure/${ids.closure}`, body: closureBody(text) }),
    stored: async () => (await server.database.db.select().from(closures).where(eq(closures.id, ids.closure)))[0]!.description,
  },
  {
    name: 'area',
    context: 'areaSave',
    read: () => detail(`/organization/exclusion_zone/${ids.area}`),
    save: (text) => ({
      method: 'PUT',
      url: `/organization/exclusion_zone/${ids.area}`,
      body: areaBody(text),
    }),
    stored: async () => (await server.database.db.select().from(areas).where(eq(areas.id, ids.area)))[0]!.name,
  },
  {
    name: 'asset',
    context: 'assetSave',
    read: () =>
      fromList(`/organization/things?organization_id=${orgId}`, (json) => {
        const list = (json as { data?: { id: string; version: number }[] }).data ?? (json as { id: string; version: number }[]);
        return list.find((thing) => thing.id === ids.asset)!;
      }),
    save: (text) => ({
      method: 'PUT',
      url: `/things/${ids.asset}`,
      body: { id: ids.asset, in_service: true, is_publicly_alerting: true, nickname: text },
    }),
    stored: async () => (await server.database.db.select().from(things).where(eq(things.id, ids.asset)))[0]!.nickname ?? '',
  },
  {
    name: 'user',
    context: 'updateUser',
    read: () =>
      fromList(`/organization/users?organization_id=${orgId}`, (json) =>
        (json as { organization_users: { id: string; version: number }[] }).organization_users.find((user) => user.id === ids.user)!,
      ),
    save: (text) => ({ method: 'PATCH', url: `/users/${ids.user}`, body: { firstName: text, lastName: 'Rivera' } }),
    stored: async () => (await server.database.db.select().from(users).where(eq(users.id, ids.user)))[0]!.firstname ?? '',
  },
  {
    name: 'organization',
    context: 'organizationUpdate',
    read: () => detail(`/organization/${orgId}`),
    save: (text) => ({
      method: 'PUT',
      url: `/organization/${orgId}`,
      body: { name: text, address1: '1 Main St', address2: '', city: 'Chicago', state: 'IL', postal_code: '60601', country_code: 'US' },
    }),
    stored: async () => (await server.database.db.select().from(organizations).where(eq(organizations.id, orgId)))[0]!.name,
  },
];

async function send(token: string, request: ReturnType<Resource['save']>, ifMatch?: string): Promise<Answer> {
  return call(server, request.method, request.url, token, request.body, ifMatch === undefined ? {} : { 'if-match': ifMatch });
}

describe.each(RESOURCES)('a $name saved from an older copy', (resource) => {
  it('is refused with 412 and the sentence the form shows; what the first person saved stays', async () => {
    // Both open the form on the same copy.
    const opened = await resource.read();
    if (opened.etag !== undefined) expect(opened.etag).toBe(`"${opened.version}"`);
    const first = await send(other, resource.save(`First ${resource.name}`), `"${opened.version}"`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.version).toBe(opened.version + 1);

    const second = await send(admin, resource.save(`Second ${resource.name}`), `"${opened.version}"`);
    expect(second.status).toBe(412);
    expect(second.body).toMatchObject({ error: 'precondition_failed', message: staleEditText(resource.name) });
    expect(errorText(resource.context, { status: 412, message: second.body.message ?? null, code: second.body.error ?? null }).text).toBe(
      `This ${resource.name} was changed by someone else. Reload to see their changes.`,
    );
    expect(await resource.stored()).toBe(`First ${resource.name}`);

    // Reloaded, the second person's save goes through (a weak tag of the same version counts).
    const reloaded = await resource.read();
    expect(reloaded.version).toBe(opened.version + 1);
    const retried = await send(admin, resource.save(`Second ${resource.name}`), `W/"${reloaded.version}"`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(await resource.stored()).toBe(`Second ${resource.name}`);
  });

  it('a save without If-Match, or with *, still writes (last write wins) and moves the version on', async () => {
    const before = await resource.read();
    const plain = await send(admin, resource.save(`Plain ${resource.name}`));
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const star = await send(admin, resource.save(`Star ${resource.name}`), '*');
    expect(star.status).toBe(200);
    expect((await resource.read()).version).toBe(before.version + 2);
    expect(await resource.stored()).toBe(`Star ${resource.name}`);
  });

  it('an If-Match naming no version of ours matches nothing: 412, nothing written', async () => {
    const before = await resource.stored();
    const answer = await send(admin, resource.save('Never stored'), '"not-a-version"');
    expect(answer.status).toBe(412);
    expect(await resource.stored()).toBe(before);
  });
});

describe('the closure quick toggle stays last-write-wins', () => {
  it('needs no If-Match, moves the version on, so a form opened before it is refused', async () => {
    const opened = await detail(`/organization/closure/${ids.closure}`);
    const toggled = await call(server, 'PUT', `/organization/closure/${ids.closure}`, other, {
      uuid: ids.closure,
      isQuickUpdate: true,
      is_active: false,
      end_time: null,
    });
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    const table = await snapshot(server, closures, closures.id);
    const stale = await send(admin, RESOURCES[0]!.save('Re-activated by an old form'), `"${opened.version}"`);
    expect(stale.status).toBe(412);
    expect(await snapshot(server, closures, closures.id)).toBe(table);
  });
});

describe('device messages are not edits', () => {
  it('an asset moving (POST /ingest) does not change the version its Profile form sends', async () => {
    const before = await RESOURCES[2]!.read();
    const [row] = await server.database.db.select().from(things).where(eq(things.id, ids.asset));
    const at = new Date(server.clock.ms).toISOString();
    const posted = await server.app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { 'x-api-key': KEY },
      payload: {
        messages: [{ type: 'point', haas_id: 'HA5-LOST01', lat: 41.9, lng: -87.6, speed: 10, course: 90, accuracy: 5, timestamp: at }],
      },
    });
    expect(posted.statusCode, posted.body).toBe(200);
    await (server.app as unknown as { ingest: IngestEngine }).ingest.flush();
    const [moved] = await server.database.db.select().from(things).where(eq(things.id, ids.asset));
    expect(moved!.updatedAt.getTime()).toBeGreaterThan(row!.updatedAt.getTime() - 1);
    expect([moved!.lat, moved!.lng]).toEqual([41.9, -87.6]);
    expect((await RESOURCES[2]!.read()).version).toBe(before.version);
    const saved = await send(admin, RESOURCES[2]!.save('After the move'), `"${before.version}"`);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });
});

describe('an organization another admin may not administer', () => {
  it("is still 'Organization not found' first: If-Match tells a stranger nothing", async () => {
    const answer = await call(server, 'PUT', `/organization/${staffOrgId}`, admin, { name: 'x' }, { 'if-match': '"1"' });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('Organization not found');
  });
});
