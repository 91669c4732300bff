import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/domain/errors';
import { organizationWireSchema } from '../../src/domain/organization';
import {
  areas,
  areaTypes,
  closures,
  integrationConfigurations,
  organizations,
  organizationTypes,
  thingRelationships,
  things,
  thingTypes,
  users,
  wzdxFeeds,
} from '../../server/db/schema';
import { billingWireSchema } from '../../server/http/billing/schema';
import { CANNOT_DELETE_OWN_ORGANIZATION_MESSAGE } from '../../server/http/organizations/schema';
import { badBodies, badIds, call, refusedTokens, snapshot, type Method } from '../support/account-calls';
import { createTestServer, userRow, type TestServer } from '../support/test-server';

let server: TestServer;
type Org = typeof organizations.$inferSelect;
/** A with child A1 (and grandchild A1a), B unrelated, M managing A, X accessing A, HQ of Lightbar staff. */
let orgA: Org;
let orgA1: Org;
let orgA1a: Org;
let orgB: Org;
let orgM: Org;
let orgX: Org;
let orgHQ: Org;
const token = { orgAdminA: '', adminA: '', plainA: '', orgAdminB: '', orgAdminM: '', orgAdminX: '', engineer: '' };
let refused: { revoked: string; expired: string };
let typeIds: Map<string, string>;

const address = { address1: '1 Main St', address2: '', city: 'Springfield', state: 'IL', postal_code: '62701', country_code: 'US' };

beforeAll(async () => {
  server = await createTestServer();
  typeIds = new Map((await server.database.db.select().from(organizationTypes)).map((type) => [type.name, type.id]));
  orgA = await server.createOrg({
    name: 'Alpha County',
    organizationTypeId: typeIds.get('Public Safety')!,
    billingId: 'bill-a',
    maxioCustId: 'cust-a',
  });
  orgA1 = await server.createOrg({ name: 'Alpha North', parentId: orgA.id });
  orgA1a = await server.createOrg({ name: 'Alpha North Station', parentId: orgA1.id });
  orgB = await server.createOrg({ name: 'Bravo City' });
  orgM = await server.createOrg({ name: 'Metro Manager' });
  orgX = await server.createOrg({ name: 'Xpress Access' });
  orgHQ = await server.createOrg({ name: 'Lightbar HQ' });
  await server.relate(orgA.id, orgM.id, 'manager');
  await server.relate(orgA.id, orgX.id, 'accessor');
  const people = {
    orgAdminA: await server.createUser({ org: orgA, role: 'MANUFACTURER ADMIN' }),
    adminA: await server.createUser({ org: orgA, role: 'ADMIN' }),
    plainA: await server.createUser({ org: orgA, role: 'USER' }),
    orgAdminB: await server.createUser({ org: orgB, role: 'MANUFACTURER ADMIN' }),
    orgAdminM: await server.createUser({ org: orgM, role: 'MANUFACTURER ADMIN' }),
    orgAdminX: await server.createUser({ org: orgX, role: 'MANUFACTURER ADMIN' }),
    engineer: await server.createUser({ org: orgHQ, role: 'ENGINEER' }),
  };
  for (const [key, user] of Object.entries(people)) token[key as keyof typeof token] = await server.signIn(user.email);
  refused = await refusedTokens(server, people.orgAdminA);
}, 120_000);
afterAll(() => server.close());

const orgsSnapshot = () => snapshot(server, organizations, organizations.id);
async function orgRow(id: string) {
  const [row] = await server.database.db.select().from(organizations).where(eq(organizations.id, id));
  return row!;
}

describe('authorization matrix: no, revoked or expired token → 401 for every call of this area', () => {
  const calls: [Method, string][] = [
    ['GET', '/organization/ORG'],
    ['PUT', '/organization/ORG'],
    ['PUT', '/organization/'],
    ['PUT', '/organization'],
    ['DELETE', '/organization/ORG'],
    ['GET', '/organization/billing'],
  ];
  it.each(calls)('%s %s', async (method, path) => {
    const url = path.replace('ORG', orgA.id);
    const before = await orgsSnapshot();
    for (const bearer of [null, refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer, method === 'PUT' ? { name: 'Hijack', ...address } : undefined)).status).toBe(401);
    }
    expect(await orgsSnapshot()).toBe(before);
  });
});

