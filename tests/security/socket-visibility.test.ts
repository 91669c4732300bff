/**
 * The live socket delivers exactly what the REST calls show the caller (part 1 §4 "Live updates",
 * OWASP ASVS V4 access control on every channel): per asset (GET /organization/things), per message
 * type and permission (things: thing read; location: GET /locations; closure: the closure list),
 * and it stays exact while relations, associations, roles and the fleet change under an open socket.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsChannelIdentifier, type LiveMessage } from '../../src/domain/live-message';
import { roles, things } from '../../server/db/schema';
import { createTestServer, type TestServer } from '../support/test-server';
import { sleep, until } from '../support/until';
import { connect, createThing, engineOf, ingestPoints, isType, messages, subscribe, thingIdOf, type Client } from './socket-harness';

let server: TestServer;
let base: string;
/** Travis County Regional: manages Austin Police Department, accessed by Williamson County. */
let travis: { id: string };
let apd: { id: string };
let williamson: { id: string };
let travisUnit: { id: string; haasId: string };
let apdPatrol: { id: string; haasId: string };
let apdShared: { id: string; haasId: string };
let williamsonUnit: { id: string; haasId: string };
let williamsonToken: string;
let apdAdminToken: string;

const ids = (client: Client, type?: LiveMessage['type']) =>
  new Set(
    messages(client)
      .filter((f) => !type || f.message.type === type)
      .map((f) => thingIdOf(f.message)),
  );

async function restThingIds(token: string): Promise<Set<string>> {
  const response = await server.app.inject({ method: 'GET', url: '/organization/things?per_page=100', headers: server.auth(token) });
  expect(response.statusCode).toBe(200);
  return new Set((response.json() as { data: { id: string }[] }).data.map((thing) => thing.id));
}

async function subscribed(client: Client, organization: string): Promise<void> {
  subscribe(client, organization);
  await until(
    () =>
      client.frames.find(
        (f) => isType('confirm_subscription')(f) && 'identifier' in f && f.identifier === eventsChannelIdentifier(organization),
      ),
    'confirm',
  );
}

/**
 * Posts points of `hidden` then of `marker` until a round delivers the marker without the hidden
 * asset (the change has reached the socket), then checks further rounds never carry it again.
 */
async function expectStops(client: Client, hidden: { id: string; haasId: string }, marker: { id: string; haasId: string }): Promise<void> {
  for (let round = 0; ; round += 1) {
    if (round > 200) throw new Error(`frames of ${hidden.id} never stopped`);
    const before = messages(client).length;
    await ingestPoints(server, [hidden.haasId, marker.haasId]);
    await until(
      () =>
        messages(client)
          .slice(before)
          .some((f) => thingIdOf(f.message) === marker.id),
      'the marker frame',
    );
    if (
      !messages(client)
        .slice(before)
        .some((f) => thingIdOf(f.message) === hidden.id)
    )
      break;
  }
  const before = messages(client).length;
  for (let round = 0; round < 3; round += 1) await ingestPoints(server, [hidden.haasId, marker.haasId]);
  await until(
    () =>
      messages(client)
        .slice(before)
        .filter((f) => thingIdOf(f.message) === marker.id).length >= 3,
    'three marker frames',
  );
  expect(
    messages(client)
      .slice(before)
      .filter((f) => thingIdOf(f.message) === hidden.id),
  ).toEqual([]);
}

/** Posts points of `asset` until its frame arrives. */
async function expectStarts(client: Client, asset: { id: string; haasId: string }): Promise<void> {
  await until(
    () => messages(client).some((f) => thingIdOf(f.message) === asset.id) || (void ingestPoints(server, [asset.haasId]), false),
    `frames of ${asset.id}`,
    10_000,
    50,
  );
}

