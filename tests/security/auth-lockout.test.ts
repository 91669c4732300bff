import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_FAILED_SIGN_INS, SECOND_MS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { users } from '../../server/db/schema';
import { createTestServer, lastMailTo, PASSWORD, userRow, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const INCORRECT = 'Email and/or password incorrect.';
const LOCKED = 'Your account is locked after 5 failed sign-in attempts. Use the unlock link we e-mailed you.';
const WRONG = 'Wrong#Pass1';
const OWNER_ADDRESS = '198.51.100.7';
const STRANGER_ADDRESS = '203.0.113.9';

interface Shown {
  status: number;
  body: string;
  text: string;
}

/** One sign-in from `address`, and what the dashboard shows for it (part 1 §8 catalogue). */
async function signIn(email: string, password: string, address = OWNER_ADDRESS, unlockToken?: string): Promise<Shown> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/user_token',
    remoteAddress: address,
    payload: {
      grant_type: 'password',
      application: 'dashboard',
      username: email,
      password,
      ...(unlockToken ? { unlock_token: unlockToken } : {}),
    },
  });
  const body = response.json() as Record<string, string>;
  const text =
    response.statusCode === 200
      ? 'signed in'
      : errorText('signIn', { status: response.statusCode, code: body.error, message: body.error_description ?? body.message }).text;
  return { status: response.statusCode, body: response.body, text };
}

async function newUser(email: string) {
  const org = await server.createOrg();
  return server.createUser({ org, role: 'USER', email });
}

describe('part1 §8 lockout: failures are counted atomically', () => {
  it('20 concurrent sign-ins, 19 wrong: the account locks and the right password is refused once locked', async () => {
    const user = await newUser('racer@example.com');
    const passwords = [...Array.from({ length: 19 }, () => WRONG), PASSWORD];
    const answers = await Promise.all(passwords.map((password) => signIn(user.email, password)));
    const texts = answers.map((answer) => answer.text);
    const incorrect = texts.filter((text) => text === INCORRECT).length;
    const locked = texts.filter((text) => text === LOCKED).length;
    expect(incorrect + locked + texts.filter((text) => text === 'signed in').length).toBe(passwords.length);
    // Whatever the order, at most (limit − 1) wrong answers before a success and as many after it
    // are 'incorrect': every other wrong password is refused as locked.
    expect(incorrect).toBeLessThanOrEqual(2 * (MAX_FAILED_SIGN_INS - 1));
    expect(locked).toBeGreaterThanOrEqual(19 - 2 * (MAX_FAILED_SIGN_INS - 1));
    // Locked now: the right password is refused with the spec's text.
    const after = await signIn(user.email, PASSWORD);
    expect(after.status).toBe(401);
    expect(after.text).toBe(LOCKED);
  });
});

describe('part1 §8 sign-in does not tell which e-mails have accounts', () => {
  it('an unknown e-mail answers exactly like a known one with a wrong password, attempt by attempt', async () => {
    await newUser('known@example.com');
    for (let attempt = 1; attempt <= MAX_FAILED_SIGN_INS + 1; attempt += 1) {
      const known = await signIn('known@example.com', WRONG);
      const unknown = await signIn('unknown@example.com', WRONG);
      expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
      expect(known.text).toBe(attempt < MAX_FAILED_SIGN_INS ? INCORRECT : LOCKED);
    }
  });

  it('a password is checked with argon2 for an unknown e-mail and for a user without a password, as for a known one', async () => {
    const org = await server.createOrg();
    const invited = await server.createUser({ org, role: 'USER', email: 'invited@example.com' });
    await server.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, invited.id));
    await newUser('checked@example.com');
    const verify = vi.spyOn(argon2, 'verify');
    for (const email of ['checked@example.com', 'nobody-here@example.com', 'invited@example.com']) {
      verify.mockClear();
      expect((await signIn(email, WRONG)).text).toBe(INCORRECT);
      expect(verify).toHaveBeenCalledTimes(1);
    }
  });
});

