import { describe, expect, it } from 'vitest';
import {
  changesNamesOnly,
  deleteUserResponseSchema,
  fromUserWire,
  patchUserResponseSchema,
  toCreateUserPayload,
  toLegacyUpdateUserPayload,
  toPatchUserPayload,
  toUpdateUserPayload,
  userFullName,
  usersFromListWire,
  usersListWireSchema,
  USER_BADGES,
  userWireSchema,
  type UserForm,
} from '../../src/domain/user';

const u = (id: string, o: Record<string, unknown> = {}) => ({
  id,
  email: `${id}@example.com`,
  firstname: `First ${id}`,
  lastname: `Last ${id}`,
  role_id: 2,
  sign_in_count: 3,
  last_sign_in_at: '2026-11-20T10:00:00.000Z',
  ...o,
});

describe('part2 §3 User', () => {
  it('maps the wire', () => {
    expect(fromUserWire(userWireSchema.parse({ ...u('u1'), version: 4 }))).toEqual({
      id: 'u1',
      email: 'u1@example.com',
      firstName: 'First u1',
      lastName: 'Last u1',
      roleId: 2,
      roleLabel: null,
      signInCount: 3,
      lastSignInAt: Date.parse('2026-11-20T10:00:00.000Z'),
      badge: null,
      version: 4,
    });
  });

  it("part2 §6: role_name gives the shown label ('USER (Incidents/Events only)' → Media)", () => {
    expect(fromUserWire(userWireSchema.parse(u('u1', { role_name: 'USER (Incidents/Events only)' }))).roleLabel).toBe('Media');
    expect(fromUserWire(userWireSchema.parse(u('u1', { role_name: 'MANUFACTURER ADMIN' }))).roleLabel).toBe('Org Admin');
  });

  it('defaults missing optional fields', () => {
    const user = fromUserWire(userWireSchema.parse({ id: 'u', email: 'e@x.io' }));
    expect(user).toMatchObject({ firstName: '', lastName: '', roleId: null, signInCount: 0, lastSignInAt: null });
    expect(userFullName(user)).toBe('e@x.io');
    expect(userFullName({ firstName: 'Ann', lastName: '', email: 'a@x.io' })).toBe('Ann');
  });

  it('rejects a non-integer role id', () => {
    expect(userWireSchema.safeParse(u('u1', { role_id: 1.5 })).success).toBe(false);
    expect(userWireSchema.safeParse(u('u1', { role_id: '2' })).success).toBe(false);
  });
});

describe('part2 §2, §7 users list: MANAGER and ACCESS badges', () => {
  it('badges managers and accessors; own users have none; duplicates keep the first', () => {
    const list = usersListWireSchema.parse({
      organization_users: [u('u1'), u('u2')],
      organization_managers: [u('m1'), u('u2')],
      organization_accessors: [u('a1'), u('m1')],
    });
    expect(usersFromListWire(list).map((x) => [x.id, x.badge])).toEqual([
      ['u1', null],
      ['u2', null],
      ['m1', 'MANAGER'],
      ['a1', 'ACCESS'],
    ]);
    expect(USER_BADGES).toEqual({ manager: 'MANAGER', accessor: 'ACCESS' });
  });

  it('manager and accessor lists may be absent', () => {
    expect(usersFromListWire(usersListWireSchema.parse({ organization_users: [u('u1')] }))).toHaveLength(1);
  });
});

describe('part2 §7 user payloads', () => {
  const form: UserForm = { firstName: ' Ann ', lastName: 'Lee ', email: ' ann@example.com', roleId: 4 };

  it('POST /users: firstname, lastname, email, role_id', () => {
    expect(toCreateUserPayload(form)).toEqual({ firstname: 'Ann', lastname: 'Lee', email: 'ann@example.com', role_id: 4 });
  });

  it('PUT /users/{id}: firstname, lastname, email, id, role_id', () => {
    expect(toUpdateUserPayload('u9', form)).toEqual({ firstname: 'Ann', lastname: 'Lee', email: 'ann@example.com', id: 'u9', role_id: 4 });
  });

  it('legacy PUT /users/{id}: firstname, lastname, role_id', () => {
    expect(toLegacyUpdateUserPayload(form)).toEqual({ firstname: 'Ann', lastname: 'Lee', role_id: 4 });
  });

  it('PATCH /users/{userId}: firstName and lastName', () => {
    expect(toPatchUserPayload(form)).toEqual({ firstName: 'Ann', lastName: 'Lee' });
  });

  it('an edit of the names alone is the PATCH; a changed email or role is the PUT', () => {
    const user = { email: 'ann@example.com', roleId: 4 };
    expect(changesNamesOnly(user, { ...form, firstName: 'Anna' })).toBe(true);
    expect(changesNamesOnly(user, { ...form, email: ' ann@example.com ' })).toBe(true);
    expect(changesNamesOnly(user, { ...form, email: 'anna@example.com' })).toBe(false);
    expect(changesNamesOnly(user, { ...form, roleId: 3 })).toBe(false);
    expect(changesNamesOnly({ email: 'ann@example.com', roleId: null }, form)).toBe(false);
  });

  it('responses', () => {
    expect(patchUserResponseSchema.parse({ id: 'u9', extra: 1 })).toEqual({ id: 'u9' });
    expect(deleteUserResponseSchema.safeParse({ id: 'u9' }).success).toBe(false);
    expect(deleteUserResponseSchema.parse({ uuid: 'u9' })).toEqual({ uuid: 'u9' });
  });
});