beforeAll(async () => {
  server = await createTestServer();
  travis = await server.createOrg({ name: 'Travis County Regional' });
  apd = await server.createOrg({ name: 'Austin Police Department' });
  williamson = await server.createOrg({ name: 'Williamson County' });
  // Travis manages APD (APD's assets reach Travis's channel); Williamson accesses Travis.
  await server.relate(apd.id, travis.id, 'manager');
  await server.relate(travis.id, williamson.id, 'accessor');
  // APD reads Williamson's fleet (mutual aid), which lets APD share single assets with Williamson.
  await server.relate(williamson.id, apd.id, 'accessor');
  travisUnit = await createThing(server, travis.id, 'Travis 1');
  apdPatrol = await createThing(server, apd.id, 'APD Patrol 7');
  apdShared = await createThing(server, apd.id, 'APD Shared 9');
  williamsonUnit = await createThing(server, williamson.id, 'Williamson 3');
  williamsonToken = await server.signIn((await server.createUser({ org: williamson, role: 'USER' })).email);
  apdAdminToken = await server.signIn((await server.createUser({ org: apd, role: 'ADMIN' })).email);
  // APD shares one asset with Williamson, as PUT /things/{id}/associations does.
  const shared = await server.app.inject({
    method: 'PUT',
    url: `/things/${apdShared.id}/associations`,
    headers: server.auth(apdAdminToken),
    payload: { organization_relationships: [{ organization_uuid: williamson.id, relationship_type: 'accessor' }] },
  });
  expect(shared.statusCode).toBe(200);
  await engineOf(server).reload();
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http', 'ws');
});
afterAll(() => server.close());

