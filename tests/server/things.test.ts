import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { associationsPayloadSchema, fromThingWire, thingWireSchema } from '../../src/domain/asset';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import { HOUR_MS, MINUTE_MS, SECOND_MS, THINGS_PAGE_MAX, THINGS_PAGE_SIZE } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { pageCount, pagedAnswerSchema } from '../../src/domain/incremental';
import { organizationRefWireSchema } from '../../src/domain/organization';
import {
  snapshotIsComplete,
  thingSnapshotSchema,
  thingWiresFromSnapshot,
  THING_SNAPSHOT_COLUMNS,
  THING_SNAPSHOT_FLAGS,
} from '../../src/domain/thing-snapshot';
import { thingSubtypeWireSchema, thingTypeWireSchema } from '../../src/domain/thing-type';
import {
  closures,
  integrationConfigurations,
  locations,
  locationThings,
  organizationRelationships,
  organizations,
  organizationTypes,
  r2rAlerts,
  roles,
  runs,
  thingExternalIdentifiers,
  thingRelationships,
  things,
  thingSubtypes,
  thingTypes,
  users,
} from '../../server/db/schema';
import { issueTokens } from '../../server/auth/tokens';
import { jsonRowReader, queryRows } from '../../server/db/rows';
import { call, junk, refusedTokens, snapshot, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
const thingsPage = pagedAnswerSchema(thingWireSchema);

/** Fixtures: orgA is the caller's organization; the others relate to it as their names say. */
const org: Record<'a' | 'child' | 'managed' | 'accessed' | 'accessor' | 'stranger' | 'eng' | 'big', { id: string; name: string }> =
  {} as never;
const user = {} as Record<
  'admin' | 'reader' | 'media' | 'stranger' | 'managedAdmin' | 'accessedAdmin' | 'engineer' | 'big',
  { id: string; email: string; organizationId: string }
>;
const token = {} as Record<keyof typeof user, string>;
const typeId: Record<string, string> = {};
const subtypeOf: Record<string, { id: string; typeId: string }> = {};
let haasCounter = 0;

async function insertThing(organizationId: string, values: Partial<typeof things.$inferInsert> = {}) {
  const [row] = await server.database.db
    .insert(things)
    .values({
      organizationId,
      haasId: `HAAS-${String(++haasCounter).padStart(5, '0')}`,
      thingTypeId: typeId.police!,
      lat: 41.88,
      lng: -87.63,
      heartbeatAt: server.clock.now(),
      updatedAt: server.clock.now(),
      ...values,
    })
    .returning();
  return row!;
}

async function thingRow(id: string) {
  const [row] = await server.database.db.select().from(things).where(eq(things.id, id));
  return row!;
}

/** Everything an asset call may write (the 1201 assets of the paging test left out, for short diffs). */
async function assetTables(): Promise<string> {
  const thingRows = await server.database.db.select().from(things).where(ne(things.organizationId, org.big.id)).orderBy(asc(things.id));
  return [
    JSON.stringify(thingRows),
    await snapshot(server, thingExternalIdentifiers, thingExternalIdentifiers.id),
    await snapshot(server, thingRelationships, thingRelationships.organizationId),
    await snapshot(server, r2rAlerts, r2rAlerts.id),
  ].join('\n');
}

/** The parsed page, with the raw answer kept for the fields the schema does not read (is_stale). */
async function listThings(who: string, query = '') {
  const answer = await call(server, 'GET', `/organization/things${query}`, who);
  expect(answer.status).toBe(200);
  return { ...thingsPage.parse(answer.json), raw: answer.json as { data: { id: string; is_stale: boolean }[] } };
}

function rawThing(page: { raw: { data: { id: string; is_stale: boolean }[] } }, id: string) {
  return page.raw.data.find((t) => t.id === id)!;
}

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.database;
  for (const row of await db.select().from(thingTypes)) typeId[row.name] = row.id;
  for (const row of await db.select().from(thingSubtypes)) subtypeOf[row.name] = { id: row.id, typeId: row.thingTypeId };
  org.a = await server.createOrg({ name: 'Metro Police' });
  org.child = await server.createOrg({ name: 'beta Child Precinct', parentId: org.a.id });
  org.managed = await server.createOrg({ name: 'Alpha Managed Towing' });
  org.accessed = await server.createOrg({ name: 'delta Accessed Fire' });
  org.accessor = await server.createOrg({ name: 'Charlie County (accessor of Metro)' });
  org.stranger = await server.createOrg({ name: 'Stranger Town' });
  org.eng = await server.createOrg({ name: 'Lightbar Engineering' });
  org.big = await server.createOrg({ name: 'Big Fleet' });
  await server.relate(org.managed.id, org.a.id, 'manager');
  await server.relate(org.accessed.id, org.a.id, 'accessor');
  await server.relate(org.a.id, org.accessor.id, 'accessor');
  const make = async (key: keyof typeof user, o: { id: string }, role: string) => {
    const row = await server.createUser({ org: o, role });
    user[key] = row;
    token[key] = await server.signIn(row.email);
  };
  await make('admin', org.a, 'ADMIN');
  await make('reader', org.a, 'USER');
  await make('media', org.a, 'USER (Incidents / Events only)');
  await make('stranger', org.stranger, 'ADMIN');
  await make('managedAdmin', org.managed, 'ADMIN');
  await make('accessedAdmin', org.accessed, 'ADMIN');
  await make('engineer', org.eng, 'ENGINEER');
  await make('big', org.big, 'USER');
});
afterAll(() => server.close());

