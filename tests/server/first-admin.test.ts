/**
 * A real deployment's first administrator (docs/deployment.md): the real server process started with
 * LIGHTBAR_DEMO=0 and LIGHTBAR_ADMIN_EMAIL on an empty database prints the set-password link; the
 * link's token sets the password, the administrator signs in as the named organization's Org Admin
 * and adds a user to it (mailed a welcome link); a restart on the same database makes no
 * second one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { signInRequest, tokenResponseSchema } from '../../src/domain/session';
import { spawnServer, templateDataDir, type SpawnedServer } from '../support/spawn-server';

const EMAIL = 'chief@agency.example';
const ORGANIZATION = 'Travis County ECC';
const PASSWORD = 'Chief#Admin-2026';
let server: SpawnedServer | null = null;

afterAll(async () => server?.stop());

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the first administrator of a deployment without the demo', () => {
  it('is made on an empty database, sets a password through the printed link, signs in and administers; once only', async () => {
    const dataDir = templateDataDir('lightbar-first-admin-');
    server = await spawnServer({
      PORT: '0',
      DATA_DIR: dataDir,
      LIGHTBAR_DEMO: '0',
      LIGHTBAR_ADMIN_EMAIL: EMAIL,
      LIGHTBAR_ADMIN_ORGANIZATION: ORGANIZATION,
    });
    expect(server.output()).toContain(`First administrator ${EMAIL} created in the organization "${ORGANIZATION}" (Org Admin).`);
    const link = /Set the password within 7 days at: (\S+)/.exec(server.output())?.[1];
    expect(link).toMatch(new RegExp(`/welcome/reset/${encodeURIComponent(EMAIL)}/[^/]+$`));
    // No password yet: signing in is refused until the link is used.
    expect((await json(`${server.url}/user_token`, { method: 'POST', body: JSON.stringify(signInRequest(EMAIL, PASSWORD)) })).status).toBe(
      400,
    );
    const token = decodeURIComponent(link!.split('/').pop()!);
    const reset = await json(`${server.url}/reset_password`, { method: 'PUT', body: JSON.stringify({ token, password: PASSWORD }) });
    expect(reset.status).toBe(200);
    const signedIn = await json(`${server.url}/user_token`, { method: 'POST', body: JSON.stringify(signInRequest(EMAIL, PASSWORD)) });
    expect(signedIn.status).toBe(200);
    const auth = { authorization: `Bearer ${tokenResponseSchema.parse(signedIn.body).access_token}` };
    const profile = await json(`${server.url}/profile`, { headers: auth });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ email: EMAIL, acs: false, user_org: { name: ORGANIZATION } });
    expect(profile.body.permissions).toEqual(expect.arrayContaining(['organization:manage', 'user:admin:manage', 'thing:admin:manage']));
    // The organization's administrator adds the agency's users (part 2 §7).
    const created = await json(`${server.url}/users`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        firstname: 'Dana',
        lastname: 'Ortiz',
        email: 'dispatch@agency.example',
        role_id: 2,
        organization_id: (profile.body as { organization_id?: string }).organization_id,
      }),
    });
    expect(created.status).toBe(201);

    await server.stop();
    server = await server.restart();
    expect(server.output()).toContain('LIGHTBAR_ADMIN_EMAIL: the database already has organizations, so no administrator was created');
    expect(server.output()).not.toContain('Set the password');
    expect((await json(`${server.url}/user_token`, { method: 'POST', body: JSON.stringify(signInRequest(EMAIL, PASSWORD)) })).status).toBe(
      200,
    );
  });
});
