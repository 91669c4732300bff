/**
 * The signed-in user's own account (part 2 §2 accounts "account" tab; §5 address and "Reset
 * password (applies to account administration as well)"): PUT /profile and PUT /password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/domain/errors';
import { MESSAGES } from '../../src/domain/validation/messages';
import { profileWireSchema } from '../../src/domain/profile';
import { users } from '../../server/db/schema';
import { WRONG_CURRENT_PASSWORD_MESSAGE } from '../../server/http/account/schema';
import { call, refusedTokens, snapshot } from '../support/account-calls';
import { createTestServer, PASSWORD, userRow, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string };
let refused: { revoked: string; expired: string };

const address = { address1: '1 Main St', address2: '', city: 'Springfield', state: 'il', postal_code: '62701', country_code: 'us' };

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Alpha County' });
  const someone = await server.createUser({ org: orgA, role: 'USER' });
  refused = await refusedTokens(server, someone);
}, 120_000);
afterAll(() => server.close());

const usersSnapshot = () => snapshot(server, users, users.id);

describe('PUT /profile (designed): the signed-in user saves names, phone and address', () => {
  it('saves and answers the profile; state and country upper-cased, line 2 optional', async () => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const answer = await call(server, 'PUT', '/profile', token, {
      firstname: ' Ada ',
      lastname: 'Lovelace',
      phone: '+1 (555) 010-0100',
      ...address,
    });
    expect(answer.status).toBe(200);
    const wire = profileWireSchema.parse(answer.json);
    expect(wire).toMatchObject({
      id: user.id,
      firstname: 'Ada',
      phone: '+1 (555) 010-0100',
      state: 'IL',
      country_code: 'US',
      address2: null,
    });
    const row = await userRow(server, user.id);
    expect(row).toMatchObject({
      firstname: 'Ada',
      lastname: 'Lovelace',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      countryCode: 'US',
    });
    expect(row.updatedAt.getTime()).toBe(server.clock.ms);
  });

  it.each([
    ['a US state not in the list', { state: 'ZZ' }, 'state', MESSAGES.invalidState],
    ['a Canadian province not in the list', { country_code: 'CA', state: 'IL', postal_code: 'K1A 0B1' }, 'state', MESSAGES.invalidProvince],
    ['a bad US zip', { postal_code: '1234' }, 'postal_code', MESSAGES.invalidZip],
    ['a bad phone', { phone: 'call me' }, 'phone', MESSAGES.invalidPhone],
    ['a missing city', { city: '  ' }, 'city', MESSAGES.required],
    ['a missing first name', { firstname: '' }, 'firstname', MESSAGES.required],
  ])('part2 §5: %s → 422 naming the field, nothing written', async (_name, change, field, message) => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const before = await usersSnapshot();
    const answer = await call(server, 'PUT', '/profile', token, { firstname: 'A', lastname: 'B', phone: '', ...address, ...change });
    expect(answer.status).toBe(422);
    expect((answer.body as { fields?: Record<string, string> }).fields?.[field]).toBe(message);
    expect(await usersSnapshot()).toBe(before);
  });

  it('a free-text state elsewhere (GB) is kept', async () => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const answer = await call(server, 'PUT', '/profile', token, {
      firstname: 'A',
      lastname: 'B',
      ...address,
      state: 'Greater London',
      postal_code: 'SW1A1AA',
      country_code: 'GB',
    });
    expect(answer.status).toBe(200);
    expect((await userRow(server, user.id)).state).toBe('GREATER LONDON');
  });

  it.each([
    ['none', null],
    ['revoked', 'revoked'],
    ['expired', 'expired'],
  ] as const)('no, revoked or expired token (%s) → 401, nothing written', async (_name, kind) => {
    const before = await usersSnapshot();
    const answer = await call(server, 'PUT', '/profile', kind === null ? null : refused[kind], {
      firstname: 'A',
      lastname: 'B',
      ...address,
    });
    expect(answer.status).toBe(401);
    expect(await usersSnapshot()).toBe(before);
  });
});

describe('PUT /password (designed): change password of the signed-in user (part 2 §5)', () => {
  const NEW = 'Fresh#Start2';

  it('the right current password and a good new one: the new one signs in, the old one no longer; this session stays, others end', async () => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const other = await server.signIn(user.email);
    const answer = await call(server, 'PUT', '/password', token, { current_password: PASSWORD, password: NEW, password_confirmation: NEW });
    expect(answer.status).toBe(200);
    expect((await call(server, 'GET', '/profile', token)).status).toBe(200);
    expect((await call(server, 'GET', '/profile', other)).status).toBe(401);
    await expect(server.signIn(user.email, PASSWORD)).rejects.toThrow(/400/);
    expect(await server.signIn(user.email, NEW)).toBeTruthy();
    expect((await userRow(server, user.id)).passwordChangedAt?.getTime()).toBe(server.clock.ms);
  });

  it("a wrong current password → 422 'Current password is incorrect', the password unchanged", async () => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const before = await usersSnapshot();
    const answer = await call(server, 'PUT', '/password', token, {
      current_password: 'Wrong#Pass1',
      password: NEW,
      password_confirmation: NEW,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(WRONG_CURRENT_PASSWORD_MESSAGE);
    expect(errorText('changePassword', { status: 422, code: 'wrong_password', message: answer.body.message }).text).toBe(
      WRONG_CURRENT_PASSWORD_MESSAGE,
    );
    expect(await usersSnapshot()).toBe(before);
  });

  it.each([
    ['too short', 'Ab#1', MESSAGES.passwordLength],
    ['no digit', 'Abcdefg#h', MESSAGES.passwordDigit],
    ['no uppercase', 'abcdefg#1', MESSAGES.passwordUppercase],
    ['no lowercase', 'ABCDEFG#1', MESSAGES.passwordLowercase],
    ['no special character', 'Abcdefgh1', MESSAGES.passwordSpecial],
  ])('part2 §5 rule: %s → 422 naming password', async (_name, password, message) => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const answer = await call(server, 'PUT', '/password', token, { current_password: PASSWORD, password, password_confirmation: password });
    expect(answer.status).toBe(422);
    expect((answer.body as { fields?: Record<string, string> }).fields?.password).toBe(message);
  });

  it("a confirmation that differs → 422 'Should match password'", async () => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const answer = await call(server, 'PUT', '/password', token, {
      current_password: PASSWORD,
      password: NEW,
      password_confirmation: `${NEW}x`,
    });
    expect(answer.status).toBe(422);
    expect((answer.body as { fields?: Record<string, string> }).fields?.password_confirmation).toBe('Should match password');
  });

  it("part2 §5 not one of the last 10: the current one and an earlier one are refused ('Cannot be same as last 10 passwords.')", async () => {
    const user = await server.createUser({ org: orgA, role: 'USER' });
    const token = await server.signIn(user.email);
    const same = await call(server, 'PUT', '/password', token, {
      current_password: PASSWORD,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(same.status).toBe(422);
    expect(errorText('changePassword', { status: 422, code: same.body.error, message: same.body.message }).text).toBe(
      'Cannot be same as last 10 passwords.',
    );
    expect(
      (await call(server, 'PUT', '/password', token, { current_password: PASSWORD, password: NEW, password_confirmation: NEW })).status,
    ).toBe(200);
    const back = await call(server, 'PUT', '/password', token, {
      current_password: NEW,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(back.status).toBe(422);
    expect(back.body.error).toBe('password_reused');
  });

  it('no token → 401', async () => {
    expect(
      (await call(server, 'PUT', '/password', null, { current_password: PASSWORD, password: NEW, password_confirmation: NEW })).status,
    ).toBe(401);
  });
});