describe('part1 §7 GET /organization/things', () => {
  it('answers every visible asset with the wire fields of thingWireSchema, batched per page', async () => {
    const { db } = server.database;
    const now = server.clock.ms;
    const own = await insertThing(org.a.id, { nickname: 'Unit 7', enroute: true, vinNumber: 'VIN123', deviceType: 'ha7' });
    const child = await insertThing(org.child.id);
    const managed = await insertThing(org.managed.id);
    const accessed = await insertThing(org.accessed.id);
    const hidden = await insertThing(org.stranger.id);
    const shared = await insertThing(org.stranger.id);
    await db.insert(thingRelationships).values({ thingId: shared.id, organizationId: org.a.id, relationshipType: 'accessor' });
    await db.insert(thingExternalIdentifiers).values({ thingId: own.id, identifierId: 'S-1', systemName: 'samsara' });
    await db.insert(thingRelationships).values({ thingId: own.id, organizationId: org.managed.id, relationshipType: 'manager' });
    const [config] = await db.insert(integrationConfigurations).values({ organizationId: org.a.id, provider: 'samsara' }).returning();
    const [run] = await db
      .insert(runs)
      .values({ thingId: own.id, runStart: new Date(now - 10 * MINUTE_MS) })
      .returning();
    await db.update(things).set({ runId: run!.id, runStartTime: run!.runStart, runPointsCount: 12 }).where(eq(things.id, own.id));

    const page = await listThings(token.admin);
    const ids = page.data.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([own.id, child.id, managed.id, accessed.id, shared.id]));
    expect(ids).not.toContain(hidden.id);
    expect(page.meta.server_timestamp).toBe(new Date(now).toISOString());
    expect(page.meta.deleted_ids).toEqual([]);
    expect(ids).toEqual([...ids].sort()); // stable order by id

    const wire = page.data.find((t) => t.id === own.id)!;
    expect(wire).toMatchObject({
      haas_id: own.haasId,
      nickname: 'Unit 7',
      thing_type: 'police',
      thing_type_id: typeId.police,
      status: 'active',
      device_type: 'ha7',
      vin_number: 'VIN123',
      run_id: run!.id,
      run_points_count: 12,
      runtime: 600,
      is_integration_org: true,
      integrations: [{ name: 'samsara', id: config!.id }],
      external_identifiers: [{ identifier_id: 'S-1', system_name: 'samsara' }],
      organization: { id: org.a.id, name: 'Metro Police' },
      organization_relationships: [
        { organization_uuid: org.managed.id, organization_name: 'Alpha Managed Towing', relationship_type: 'manager' },
      ],
    });
    expect(rawThing(page, own.id).is_stale).toBe(false);
    // The client model maps it and computes the same status.
    expect(fromThingWire(wire, now)?.status).toBe(ASSET_STATUS.active);
  });

  it('answers each stored field as the database holds it: the row read as JSON equals a Drizzle select, every column', async () => {
    const { db } = server.database;
    const [orgType] = await db
      .insert(organizationTypes)
      .values({ name: 'County DOT', acs: true, iconUrl: 'https://icons.test/dot.png' })
      .returning();
    const typed = await server.createOrg({ name: 'echo Typed DOT' });
    await db.update(organizations).set({ organizationTypeId: orgType!.id }).where(eq(organizations.id, typed.id));
    await server.relate(typed.id, org.a.id, 'manager');
    const subtype = Object.values(subtypeOf)[0]!;
    const thing = await insertThing(typed.id, {
      nickname: 'Ünït "7"',
      thingTypeId: subtype.typeId,
      thingSubtypeId: subtype.id,
      lat: 41.88123456789012,
      lng: -87.63000000000001,
      accuracy: 3.25,
      course: 359.9,
      speed: 12.5,
      street: 'N Michigan Ave',
      feedSubscriptions: ['wzdx', 'r2r'],
      lightIntensity: 75,
      licensePlateNumber: 'IL 123',
    });
    // Microseconds, which a JavaScript Date drops the same way on either read.
    await db.execute(
      sql`update ${things} set heartbeat_at = '2026-11-22 12:00:00.123456+00', updated_at = '2026-11-22 12:00:01.999999+00', still_since = '2026-11-22 11:00:00+00' where ${things.id} = ${thing.id}`,
    );
    const [selected] = await db.select().from(things).where(eq(things.id, thing.id));
    const [json] = await queryRows<{ row: string }>(
      db,
      sql`select row_to_json(${things})::text as row from ${things} where ${things.id} = ${thing.id}`,
    );
    expect(jsonRowReader(things)(JSON.parse(json!.row) as Record<string, unknown>)).toEqual(selected);

    const wire = (await listThings(token.admin)).data.find((t) => t.id === thing.id)!;
    // The other tests here do not see this organization.
    await db.delete(organizationRelationships).where(eq(organizationRelationships.organizationId, typed.id));
    expect(wire).toMatchObject({
      nickname: 'Ünït "7"',
      thing_subtype_id: subtype.id,
      thing_subtype: Object.keys(subtypeOf)[0],
      heartbeat_datetime: '2026-11-22T12:00:00.123Z',
      updated_at: '2026-11-22T12:00:01.999Z',
      lat: 41.88123456789012,
      lng: -87.63000000000001,
      accuracy: 3.25,
      course: 359.9,
      speed: 12.5,
      street: 'N Michigan Ave',
      feed_subscriptions: ['wzdx', 'r2r'],
      license_plate_number: 'IL 123',
      organization: {
        id: typed.id,
        name: 'echo Typed DOT',
        organization_type: { id: orgType!.id, name: 'County DOT', acs: true, icon_urls: { marker: 'https://icons.test/dot.png' } },
      },
    });
  });

  it('part1 §4 computes each status at the server clock, from the same facts as the client', async () => {
    const { db } = server.database;
    const now = server.clock.ms;
    const standby = await insertThing(org.a.id);
    const stationary = await insertThing(org.a.id, { street: 'Main St' });
    const pending = await insertThing(org.a.id, { heartbeatAt: new Date(now - 9 * HOUR_MS) });
    const offline = await insertThing(org.a.id, { heartbeatAt: null });
    const closed = await insertThing(org.a.id, { heartbeatAt: null });
    await db.insert(closures).values({
      organizationId: org.a.id,
      closureType: 'automated',
      isActive: true,
      description: 'lane',
      thingId: closed.id,
      externalId: 'WZ-42',
    });
    await db
      .insert(closures)
      .values({ organizationId: org.a.id, closureType: 'automated', isActive: false, description: 'old', thingId: standby.id });
    const onScene = await insertThing(org.a.id);
    const [location] = await db
      .insert(locations)
      .values({ organizationId: org.a.id, lat: 41.9, lng: -87.6, startTime: new Date(now - HOUR_MS) })
      .returning();
    await db.insert(locationThings).values({ locationId: location!.id, thingId: onScene.id, startTime: new Date(now - 30 * MINUTE_MS) });
    await db.update(things).set({ locationId: location!.id }).where(eq(things.id, onScene.id));

    const page = await listThings(token.admin);
    const byId = new Map(page.data.map((t) => [t.id, t]));
    expect(byId.get(standby.id)).toMatchObject({ status: 'standby', active_closures: [] });
    expect(byId.get(stationary.id)?.status).toBe('stationary');
    expect(byId.get(pending.id)?.status).toBe('pending');
    expect(byId.get(offline.id)?.status).toBe('offline');
    expect(byId.get(closed.id)).toMatchObject({ status: 'active', active_closures: [{ wzdx_id: 'WZ-42' }] });
    expect(byId.get(onScene.id)).toMatchObject({
      status: 'active_location',
      location_id: location!.id,
      incident_start_time: new Date(now - 30 * MINUTE_MS).toISOString(),
      incident_end_time: null,
    });
    expect(rawThing(page, pending.id).is_stale).toBe(true);
    expect(rawThing(page, standby.id).is_stale).toBe(false);
  });

  it('part1 §7 pages of per_page (default 500): 1201 assets → 3 pages, the last of 201, none twice', async () => {
    const rows = Array.from({ length: 1201 }, (_, i) => ({
      organizationId: org.big.id,
      haasId: `BIG-${String(i).padStart(5, '0')}`,
      thingTypeId: typeId.maintenance!,
      updatedAt: server.clock.now(),
    }));
    await server.database.db.insert(things).values(rows);
    const first = await listThings(token.big);
    expect(first.meta).toMatchObject({ page: 1, per_page: THINGS_PAGE_SIZE, total: 1201 });
    const pages = pageCount(first.meta.total, first.meta.per_page);
    expect(pages).toBe(3);
    const seen = new Set(first.data.map((t) => t.id));
    const sizes = [first.data.length];
    for (let page = 2; page <= pages; page += 1) {
      const next = await listThings(token.big, `?page=${page}&per_page=500`);
      sizes.push(next.data.length);
      for (const t of next.data) seen.add(t.id);
    }
    expect(sizes).toEqual([500, 500, 201]);
    expect(seen.size).toBe(1201);
    const beyond = await listThings(token.big, '?page=4');
    expect(beyond.data).toEqual([]);
    expect(beyond.meta.total).toBe(1201);
    // The live worker's page: up to THINGS_PAGE_MAX in one answer, the same assets.
    const whole = await listThings(token.big, `?per_page=${THINGS_PAGE_MAX}`);
    expect(whole.meta).toMatchObject({ page: 1, per_page: THINGS_PAGE_MAX, total: 1201 });
    expect(new Set(whole.data.map((thing) => thing.id))).toEqual(seen);
  });

  it.each([
    [`per_page=${THINGS_PAGE_MAX + 1}`, 'per_page'],
    ['per_page=0', 'per_page'],
    ['page=0', 'page'],
    ['page=two', 'page'],
    ['org_ids[]=not-a-uuid', 'org_ids'],
    ['last_updated_timestamp=yesterday', 'last_updated_timestamp'],
  ])('a malformed query %s → 422 naming %s', async (query, field) => {
    const answer = await call(server, 'GET', `/organization/things?${query}`, token.admin);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain(field);
  });

  it('incremental: a change after server_timestamp comes in the next call; a soft-deleted asset in deleted_ids', async () => {
    const inc = await server.createOrg({ name: 'Incremental Org' });
    const incUser = await server.createUser({ org: inc, role: 'ADMIN' });
    const incToken = await server.signIn(incUser.email);
    const changed = await insertThing(inc.id, { nickname: 'before' });
    const removed = await insertThing(inc.id);
    await insertThing(inc.id);
    const full = await listThings(incToken);
    expect(full.meta.total).toBe(3);
    const since = full.meta.server_timestamp;

    const nothing = await listThings(incToken, `?last_updated_timestamp=${encodeURIComponent(since)}`);
    expect(nothing.data).toEqual([]);
    expect(nothing.meta.deleted_ids).toEqual([]);

    server.clock.advance(5 * SECOND_MS);
    const put = await call(server, 'PUT', `/things/${changed.id}`, incToken, {
      id: changed.id,
      in_service: true,
      is_publicly_alerting: true,
      nickname: 'after',
    });
    expect(put.status).toBe(200);
    await server.database.db
      .update(things)
      .set({ deletedAt: server.clock.now(), updatedAt: server.clock.now() })
      .where(eq(things.id, removed.id));

    const next = await listThings(incToken, `?last_updated_timestamp=${encodeURIComponent(since)}`);
    expect(next.data.map((t) => t.id)).toEqual([changed.id]);
    expect(next.data[0]?.nickname).toBe('after');
    expect(next.meta.deleted_ids).toEqual([removed.id]);
    expect(next.meta.total).toBe(1);
    // Epoch seconds work too, and the full list no longer holds the deleted asset.
    const epoch = await listThings(incToken, `?last_updated_timestamp=${Math.floor(Date.parse(since) / 1000)}`);
    expect(epoch.data.map((t) => t.id)).toEqual([changed.id]);
    expect((await listThings(incToken)).data.map((t) => t.id)).not.toContain(removed.id);
  });

  it('org_ids[] narrows to the requested visible organizations; invisible ones are dropped, never confirmed', async () => {
    const managed = await listThings(token.admin, `?org_ids[]=${org.managed.id}`);
    expect(managed.data.length).toBeGreaterThan(0);
    const owners = new Set(managed.data.map((t) => t.organization?.id));
    // Only the managed org's assets, plus assets shared one by one with the caller's organization.
    for (const owner of owners) expect([org.managed.id, org.stranger.id]).toContain(owner);
    const stranger = await listThings(token.admin, `?org_ids[]=${org.big.id}`);
    expect(stranger.data.every((t) => t.organization?.id !== org.big.id)).toBe(true);
  });

  it('haas:manage sees every organization', async () => {
    const page = await listThings(token.engineer, `?org_ids[]=${org.big.id}&per_page=10`);
    expect(page.meta.total).toBe(1201);
  });

  it('authorization: a user of another organization sees none of these; a role without things view → 403', async () => {
    const page = await listThings(token.stranger);
    const owners = new Set(page.data.map((t) => t.organization?.id));
    expect([...owners].every((id) => id === org.stranger.id)).toBe(true);
    expect((await call(server, 'GET', '/organization/things', token.media)).status).toBe(403);
  });
});

