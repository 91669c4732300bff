import { desc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/domain/errors';
import { roleWireSchema } from '../../src/domain/role';
import {
  deleteUserResponseSchema,
  patchUserResponseSchema,
  userWireSchema,
  usersFromListWire,
  usersListWireSchema,
} from '../../src/domain/user';
import { mailOutbox, roles, users } from '../../server/db/schema';
import { CANNOT_DELETE_SELF_MESSAGE } from '../../server/http/users/schema';
import { badBodies, badIds, call, refusedTokens, snapshot, type Method } from '../support/account-calls';
import { createTestServer, PASSWORD, userRow, type TestServer } from '../support/test-server';

let server: TestServer;
let roleIds: Map<string, number>;
/** The caller's organization A, an unrelated B, M managing A, X accessing A. */
let orgA: { id: string };
let orgB: { id: string };
let orgM: { id: string };
let orgX: { id: string };
let orgAdminA: typeof users.$inferSelect;
let adminA: typeof users.$inferSelect;
let plainA: typeof users.$inferSelect;
let orgAdminB: typeof users.$inferSelect;
let managerM: typeof users.$inferSelect;
let accessorX: typeof users.$inferSelect;
const token: Record<'orgAdminA' | 'adminA' | 'plainA' | 'orgAdminB', string> = { orgAdminA: '', adminA: '', plainA: '', orgAdminB: '' };
let refused: { revoked: string; expired: string };

beforeAll(async () => {
  server = await createTestServer();
  roleIds = new Map((await server.database.db.select().from(roles)).map((role) => [role.name, role.id]));
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  orgM = await server.createOrg({ name: 'Metro Manager' });
  orgX = await server.createOrg({ name: 'Xpress Access' });
  await server.relate(orgA.id, orgM.id, 'manager');
  await server.relate(orgA.id, orgX.id, 'accessor');
  orgAdminA = await server.createUser({ org: orgA, role: 'MANUFACTURER ADMIN', lastname: 'Adams' });
  adminA = await server.createUser({ org: orgA, role: 'ADMIN', lastname: 'Baker' });
  plainA = await server.createUser({ org: orgA, role: 'USER', lastname: 'Carter' });
  orgAdminB = await server.createUser({ org: orgB, role: 'MANUFACTURER ADMIN' });
  managerM = await server.createUser({ org: orgM, role: 'ADMIN' });
  accessorX = await server.createUser({ org: orgX, role: 'USER' });
  for (const [key, user] of [
    ['orgAdminA', orgAdminA],
    ['adminA', adminA],
    ['plainA', plainA],
    ['orgAdminB', orgAdminB],
  ] as const) {
    token[key] = await server.signIn(user.email);
  }
  refused = await refusedTokens(server, adminA);
}, 120_000);
afterAll(() => server.close());

const roleId = (name: string) => roleIds.get(name)!;
const usersSnapshot = () => snapshot(server, users, users.id);

/** A fresh USER of organization A that a test may change. */
async function victim(role = 'USER') {
  return server.createUser({ org: orgA, role });
}

describe('authorization matrix: no, revoked or expired token → 401 for every call of this area', () => {
  const calls: [Method, string][] = [
    ['GET', '/organization/users'],
    ['POST', '/users'],
    ['POST', '/users/'],
    ['PUT', '/users/00000000-0000-4000-8000-000000000000'],
    ['PATCH', '/users/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/users/00000000-0000-4000-8000-000000000000'],
    ['GET', '/roles'],
  ];
  it.each(calls)('%s %s', async (method, url) => {
    const before = await usersSnapshot();
    const body = method === 'GET' || method === 'DELETE' ? undefined : { firstname: 'A', lastname: 'B', email: 'a@b.co', role_id: 1 };
    for (const bearer of [null, refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer, body)).status).toBe(401);
    }
    expect(await usersSnapshot()).toBe(before);
  });
});

