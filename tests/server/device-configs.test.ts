import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceConfigWireSchema, fromDeviceConfigWire, toDeviceConfigPayload } from '../../src/domain/device-config';
import { errorText } from '../../src/domain/errors';
import { deviceConfigs, organizations, thingTypes, users } from '../../server/db/schema';
import { badBodies, badIds, call, refusedTokens, snapshot, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: typeof organizations.$inferSelect;
let orgB: typeof organizations.$inferSelect;
let orgM: typeof organizations.$inferSelect;
let orgX: typeof organizations.$inferSelect;
let orgAdminA: typeof users.$inferSelect;
const token = { orgAdminA: '', adminA: '', orgAdminB: '', orgAdminM: '', orgAdminX: '', engineer: '' };
let refused: { revoked: string; expired: string };
let policeType: string;
let fireType: string;

beforeAll(async () => {
  server = await createTestServer();
  const types = new Map((await server.database.db.select().from(thingTypes)).map((type) => [type.name, type.id]));
  policeType = types.get('police')!;
  fireType = types.get('fire')!;
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  orgM = await server.createOrg({ name: 'Metro Manager' });
  orgX = await server.createOrg({ name: 'Xpress Access' });
  await server.relate(orgA.id, orgM.id, 'manager');
  await server.relate(orgA.id, orgX.id, 'accessor');
  orgAdminA = await server.createUser({ org: orgA, role: 'MANUFACTURER ADMIN' });
  const hq = await server.createOrg({ name: 'Lightbar HQ' });
  const people = {
    orgAdminA,
    adminA: await server.createUser({ org: orgA, role: 'ADMIN' }),
    orgAdminB: await server.createUser({ org: orgB, role: 'MANUFACTURER ADMIN' }),
    orgAdminM: await server.createUser({ org: orgM, role: 'MANUFACTURER ADMIN' }),
    orgAdminX: await server.createUser({ org: orgX, role: 'MANUFACTURER ADMIN' }),
    engineer: await server.createUser({ org: hq, role: 'ENGINEER' }),
  };
  for (const [key, user] of Object.entries(people)) token[key as keyof typeof token] = await server.signIn(user.email);
  refused = await refusedTokens(server, orgAdminA);
}, 120_000);
afterAll(() => server.close());

const configsSnapshot = () => snapshot(server, deviceConfigs, deviceConfigs.id);

const body = () => ({
  thing_type_id: policeType,
  model: 'HA5',
  platform: 'linux-arm',
  file_name: 'patrol.conf',
  password: 'gpio-pass',
  heartbeat_interval: 30,
  warning_light_pin: 17,
  indicator_pin: 27,
  location_type: 'gps',
});

async function create(bearer = token.orgAdminA, extra: Record<string, unknown> = {}) {
  const answer = await call(server, 'POST', '/organization/device_configs', bearer, { ...body(), ...extra });
  expect(answer.status).toBe(201);
  return deviceConfigWireSchema.parse(answer.json);
}

describe('authorization matrix: no, revoked or expired token → 401 for every call of this area', () => {
  const calls: [Method, string][] = [
    ['GET', '/organization/device_configs'],
    ['POST', '/organization/device_configs'],
    ['PUT', '/organization/device_configs/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/organization/device_configs/00000000-0000-4000-8000-000000000000'],
  ];
  it.each(calls)('%s %s', async (method, url) => {
    const before = await configsSnapshot();
    for (const bearer of [null, refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer, method === 'POST' || method === 'PUT' ? body() : undefined)).status).toBe(401);
    }
    expect(await configsSnapshot()).toBe(before);
  });
});