/** Every page of GET /organization/things (pages of THINGS_PAGE_MAX), for comparing with the snapshot. */
async function allThings(who: string, query = '') {
  const join = query ? '&' : '?';
  const first = await listThings(who, `${query}${join}per_page=${THINGS_PAGE_MAX}`);
  const wires = [...first.data];
  for (let page = 2; page <= pageCount(first.meta.total, THINGS_PAGE_MAX); page++) {
    wires.push(...(await listThings(who, `${query}${join}per_page=${THINGS_PAGE_MAX}&page=${page}`)).data);
  }
  return wires;
}

async function thingSnapshot(who: string, query = '') {
  const answer = await call(server, 'GET', `/organization/things/snapshot${query}`, who);
  expect(answer.status).toBe(200);
  return thingSnapshotSchema.parse(answer.json);
}

/**
 * A wire as the snapshot gives it (docs/decisions/spec.md): every field but `status` and `is_stale`
 * (the client works them out), its times as instants: the snapshot writes the database's ISO text
 * (`+00:00`, microseconds), the pages `toISOString()`.
 */
function comparable(wire: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.entries(wire).filter(([key]) => key !== 'status' && key !== 'is_stale');
  return Object.fromEntries(kept.map(([key, value]) => [key, TIMES.has(key) && typeof value === 'string' ? Date.parse(value) : value]));
}
const TIMES = new Set(['heartbeat_datetime', 'updated_at', 'run_start_time', 'incident_start_time', 'incident_end_time']);