describe('socket: per-asset visibility equals REST', () => {
  it('a user of another organization on a visible channel gets frames of exactly the assets GET /organization/things lists', async () => {
    const rest = await restThingIds(williamsonToken);
    expect(rest).toEqual(new Set([travisUnit.id, apdShared.id, williamsonUnit.id]));
    // The APD patrol car is not listed to this user, even when its organization is asked for.
    const asked = await server.app.inject({
      method: 'GET',
      url: `/organization/things?org_ids[]=${apd.id}`,
      headers: server.auth(williamsonToken),
    });
    expect((asked.json() as { data: { id: string }[] }).data.map((thing) => thing.id)).toEqual([apdShared.id]);

    const client = await connect(base, williamsonToken);
    await subscribed(client, travis.id);
    await subscribed(client, williamson.id);
    await ingestPoints(server, [travisUnit.haasId, apdPatrol.haasId, apdShared.haasId, williamsonUnit.haasId]);
    // Travis's channel carries the Travis unit (and the shared APD one); Williamson's its own unit.
    await until(() => ids(client).has(travisUnit.id) && ids(client).has(williamsonUnit.id), 'the visible frames');
    await sleep(200);
    const streamed = ids(client, 'point');
    expect(streamed.has(apdPatrol.id)).toBe(false);
    for (const id of streamed) expect(rest.has(id)).toBe(true);
    client.ws.close();
  });

  it('an asset shared with the organization streams on its own channel', async () => {
    const client = await connect(base, williamsonToken);
    await subscribed(client, williamson.id);
    await expectStarts(client, apdShared);
    await sleep(200);
    expect([...ids(client)].every((id) => [apdShared.id, williamsonUnit.id].includes(id))).toBe(true);
    client.ws.close();
  });

  it('a user with no thing read permission (incidents only) gets no point, heartbeat or thing frames', async () => {
    const token = await server.signIn((await server.createUser({ org: travis, role: 'USER (Incidents / Events only)' })).email);
    const things = await server.app.inject({ method: 'GET', url: '/organization/things', headers: server.auth(token) });
    expect(things.statusCode).toBe(403);
    const client = await connect(base, token);
    await subscribed(client, travis.id);
    await ingestPoints(server, [travisUnit.haasId, apdPatrol.haasId]);
    await engineOf(server).ingest([{ type: 'heartbeat', haas_id: travisUnit.haasId, timestamp: server.clock.now().toISOString() }], null);
    server.deps.bus.publish(travis.id, {
      type: 'thing',
      thing: { id: travisUnit.id, haas_id: travisUnit.haasId, nickname: 'Travis 1' },
    } as LiveMessage);
    // A location of its organization is an event the user may see (GET /locations answers 200).
    const locations = await server.app.inject({ method: 'GET', url: '/locations', headers: server.auth(token) });
    expect(locations.statusCode).toBe(200);
    const location: LiveMessage = {
      type: 'location',
      thing_id: travisUnit.id,
      location_id: 'loc-travis',
      location: { id: 'loc-travis', display_name: 'Crash', is_active: true, lat: 30.3, lng: -97.7, organization_id: travis.id },
      timestamp: server.clock.now().toISOString(),
    } as LiveMessage;
    server.deps.bus.publish(travis.id, location);
    await until(() => messages(client).some((f) => f.message.type === 'location'), 'the location frame');
    await sleep(200);
    expect(messages(client).map((f) => f.message.type)).toEqual(['location']);
    client.ws.close();
  });

  it.each([
    {
      role: 'USER',
      expected: ['point', 'heartbeat', 'thing', 'location', 'closure'],
    },
    { role: 'USER (Incidents / Events only)', expected: ['location'] },
  ])('$role: each message type needs the permission its REST list needs', async ({ role, expected }) => {
    const token = await server.signIn((await server.createUser({ org: travis, role })).email);
    const client = await connect(base, token);
    await subscribed(client, travis.id);
    const at = server.clock.now().toISOString();
    const sent: LiveMessage[] = [
      { type: 'point', thing_id: travisUnit.id, lat: 30.27, lng: -97.74, timestamp: at },
      { type: 'heartbeat', thing_id: travisUnit.id, is_active: false, timestamp: at },
      { type: 'thing', thing: { id: travisUnit.id, haas_id: travisUnit.haasId, nickname: 'Travis 1' } } as LiveMessage,
      {
        type: 'location',
        thing_id: travisUnit.id,
        location_id: 'l1',
        location: { id: 'l1', display_name: 'Crash', is_active: true, lat: 30.3, lng: -97.7, organization_id: travis.id },
        timestamp: at,
      } as LiveMessage,
      {
        type: 'closure',
        thing_id: travisUnit.id,
        closure_id: 'c1',
        organization_id: travis.id,
        is_active: true,
        timestamp: at,
      } as LiveMessage,
      // Of an organization the user may not see: never delivered.
      {
        type: 'location',
        thing_id: williamsonUnit.id,
        location_id: 'l2',
        location: { id: 'l2', display_name: 'W', is_active: true, lat: 30.3, lng: -97.7, organization_id: williamson.id },
        timestamp: at,
      } as LiveMessage,
      {
        type: 'closure',
        thing_id: travisUnit.id,
        closure_id: 'c2',
        organization_id: williamson.id,
        is_active: true,
        timestamp: at,
      } as LiveMessage,
    ];
    for (const message of sent) server.deps.bus.publish(travis.id, message);
    // A last frame every role may see ends the burst.
    server.deps.bus.publish(travis.id, sent[3]!);
    await until(() => messages(client).filter((f) => f.message.type === 'location').length >= 2, 'the closing frame');
    expect(messages(client).map((f) => f.message.type)).toEqual([...expected, 'location']);
    client.ws.close();
  });
});