describe('device configuration (designed: /organization/device_configs; part 2 §3, §5)', () => {
  it('creates, lists, updates and deletes a configuration in the device config wire', async () => {
    const created = await create();
    const { password: _written, ...answered } = body();
    expect(created).toMatchObject({
      ...answered,
      organization_id: orgA.id,
      user_id: orgAdminA.id,
      created_at: server.clock.now().toISOString(),
    });

    const listed = await call(server, 'GET', '/organization/device_configs', token.orgAdminA);
    expect(listed.status).toBe(200);
    expect(
      deviceConfigWireSchema
        .array()
        .parse(listed.json)
        .map((c) => c.id),
    ).toContain(created.id);

    // The client's own mapping round-trips through the server.
    const edited = { ...fromDeviceConfigWire(created), model: 'HA7', indicatorPin: null, locationType: '', thingTypeId: fireType };
    const updated = await call(server, 'PUT', `/organization/device_configs/${created.id}`, token.orgAdminA, toDeviceConfigPayload(edited));
    expect(updated.status).toBe(200);
    expect(deviceConfigWireSchema.parse(updated.json)).toMatchObject({
      id: created.id,
      model: 'HA7',
      indicator_pin: null,
      location_type: null,
      thing_type_id: fireType,
    });
    const [row] = await server.database.db.select().from(deviceConfigs).where(eq(deviceConfigs.id, created.id));
    expect(row).toMatchObject({ model: 'HA7', indicatorPin: null, thingTypeId: fireType });

    const removed = await call(server, 'DELETE', `/organization/device_configs/${created.id}`, token.orgAdminA);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: created.id });
    expect(await server.database.db.select().from(deviceConfigs).where(eq(deviceConfigs.id, created.id))).toEqual([]);
  });

  it('the password is write-only: never answered; a write without one keeps it, a new one replaces it', async () => {
    const created = await create();
    const stored = async () =>
      (await server.database.db.select({ password: deviceConfigs.password }).from(deviceConfigs).where(eq(deviceConfigs.id, created.id)))[0]
        ?.password;
    expect(created).not.toHaveProperty('password');
    expect(await stored()).toBe('gpio-pass');
    const listed = await call(server, 'GET', '/organization/device_configs', token.orgAdminA);
    expect(JSON.stringify(listed.json)).not.toContain('gpio-pass');

    const path = `/organization/device_configs/${created.id}`;
    const kept = await call(
      server,
      'PUT',
      path,
      token.orgAdminA,
      toDeviceConfigPayload({ ...fromDeviceConfigWire(created), model: 'HA7' }),
    );
    expect(kept.status).toBe(200);
    expect(kept.json).not.toHaveProperty('password');
    expect(await stored()).toBe('gpio-pass');
    const { password: _omitted, ...withoutPassword } = body();
    expect((await call(server, 'PUT', path, token.orgAdminA, withoutPassword)).status).toBe(200);
    expect(await stored()).toBe('gpio-pass');

    expect((await call(server, 'PUT', path, token.orgAdminA, { ...body(), password: 'new-pass' })).status).toBe(200);
    expect(await stored()).toBe('new-pass');
    expect((await call(server, 'DELETE', path, token.orgAdminA)).status).toBe(200);
  });

  it("part2 §5: the indicator pin must differ from the warning light pin → 422 'Cannot be the same as Warning Light Pin'", async () => {
    const before = await configsSnapshot();
    const answer = await call(server, 'POST', '/organization/device_configs', token.orgAdminA, { ...body(), indicator_pin: 17 });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('indicator_pin: Cannot be the same as Warning Light Pin');
    expect(answer.body.fields).toEqual({ indicator_pin: 'Cannot be the same as Warning Light Pin' });
    expect(await configsSnapshot()).toBe(before);
  });

  it.each([
    ['file_name', { file_name: ' ' }, 'file_name: Required'],
    ['platform', { platform: '' }, 'platform: Required'],
    ['type', { thing_type_id: null }, 'thing_type_id: Required'],
    ['model', { model: undefined }, 'model: Required'],
    ['warning light pin', { warning_light_pin: null }, 'warning_light_pin: Required'],
    ['an unknown type', { thing_type_id: '77777777-7777-4777-8777-777777777777' }, 'thing_type_id: Thing type not found'],
  ])('part2 §5: %s required / checked', async (_name, change, message) => {
    const answer = await call(server, 'POST', '/organization/device_configs', token.orgAdminA, { ...body(), ...change });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
  });

  it('a manager organization configures the organization it manages; an accessor cannot (404)', async () => {
    const managed = await create(token.orgAdminM, { organization_id: orgA.id });
    expect(managed.organization_id).toBe(orgA.id);
    const before = await configsSnapshot();
    const accessor = await call(server, 'POST', '/organization/device_configs', token.orgAdminX, { ...body(), organization_id: orgA.id });
    expect(accessor.status).toBe(404);
    expect(errorText('lists', { status: 404 }).text).toBe('Organization not found');
    expect((await call(server, 'PUT', `/organization/device_configs/${managed.id}`, token.orgAdminX, body())).status).toBe(404);
    expect(await configsSnapshot()).toBe(before);
  });

  it('another organization: nothing listed, 404 on update and delete, unchanged', async () => {
    const ours = await create();
    const theirs = await call(server, 'GET', `/organization/device_configs?org_ids[]=${orgA.id}`, token.orgAdminB);
    expect(theirs.status).toBe(200);
    expect(theirs.json).toEqual([]);
    expect(JSON.stringify(theirs.json)).not.toContain('gpio-pass');
    const before = await configsSnapshot();
    expect((await call(server, 'PUT', `/organization/device_configs/${ours.id}`, token.orgAdminB, body())).status).toBe(404);
    expect((await call(server, 'DELETE', `/organization/device_configs/${ours.id}`, token.orgAdminB)).status).toBe(404);
    expect(
      (await call(server, 'POST', '/organization/device_configs', token.orgAdminB, { ...body(), organization_id: orgA.id })).status,
    ).toBe(404);
    expect(await configsSnapshot()).toBe(before);
  });

  it('haas:manage configures any organization', async () => {
    const staff = await create(token.engineer, { organization_id: orgB.id });
    expect(staff.organization_id).toBe(orgB.id);
  });

  it('without thing:admin:manage (an Admin) → 403 for every call, unchanged', async () => {
    const ours = await create();
    const before = await configsSnapshot();
    expect((await call(server, 'GET', '/organization/device_configs', token.adminA)).status).toBe(403);
    expect((await call(server, 'POST', '/organization/device_configs', token.adminA, body())).status).toBe(403);
    expect((await call(server, 'PUT', `/organization/device_configs/${ours.id}`, token.adminA, body())).status).toBe(403);
    expect((await call(server, 'DELETE', `/organization/device_configs/${ours.id}`, token.adminA)).status).toBe(403);
    expect(await configsSnapshot()).toBe(before);
  });

  it('property: bad bodies and ids never give a 5xx and never change a row', async () => {
    const ours = await create();
    const bad = {
      thing_type_id: fc.constantFrom('', null, 'police', 5, '88888888-8888-4888-8888-888888888888'),
      model: fc.constantFrom('', ' ', null, 1, 'm'.repeat(101)),
      platform: fc.constantFrom('', false),
      file_name: fc.constantFrom('', '  ', []),
      heartbeat_interval: fc.constantFrom(0, -5, 1.5, 'often', 86_401),
      warning_light_pin: fc.constantFrom(null, '17', 1.5, -1, 256),
      indicator_pin: fc.constantFrom(17, '27', 2.5, 300),
      organization_id: fc.constantFrom(orgB.id, 'nope', '99999999-9999-4999-8999-999999999999'),
    };
    const postBodies = badBodies(body(), bad);
    const putBodies = badBodies({ ...body(), id: ours.id }, { ...bad, id: fc.uuid().filter((id) => id !== ours.id) });
    const before = await configsSnapshot();
    await fc.assert(
      fc.asyncProperty(postBodies, putBodies, badIds, async (postBody, putBody, id) => {
        const answers = [
          await call(server, 'POST', '/organization/device_configs', token.orgAdminA, postBody),
          await call(server, 'PUT', `/organization/device_configs/${ours.id}`, token.orgAdminA, putBody),
          await call(server, 'PUT', `/organization/device_configs/${encodeURIComponent(id)}`, token.orgAdminA, body()),
          await call(server, 'DELETE', `/organization/device_configs/${encodeURIComponent(id)}`, token.orgAdminA),
        ];
        for (const answer of answers) {
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        }
      }),
      { numRuns: 30 },
    );
    expect(await configsSnapshot()).toBe(before);
  });
});