describe('GET /organization/things/snapshot (the fleet snapshot, README "Spec decisions")', () => {
  it('holds exactly the assets of GET /organization/things for each caller and org_ids[], each with the same wire but its status', async () => {
    const { db } = server.database;
    const now = server.clock.ms;
    const subtype = Object.values(subtypeOf)[0]!;
    // One asset with every snapshot column and every detail set, one with the nullable ones empty, one soft-deleted.
    const full = await insertThing(org.a.id, {
      nickname: 'Ünït "9"',
      thingTypeId: subtype.typeId,
      thingSubtypeId: subtype.id,
      accuracy: 2.5,
      course: 180,
      speed: 7.25,
      street: 'E 6th St',
      feedSubscriptions: ['wzdx'],
      inService: false,
      isPubliclyAlerting: false,
      enroute: true,
      isR2rEnabled: true,
      isTestModeOn: true,
      isAllowedForTestMode: true,
      isAllowedForClosures: true,
      isResponder: false,
      deviceType: 'api',
      externalId: 'EXT-9',
      vinNumber: 'VIN-9',
      licensePlateNumber: 'TX 9',
      registryNumber: 'R-9',
    });
    const [run] = await db
      .insert(runs)
      .values({ thingId: full.id, runStart: new Date(now - 95 * SECOND_MS) })
      .returning();
    await db.update(things).set({ runId: run!.id, runStartTime: run!.runStart, runPointsCount: 4 }).where(eq(things.id, full.id));
    // Its details: two identifiers, two relationships, a running automated closure (and one that
    // ended), its times on its current incident (and on an earlier one), its organization's integrations.
    await db.insert(thingExternalIdentifiers).values([
      { thingId: full.id, identifierId: 'G-9', systemName: 'geotab' },
      { thingId: full.id, identifierId: 'S-9', systemName: 'samsara' },
    ]);
    await db.insert(thingRelationships).values([
      { thingId: full.id, organizationId: org.managed.id, relationshipType: 'manager' },
      { thingId: full.id, organizationId: org.accessor.id, relationshipType: 'accessor' },
    ]);
    const [running] = await db
      .insert(closures)
      .values({
        organizationId: org.a.id,
        closureType: 'automated',
        isActive: true,
        description: 'lane',
        thingId: full.id,
        externalId: 'WZ-9',
      })
      .returning();
    await db
      .insert(closures)
      .values({ organizationId: org.a.id, closureType: 'automated', isActive: false, description: 'ended', thingId: full.id });
    const [earlier, current] = await db
      .insert(locations)
      .values([
        { organizationId: org.a.id, lat: 41.9, lng: -87.6, startTime: new Date(now - 3 * HOUR_MS), endTime: new Date(now - 2 * HOUR_MS) },
        { organizationId: org.a.id, lat: 41.9, lng: -87.6, startTime: new Date(now - HOUR_MS) },
      ])
      .returning();
    await db.insert(locationThings).values([
      { locationId: earlier!.id, thingId: full.id, startTime: new Date(now - 3 * HOUR_MS), endTime: new Date(now - 2 * HOUR_MS) },
      { locationId: current!.id, thingId: full.id, startTime: new Date(now - 20 * MINUTE_MS) },
    ]);
    await db.update(things).set({ locationId: current!.id }).where(eq(things.id, full.id));
    await db.insert(integrationConfigurations).values([
      { organizationId: org.a.id, provider: 'geotab' },
      { organizationId: org.child.id, provider: 'samsara' },
    ]);
    await insertThing(org.a.id, { nickname: null, heartbeatAt: null, lat: null, lng: null });
    await insertThing(org.child.id);
    const gone = await insertThing(org.a.id, { deletedAt: server.clock.now() });
    await db.insert(thingExternalIdentifiers).values({ thingId: gone.id, identifierId: 'S-GONE', systemName: 'samsara' });

    const cases: [string, string][] = [
      [token.admin, ''],
      [token.admin, `?org_ids[]=${org.managed.id}`],
      [token.stranger, ''],
      [token.engineer, `?org_ids[]=${org.big.id}`],
      [token.big, ''],
    ];
    for (const [who, query] of cases) {
      const pages = await allThings(who, query);
      const answer = await thingSnapshot(who, query);
      expect(answer.columns, query).toEqual(THING_SNAPSHOT_COLUMNS);
      expect(answer.meta.total, query).toBe(pages.length);
      expect(snapshotIsComplete(answer), query).toBe(true);
      const snapshot = thingWiresFromSnapshot(answer);
      expect(snapshot.map((wire) => wire.id).sort(), query).toEqual(pages.map((wire) => wire.id).sort());
      expect(snapshot.map((wire) => wire.id)).not.toContain(gone.id);
      // Details only of the assets listed: none of another caller's, none of a removed asset.
      const listed = new Set(pages.map((wire) => wire.id));
      const { details } = answer;
      for (const entry of [
        ...details!.external_identifiers,
        ...details!.organization_relationships,
        ...details!.active_closures,
        ...details!.incidents,
      ])
        expect(listed.has(entry[0]), `${query} ${JSON.stringify(entry)}`).toBe(true);
      const byId = new Map(snapshot.map((wire) => [wire.id, wire]));
      for (const wire of pages) expect(comparable(byId.get(wire.id)!), wire.id).toEqual(comparable(wire));
    }
    // The full asset, read as the client reads it: the same model, status included.
    const [fromPages] = (await allThings(token.admin)).filter((wire) => wire.id === full.id);
    const fromSnapshot = thingWiresFromSnapshot(await thingSnapshot(token.admin)).find((wire) => wire.id === full.id)!;
    expect(fromSnapshot).toMatchObject({
      run_id: run!.id,
      run_points_count: 4,
      runtime: 95,
      feed_subscriptions: ['wzdx'],
      organization: { id: org.a.id, name: 'Metro Police' },
      is_integration_org: true,
      external_identifiers: [
        { identifier_id: 'G-9', system_name: 'geotab' },
        { identifier_id: 'S-9', system_name: 'samsara' },
      ],
      active_closures: [{ id: running!.id, wzdx_id: 'WZ-9' }],
    });
    expect(fromSnapshot.organization_relationships.map((r) => r.organization_uuid).sort()).toEqual(
      [org.managed.id, org.accessor.id].sort(),
    );
    expect(Date.parse(fromSnapshot.incident_start_time!)).toBe(now - 20 * MINUTE_MS);
    expect(fromSnapshot.incident_end_time).toBeNull();
    expect(fromSnapshot.integrations.map((i) => i.name)).toContain('geotab');
    const status = fromThingWire(fromSnapshot, server.clock.ms)!.status;
    expect(fromThingWire(fromSnapshot, server.clock.ms)).toEqual(fromThingWire(fromPages!, server.clock.ms));
    expect(status).toBe(fromThingWire(fromPages!, server.clock.ms)!.status);
  });

  it('since a time (docs/decisions/spec.md "The fleet snapshot since a time"): exactly the assets of the list since it, whole, and its deleted ids, for each caller', async () => {
    const { db } = server.database;
    const moved = await insertThing(org.a.id);
    const renamed = await insertThing(org.a.id, { nickname: 'before' });
    const removed = await insertThing(org.a.id);
    const managedMoved = await insertThing(org.managed.id);
    const quiet = await insertThing(org.a.id);
    const strangerMoved = await insertThing(org.stranger.id);
    const strangerRemoved = await insertThing(org.stranger.id);
    const since = (await thingSnapshot(token.admin)).meta.server_timestamp;

    server.clock.advance(5 * SECOND_MS);
    const now = server.clock.now();
    for (const id of [moved.id, managedMoved.id, strangerMoved.id]) {
      await db.update(things).set({ lat: 41.9, lng: -87.7, speed: 12, heartbeatAt: now, updatedAt: now }).where(eq(things.id, id));
    }
    const put = await call(server, 'PUT', `/things/${renamed.id}`, token.admin, {
      id: renamed.id,
      in_service: true,
      is_publicly_alerting: true,
      nickname: 'after',
      external_identifiers: [{ identifier_id: 'G-SINCE', system_name: 'geotab' }],
    });
    expect(put.status).toBe(200);
    for (const id of [removed.id, strangerRemoved.id])
      await db.update(things).set({ deletedAt: now, updatedAt: now }).where(eq(things.id, id));

    const at = `since=${encodeURIComponent(since)}`;
    const cases: [string, string][] = [
      [token.admin, ''],
      [token.admin, `org_ids[]=${org.managed.id}`],
      [token.stranger, ''],
      [token.engineer, `org_ids[]=${org.big.id}`],
    ];
    for (const [who, query] of cases) {
      const list = await listThings(
        who,
        `?per_page=${THINGS_PAGE_MAX}&last_updated_timestamp=${encodeURIComponent(since)}${query ? `&${query}` : ''}`,
      );
      const answer = await thingSnapshot(who, `?${at}${query ? `&${query}` : ''}`);
      expect(snapshotIsComplete(answer), query).toBe(true);
      expect(answer.meta.total, query).toBe(answer.rows.length);
      expect(answer.meta.deleted_ids, query).toEqual(list.meta.deleted_ids);
      const wires = thingWiresFromSnapshot(answer);
      expect(wires.map((wire) => wire.id).sort(), query).toEqual(list.data.map((wire) => wire.id).sort());
      const byId = new Map(wires.map((wire) => [wire.id, wire]));
      for (const wire of list.data) expect(comparable(byId.get(wire.id)!), wire.id).toEqual(comparable(wire));
      // The organizations of the changed assets only.
      expect(answer.organizations.map((o) => o.id).sort(), query).toEqual([...new Set(list.data.map((w) => w.organization!.id))].sort());
    }
    // The admin's: its changed assets and the managed organization's, never the stranger's; the quiet one not at all.
    const admin = await thingSnapshot(token.admin, `?${at}`);
    const wires = thingWiresFromSnapshot(admin);
    expect(wires.map((wire) => wire.id).sort()).toEqual([moved.id, renamed.id, managedMoved.id].sort());
    expect(admin.meta.deleted_ids).toEqual([removed.id]);
    expect(wires.find((wire) => wire.id === moved.id)).toMatchObject({ lat: 41.9, lng: -87.7, speed: 12 });
    expect(wires.find((wire) => wire.id === renamed.id)).toMatchObject({
      nickname: 'after',
      external_identifiers: [{ identifier_id: 'G-SINCE', system_name: 'geotab' }],
    });
    expect(wires.map((wire) => wire.id)).not.toContain(quiet.id);
    const stranger = await thingSnapshot(token.stranger, `?${at}`);
    expect(thingWiresFromSnapshot(stranger).map((wire) => wire.id)).toEqual([strangerMoved.id]);
    expect(stranger.meta.deleted_ids).toEqual([strangerRemoved.id]);
    // Another organization asked for by org_ids[] is dropped, as by the list: none of its assets, none of its deletions.
    const narrowed = await thingSnapshot(token.admin, `?${at}&org_ids[]=${org.stranger.id}`);
    expect(thingWiresFromSnapshot(narrowed).map((wire) => wire.id)).not.toContain(strangerMoved.id);
    expect(narrowed.meta.deleted_ids).not.toContain(strangerRemoved.id);
  });

  it('since: an unchanged fleet answers 304 with no body to its ETag, a change 200; a malformed since → 422 naming it', async () => {
    const own = await server.createOrg({ name: 'Snapshot Since Org' });
    const ownToken = await server.signIn((await server.createUser({ org: own, role: 'ADMIN' })).email);
    const asset = await insertThing(own.id);
    const since = (await thingSnapshot(ownToken)).meta.server_timestamp;
    const url = `/organization/things/snapshot?since=${encodeURIComponent(since)}`;
    const ask = (etag?: string) =>
      server.app.inject({ method: 'GET', url, headers: { ...server.auth(ownToken), ...(etag ? { 'if-none-match': etag } : {}) } });
    const first = await ask();
    expect(first.statusCode).toBe(200);
    const empty = thingSnapshotSchema.parse(JSON.parse(first.body));
    expect(empty.rows).toEqual([]);
    expect(empty.meta.deleted_ids).toEqual([]);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await ask(etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    server.clock.advance(SECOND_MS);
    await server.database.db.update(things).set({ speed: 30, updatedAt: server.clock.now() }).where(eq(things.id, asset.id));
    const changed = await ask(etag);
    expect(changed.statusCode).toBe(200);
    expect(thingWiresFromSnapshot(thingSnapshotSchema.parse(JSON.parse(changed.body))).map((wire) => wire.speed)).toEqual([30]);
    for (const bad of ['yesterday', '2026-02-30T00:00:00Z']) {
      const answer = await call(server, 'GET', `/organization/things/snapshot?since=${bad}`, ownToken);
      expect(answer.status, bad).toBe(422);
      expect(answer.body.message, bad).toContain('since');
    }
  });

  it('an empty fleet is an empty snapshot; a role without things view → 403; a malformed org_ids[] → 422 as the list', async () => {
    const empty = await server.createOrg({ name: 'Snapshot Empty' });
    const emptyToken = await server.signIn((await server.createUser({ org: empty, role: 'ADMIN' })).email);
    const answer = await thingSnapshot(emptyToken);
    // Every type and subtype (reference data, as GET /thing_types and /thing_subtypes), in any order.
    const byId = (list: { id: string; name: string }[]) =>
      list.map(({ id, name }) => ({ id, name })).sort((a, b) => (a.id < b.id ? -1 : 1));
    const named = async (path: string) => byId((await call(server, 'GET', path, emptyToken)).json as { id: string; name: string }[]);
    const { types, subtypes, ...rest } = answer;
    expect(rest).toEqual({
      columns: THING_SNAPSHOT_COLUMNS,
      flags: THING_SNAPSHOT_FLAGS,
      rows: [],
      organizations: [],
      details: { integrations: [], external_identifiers: [], organization_relationships: [], active_closures: [], incidents: [] },
      meta: { total: 0, server_timestamp: server.clock.now().toISOString() },
    });
    expect(byId(types)).toEqual(await named('/thing_types'));
    expect(byId(subtypes)).toEqual(await named('/thing_subtypes'));
    expect(answer.types.length).toBeGreaterThan(0);
    expect((await call(server, 'GET', '/organization/things/snapshot', token.media)).status).toBe(403);
    const malformed = await call(server, 'GET', '/organization/things/snapshot?org_ids[]=not-a-uuid', token.admin);
    expect(malformed.status).toBe(422);
    expect(malformed.body.message).toContain('org_ids');
  });
});

describe('part1 §7 GET /organization/things_count', () => {
  it('counts the visible assets (thing read or manage)', async () => {
    const answer = await call(server, 'GET', '/organization/things_count', token.big);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ count: 1201 });
    const admin = await call(server, 'GET', '/organization/things_count', token.admin);
    const listed = await listThings(token.admin);
    expect(admin.json).toEqual({ count: listed.meta.total });
    const stranger = await call(server, 'GET', '/organization/things_count', token.stranger);
    const strangerList = await listThings(token.stranger);
    expect(stranger.json).toEqual({ count: strangerList.meta.total });
  });

  it('part1 §2 needs thing read or manage → 403 for Media', async () => {
    expect((await call(server, 'GET', '/organization/things_count', token.media)).status).toBe(403);
  });

  it('org_ids[] (the acs chooser) counts as GET /organization/things lists: the chosen org, and nothing of an org the caller may not see', async () => {
    // A fleet of its own, so every count is exact: home 2, child 3, managed 4, lender 5 (one shared with home), stranger 6.
    const home = await server.createOrg({ name: 'Count Home' });
    const child = await server.createOrg({ name: 'Count Child', parentId: home.id });
    const managed = await server.createOrg({ name: 'Count Managed' });
    const lender = await server.createOrg({ name: 'Count Lender' });
    const stranger = await server.createOrg({ name: 'Count Stranger' });
    await server.relate(managed.id, home.id, 'manager');
    const fleet: [{ id: string }, number][] = [
      [home, 2],
      [child, 3],
      [managed, 4],
      [lender, 5],
      [stranger, 6],
    ];
    for (const [owner, count] of fleet) for (let i = 0; i < count; i++) await insertThing(owner.id);
    const lent = await insertThing(lender.id);
    await server.database.db.insert(thingRelationships).values({ thingId: lent.id, organizationId: home.id, relationshipType: 'accessor' });
    const homeToken = await server.signIn((await server.createUser({ org: home, role: 'ADMIN' })).email);

    const count = async (who: string, query: string) => {
      const answer = await call(server, 'GET', `/organization/things_count${query}`, who);
      expect(answer.status).toBe(200);
      return answer.json as { count: number };
    };
    // [query, who, count]: the shared asset is visible in every scope, as in the list.
    const rows: [string, string, number][] = [
      ['', homeToken, 2 + 3 + 4 + 1],
      [`?org_ids[]=${managed.id}`, homeToken, 4 + 1],
      [`?org_ids[]=${child.id}&org_ids[]=${managed.id}`, homeToken, 3 + 4 + 1],
      [`?org_ids[]=${home.id}`, homeToken, 2 + 1],
      // Not visible to home: dropped, never counted, never an error that confirms it exists.
      [`?org_ids[]=${stranger.id}`, homeToken, 1],
      [`?org_ids[]=${lender.id}`, homeToken, 1],
      [`?org_ids[]=${randomUUID()}`, homeToken, 1],
      // haas:manage may choose any organization.
      [`?org_ids[]=${stranger.id}`, token.engineer, 6],
    ];
    for (const [query, who, expected] of rows) {
      expect(await count(who, query), query).toEqual({ count: expected });
      expect((await listThings(who, query)).meta.total, query).toBe(expected);
    }
  });

  it('a malformed org_ids[] → 422 naming org_ids, as the list', async () => {
    const answer = await call(server, 'GET', '/organization/things_count?org_ids[]=not-a-uuid', token.admin);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('org_ids');
  });
});

