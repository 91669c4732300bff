/**
 * The socket's half of the authorization matrix (part 1 §4 "the token is the second subprotocol";
 * OWASP ASVS V4, WebSocket: authenticate the handshake, authorize every subscription). Per-asset
 * filtering of the frames is not covered here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SOCKET_PROTOCOL } from '../../src/domain/constants';
import { eventsChannelIdentifier, serverFrameSchema, type ServerFrame } from '../../src/domain/live-message';
import { ACCESS_TOKEN_TTL_S } from '../../server/auth/tokens';
import { refusedTokens } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { AuthzWorld, type Actor } from './support/authz-world';

const UNAUTHORIZED_STATUS = 401;

let server: TestServer;
let w: AuthzWorld;
let base: string;
let viewer: Actor;

beforeAll(async () => {
  server = await createTestServer();
  w = await AuthzWorld.build(server);
  viewer = await w.roleActor('USER');
  base = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
});
afterAll(() => server.close());

/** The HTTP status of a refused handshake, or 101 when the socket opened. */
function handshake(protocols: string[] | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}/cable`, protocols);
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(101);
      ws.close();
    });
    ws.once('error', (error) => {
      if (!error.message.includes('Unexpected server response')) reject(error);
    });
  });
}

/** The frames that carry a message on `identifier`. */
const messagesOn = (frames: readonly ServerFrame[], identifier: string) =>
  frames.filter((frame) => 'identifier' in frame && 'message' in frame && frame.identifier === identifier);

const heartbeat = (thingId: string) => ({
  type: 'heartbeat' as const,
  thing_id: thingId,
  is_active: false,
  timestamp: server.clock.now().toISOString(),
});

async function connect(token: string) {
  const frames: ServerFrame[] = [];
  const ws = new WebSocket(`${base}/cable`, [SOCKET_PROTOCOL, token]);
  ws.on('message', (data) => frames.push(serverFrameSchema.parse(JSON.parse(data.toString()))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames };
}

describe('part 1 §4 the socket refuses a handshake without a valid token (401)', () => {
  let revoked: string;
  beforeAll(async () => {
    revoked = (await refusedTokens(server, { id: viewer.id, email: viewer.email, organizationId: viewer.organizationId })).revoked;
  });

  it.each([
    { kind: 'no subprotocol at all', protocols: () => undefined },
    { kind: 'the feed name without a token', protocols: () => [SOCKET_PROTOCOL] },
    { kind: 'a garbage token', protocols: () => [SOCKET_PROTOCOL, 'not-a-token'] },
    { kind: 'a revoked token', protocols: () => [SOCKET_PROTOCOL, revoked] },
    { kind: 'a valid token under another protocol name', protocols: () => ['graphql-ws', viewer.token] },
  ])('$kind → 401', async ({ protocols }) => {
    expect(await handshake(protocols())).toBe(UNAUTHORIZED_STATUS);
  });

  it('a token past its 2 hours on the server clock → 401, the same token before → opens', async () => {
    const user = await server.createUser({ org: { id: w.own.orgId }, role: 'USER' });
    const token = await server.signIn(user.email);
    expect(await handshake([SOCKET_PROTOCOL, token])).toBe(101);
    server.clock.advance(ACCESS_TOKEN_TTL_S * 1000);
    try {
      expect(await handshake([SOCKET_PROTOCOL, token])).toBe(UNAUTHORIZED_STATUS);
    } finally {
      server.clock.advance(-ACCESS_TOKEN_TTL_S * 1000);
    }
  });
});

describe('part 1 §4 a subscription is confirmed only for an organization the caller may see', () => {
  it.each([
    { organization: 'its own organization', orgId: () => w.own.orgId, answer: 'confirm_subscription' },
    { organization: 'an unrelated organization', orgId: () => w.other.orgId, answer: 'reject_subscription' },
    {
      organization: 'an organization that does not exist',
      orgId: () => '00000000-0000-4000-8000-00000000abcd',
      answer: 'reject_subscription',
    },
  ])('$organization → $answer', async ({ orgId, answer }) => {
    const { ws, frames } = await connect(viewer.token);
    const identifier = eventsChannelIdentifier(orgId());
    ws.send(JSON.stringify({ command: 'subscribe', identifier }));
    const reply = await until(() => frames.find((frame) => 'identifier' in frame && frame.identifier === identifier && 'type' in frame));
    expect(reply).toEqual({ type: answer, identifier });
    ws.close();
  });

  it('a rejected subscription streams nothing of the other organization', async () => {
    const { ws, frames } = await connect(viewer.token);
    const identifier = eventsChannelIdentifier(w.other.orgId);
    ws.send(JSON.stringify({ command: 'subscribe', identifier }));
    await until(() => frames.find((frame) => 'type' in frame && frame.type === 'reject_subscription'));
    server.deps.bus.publish(w.other.orgId, heartbeat(w.other.thingId));
    // A confirmed subscription in the same socket proves frames do flow: the rejected one got none.
    const own = eventsChannelIdentifier(w.own.orgId);
    ws.send(JSON.stringify({ command: 'subscribe', identifier: own }));
    await until(() => frames.find((frame) => 'type' in frame && frame.type === 'confirm_subscription'));
    server.deps.bus.publish(w.own.orgId, heartbeat(w.own.thingId));
    await until(() => messagesOn(frames, own).length > 0);
    expect(messagesOn(frames, identifier)).toEqual([]);
    ws.close();
  });
});