describe('part2 §7 GET /organization/users', () => {
  it("each row carries its role's name, so a role the caller may not assign still shows its label (part 2 §6)", async () => {
    const answer = await call(server, 'GET', '/organization/users', token.adminA);
    expect(answer.status).toBe(200);
    const listed = usersFromListWire(usersListWireSchema.parse(answer.json));
    expect(listed.find((u) => u.id === orgAdminA.id)?.roleLabel).toBe('Org Admin');
    expect(listed.find((u) => u.id === plainA.id)?.roleLabel).toBe('User');
    expect(listed.find((u) => u.id === managerM.id)).toMatchObject({ badge: 'MANAGER', roleLabel: 'Admin' });
  });

  it('answers the organization users, managers (MANAGER) and accessors (ACCESS) in the user wire', async () => {
    const answer = await call(server, 'GET', '/organization/users', token.orgAdminA);
    expect(answer.status).toBe(200);
    const wire = usersListWireSchema.parse(answer.json);
    const own = wire.organization_users.map((u) => u.id);
    expect(own).toEqual(expect.arrayContaining([orgAdminA.id, adminA.id, plainA.id]));
    expect(own).not.toContain(orgAdminB.id);
    expect(wire.organization_managers?.map((u) => u.id)).toEqual([managerM.id]);
    expect(wire.organization_accessors?.map((u) => u.id)).toEqual([accessorX.id]);
    const listed = usersFromListWire(wire);
    expect(listed.find((u) => u.id === managerM.id)?.badge).toBe('MANAGER');
    expect(listed.find((u) => u.id === accessorX.id)?.badge).toBe('ACCESS');
    expect(listed.find((u) => u.id === adminA.id)?.badge).toBeNull();
    const row = wire.organization_users.find((u) => u.id === adminA.id)!;
    expect(row).toMatchObject({ email: adminA.email, firstname: 'Test', lastname: 'Baker', role_id: roleId('ADMIN') });
    // Nothing secret leaves: no hashes or tokens.
    expect(JSON.stringify(answer.json)).not.toMatch(/password|token|hash/i);
  });

  it('a user of another organization sees only their own users, and naming A is 404 Organization not found', async () => {
    const answer = await call(server, 'GET', '/organization/users', token.orgAdminB);
    const wire = usersListWireSchema.parse(answer.json);
    expect(wire.organization_users.map((u) => u.id)).toEqual([orgAdminB.id]);
    const named = await call(server, 'GET', `/organization/users?organization_id=${orgA.id}`, token.orgAdminB);
    expect(named.status).toBe(404);
    expect(errorText('lists', { status: named.status, message: named.body.message }).text).toBe('Organization not found');
  });

  it('a manager organization administers the users of the organization it manages', async () => {
    const managerAdmin = await server.createUser({ org: orgM, role: 'MANUFACTURER ADMIN' });
    const answer = await call(server, 'GET', `/organization/users?organization_id=${orgA.id}`, await server.signIn(managerAdmin.email));
    expect(answer.status).toBe(200);
    expect(usersListWireSchema.parse(answer.json).organization_users.map((u) => u.id)).toContain(plainA.id);
  });

  it('an accessor organization does not (404)', async () => {
    const accessorAdmin = await server.createUser({ org: orgX, role: 'MANUFACTURER ADMIN' });
    const answer = await call(server, 'GET', `/organization/users?organization_id=${orgA.id}`, await server.signIn(accessorAdmin.email));
    expect(answer.status).toBe(404);
  });

  it.each(['USER', 'USER (Incidents / Events only)'])('part2 §6 accounts row: %s holds no accounts permission → 403', async (role) => {
    const user = await server.createUser({ org: orgA, role });
    const answer = await call(server, 'GET', '/organization/users', await server.signIn(user.email));
    expect(answer.status).toBe(403);
  });
});

