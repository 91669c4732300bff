import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { profileWireSchema } from '../../src/domain/profile';
import { tokenResponseSchema } from '../../src/domain/session';
import { tokens, users } from '../../server/db/schema';
import { createTestServer, lastMailTo as lastMailToOf, PASSWORD, userRow, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const signInBody = (username: string, password: string, unlock_token?: string) => ({
  grant_type: 'password',
  application: 'dashboard',
  username,
  password,
  ...(unlock_token ? { unlock_token } : {}),
});

async function postToken(body: object) {
  const response = await server.app.inject({ method: 'POST', url: '/user_token', payload: body });
  return { status: response.statusCode, body: response.json() as Record<string, string> };
}

/** What the dashboard shows for a sign-in answer: the server's answer through the domain catalogue. */
async function signInText(username: string, password: string) {
  const { status, body } = await postToken(signInBody(username, password));
  return errorText('signIn', { status, code: body.error, message: body.error_description ?? body.message });
}

const lastMailTo = (email: string) => lastMailToOf(server, email);

describe('part1 §7 POST /user_token, password grant', () => {
  it('answers the token response of part 1 §3 and counts the sign-in', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'ADMIN', email: 'Dispatcher@Example.com' });
    const { status, body } = await postToken(signInBody('dispatcher@example.com', PASSWORD));
    expect(status).toBe(200);
    const parsed = tokenResponseSchema.parse(body);
    expect(parsed.expires_in).toBe(7200);
    expect(parsed.created_at).toBe(Math.floor(server.clock.ms / 1000));
    expect(parsed.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await userRow(server, user.id);
    expect(row.signInCount).toBe(1);
    // Only hashes are stored.
    const stored = await server.database.db.select().from(tokens).where(eq(tokens.userId, user.id));
    expect(JSON.stringify(stored)).not.toContain(parsed.access_token);
  });

  it.each([
    ['an unknown e-mail', 'nobody@example.com', PASSWORD, 'Email and/or password incorrect.'],
    ['a wrong password', 'dispatcher@example.com', 'Wrong#Pass1', 'Email and/or password incorrect.'],
  ])('part1 §8 %s → %s', async (_case, email, password, text) => {
    expect((await signInText(email, password)).text).toBe(text);
  });

  it('part1 §8 a suspended user (right password) → User is suspended.', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', suspended: true });
    expect((await signInText(user.email, PASSWORD)).text).toBe('User is suspended.');
  });

  it('part1 §8 an organization managing access elsewhere → not_authorized_method texts', async () => {
    const org = await server.createOrg({ externalAccessManagement: true });
    const user = await server.createUser({ org, role: 'USER' });
    expect(await signInText(user.email, PASSWORD)).toEqual({
      text: 'Your organization is managing user access to the dashboard.',
      detail: 'Please contact your administrator for access.',
    });
  });

  it('part1 §8 an organization not enabled for the dashboard → not authorized to access Lightbar', async () => {
    const org = await server.createOrg({ dashboardEnabled: false });
    const user = await server.createUser({ org, role: 'USER' });
    expect((await signInText(user.email, PASSWORD)).text).toBe('Your user is not authorized to access Lightbar.');
  });

  it('part1 §8 an account unused for 180 days → expired due to inactivity', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', lastActivityAt: new Date(server.clock.ms - 180 * DAY_MS) });
    expect((await signInText(user.email, PASSWORD)).text).toBe('Your account has expired due to inactivity.');
    // One day less is fine.
    await server.database.db
      .update(users)
      .set({ lastActivityAt: new Date(server.clock.ms - 179 * DAY_MS) })
      .where(eq(users.id, user.id));
    expect((await postToken(signInBody(user.email, PASSWORD))).status).toBe(200);
  });

  it('part1 §9 a password older than 90 days must be reset', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', passwordChangedAt: new Date(server.clock.ms - 90 * DAY_MS) });
    const shown = await signInText(user.email, PASSWORD);
    expect(shown.text).toBe("Your password expired after 90 days. Use 'Forgot password?' to set a new one.");
  });

  it('a role with no dashboard section → 403, not authorized to access Lightbar', async () => {
    const org = await server.createOrg();
    const [role] = await server.database.db
      .insert((await import('../../server/db/schema')).roles)
      .values({ name: 'NOTHING', permissions: [] })
      .returning();
    const user = await server.createUser({ org, role: 'USER' });
    await server.database.db.update(users).set({ roleId: role!.id }).where(eq(users.id, user.id));
    const { status } = await postToken(signInBody(user.email, PASSWORD));
    expect(status).toBe(403);
    expect((await signInText(user.email, PASSWORD)).text).toBe('Your user is not authorized to access Lightbar.');
  });

  it('part1 §8 five failed attempts lock the account and mail an unlock link; the link unlocks on sign-in', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', email: 'locky@example.com' });
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect((await signInText(user.email, 'Nope#Nope1')).text).toBe('Email and/or password incorrect.');
    }
    const fifth = await signInText(user.email, 'Nope#Nope1');
    expect(fifth.text).toBe('Your account is locked after 5 failed sign-in attempts. Use the unlock link we e-mailed you.');
    // Locked: even the right password is refused.
    expect((await postToken(signInBody(user.email, PASSWORD))).body.error).toBe('locked_out');
    const mail = await lastMailTo('locky@example.com');
    const link = /http:\/\/lightbar\.test\/welcome\/unlock\/locky%40example\.com\/([A-Za-z0-9_-]+)/.exec(mail!.text);
    expect(link).not.toBeNull();
    // A wrong unlock token changes nothing.
    expect((await postToken(signInBody(user.email, PASSWORD, 'not-the-token'))).status).toBe(401);
    const unlocked = await postToken(signInBody(user.email, PASSWORD, link![1]));
    expect(unlocked.status).toBe(200);
    expect((await userRow(server, user.id)).lockedAt).toBeNull();
  });

  it('part1 §7 a malformed body is a 422 naming the field, never a 500', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/user_token',
      payload: { grant_type: 'password', username: 'a@b.co' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'invalid' });
    const bad = await server.app.inject({
      method: 'POST',
      url: '/user_token',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('part1 §7 refresh, verify, revoke', () => {
  let email: string;
  beforeAll(async () => {
    const org = await server.createOrg();
    email = (await server.createUser({ org, role: 'USER' })).email;
  });

  it('refresh rotates: the new pair works, the old refresh token is refused with 422', async () => {
    const first = tokenResponseSchema.parse((await postToken(signInBody(email, PASSWORD))).body);
    const refreshed = await postToken({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    const again = await postToken({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(again.status).toBe(422);
    expect(errorText('tokenRefresh', { status: again.status, message: again.body.message }).text).toBe(
      'Access token is expired or does not exist.',
    );
    // The old access token went with its pair.
    const profile = await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(first.access_token) });
    expect(profile.statusCode).toBe(401);
  });

  it('verify answers valid for a live token and 422 after it expires', async () => {
    const token = await server.signIn(email);
    const ok = await server.app.inject({ method: 'POST', url: '/verify_token', payload: { access_token: token } });
    expect(ok.statusCode).toBe(200);
    server.clock.advance(2 * HOUR_MS);
    const expired = await server.app.inject({ method: 'POST', url: '/verify_token', payload: { access_token: token } });
    expect(expired.statusCode).toBe(422);
  });

  it('revoke ends both tokens of the pair', async () => {
    const pair = tokenResponseSchema.parse((await postToken(signInBody(email, PASSWORD))).body);
    const revoked = await server.app.inject({ method: 'POST', url: '/revoke_token', payload: { token: pair.access_token } });
    expect(revoked.statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(pair.access_token) })).statusCode).toBe(401);
    expect((await postToken({ grant_type: 'refresh_token', refresh_token: pair.refresh_token })).status).toBe(422);
  });
});

describe('part1 §7 forgot and reset password', () => {
  it('forgot answers the same words for a known and an unknown e-mail, and mails only the known one', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', email: 'forgetful@example.com' });
    for (const email of ['forgetful@example.com', 'stranger@example.com']) {
      const response = await server.app.inject({ method: 'POST', url: '/forgot_password', payload: { email } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: "You'll receive an email if account was found" });
    }
    expect(await lastMailTo('stranger@example.com')).toBeUndefined();
    const mail = await lastMailTo('forgetful@example.com');
    const token = /\/welcome\/reset\/forgetful%40example\.com\/([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(token).toBeDefined();

    const reset = (password: string, resetToken = token!) =>
      server.app.inject({ method: 'PUT', url: '/reset_password', payload: { token: resetToken, password } });
    const shown = async (password: string, resetToken?: string) => {
      const response = await reset(password, resetToken);
      return errorText('reset', { status: response.statusCode, message: (response.json() as { message: string }).message }).text;
    };
    expect(await shown('short')).toBe('Password does not fulfill password requirements.');
    expect(await shown(PASSWORD)).toBe('Cannot be same as last 10 passwords.');
    expect(await shown('New#Password2', 'unknown-token')).toBe('Reset token is expired or does not exist.');
    const before = await server.signIn(user.email);
    expect((await reset('New#Password2')).statusCode).toBe(200);
    // The old sessions end, the new password works, the link is used up.
    expect((await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(before) })).statusCode).toBe(401);
    await expect(server.signIn(user.email, 'New#Password2')).resolves.toBeTruthy();
    expect(await shown('Other#Password3')).toBe('Reset token is expired or does not exist.');
  });

  it('a reset link expires after a day', async () => {
    const org = await server.createOrg();
    await server.createUser({ org, role: 'USER', email: 'slow@example.com' });
    await server.app.inject({ method: 'POST', url: '/forgot_password', payload: { email: 'slow@example.com' } });
    const token = /\/welcome\/reset\/[^/]+\/([A-Za-z0-9_-]+)/.exec((await lastMailTo('slow@example.com'))!.text)![1]!;
    server.clock.advance(DAY_MS);
    const response = await server.app.inject({ method: 'PUT', url: '/reset_password', payload: { token, password: 'New#Password2' } });
    expect(response.statusCode).toBe(422);
    expect(errorText('reset', { status: 422, message: response.json().message }).text).toBe('Reset token is expired or does not exist.');
  });

  it('the last 10 passwords cannot be reused', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', email: 'cycler@example.com' });
    const resetTo = async (password: string) => {
      await server.app.inject({ method: 'POST', url: '/forgot_password', payload: { email: user.email } });
      const token = /\/welcome\/reset\/[^/]+\/([A-Za-z0-9_-]+)/.exec((await lastMailTo(user.email))!.text)![1]!;
      server.clock.advance(1000);
      return server.app.inject({ method: 'PUT', url: '/reset_password', payload: { token, password } });
    };
    for (let n = 1; n <= 11; n += 1) expect((await resetTo(`Cycle#Pass${n}`)).statusCode).toBe(200);
    // Current: Pass11; the last 10 before it are Pass10..Pass1; the original is the 11th back.
    expect((await resetTo('Cycle#Pass11')).statusCode).toBe(422);
    expect((await resetTo('Cycle#Pass1')).statusCode).toBe(422);
    expect((await resetTo(PASSWORD)).statusCode).toBe(200);
  });
});