describe('part1 §7 GET /thing_types, GET /thing_subtypes', () => {
  it('lists the seven types and their subtypes', async () => {
    const types = await call(server, 'GET', '/thing_types', token.media);
    expect(types.status).toBe(200);
    const parsedTypes = thingTypeWireSchema.array().parse(types.json);
    expect(parsedTypes.map((t) => t.name).sort()).toEqual(['ambulance', 'arrow_board', 'fire', 'maintenance', 'police', 'tow', 'waste']);
    expect(parsedTypes.find((t) => t.name === 'fire')).toMatchObject({ display_name: 'Fire', is_emergency: true });
    const subtypes = await call(server, 'GET', '/thing_subtypes', token.reader);
    const parsed = thingSubtypeWireSchema.array().parse(subtypes.json);
    expect(parsed.find((s) => s.name === 'truck_mounted')).toMatchObject({
      display_name: 'Truck Mounted',
      thing_type_id: typeId.arrow_board,
    });
    expect(parsed.every((s) => parsedTypes.some((t) => t.id === s.thing_type_id))).toBe(true);
  });
});

describe('part1 §7 PUT /things/{id}', () => {
  const body = (id: string, extra: Record<string, unknown> = {}) => ({ id, in_service: true, is_publicly_alerting: true, ...extra });

  it('saves the profile (part 1 §5 rules) and answers the saved asset', async () => {
    const thing = await insertThing(org.a.id, { thingSubtypeId: subtypeOf.patrol_car!.id });
    server.clock.advance(SECOND_MS);
    const answer = await call(server, 'PUT', `/things/${thing.id}`, token.admin, {
      id: thing.id,
      in_service: false,
      is_publicly_alerting: true,
      nickname: '  Engine 51 ',
      thing_type_id: typeId.fire,
      thing_subtype_id: subtypeOf.ladder!.id,
      vin_number: '1HGCM82633A004352',
      license_plate_number: 'ABC 123',
      registry_number: 'R-9',
      external_identifiers: [
        { identifier_id: 'S-77', system_name: 'samsara', is_deleted: false },
        { identifier_id: 'G-5', system_name: 'geotab' },
      ],
    });
    expect(answer.status).toBe(200);
    const wire = thingWireSchema.parse(answer.json);
    expect(wire).toMatchObject({
      id: thing.id,
      nickname: 'Engine 51',
      in_service: false,
      thing_type: 'fire',
      thing_subtype: 'ladder',
      vin_number: '1HGCM82633A004352',
      license_plate_number: 'ABC 123',
      registry_number: 'R-9',
      updated_at: server.clock.now().toISOString(),
    });
    expect(wire.external_identifiers).toEqual([
      { identifier_id: 'G-5', system_name: 'geotab' },
      { identifier_id: 'S-77', system_name: 'samsara' },
    ]);
    // is_deleted removes a provider; null clears a text; a new type without a subtype resets it.
    const second = await call(server, 'PUT', `/things/${thing.id}`, token.admin, {
      ...body(thing.id),
      thing_type_id: typeId.ambulance,
      vin_number: null,
      license_plate_number: '',
      external_identifiers: [{ identifier_id: 'G-5', system_name: 'geotab', is_deleted: true }],
    });
    expect(second.status).toBe(200);
    const row = await thingRow(thing.id);
    expect(row).toMatchObject({
      thingTypeId: typeId.ambulance,
      thingSubtypeId: null,
      vinNumber: null,
      licensePlateNumber: null,
      registryNumber: 'R-9',
      nickname: 'Engine 51',
      inService: true,
    });
    const identifiers = await server.database.db
      .select()
      .from(thingExternalIdentifiers)
      .where(eq(thingExternalIdentifiers.thingId, thing.id));
    expect(identifiers.map((e) => e.systemName)).toEqual(['samsara']);
  });

  it('part1 §4 switching alerting off records when (it turns back on after 60 minutes); on clears it', async () => {
    const thing = await insertThing(org.a.id);
    expect((await call(server, 'PUT', `/things/${thing.id}`, token.admin, body(thing.id, { is_publicly_alerting: false }))).status).toBe(
      200,
    );
    const off = await thingRow(thing.id);
    expect(off.isPubliclyAlerting).toBe(false);
    expect(off.alertingOffAt?.getTime()).toBe(server.clock.ms);
    server.clock.advance(MINUTE_MS);
    // Saving again while off keeps the original time.
    await call(server, 'PUT', `/things/${thing.id}`, token.admin, body(thing.id, { is_publicly_alerting: false }));
    expect((await thingRow(thing.id)).alertingOffAt?.getTime()).toBe(server.clock.ms - MINUTE_MS);
    await call(server, 'PUT', `/things/${thing.id}`, token.admin, body(thing.id));
    expect(await thingRow(thing.id)).toMatchObject({ isPubliclyAlerting: true, alertingOffAt: null });
  });

  describe('part1 §8 asset save rows, provoked for a real reason', () => {
    it("422 'found': the asset was removed while the form was open → Asset not found", async () => {
      const thing = await insertThing(org.a.id, { deletedAt: server.clock.now() });
      const answer = await call(server, 'PUT', `/things/${thing.id}`, token.admin, body(thing.id));
      expect(answer.status).toBe(422);
      expect(errorText('assetSave', { status: 422, message: answer.body.message }).text).toBe('Asset not found');
    });

    it("422 'nickname': another asset of the organization has the nickname → Asset nickname cannot be updated", async () => {
      await insertThing(org.a.id, { nickname: 'Medic 3' });
      const thing = await insertThing(org.a.id);
      const before = await thingRow(thing.id);
      const answer = await call(server, 'PUT', `/things/${thing.id}`, token.admin, body(thing.id, { nickname: 'MEDIC 3' }));
      expect(answer.status).toBe(422);
      expect(errorText('assetSave', { status: 422, message: answer.body.message }).text).toBe('Asset nickname cannot be updated');
      expect(await thingRow(thing.id)).toEqual(before);
      // Another organization may use the same nickname.
      const other = await insertThing(org.managed.id);
      expect((await call(server, 'PUT', `/things/${other.id}`, token.managedAdmin, body(other.id, { nickname: 'Medic 3' }))).status).toBe(
        200,
      );
    });

    it.each([
      ['a VIN with a dash', { vin_number: 'ABC-123' }, 'vin_number: Please only use numbers or letters'],
      ['a nickname of 51 characters', { nickname: 'x'.repeat(51) }, 'nickname: Must be 50 or fewer characters'],
      ['a subtype of another type', { thing_subtype_id: 'ladder' }, "thing_subtype_id: is not a subtype of the asset's type"],
      [
        'a non-emergency type for a police car',
        { thing_type_id: 'maintenance' },
        "thing_type_id: must be an emergency type like the asset's",
      ],
      ['an unknown type', { thing_type_id: randomUUID() }, 'thing_type_id: unknown thing type'],
      [
        'one provider twice',
        {
          external_identifiers: [
            { identifier_id: '1', system_name: 'samsara' },
            { identifier_id: '2', system_name: 'samsara' },
          ],
        },
        'external_identifiers.1.system_name: Provider already used',
      ],
      [
        'a provider that does not exist',
        { external_identifiers: [{ identifier_id: '1', system_name: 'fleetco' }] },
        'external_identifiers.0.system_name: Required',
      ],
      ['a body id that is not the path', { id: randomUUID() }, 'id: must be the asset of the path'],
    ])('other 422: %s → shown as received', async (_case, extra, message) => {
      const thing = await insertThing(org.a.id);
      const resolved = Object.fromEntries(
        Object.entries(extra).map(([k, v]) => [
          k,
          typeof v === 'string' && subtypeOf[v] ? subtypeOf[v].id : typeof v === 'string' && typeId[v] ? typeId[v] : v,
        ]),
      );
      const before = await assetTables();
      const answer = await call(server, 'PUT', `/things/${thing.id}`, token.admin, { ...body(thing.id), ...resolved });
      expect(answer.status).toBe(422);
      expect(answer.body.message).toBe(message);
      expect(errorText('assetSave', { status: 422, message: answer.body.message }).text).toBe(
        message.includes('nickname') ? 'Asset nickname cannot be updated' : message,
      );
      expect(await assetTables()).toBe(before);
    });
  });

  it('authorization: no/revoked/expired token 401; another organization 404; thing read only 403; accessor 422; nothing changes', async () => {
    const thing = await insertThing(org.a.id);
    const accessedThing = await insertThing(org.accessed.id);
    const before = await assetTables();
    const refused = await refusedTokens(server, user.admin);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'PUT', `/things/${thing.id}`, t, body(thing.id))).status).toBe(401);
    }
    const stranger = await call(server, 'PUT', `/things/${thing.id}`, token.stranger, body(thing.id));
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Asset not found');
    expect((await call(server, 'PUT', `/things/${randomUUID()}`, token.admin, body(thing.id))).status).toBe(422); // body id ≠ path
    const unknownId = randomUUID();
    expect((await call(server, 'PUT', `/things/${unknownId}`, token.admin, body(unknownId))).status).toBe(404);
    expect((await call(server, 'PUT', '/things/not-a-uuid', token.admin, body(thing.id))).status).toBe(404);
    expect((await call(server, 'PUT', `/things/${thing.id}`, token.reader, body(thing.id))).status).toBe(403);
    const readOnly = await call(server, 'PUT', `/things/${accessedThing.id}`, token.admin, body(accessedThing.id));
    expect(readOnly.status).toBe(422);
    expect(errorText('assetSave', { status: 422, message: readOnly.body.message }).text).toBe(
      'Your organization can view this asset but not change it',
    );
    expect(await assetTables()).toBe(before);
  });

  it('a manager organization may save the assets it manages', async () => {
    const thing = await insertThing(org.managed.id);
    expect((await call(server, 'PUT', `/things/${thing.id}`, token.admin, body(thing.id, { nickname: 'Tow 1' }))).status).toBe(200);
  });

  it('property: bad bodies and ids never give a 5xx and never change a row', async () => {
    const thing = await insertThing(org.a.id, { nickname: 'Prop' });
    const valid = body(thing.id, { nickname: 'Prop 2' });
    const notBoolean = junk.filter((v) => typeof v !== 'boolean');
    const bad: Record<string, fc.Arbitrary<unknown>> = {
      id: junk,
      in_service: notBoolean,
      is_publicly_alerting: notBoolean,
      nickname: fc.oneof(
        junk.filter((v) => typeof v !== 'string'),
        fc.string({ minLength: 51, maxLength: 60 }).filter((s) => s.trim().length > 50),
        fc.constantFrom('', '   '),
      ),
      thing_type_id: fc.oneof(junk, fc.uuid()),
      vin_number: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^[A-Za-z0-9]*$/.test(s.trim())),
      license_plate_number: fc.oneof(
        junk.filter((v) => typeof v !== 'string' && v !== null),
        fc.string({ minLength: 51, maxLength: 60 }).filter((s) => s.trim().length > 50),
      ),
      external_identifiers: junk.filter((v) => !(Array.isArray(v) && v.length === 0)),
    };
    const poisoned = fc.constantFrom(...Object.keys(bad)).chain((field) => bad[field]!.map((value) => ({ ...valid, [field]: value })));
    const before = await assetTables();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), poisoned),
        fc.oneof(fc.constant(thing.id), fc.string({ maxLength: 20 }), fc.uuid()),
        async (payload, id) => {
          const answer = await call(server, 'PUT', `/things/${encodeURIComponent(id)}`, token.admin, payload);
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 80 },
    );
    expect(await assetTables()).toBe(before);
  });
});