describe('part1 §8 lockout: a short, growing wait per e-mail and client address', () => {
  it("a stranger's failures from another address never lock the owner out", async () => {
    const user = await newUser('target@example.com');
    for (let attempt = 1; attempt <= 3 * MAX_FAILED_SIGN_INS; attempt += 1) await signIn(user.email, WRONG, STRANGER_ADDRESS);
    expect((await signIn(user.email, PASSWORD, STRANGER_ADDRESS)).text).toBe(LOCKED);
    expect((await signIn(user.email, PASSWORD, OWNER_ADDRESS)).status).toBe(200);
  });

  it('past the limit the pair waits 1 s, then 2 s after the next failure; the right password works after the wait', async () => {
    const user = await newUser('waiter@example.com');
    for (let attempt = 1; attempt < MAX_FAILED_SIGN_INS; attempt += 1) expect((await signIn(user.email, WRONG)).text).toBe(INCORRECT);
    expect((await signIn(user.email, WRONG)).text).toBe(LOCKED);
    // Waiting: even the right password is refused, without being checked.
    expect((await signIn(user.email, PASSWORD)).text).toBe(LOCKED);
    server.clock.advance(SECOND_MS);
    expect((await signIn(user.email, WRONG)).text).toBe(LOCKED);
    server.clock.advance(SECOND_MS);
    expect((await signIn(user.email, PASSWORD)).text).toBe(LOCKED);
    server.clock.advance(SECOND_MS);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
    // A success starts the count again.
    expect((await signIn(user.email, WRONG)).text).toBe(INCORRECT);
  });

  it('the unlock link mailed at the lock lets the owner in at once, even from the locked address', async () => {
    const user = await newUser('mailed@example.com');
    for (let attempt = 1; attempt <= MAX_FAILED_SIGN_INS; attempt += 1) await signIn(user.email, WRONG);
    expect((await userRow(server, user.id)).lockedAt).not.toBeNull();
    const mail = await lastMailTo(server, user.email);
    const token = /\/welcome\/unlock\/mailed%40example\.com\/([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(token).toBeDefined();
    expect((await signIn(user.email, PASSWORD, OWNER_ADDRESS, 'not-the-token')).text).toBe(LOCKED);
    expect((await signIn(user.email, PASSWORD, OWNER_ADDRESS, token)).status).toBe(200);
    expect((await userRow(server, user.id)).lockedAt).toBeNull();
  });
});

const lastMail = async (email: string) => (await lastMailTo(server, email))?.text ?? '';

/** PUT /password from `address` with the signed-in user's token. */
async function changePassword(token: string, current: string, next: string, address = OWNER_ADDRESS) {
  const response = await server.app.inject({
    method: 'PUT',
    url: '/password',
    remoteAddress: address,
    headers: server.auth(token),
    payload: { current_password: current, password: next, password_confirmation: next },
  });
  return { status: response.statusCode, json: response.json() as { error?: string; fields?: Record<string, string> } };
}

const resetWith = (token: string) =>
  server.app.inject({ method: 'PUT', url: '/reset_password', payload: { token, password: 'Another#Pass9' } });

describe('part1 §8 lockout: a wrong current password at a password change counts as a wrong sign-in', () => {
  it(`the ${MAX_FAILED_SIGN_INS}th wrong current password locks the account, mails the unlock link, and sign-in from that address waits`, async () => {
    const user = await newUser('changer@example.com');
    const token = await server.signIn(user.email);
    for (let attempt = 1; attempt < MAX_FAILED_SIGN_INS; attempt += 1) {
      const answer = await changePassword(token, WRONG, 'Brand#New1pass');
      expect(answer).toEqual({
        status: 422,
        json: expect.objectContaining({ fields: { current_password: 'Current password is incorrect' } }),
      });
    }
    expect((await userRow(server, user.id)).lockedAt).toBeNull();
    const last = await changePassword(token, WRONG, 'Brand#New1pass');
    expect(last.status).toBe(422);
    expect(last.json.fields).toEqual({ current_password: LOCKED });
    expect((await userRow(server, user.id)).lockedAt).not.toBeNull();
    expect(await lastMail(user.email)).toMatch(/\/welcome\/unlock\/changer%40example\.com\//);
    // The pair waits: the right current password and the right sign-in are refused unchecked.
    expect((await changePassword(token, PASSWORD, 'Brand#New1pass')).json.fields).toEqual({ current_password: LOCKED });
    expect((await signIn(user.email, PASSWORD)).text).toBe(LOCKED);
    // The password was not changed by any of them.
    expect(await argon2.verify((await userRow(server, user.id)).passwordHash!, PASSWORD)).toBe(true);
  });

  it('a right current password forgets the failures before it', async () => {
    const user = await newUser('forgiven@example.com');
    const token = await server.signIn(user.email);
    for (let attempt = 1; attempt < MAX_FAILED_SIGN_INS; attempt += 1) await changePassword(token, WRONG, 'Brand#New1pass');
    expect((await changePassword(token, PASSWORD, 'Brand#New1pass')).status).toBe(200);
    expect((await signIn(user.email, WRONG)).text).toBe(INCORRECT);
  });
});

describe('a password change ends the recovery links mailed before it', () => {
  it('a reset link mailed before PUT /password no longer works after it', async () => {
    const user = await newUser('resetter@example.com');
    const token = await server.signIn(user.email);
    await server.app.inject({ method: 'POST', url: '/forgot_password', payload: { email: user.email } });
    const reset = /\/welcome\/reset\/resetter%40example\.com\/([A-Za-z0-9_-]+)/.exec(await lastMail(user.email))?.[1];
    expect(reset).toBeDefined();
    expect((await changePassword(token, PASSWORD, 'Brand#New1pass')).status).toBe(200);
    const answer = await resetWith(reset!);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ message: 'Reset token is expired or does not exist.' });
    expect(await argon2.verify((await userRow(server, user.id)).passwordHash!, 'Brand#New1pass')).toBe(true);
  });
});