describe('GET /organization/{id} (part 1 §3 / part 2 §3 organization; part 1 §8 organization lookups)', () => {
  it('answers the organization wire with type, managers, accessors and the child structure', async () => {
    const answer = await call(server, 'GET', `/organization/${orgA.id}`, token.plainA);
    expect(answer.status).toBe(200);
    const wire = organizationWireSchema.parse(answer.json);
    expect(wire).toMatchObject({ id: orgA.id, name: 'Alpha County', billing_id: 'bill-a', is_large_org: false });
    expect(wire.organization_type).toMatchObject({ name: 'Public Safety', acs: false });
    expect(wire.organization_managers).toEqual([{ id: orgM.id, name: 'Metro Manager' }]);
    expect(wire.organization_accessors).toEqual([{ id: orgX.id, name: 'Xpress Access' }]);
    expect(wire.child_structure).toEqual([
      { id: orgA1.id, name: 'Alpha North', parent_id: orgA.id },
      { id: orgA1a.id, name: 'Alpha North Station', parent_id: orgA1.id },
    ]);
  });

  it('a managing or accessing organization sees it; a child is visible to its parent', async () => {
    expect((await call(server, 'GET', `/organization/${orgA.id}`, token.orgAdminM)).status).toBe(200);
    expect((await call(server, 'GET', `/organization/${orgA.id}`, token.orgAdminX)).status).toBe(200);
    expect((await call(server, 'GET', `/organization/${orgA1.id}`, token.plainA)).status).toBe(200);
  });

  it("an organization the caller may not see, an unknown one and a bad id → 404 'Organization not found'", async () => {
    for (const url of [`/organization/${orgA.id}`, '/organization/22222222-2222-4222-8222-222222222222', '/organization/nope']) {
      const answer = await call(server, 'GET', url, token.orgAdminB);
      expect(answer.status).toBe(404);
      expect(errorText('organization', { status: answer.status, message: answer.body.message }).text).toBe('Organization not found');
      expect(JSON.stringify(answer.json)).not.toContain('Alpha');
    }
  });
});