describe('part1 §7 PUT /things/{thingId}/associations', () => {
  const relations = (...list: [string, string, 'manager' | 'accessor'][]) => ({
    organization_relationships: list.map(([organization_uuid, organization_name, relationship_type]) => ({
      organization_uuid,
      organization_name,
      relationship_type,
    })),
  });

  it('replaces the relations; the related organizations then see (manager: and edit) the asset', async () => {
    const thing = await insertThing(org.a.id);
    await server.database.db
      .insert(thingRelationships)
      .values({ thingId: thing.id, organizationId: org.child.id, relationshipType: 'accessor' });
    server.clock.advance(SECOND_MS);
    const answer = await call(
      server,
      'PUT',
      `/things/${thing.id}/associations`,
      token.admin,
      relations([org.accessor.id, 'whatever the client says', 'manager'], [org.accessed.id, 'x', 'accessor']),
    );
    expect(answer.status).toBe(200);
    const parsed = associationsPayloadSchema.parse(answer.json);
    expect(parsed.organization_relationships).toEqual([
      { organization_uuid: org.accessor.id, organization_name: org.accessor.name, relationship_type: 'manager' },
      { organization_uuid: org.accessed.id, organization_name: org.accessed.name, relationship_type: 'accessor' },
    ]);
    const stored = await server.database.db.select().from(thingRelationships).where(eq(thingRelationships.thingId, thing.id));
    expect(stored.map((r) => r.organizationId).sort()).toEqual([org.accessor.id, org.accessed.id].sort());
    expect((await thingRow(thing.id)).updatedAt.getTime()).toBe(server.clock.ms);

    // Visibility through the asset relation: the accessed org's admin (accessor) sees but cannot edit.
    const seen = await listThings(token.accessedAdmin);
    expect(seen.data.map((t) => t.id)).toContain(thing.id);
    const edit = await call(server, 'PUT', `/things/${thing.id}`, token.accessedAdmin, {
      id: thing.id,
      in_service: true,
      is_publicly_alerting: true,
    });
    expect(edit.status).toBe(422);
    // An empty list removes every relation.
    expect((await call(server, 'PUT', `/things/${thing.id}/associations`, token.admin, relations())).status).toBe(200);
    expect(await server.database.db.select().from(thingRelationships).where(eq(thingRelationships.thingId, thing.id))).toEqual([]);
    expect((await listThings(token.accessedAdmin)).data.map((t) => t.id)).not.toContain(thing.id);
  });

  it('a manager relation lets that organization edit the asset', async () => {
    const thing = await insertThing(org.a.id);
    const strangerAdmin = await server.createUser({ org: org.accessor, role: 'ADMIN' });
    const strangerToken = await server.signIn(strangerAdmin.email);
    // org.accessor already sees org.a's assets (accessor of Metro) but only reads them…
    const body = { id: thing.id, in_service: true, is_publicly_alerting: true };
    expect((await call(server, 'PUT', `/things/${thing.id}`, strangerToken, body)).status).toBe(422);
    await call(server, 'PUT', `/things/${thing.id}/associations`, token.admin, relations([org.accessor.id, '', 'manager']));
    // …until this asset names it manager.
    expect((await call(server, 'PUT', `/things/${thing.id}`, strangerToken, body)).status).toBe(200);
  });

  it.each([
    [
      'an unknown organization',
      () => relations([randomUUID(), 'Ghost', 'manager']),
      'organization_relationships.0.organization_uuid: unknown organization',
    ],
    [
      'an organization the caller has no relation with',
      () => relations([org.stranger.id, 'Stranger', 'manager']),
      'organization_relationships.0.organization_uuid: unknown organization',
    ],
    [
      "the asset's own organization",
      () => relations([org.a.id, 'Metro', 'manager']),
      'organization_relationships.0.organization_uuid: is the organization that owns the asset',
    ],
    [
      'one organization twice',
      () => relations([org.managed.id, '', 'manager'], [org.managed.id, '', 'accessor']),
      'organization_relationships.1.organization_uuid: is listed twice',
    ],
    [
      'a relation that is neither manager nor accessor',
      () => ({ organization_relationships: [{ organization_uuid: org.managed.id, organization_name: '', relationship_type: 'owner' }] }),
      'organization_relationships.0.relationship_type: must be manager or accessor',
    ],
  ])('422 for %s, nothing changed', async (_case, makeBody, message) => {
    const thing = await insertThing(org.a.id);
    const before = await assetTables();
    const answer = await call(server, 'PUT', `/things/${thing.id}/associations`, token.admin, makeBody());
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
    expect(errorText('assetSave', { status: 422, message: answer.body.message }).text).toBe(message);
    expect(await assetTables()).toBe(before);
  });

  it('authorization: 401; other organization 404; USER 403; only the owner organization (422); haas:manage may', async () => {
    const thing = await insertThing(org.a.id);
    const managedThing = await insertThing(org.managed.id);
    const payload = relations([org.managed.id, '', 'accessor']);
    const before = await assetTables();
    const refused = await refusedTokens(server, user.admin);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'PUT', `/things/${thing.id}/associations`, t, payload)).status).toBe(401);
    }
    expect((await call(server, 'PUT', `/things/${thing.id}/associations`, token.stranger, payload)).status).toBe(404);
    expect((await call(server, 'PUT', `/things/${thing.id}/associations`, token.reader, payload)).status).toBe(403);
    const notOwner = await call(
      server,
      'PUT',
      `/things/${managedThing.id}/associations`,
      token.admin,
      relations([org.child.id, '', 'accessor']),
    );
    expect(notOwner.status).toBe(422);
    expect(notOwner.body.message).toBe("Only the asset's owner organization can change its organization access");
    expect(await assetTables()).toBe(before);
    const haas = await call(
      server,
      'PUT',
      `/things/${managedThing.id}/associations`,
      token.engineer,
      relations([org.stranger.id, '', 'accessor']),
    );
    expect(haas.status).toBe(200);
  });

  it('property: bad bodies never give a 5xx and never change a row', async () => {
    const thing = await insertThing(org.a.id);
    const before = await assetTables();
    const element = fc.record({ organization_uuid: fc.oneof(junk, fc.uuid()), organization_name: junk, relationship_type: junk });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 3 }).filter((v) => !(typeof v === 'object' && v !== null && 'organization_relationships' in v)),
          fc.record({
            organization_relationships: fc.oneof(
              junk.filter((v) => !(Array.isArray(v) && v.length === 0)),
              fc.array(element, { minLength: 1, maxLength: 3 }),
            ),
          }),
        ),
        async (payload) => {
          const answer = await call(server, 'PUT', `/things/${thing.id}/associations`, token.admin, payload);
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    expect(await assetTables()).toBe(before);
  });
});