describe('part1 §7 unlock_account and profile', () => {
  it('unlock_account answers the generic words and mails a fresh link only to a locked account', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', email: 'unlockme@example.com', lockedAt: new Date(server.clock.ms) });
    const response = await server.app.inject({ method: 'POST', url: '/unlock_account', payload: { email: user.email } });
    expect(response.json()).toEqual({ message: "You'll receive an email if account was found" });
    expect((await lastMailTo(user.email))?.text).toMatch(/\/welcome\/unlock\/unlockme%40example\.com\//);
  });

  it('GET /profile answers the profile of part 1 §3 with permissions and related organizations', async () => {
    const org = await server.createOrg({ name: 'Metro Fire', showInfiniteTimeoutOption: true });
    const managed = await server.createOrg({ name: 'County Roads' });
    await server.relate(managed.id, org.id, 'manager');
    const user = await server.createUser({ org, role: 'ADMIN', state: 'tx' });
    const response = await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(await server.signIn(user.email)) });
    expect(response.statusCode).toBe(200);
    const profile = profileWireSchema.parse(response.json());
    expect(profile.organization_id).toBe(org.id);
    expect(profile.state).toBe('TX');
    expect(profile.show_infinite_timeout_option).toBe(true);
    expect(profile.permissions).toContain('thing:manage');
    expect(profile.managed_orgs).toEqual([{ id: managed.id, name: 'County Roads' }]);
  });

  it('an access token expires after 2 hours on the server clock', async () => {
    const org = await server.createOrg();
    const token = await server.signIn((await server.createUser({ org, role: 'USER' })).email);
    server.clock.advance(2 * HOUR_MS - 1000);
    expect((await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(token) })).statusCode).toBe(200);
    server.clock.advance(1000);
    expect((await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(token) })).statusCode).toBe(401);
  });

  it('GET /profile without a token is 401', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/profile' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/profile', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
  });
});
