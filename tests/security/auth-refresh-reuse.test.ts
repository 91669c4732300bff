import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/domain/errors';
import { tokenResponseSchema, type TokenResponse } from '../../src/domain/session';
import { createTestServer, PASSWORD, type TestServer } from '../support/test-server';

let server: TestServer;
let base: string;
beforeAll(async () => {
  server = await createTestServer();
  base = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
});
afterAll(() => server.close());

async function postToken(body: object) {
  const response = await server.app.inject({ method: 'POST', url: '/user_token', payload: body });
  return { status: response.statusCode, body: response.json() as Record<string, string> };
}

async function signIn(email: string): Promise<TokenResponse> {
  return tokenResponseSchema.parse(
    (await postToken({ grant_type: 'password', application: 'dashboard', username: email, password: PASSWORD })).body,
  );
}

const refresh = (refreshToken: string) => postToken({ grant_type: 'refresh_token', refresh_token: refreshToken });
const profileStatus = async (accessToken: string) =>
  (await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(accessToken) })).statusCode;

/** A real socket on /cable with the token as its subprotocol (part 1 §4); resolves with how it closed. */
async function openSocket(accessToken: string) {
  const frames: string[] = [];
  const ws = new WebSocket(`${base}/cable`, ['actioncable-v1-json', accessToken]);
  ws.on('message', (data) => frames.push(data.toString()));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, frames, closed };
}

describe('refresh token reuse revokes the whole family (RFC 9700 §4.14)', () => {
  it('replaying a rotated refresh token is refused and ends the pair its rotation issued, socket included', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER' });
    const first = await signIn(user.email);
    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    const pairB = tokenResponseSchema.parse(rotated.body);
    expect(await profileStatus(pairB.access_token)).toBe(200);
    const socket = await openSocket(pairB.access_token);

    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(422);
    expect(errorText('tokenRefresh', { status: replay.status, message: replay.body.message }).text).toBe(
      'Access token is expired or does not exist.',
    );

    // The family is revoked: pair B's access and refresh tokens are refused, its socket closed.
    expect(await socket.closed).toBe(4001);
    expect(socket.frames.map((frame) => JSON.parse(frame) as { type: string })).toContainEqual({
      type: 'disconnect',
      reason: 'unauthorized',
      reconnect: false,
    });
    expect(await profileStatus(pairB.access_token)).toBe(401);
    expect((await refresh(pairB.refresh_token)).status).toBe(422);
  });

  it('another sign-in of the same user is a different family and stays valid', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER' });
    const first = await signIn(user.email);
    const other = await signIn(user.email);
    expect((await refresh(first.refresh_token)).status).toBe(200);
    expect((await refresh(first.refresh_token)).status).toBe(422);
    expect(await profileStatus(other.access_token)).toBe(200);
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });

  it('a replay racing the rightful rotation leaves no live pair of the family, whatever the interleaving', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER' });
    for (let round = 0; round < 10; round += 1) {
      const first = await signIn(user.email);
      const pairB = tokenResponseSchema.parse((await refresh(first.refresh_token)).body);
      // The thief replays the first refresh token while the client rotates pair B.
      const [rightful] = await Promise.all([refresh(pairB.refresh_token), refresh(first.refresh_token)]);
      if (rightful.status === 200) {
        const pairC = tokenResponseSchema.parse(rightful.body);
        expect(await profileStatus(pairC.access_token)).toBe(401);
        expect((await refresh(pairC.refresh_token)).status).toBe(422);
      }
    }
  });
});