describe('part1 §7 PUT /things/{id}/r2r', () => {
  const r2rReady = (values: Partial<typeof things.$inferInsert> = {}) =>
    insertThing(org.a.id, { deviceType: 'ha5', isR2rEnabled: true, isAllowedForTestMode: true, ...values });

  it('a test alert to a connected standby responder is delivered and recorded as a test', async () => {
    const thing = await r2rReady();
    const answer = await call(server, 'PUT', `/things/${thing.id}/r2r`, token.admin, { action: 'test' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ delivered: true });
    const [alert] = await server.database.db.select().from(r2rAlerts).where(eq(r2rAlerts.thingId, thing.id));
    expect(alert).toMatchObject({ isTest: true, delivered: true, organizationId: org.a.id, lat: 41.88, lng: -87.63 });
    expect(alert?.alertTime.getTime()).toBe(server.clock.ms);
  });

  it('a standby responder whose heartbeat has gone stale (not connected now) → { delivered: false }, still recorded', async () => {
    const thing = await r2rReady({ heartbeatAt: new Date(server.clock.ms - 5 * MINUTE_MS) });
    const answer = await call(server, 'PUT', `/things/${thing.id}/r2r`, token.admin, { action: 'test' });
    expect(answer.json).toEqual({ delivered: false });
    const [alert] = await server.database.db.select().from(r2rAlerts).where(eq(r2rAlerts.thingId, thing.id));
    expect(alert).toMatchObject({ isTest: true, delivered: false });
  });

  it.each([
    ['an offline asset', { heartbeatAt: null }, 'R2R test not allowed: Invalid asset status'],
    ['an enroute (active) asset', { enroute: true }, 'R2R test not allowed: Invalid asset status'],
    ['an api device', { deviceType: 'api' }, 'R2R test not allowed: R2R testing available only for HA5 and HA7 devices'],
    ['R2R not enabled', { isR2rEnabled: false }, 'R2R test not allowed: R2R not enabled'],
    ['a type without R2R hardware', { thingTypeId: 'tow' }, 'R2R test not allowed: R2R not enabled'],
    ['an out-of-service (standby) asset', { inService: false }, 'R2R test not allowed: Invalid asset status'],
  ])('part1 §5 the server refuses the test for %s (422 → Something went wrong)', async (_case, values, message) => {
    const resolved = { ...values, ...('thingTypeId' in values ? { thingTypeId: typeId[values.thingTypeId as string]! } : {}) };
    const thing = await r2rReady(resolved as Partial<typeof things.$inferInsert>);
    const before = await assetTables();
    const answer = await call(server, 'PUT', `/things/${thing.id}/r2r`, token.admin, { action: 'test' });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
    expect(errorText('assetAction', { status: 422, message: answer.body.message }).text).toBe('Something went wrong');
    expect(await assetTables()).toBe(before);
  });

  it('test mode switches on only where it is allowed, and off', async () => {
    const thing = await r2rReady();
    const on = await call(server, 'PUT', `/things/${thing.id}/r2r`, token.admin, { test_mode: true });
    expect(on.json).toEqual({ id: thing.id, is_test_mode_on: true });
    expect((await thingRow(thing.id)).isTestModeOn).toBe(true);
    await call(server, 'PUT', `/things/${thing.id}/r2r`, token.admin, { test_mode: false });
    expect((await thingRow(thing.id)).isTestModeOn).toBe(false);
    const notAllowed = await r2rReady({ isAllowedForTestMode: false });
    const refused = await call(server, 'PUT', `/things/${notAllowed.id}/r2r`, token.admin, { test_mode: true });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Test mode is not allowed for this asset');
    expect((await thingRow(notAllowed.id)).isTestModeOn).toBe(false);
  });

  it("authorization: 401; another organization 404 → 'Asset not found'; without thing:invoke_r2r 403; nothing changes", async () => {
    const thing = await r2rReady();
    const removed = await r2rReady({ deletedAt: server.clock.now() });
    const before = await assetTables();
    const refused = await refusedTokens(server, user.admin);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'PUT', `/things/${thing.id}/r2r`, t, { action: 'test' })).status).toBe(401);
    }
    const stranger = await call(server, 'PUT', `/things/${thing.id}/r2r`, token.stranger, { test_mode: true });
    expect(stranger.status).toBe(404);
    expect(errorText('assetAction', { status: 404, message: stranger.body.message }).text).toBe('Asset not found');
    expect((await call(server, 'PUT', `/things/${removed.id}/r2r`, token.admin, { action: 'test' })).status).toBe(404);
    expect((await call(server, 'PUT', `/things/${thing.id}/r2r`, token.reader, { action: 'test' })).status).toBe(403);
    expect(await assetTables()).toBe(before);
  });

  it('property: bad bodies never give a 5xx and never change a row', async () => {
    const thing = await r2rReady({ isAllowedForTestMode: false });
    const before = await assetTables();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.record({ action: junk.filter((v) => v !== 'test') }),
          fc.record({ test_mode: junk.filter((v) => v !== false) }),
          fc.constant({ action: 'test', test_mode: true }),
        ),
        async (payload) => {
          const answer = await call(server, 'PUT', `/things/${thing.id}/r2r`, token.admin, payload);
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    expect(await assetTables()).toBe(before);
  });
});