describe('part2 §7 PUT /organization/{id} (name and address)', () => {
  it('updates name and address; the postal code is upper-cased (part 2 §5), the answer is the organization wire', async () => {
    const org = await server.createOrg({ name: 'Edit Me', parentId: orgA.id });
    const answer = await call(server, 'PUT', `/organization/${org.id}`, token.orgAdminA, {
      name: ' Edited Org ',
      address1: '10 Rue Sparks',
      address2: 'Suite 2',
      city: 'Ottawa',
      state: 'ON',
      postal_code: 'k1a 0b1',
      country_code: 'ca',
    });
    expect(answer.status).toBe(200);
    const wire = organizationWireSchema.parse(answer.json);
    expect(wire).toMatchObject({ id: org.id, name: 'Edited Org', postal_code: 'K1A 0B1', country_code: 'CA', address2: 'Suite 2' });
    const row = await orgRow(org.id);
    expect(row).toMatchObject({ name: 'Edited Org', city: 'Ottawa', postalCode: 'K1A 0B1' });
    expect(row.updatedAt.getTime()).toBe(server.clock.ms);
  });

  it('part2 §3 timezone: an IANA zone is saved; an unknown one is 422 naming timezone; left out it is kept', async () => {
    const org = await server.createOrg({ name: 'Zone Org', parentId: orgA.id });
    const saved = await call(server, 'PUT', `/organization/${org.id}`, token.orgAdminA, {
      name: 'Zone Org',
      ...address,
      timezone: 'Europe/Paris',
    });
    expect(saved.status).toBe(200);
    expect(organizationWireSchema.parse(saved.json).timezone).toBe('Europe/Paris');
    expect((await orgRow(org.id)).timezone).toBe('Europe/Paris');
    const before = await orgsSnapshot();
    const bad = await call(server, 'PUT', `/organization/${org.id}`, token.orgAdminA, {
      name: 'Zone Org',
      ...address,
      timezone: 'Mars/Olympus',
    });
    expect(bad.status).toBe(422);
    expect((bad.body as { fields?: Record<string, string> }).fields?.timezone).toBe('Select a time zone');
    expect(await orgsSnapshot()).toBe(before);
    expect((await call(server, 'PUT', `/organization/${org.id}`, token.orgAdminA, { name: 'Zone Org', ...address })).status).toBe(200);
    expect((await orgRow(org.id)).timezone).toBe('Europe/Paris');
  });

  it("an org admin of another organization cannot change this one's time zone (422 'Organization not found', unchanged)", async () => {
    const before = await orgsSnapshot();
    const answer = await call(server, 'PUT', `/organization/${orgA.id}`, token.orgAdminB, {
      name: 'Alpha County',
      ...address,
      timezone: 'UTC',
    });
    expect(answer.status).toBe(422);
    expect(errorText('organizationUpdate', { status: answer.status, message: answer.body.message }).text).toBe('Organization not found');
    expect(await orgsSnapshot()).toBe(before);
  });

  it('part2 §5 country-based state: a US organization in state ZZ → 422 naming state', async () => {
    const answer = await call(server, 'PUT', `/organization/${orgA.id}`, token.orgAdminA, {
      name: 'Alpha County',
      ...address,
      state: 'ZZ',
    });
    expect(answer.status).toBe(422);
    expect((answer.body as { fields?: Record<string, string> }).fields?.state).toBe('Select a state');
  });

  it('part2 §6 accounts context: an Admin (user:manage) may edit the organization too', async () => {
    const answer = await call(server, 'PUT', `/organization/${orgA.id}`, token.adminA, { name: 'Alpha County', ...address });
    expect(answer.status).toBe(200);
  });

  it('a manager organization may edit the organization it manages', async () => {
    const answer = await call(server, 'PUT', `/organization/${orgA.id}`, token.orgAdminM, { name: 'Alpha County', ...address });
    expect(answer.status).toBe(200);
  });

  it.each([
    [{ postal_code: '1234' }, 'postal_code: Invalid zip code'],
    [{ country_code: 'GB', postal_code: 'SW1A--1AA' }, 'postal_code: Invalid postal code'],
    [{ country_code: 'USA' }, 'country_code: Must be 2 or fewer characters'],
    [{ name: '  ' }, 'name: Required'],
    [{ city: '' }, 'city: Required'],
    [{ email: 'not-mail' }, 'email: Must be a valid email'],
  ])('part2 §5 organization address: %j → 422 %s', async (change, message) => {
    const before = await orgsSnapshot();
    const answer = await call(server, 'PUT', `/organization/${orgA.id}`, token.orgAdminA, { name: 'Alpha County', ...address, ...change });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
    expect(await orgsSnapshot()).toBe(before);
  });

  it("part2 §8 'Organization update' 422: another organization, an accessed one, an unknown one → 'Organization not found', unchanged", async () => {
    const before = await orgsSnapshot();
    const cases: [string, string][] = [
      [token.orgAdminB, orgA.id],
      [token.orgAdminX, orgA.id],
      [token.orgAdminA, '33333333-3333-4333-8333-333333333333'],
      [token.orgAdminA, 'not-a-uuid'],
    ];
    for (const [bearer, id] of cases) {
      const answer = await call(server, 'PUT', `/organization/${id}`, bearer, { name: 'Hijacked', ...address });
      expect(answer.status).toBe(422);
      expect(errorText('organizationUpdate', { status: answer.status, message: answer.body.message }).text).toBe('Organization not found');
    }
    expect(await orgsSnapshot()).toBe(before);
  });

  it('a user lacking organization or user update → 403, unchanged', async () => {
    const before = await orgsSnapshot();
    expect((await call(server, 'PUT', `/organization/${orgA.id}`, token.plainA, { name: 'Hijacked', ...address })).status).toBe(403);
    expect((await call(server, 'PUT', '/organization/', token.plainA, { name: 'Hijacked', ...address })).status).toBe(403);
    expect(await orgsSnapshot()).toBe(before);
  });

  it('property: bad bodies never give a 5xx and never change a row', async () => {
    const valid = { name: 'Alpha County', ...address };
    const bodies = badBodies(valid, {
      name: fc.constantFrom('', '   ', null, 5, 'n'.repeat(201)),
      address1: fc.constantFrom('', null, false),
      city: fc.constantFrom('', ' ', 1),
      state: fc.constantFrom('', null, []),
      postal_code: fc.constantFrom('', 'ABCDE', '123456', '1234-56', null, 62701),
      country_code: fc.constantFrom('', 'USA', null, 1),
      email: fc.constantFrom('x', 'a@b', 3),
      organization_type_id: fc.constantFrom('nope', 7, '44444444-4444-4444-8444-444444444444'),
    });
    const before = await orgsSnapshot();
    await fc.assert(
      fc.asyncProperty(bodies, async (payload) => {
        const answer = await call(server, 'PUT', `/organization/${orgA.id}`, token.orgAdminA, payload);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
    expect(await orgsSnapshot()).toBe(before);
  });
});

describe('legacy PUT /organization/ and /organization/{targetId}', () => {
  const legacy = {
    name: 'Alpha County',
    email: 'dispatch@alpha.example',
    phone_number: '555-0100',
    cell_phone_number: '555-0101',
    contact_name: 'Chief Alpha',
    ...address,
  };

  it("PUT /organization/ updates the caller's organization with the legacy fields", async () => {
    const answer = await call(server, 'PUT', '/organization/', token.orgAdminA, {
      ...legacy,
      organization_type_id: orgA.organizationTypeId,
    });
    expect(answer.status).toBe(200);
    expect(organizationWireSchema.parse(answer.json)).toMatchObject({ id: orgA.id, email: 'dispatch@alpha.example' });
    expect(await orgRow(orgA.id)).toMatchObject({ phoneNumber: '555-0100', cellPhoneNumber: '555-0101', contactName: 'Chief Alpha' });
  });

  it('the organization answers its contact (phone, cell phone, contact name); a phone that is not one is 422 and changes nothing', async () => {
    const read = await call(server, 'GET', `/organization/${orgA.id}`, token.orgAdminA);
    expect(read.json).toMatchObject({ phone_number: '555-0100', cell_phone_number: '555-0101', contact_name: 'Chief Alpha' });
    const before = await orgsSnapshot();
    const bad = await call(server, 'PUT', `/organization/${orgA.id}`, token.orgAdminA, { ...legacy, cell_phone_number: 'call the chief' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('cell_phone_number: Invalid phone number');
    expect(await orgsSnapshot()).toBe(before);
  });

  it('PUT /organization/{targetId} with the new body keeps the legacy-only fields', async () => {
    const answer = await call(server, 'PUT', `/organization/${orgA.id}`, token.orgAdminA, { name: 'Alpha County', ...address });
    expect(answer.status).toBe(200);
    expect(await orgRow(orgA.id)).toMatchObject({ email: 'dispatch@alpha.example', contactName: 'Chief Alpha' });
  });

  it('changing the organization type (it carries the acs flag) needs haas:manage; an unknown type is 422', async () => {
    const before = await orgsSnapshot();
    const acs = typeIds.get('ACS')!;
    expect((await call(server, 'PUT', '/organization/', token.orgAdminA, { ...legacy, organization_type_id: acs })).status).toBe(403);
    const unknown = await call(server, 'PUT', '/organization/', token.orgAdminA, {
      ...legacy,
      organization_type_id: '55555555-5555-4555-8555-555555555555',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('organization_type_id: Organization type not found');
    expect(await orgsSnapshot()).toBe(before);
    const staff = await call(server, 'PUT', `/organization/${orgB.id}`, token.engineer, {
      ...legacy,
      name: 'Bravo City',
      organization_type_id: acs,
    });
    expect(staff.status).toBe(200);
    expect(organizationWireSchema.parse(staff.json).organization_type).toMatchObject({ name: 'ACS', acs: true });
  });
});

describe('legacy DELETE /organization/{uuid}', () => {
  it('haas:manage soft-deletes it; its users are gone and their tokens stop working', async () => {
    const doomed = await server.createOrg({ name: 'Doomed Org' });
    await server.relate(doomed.id, orgA.id, 'manager');
    const member = await server.createUser({ org: doomed, role: 'MANUFACTURER ADMIN' });
    const memberToken = await server.signIn(member.email);
    const answer = await call(server, 'DELETE', `/organization/${doomed.id}`, token.engineer);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: doomed.id, uuid: doomed.id });
    expect((await orgRow(doomed.id)).deletedAt?.getTime()).toBe(server.clock.ms);
    expect((await userRow(server, member.id)).deletedAt).not.toBeNull();
    expect((await call(server, 'GET', '/profile', memberToken)).status).toBe(401);
    expect((await call(server, 'GET', `/organization/${doomed.id}`, token.engineer)).status).toBe(404);
    // The manager no longer reaches it.
    expect((await call(server, 'GET', `/organization/${doomed.id}`, token.orgAdminA)).status).toBe(404);
    expect((await call(server, 'DELETE', `/organization/${doomed.id}`, token.engineer)).status).toBe(404);
  });

  it('refused while it owns live assets (422, nothing changed); once they are moved, everything it owns ends with it in one transaction', async () => {
    const db = server.database.db;
    const doomed = await server.createOrg({ name: 'Closing Agency' });
    const heir = await server.createOrg({ name: 'Receiving Agency' });
    const [police] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
    const [own] = await db.insert(things).values({ organizationId: doomed.id, haasId: 'CLOSE-1', thingTypeId: police!.id }).returning();
    const [shared] = await db.insert(things).values({ organizationId: heir.id, haasId: 'CLOSE-2', thingTypeId: police!.id }).returning();
    await db.insert(thingRelationships).values({ thingId: shared!.id, organizationId: doomed.id, relationshipType: 'manager' });
    const [closure] = await db
      .insert(closures)
      .values({ organizationId: doomed.id, closureType: 'manual', description: 'Lane 2', isActive: true })
      .returning();
    const [areaType] = await db.select().from(areaTypes).limit(1);
    const [area] = await db.insert(areas).values({ organizationId: doomed.id, name: 'Yard', ezTypeId: areaType!.id }).returning();
    await db
      .insert(integrationConfigurations)
      .values({ organizationId: doomed.id, provider: 'samsara', settings: { api_token: 'secret' } });
    const [feed] = await db.insert(wzdxFeeds).values({ organizationId: doomed.id, url: 'https://feeds.example/x.geojson' }).returning();

    const before = await orgsSnapshot();
    const refused = await call(server, 'DELETE', `/organization/${doomed.id}`, token.engineer);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: 'organization_has_assets',
      message: 'This organization still has 1 asset. Move or delete them before deleting the organization.',
    });
    expect(await orgsSnapshot()).toBe(before);
    expect((await db.select().from(closures).where(eq(closures.id, closure!.id)))[0]!.deletedAt).toBeNull();

    await db.update(things).set({ organizationId: heir.id }).where(eq(things.id, own!.id));
    expect((await call(server, 'DELETE', `/organization/${doomed.id}`, token.engineer)).status).toBe(200);
    const [closureAfter] = await db.select().from(closures).where(eq(closures.id, closure!.id));
    expect([closureAfter!.deletedAt?.getTime(), closureAfter!.isActive]).toEqual([server.clock.ms, false]);
    expect((await db.select().from(areas).where(eq(areas.id, area!.id)))[0]!.deletedAt?.getTime()).toBe(server.clock.ms);
    // A shared asset no longer names it as manager; its integrations (and their credentials) are gone; its feed stops.
    expect(await db.select().from(thingRelationships).where(eq(thingRelationships.organizationId, doomed.id))).toEqual([]);
    expect(await db.select().from(integrationConfigurations).where(eq(integrationConfigurations.organizationId, doomed.id))).toEqual([]);
    expect((await db.select().from(wzdxFeeds).where(eq(wzdxFeeds.id, feed!.id)))[0]!.enabled).toBe(false);
    // The asset moved away stays live, with its new organization.
    expect((await db.select().from(things).where(eq(things.id, own!.id)))[0]).toMatchObject({ organizationId: heir.id, deletedAt: null });
  });

  it('not the caller’s own organization (422)', async () => {
    const answer = await call(server, 'DELETE', `/organization/${orgHQ.id}`, token.engineer);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(CANNOT_DELETE_OWN_ORGANIZATION_MESSAGE);
    expect((await orgRow(orgHQ.id)).deletedAt).toBeNull();
  });

  it('without haas:manage → 403 (even an Org Admin, even a child organization), unchanged', async () => {
    const before = await orgsSnapshot();
    const usersBefore = await snapshot(server, users, users.id);
    expect((await call(server, 'DELETE', `/organization/${orgA1.id}`, token.orgAdminA)).status).toBe(403);
    expect((await call(server, 'DELETE', `/organization/${orgA.id}`, token.orgAdminB)).status).toBe(403);
    expect(await orgsSnapshot()).toBe(before);
    expect(await snapshot(server, users, users.id)).toBe(usersBefore);
  });

  it('property: arbitrary ids never give a 5xx and never change a row', async () => {
    const before = await orgsSnapshot();
    await fc.assert(
      fc.asyncProperty(badIds, async (id) => {
        const answer = await call(server, 'DELETE', `/organization/${encodeURIComponent(id)}`, token.engineer);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
    expect(await orgsSnapshot()).toBe(before);
  });
});

describe('GET /organization/billing (designed; billing:read)', () => {
  it('answers billing id, customer id, live asset count and the count by type (no invented plan)', async () => {
    const [police] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
    const [fire] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'fire'));
    await server.database.db.insert(things).values([
      { organizationId: orgA.id, haasId: 'BILL-1', thingTypeId: police!.id },
      { organizationId: orgA.id, haasId: 'BILL-2', thingTypeId: police!.id },
      { organizationId: orgA.id, haasId: 'BILL-5', thingTypeId: fire!.id },
      { organizationId: orgA.id, haasId: 'BILL-3', thingTypeId: police!.id, deletedAt: server.clock.now() },
      { organizationId: orgB.id, haasId: 'BILL-4', thingTypeId: police!.id },
    ]);
    const answer = await call(server, 'GET', '/organization/billing', token.orgAdminA);
    expect(answer.status).toBe(200);
    expect(billingWireSchema.parse(answer.json)).toEqual({
      billing_id: 'bill-a',
      maxio_cust_id: 'cust-a',
      asset_count: 3,
      assets_by_type: [
        { type: 'police', display_name: police!.displayName ?? 'police', count: 2 },
        { type: 'fire', display_name: fire!.displayName ?? 'fire', count: 1 },
      ],
    });
  });

  it('another organization named → 404 Organization not found; without billing:read → 403', async () => {
    const other = await call(server, 'GET', `/organization/billing?organization_id=${orgA.id}`, token.orgAdminB);
    expect(other.status).toBe(404);
    expect(errorText('organization', { status: 404 }).text).toBe('Organization not found');
    expect(JSON.stringify(other.json)).not.toContain('bill-a');
    expect((await call(server, 'GET', '/organization/billing', token.adminA)).status).toBe(403);
  });
});