describe('socket: visibility follows changes without reconnecting', () => {
  it('adding an association streams the asset; removing it stops its frames', async () => {
    const client = await connect(base, williamsonToken);
    await subscribed(client, travis.id);
    const share = (relations: { organization_uuid: string; relationship_type: string }[]) =>
      server.app.inject({
        method: 'PUT',
        url: `/things/${apdPatrol.id}/associations`,
        headers: server.auth(apdAdminToken),
        payload: { organization_relationships: relations },
      });
    expect((await share([{ organization_uuid: williamson.id, relationship_type: 'accessor' }])).statusCode).toBe(200);
    expect(await restThingIds(williamsonToken)).toContain(apdPatrol.id);
    await expectStarts(client, apdPatrol);
    expect((await share([])).statusCode).toBe(200);
    expect(await restThingIds(williamsonToken)).not.toContain(apdPatrol.id);
    await expectStops(client, apdPatrol, travisUnit);
    client.ws.close();
  });

  it('a new asset in a visible organization streams', async () => {
    const client = await connect(base, williamsonToken);
    await subscribed(client, travis.id);
    const fresh = await createThing(server, travis.id, 'Travis 2');
    await engineOf(server).reload();
    await expectStarts(client, fresh);
    client.ws.close();
  });

  it('a role change narrows the frames to the new permissions', async () => {
    const user = await server.createUser({ org: williamson, role: 'USER' });
    const token = await server.signIn(user.email);
    const admin = await server.signIn((await server.createUser({ org: williamson, role: 'ADMIN' })).email);
    const client = await connect(base, token);
    await subscribed(client, williamson.id);
    await expectStarts(client, williamsonUnit);
    const [eventsOnly] = await server.database.db.select().from(roles).where(eq(roles.name, 'USER (Incidents / Events only)'));
    const changed = await server.app.inject({
      method: 'PUT',
      url: `/users/${user.id}`,
      headers: server.auth(admin),
      payload: { firstname: 'Test', lastname: 'User', role_id: eventsOnly!.id },
    });
    expect(changed.statusCode).toBe(200);
    // No asset frames at all now: a location frame marks each round.
    const location = {
      type: 'location',
      thing_id: williamsonUnit.id,
      location_id: 'lw',
      location: { id: 'lw', display_name: 'W', is_active: true, lat: 30.3, lng: -97.7, organization_id: williamson.id },
      timestamp: server.clock.now().toISOString(),
    } as LiveMessage;
    for (let round = 0; ; round += 1) {
      if (round > 200) throw new Error('point frames never stopped');
      const before = messages(client).length;
      await ingestPoints(server, [williamsonUnit.haasId]);
      server.deps.bus.publish(williamson.id, location);
      await until(
        () =>
          messages(client)
            .slice(before)
            .some((f) => f.message.type === 'location'),
        'the location frame',
      );
      if (
        !messages(client)
          .slice(before)
          .some((f) => f.message.type === 'point')
      )
        break;
    }
    const before = messages(client).length;
    await ingestPoints(server, [williamsonUnit.haasId]);
    server.deps.bus.publish(williamson.id, location);
    await until(
      () =>
        messages(client)
          .slice(before)
          .some((f) => f.message.type === 'location'),
      'the location frame',
    );
    expect(
      messages(client)
        .slice(before)
        .map((f) => f.message.type),
    ).toEqual(['location']);
    client.ws.close();
  });

  it('a removed organization relationship drops its subscription (the client is told) and its frames stop', async () => {
    const client = await connect(base, williamsonToken);
    await subscribed(client, travis.id);
    await subscribed(client, williamson.id);
    await expectStarts(client, travisUnit);
    // Lightbar staff delete Travis County Regional: its relations go with it. An organization that
    // owns assets cannot be deleted (docs/api/accounts.md): its fleet goes to the staff's first.
    const staffOrg = await server.createOrg({ name: 'Lightbar Staff' });
    const engineer = await server.signIn((await server.createUser({ org: staffOrg, role: 'ENGINEER' })).email);
    await server.database.db.update(things).set({ organizationId: staffOrg.id }).where(eq(things.organizationId, travis.id));
    const deleted = await server.app.inject({ method: 'DELETE', url: `/organization/${travis.id}`, headers: server.auth(engineer) });
    expect(deleted.statusCode).toBe(200);
    expect(await restThingIds(williamsonToken)).not.toContain(travisUnit.id);
    const rejected = await until(() => client.frames.find(isType('reject_subscription')), 'the dropped subscription');
    expect(rejected).toEqual({ type: 'reject_subscription', identifier: eventsChannelIdentifier(travis.id) });
    await expectStops(client, travisUnit, williamsonUnit);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    client.ws.close();
  });
});