describe('part1 §7 PUT /things/{thingId}/light_intensity', () => {
  it('stores one of the options', async () => {
    const thing = await insertThing(org.a.id);
    const answer = await call(server, 'PUT', `/things/${thing.id}/light_intensity`, token.admin, { light_intensity: 75 });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ id: thing.id, light_intensity: 75 });
    expect((await thingRow(thing.id)).lightIntensity).toBe(75);
  });

  it('part1 §5 refuses a status above stationary or out of service (422) and a value not offered (422 naming the field)', async () => {
    const pending = await insertThing(org.a.id, { heartbeatAt: new Date(server.clock.ms - 9 * HOUR_MS) });
    const outOfService = await insertThing(org.a.id, { inService: false });
    const before = await assetTables();
    const status = await call(server, 'PUT', `/things/${pending.id}/light_intensity`, token.admin, { light_intensity: 50 });
    expect(status.status).toBe(422);
    expect(status.body.message).toBe('Light intensity cannot change: Invalid asset status');
    expect(errorText('assetAction', { status: 422, message: status.body.message }).text).toBe('Something went wrong');
    const oos = await call(server, 'PUT', `/things/${outOfService.id}/light_intensity`, token.admin, { light_intensity: 50 });
    expect(oos.status).toBe(422);
    expect(oos.body.message).toBe('Light intensity cannot change: Invalid asset status');
    const value = await call(server, 'PUT', `/things/${pending.id}/light_intensity`, token.admin, { light_intensity: 33 });
    expect(value.status).toBe(422);
    expect(value.body.message).toBe('light_intensity: must be one of 25, 50, 75, 100');
    expect(await assetTables()).toBe(before);
  });

  it('authorization: 401; another organization 404; without the permission 403; nothing changes', async () => {
    const thing = await insertThing(org.a.id);
    const before = await assetTables();
    const refused = await refusedTokens(server, user.admin);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'PUT', `/things/${thing.id}/light_intensity`, t, { light_intensity: 25 })).status).toBe(401);
    }
    expect((await call(server, 'PUT', `/things/${thing.id}/light_intensity`, token.stranger, { light_intensity: 25 })).status).toBe(404);
    expect((await call(server, 'PUT', `/things/${thing.id}/light_intensity`, token.reader, { light_intensity: 25 })).status).toBe(403);
    expect(await assetTables()).toBe(before);
  });

  it('property: bad bodies never give a 5xx and never change a row', async () => {
    const thing = await insertThing(org.a.id);
    const before = await assetTables();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.record({ light_intensity: fc.oneof(junk, fc.integer()).filter((v) => ![25, 50, 75, 100].includes(v as number)) }),
        ),
        async (payload) => {
          const answer = await call(server, 'PUT', `/things/${thing.id}/light_intensity`, token.admin, payload);
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    expect(await assetTables()).toBe(before);
  });
});

describe('part1 §7 GET /organization/assignable', () => {
  it('lists the related and child organizations (not the own one), sorted by upper-cased name', async () => {
    const answer = await call(server, 'GET', '/organization/assignable', token.admin);
    expect(answer.status).toBe(200);
    const list = organizationRefWireSchema.array().parse(answer.json);
    expect(list.map((o) => o.name)).toEqual([
      'Alpha Managed Towing',
      'beta Child Precinct',
      'Charlie County (accessor of Metro)',
      'delta Accessed Fire',
    ]);
  });

  it('haas:manage: every organization but its own', async () => {
    const answer = await call(server, 'GET', '/organization/assignable', token.engineer);
    const list = organizationRefWireSchema.array().parse(answer.json);
    const all = await server.database.db.select({ id: organizations.id, name: organizations.name }).from(organizations);
    expect(list).toHaveLength(all.length - 1);
    expect(list.map((o) => o.id)).not.toContain(org.eng.id);
    const names = list.map((o) => o.name.toUpperCase());
    expect(names).toEqual([...names].sort());
  });

  it('authorization: 401; a user of another organization gets its own relations only; USER 403', async () => {
    const refused = await refusedTokens(server, user.admin);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'GET', '/organization/assignable', t)).status).toBe(401);
    }
    expect((await call(server, 'GET', '/organization/assignable', token.stranger)).json).toEqual([]);
    expect((await call(server, 'GET', '/organization/assignable', token.reader)).status).toBe(403);
  });
});

describe('authorization matrix: every read call refuses missing, revoked and expired tokens', () => {
  const reads: [Method, string][] = [
    ['GET', '/organization/things'],
    ['GET', '/organization/things/snapshot'],
    ['GET', '/organization/things_count'],
    ['GET', '/thing_types'],
    ['GET', '/thing_subtypes'],
  ];
  it.each(reads)('%s %s → 401', async (method, url) => {
    const refused = await refusedTokens(server, user.reader);
    for (const t of [null, refused.revoked, refused.expired]) {
      expect((await call(server, method, url, t)).status).toBe(401);
    }
  });

  it('a role with no permission at all is refused the asset list and count', async () => {
    const [role] = await server.database.db.insert(roles).values({ name: 'EMPTY (things test)', permissions: [] }).returning();
    const nobody = await server.createUser({ org: org.a, role: 'USER' });
    await server.database.db.update(users).set({ roleId: role!.id }).where(eq(users.id, nobody.id));
    // Sign-in refuses a role with no section, so issue its token directly.
    const issued = await issueTokens(server.database.db, nobody.id, org.a.id, server.clock.now());
    expect((await call(server, 'GET', '/organization/things', issued.access_token)).status).toBe(403);
    expect((await call(server, 'GET', '/organization/things/snapshot', issued.access_token)).status).toBe(403);
    expect((await call(server, 'GET', '/organization/things_count', issued.access_token)).status).toBe(403);
    expect((await call(server, 'GET', '/organization/assignable', issued.access_token)).status).toBe(403);
    // Reference data needs only a signed-in user.
    expect((await call(server, 'GET', '/thing_types', issued.access_token)).status).toBe(200);
  });

  it('the thing relationship of another organization leaks nothing', async () => {
    const thing = await insertThing(org.stranger.id);
    await server.database.db
      .insert(thingRelationships)
      .values({ thingId: thing.id, organizationId: org.big.id, relationshipType: 'manager' });
    const page = await listThings(token.admin);
    expect(page.data.map((t) => t.id)).not.toContain(thing.id);
    const rels = await server.database.db
      .select()
      .from(thingRelationships)
      .where(and(eq(thingRelationships.thingId, thing.id)));
    expect(rels).toHaveLength(1);
  });
});