describe('part2 §7 POST /users (and legacy POST /users/)', () => {
  const body = (email: string, role = 'USER') => ({ firstname: ' Dana ', lastname: 'Dispatch', email, role_id: roleId(role) });

  it('creates the user without a password and mails a set-password link that works', async () => {
    const answer = await call(server, 'POST', '/users', token.orgAdminA, body('dana@example.com'));
    expect(answer.status).toBe(201);
    const wire = userWireSchema.parse(answer.json);
    expect(wire).toMatchObject({
      email: 'dana@example.com',
      firstname: 'Dana',
      lastname: 'Dispatch',
      role_id: roleId('USER'),
      sign_in_count: 0,
    });
    const row = await userRow(server, wire.id);
    expect(row).toMatchObject({ organizationId: orgA.id, passwordHash: null, createdBy: orgAdminA.id });
    expect(row.createdAt.getTime()).toBe(server.clock.ms);

    const [mail] = await server.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, 'dana@example.com'))
      .orderBy(desc(mailOutbox.createdAt));
    const link = /\/welcome\/reset\/([^/\s]+)\/([A-Za-z0-9_-]+)/.exec(mail!.text);
    expect(link?.[1]).toBe(encodeURIComponent('dana@example.com'));
    expect(mail!.text).toContain('http://lightbar.test/welcome/reset/');
    const reset = await server.app.inject({ method: 'PUT', url: '/reset_password', payload: { token: link![2], password: PASSWORD } });
    expect(reset.statusCode).toBe(200);
    expect(await server.signIn('dana@example.com')).toMatch(/\S{20,}/);
  });

  it('the legacy POST /users/ creates too', async () => {
    const answer = await call(server, 'POST', '/users/', token.orgAdminA, body('legacy.add@example.com'));
    expect(answer.status).toBe(201);
    expect(userWireSchema.parse(answer.json).email).toBe('legacy.add@example.com');
  });

  it("part2 §8 'Add user', 422 with 'Email': a taken e-mail (any case) → 'Email is already in use. Please try another one.'", async () => {
    const before = await usersSnapshot();
    const answer = await call(server, 'POST', '/users', token.orgAdminA, body(plainA.email.toUpperCase()));
    expect(answer.status).toBe(422);
    expect(errorText('addUser', { status: answer.status, message: answer.body.message }).text).toBe(
      'Email is already in use. Please try another one.',
    );
    expect(await usersSnapshot()).toBe(before);
  });

  it.each([
    [{ firstname: '', lastname: 'L', email: 'f@example.com' }, 'firstname: Required'],
    [{ firstname: 'F', lastname: '   ', email: 'f@example.com' }, 'lastname: Required'],
    [{ firstname: 'F', lastname: 'L', email: '' }, 'email: Required'],
    [{ firstname: 'F', lastname: 'L', email: 'not-an-email' }, 'email: Must be a valid email'],
  ])('part2 §5 User: %j → 422 %s', async (fields, message) => {
    const answer = await call(server, 'POST', '/users', token.orgAdminA, { ...fields, role_id: roleId('USER') });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
  });

  it('part2 §5 roleId integer required; an unknown role is 422', async () => {
    expect((await call(server, 'POST', '/users', token.orgAdminA, { ...body('r1@example.com'), role_id: undefined })).body.message).toBe(
      'role_id: Required',
    );
    expect((await call(server, 'POST', '/users', token.orgAdminA, { ...body('r1@example.com'), role_id: 1.5 })).body.message).toBe(
      'role_id: Required',
    );
    expect((await call(server, 'POST', '/users', token.orgAdminA, { ...body('r1@example.com'), role_id: 424242 })).body.message).toBe(
      'role_id: Role not found',
    );
  });

  it('no one assigns a role with more permissions than their own → 403, nothing created', async () => {
    const before = await usersSnapshot();
    for (const role of ['MANUFACTURER ADMIN', 'ENGINEER']) {
      expect((await call(server, 'POST', '/users', token.adminA, body(`esc.${role.length}@example.com`, role))).status).toBe(403);
    }
    const escalation = await call(server, 'POST', '/users', token.orgAdminA, body('esc.eng@example.com', 'ENGINEER'));
    expect(escalation.status).toBe(403);
    // part2 §8 'Add user', other → 'Unknown failure.'
    expect(errorText('addUser', { status: escalation.status, message: escalation.body.message }).text).toBe('Unknown failure.');
    expect(await usersSnapshot()).toBe(before);
    // Its own role and lesser ones are fine.
    expect((await call(server, 'POST', '/users', token.adminA, body('same.level@example.com', 'ADMIN'))).status).toBe(201);
  });

  it('haas:manage assigns any role', async () => {
    const hq = await server.createOrg();
    const engineer = await server.createUser({ org: hq, role: 'ENGINEER' });
    const answer = await call(server, 'POST', '/users', await server.signIn(engineer.email), {
      ...body('new.eng@example.com', 'ENGINEER'),
      organization_id: orgA.id,
    });
    expect(answer.status).toBe(201);
    expect((await userRow(server, userWireSchema.parse(answer.json).id)).organizationId).toBe(orgA.id);
  });

  it('a user lacking user create → 403; another organization named → 404; nothing created', async () => {
    const before = await usersSnapshot();
    expect((await call(server, 'POST', '/users', token.plainA, body('nope1@example.com'))).status).toBe(403);
    const other = await call(server, 'POST', '/users', token.orgAdminB, { ...body('nope2@example.com'), organization_id: orgA.id });
    expect(other.status).toBe(404);
    expect(await usersSnapshot()).toBe(before);
    const mails = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'nope2@example.com'));
    expect(mails).toEqual([]);
  });

  it('property: bad bodies never give a 5xx and never add a row or a mail', async () => {
    const valid = body('prop.add@example.com');
    const bodies = badBodies(valid, {
      firstname: fc.constantFrom('', '   ', 7, null, 'x'.repeat(101)),
      lastname: fc.constantFrom('', 7, false, null),
      email: fc.constantFrom('', 'a@b', 'a b@c.de', 'no-at.example.com', 12, plainA.email, ` ${orgAdminA.email.toUpperCase()} `),
      role_id: fc.constantFrom('1', 1.5, null, 424242, -1, roleId('ENGINEER')),
    });
    const before = await usersSnapshot();
    const mails = (await server.database.db.select().from(mailOutbox)).length;
    await fc.assert(
      fc.asyncProperty(bodies, async (payload) => {
        const answer = await call(server, 'POST', '/users', token.orgAdminA, payload);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
    expect(await usersSnapshot()).toBe(before);
    expect((await server.database.db.select().from(mailOutbox)).length).toBe(mails);
  });
});

describe('part2 §7 PUT /users/{id} (and the legacy body without email)', () => {
  it('updates names, e-mail and role', async () => {
    const user = await victim();
    const answer = await call(server, 'PUT', `/users/${user.id}`, token.orgAdminA, {
      id: user.id,
      firstname: 'Eve',
      lastname: 'Edited',
      email: 'eve.edited@example.com',
      role_id: roleId('ADMIN'),
    });
    expect(answer.status).toBe(200);
    expect(userWireSchema.parse(answer.json)).toMatchObject({
      id: user.id,
      firstname: 'Eve',
      email: 'eve.edited@example.com',
      role_id: roleId('ADMIN'),
    });
    const row = await userRow(server, user.id);
    expect(row).toMatchObject({ firstname: 'Eve', lastname: 'Edited', email: 'eve.edited@example.com', roleId: roleId('ADMIN') });
    expect(row.updatedAt.getTime()).toBe(server.clock.ms);
  });

  it('the legacy body (firstname, lastname, role_id) keeps the e-mail', async () => {
    const user = await victim();
    const answer = await call(server, 'PUT', `/users/${user.id}`, token.adminA, {
      firstname: 'Leg',
      lastname: 'Acy',
      role_id: roleId('USER'),
    });
    expect(answer.status).toBe(200);
    expect(await userRow(server, user.id)).toMatchObject({ firstname: 'Leg', lastname: 'Acy', email: user.email });
  });

  it("part2 §8 'User calls' 422 and 'Update user' (contains 'find'): a user of another organization, or none", async () => {
    const before = await usersSnapshot();
    for (const id of [orgAdminB.id, '11111111-1111-4111-8111-111111111111', 'not-a-uuid']) {
      const answer = await call(server, 'PUT', `/users/${id}`, token.orgAdminA, {
        firstname: 'X',
        lastname: 'Y',
        email: 'x.y@example.com',
        role_id: roleId('USER'),
      });
      expect(answer.status).toBe(422);
      const failure = { status: answer.status, message: answer.body.message };
      expect(errorText('userCalls', failure).text).toBe('User not found');
      expect(errorText('updateUser', failure).text).toBe('The selected user could not be found');
    }
    expect(await usersSnapshot()).toBe(before);
  });

  it("a taken e-mail → 422 'Email is already in use…', unchanged", async () => {
    const user = await victim();
    const before = await usersSnapshot();
    const answer = await call(server, 'PUT', `/users/${user.id}`, token.orgAdminA, {
      firstname: 'A',
      lastname: 'B',
      email: adminA.email,
      role_id: roleId('USER'),
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('Email');
    expect(errorText('updateUser', { status: 422, message: answer.body.message }).text).toBe('There was an error submitting the form');
    expect(await usersSnapshot()).toBe(before);
  });

  it('role rule: an Admin cannot promote to Org Admin, nor edit an Org Admin (403, unchanged)', async () => {
    const user = await victim();
    const boss = await victim('MANUFACTURER ADMIN');
    const before = await usersSnapshot();
    const promote = await call(server, 'PUT', `/users/${user.id}`, token.adminA, {
      firstname: 'A',
      lastname: 'B',
      role_id: roleId('MANUFACTURER ADMIN'),
    });
    expect(promote.status).toBe(403);
    // Changing a stronger user's e-mail would let a reset link take their account.
    const takeover = await call(server, 'PUT', `/users/${boss.id}`, token.adminA, {
      firstname: 'A',
      lastname: 'B',
      email: 'mine@example.com',
      role_id: roleId('USER'),
    });
    expect(takeover.status).toBe(403);
    const selfPromote = await call(server, 'PUT', `/users/${adminA.id}`, token.adminA, {
      firstname: 'A',
      lastname: 'B',
      role_id: roleId('MANUFACTURER ADMIN'),
    });
    expect(selfPromote.status).toBe(403);
    expect(await usersSnapshot()).toBe(before);
  });

  it('a user lacking user update → 403, unchanged', async () => {
    const user = await victim();
    const before = await usersSnapshot();
    expect(
      (await call(server, 'PUT', `/users/${user.id}`, token.plainA, { firstname: 'A', lastname: 'B', role_id: roleId('USER') })).status,
    ).toBe(403);
    expect(await usersSnapshot()).toBe(before);
  });

  it('property: bad bodies never give a 5xx and never change the user', async () => {
    const user = await victim();
    const valid = { id: user.id, firstname: 'Ok', lastname: 'Body', email: 'ok.body@example.com', role_id: roleId('USER') };
    const bodies = badBodies(valid, {
      id: fc.uuid().filter((id) => id !== user.id),
      firstname: fc.constantFrom('', ' ', 3, null, 'y'.repeat(101)),
      lastname: fc.constantFrom('', [], null),
      email: fc.constantFrom('', 'a@', '@b.co', 'a@b', null, adminA.email),
      role_id: fc.constantFrom('2', 2.5, null, 999, roleId('ENGINEER')),
    });
    const before = await usersSnapshot();
    await fc.assert(
      fc.asyncProperty(bodies, async (payload) => {
        const answer = await call(server, 'PUT', `/users/${user.id}`, token.orgAdminA, payload);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
    expect(await usersSnapshot()).toBe(before);
  });
});

describe('part2 §7 PATCH /users/{userId} (firstName, lastName)', () => {
  it('renames; the answer carries the id', async () => {
    const user = await victim();
    const answer = await call(server, 'PATCH', `/users/${user.id}`, token.orgAdminA, { firstName: ' Pat ', lastName: 'Patched' });
    expect(answer.status).toBe(200);
    expect(patchUserResponseSchema.parse(answer.json).id).toBe(user.id);
    userWireSchema.parse(answer.json);
    expect(await userRow(server, user.id)).toMatchObject({ firstname: 'Pat', lastname: 'Patched', email: user.email, roleId: user.roleId });
  });

  it('another organization → 422 User not found; no permission → 403; unchanged', async () => {
    const user = await victim();
    const before = await usersSnapshot();
    const other = await call(server, 'PATCH', `/users/${user.id}`, token.orgAdminB, { firstName: 'X', lastName: 'Y' });
    expect(other.status).toBe(422);
    expect(errorText('userCalls', { status: 422, message: other.body.message }).text).toBe('User not found');
    expect((await call(server, 'PATCH', `/users/${user.id}`, token.plainA, { firstName: 'X', lastName: 'Y' })).status).toBe(403);
    expect(await usersSnapshot()).toBe(before);
  });

  it('property: bad bodies and ids never give a 5xx and never change a row', async () => {
    const user = await victim();
    const bodies = badBodies(
      { firstName: 'Ok', lastName: 'Fine' },
      {
        firstName: fc.constantFrom('', '  ', 1, null, 'z'.repeat(101)),
        lastName: fc.constantFrom('', {}, true),
      },
    );
    const before = await usersSnapshot();
    await fc.assert(
      fc.asyncProperty(bodies, badIds, async (payload, id) => {
        for (const target of [user.id, encodeURIComponent(id)]) {
          const answer = await call(server, 'PATCH', `/users/${target}`, token.orgAdminA, payload);
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        }
      }),
      { numRuns: 30 },
    );
    expect(await usersSnapshot()).toBe(before);
  });
});

describe('part2 §7 DELETE /users/{id}', () => {
  it('soft-deletes, answers { uuid }, and the deleted user’s token stops working at once', async () => {
    const user = await victim();
    const userToken = await server.signIn(user.email);
    expect((await call(server, 'GET', '/profile', userToken)).status).toBe(200);
    const revokedIds: string[][] = [];
    const listener = (ids: string[]) => revokedIds.push(ids);
    server.deps.events.on('tokens-revoked', listener);
    const answer = await call(server, 'DELETE', `/users/${user.id}`, token.orgAdminA);
    server.deps.events.off('tokens-revoked', listener);
    expect(answer.status).toBe(200);
    expect(deleteUserResponseSchema.parse(answer.json).uuid).toBe(user.id);
    expect((await userRow(server, user.id)).deletedAt?.getTime()).toBe(server.clock.ms);
    expect(revokedIds.flat()).toHaveLength(1);
    expect((await call(server, 'GET', '/profile', userToken)).status).toBe(401);
    const list = usersListWireSchema.parse((await call(server, 'GET', '/organization/users', token.orgAdminA)).json);
    expect(list.organization_users.map((u) => u.id)).not.toContain(user.id);
    // Deleting again: gone.
    expect((await call(server, 'DELETE', `/users/${user.id}`, token.orgAdminA)).status).toBe(422);
    // Its e-mail may be used again.
    expect(
      (
        await call(server, 'POST', '/users', token.orgAdminA, {
          firstname: 'Re',
          lastname: 'Use',
          email: user.email,
          role_id: roleId('USER'),
        })
      ).status,
    ).toBe(201);
  });

  it('a user cannot delete themselves (422, a clear message)', async () => {
    const answer = await call(server, 'DELETE', `/users/${orgAdminA.id}`, token.orgAdminA);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(CANNOT_DELETE_SELF_MESSAGE);
    expect((await userRow(server, orgAdminA.id)).deletedAt).toBeNull();
  });

  it('another organization → 422 User not found; no permission → 403; stronger role → 403; unchanged', async () => {
    const user = await victim();
    const boss = await victim('MANUFACTURER ADMIN');
    const before = await usersSnapshot();
    const other = await call(server, 'DELETE', `/users/${user.id}`, token.orgAdminB);
    expect(other.status).toBe(422);
    expect(errorText('userCalls', { status: 422, message: other.body.message }).text).toBe('User not found');
    expect((await call(server, 'DELETE', `/users/${user.id}`, token.plainA)).status).toBe(403);
    expect((await call(server, 'DELETE', `/users/${boss.id}`, token.adminA)).status).toBe(403);
    expect(await usersSnapshot()).toBe(before);
  });

  it('property: arbitrary ids never give a 5xx and never delete a row', async () => {
    const before = await usersSnapshot();
    await fc.assert(
      fc.asyncProperty(badIds, async (id) => {
        const answer = await call(server, 'DELETE', `/users/${encodeURIComponent(id)}`, token.orgAdminA);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
    expect(await usersSnapshot()).toBe(before);
  });
});

describe('part2 §7 GET /roles', () => {
  const names = async (bearer: string) => {
    const answer = await call(server, 'GET', '/roles', bearer);
    expect(answer.status).toBe(200);
    return roleWireSchema
      .array()
      .parse(answer.json)
      .map((role) => role.name);
  };

  it('answers the roles the caller may assign, sorted by order, with labels', async () => {
    expect(await names(token.orgAdminA)).toEqual(['USER (Incidents / Events only)', 'USER', 'ADMIN', 'MANUFACTURER ADMIN']);
    expect(await names(token.adminA)).toEqual(['USER (Incidents / Events only)', 'USER', 'ADMIN']);
    const answer = await call(server, 'GET', '/roles', token.orgAdminA);
    expect((answer.json as { label: string }[]).map((role) => role.label)).toEqual(['Media', 'User', 'Admin', 'Org Admin']);
  });

  it('haas:manage gets every role', async () => {
    const engineer = await server.createUser({ org: orgB, role: 'ENGINEER' });
    expect(await names(await server.signIn(engineer.email))).toHaveLength(5);
  });

  it('a user lacking an accounts permission → 403', async () => {
    expect((await call(server, 'GET', '/roles', token.plainA)).status).toBe(403);
  });
});
