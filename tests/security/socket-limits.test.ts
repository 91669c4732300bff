/**
 * The live socket's limits (OWASP API4 "Unrestricted resource consumption"): one stream per
 * channel and organization whatever the identifier's spelling, a cap on subscriptions per socket
 * and on sockets per user, each refused with a clear answer; and a socket ends with its token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsChannelIdentifier } from '../../src/domain/live-message';
import { ACCESS_TOKEN_TTL_S } from '../../server/auth/tokens';
import { SOCKET_CLOSE, SOCKETS_PER_USER_MAX, SUBSCRIPTIONS_PER_SOCKET_MAX, TOO_MANY_SOCKETS_MESSAGE } from '../../server/live/cable';
import { createTestServer, type TestServer } from '../support/test-server';
import { sleep, until } from '../support/until';
import { connect, createThing, engineOf, ingestPoints, isType, messages, refusedHandshake, subscribe, type Client } from './socket-harness';

let server: TestServer;
let base: string;
let org: { id: string };
let unit: { id: string; haasId: string };

beforeAll(async () => {
  server = await createTestServer();
  org = await server.createOrg({ name: 'Hays County' });
  unit = await createThing(server, org.id, 'Hays 1');
  await engineOf(server).reload();
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http', 'ws');
});
afterAll(() => server.close());

const userToken = async () => server.signIn((await server.createUser({ org, role: 'USER' })).email);

describe('socket: identifiers', () => {
  it('identifier variants of one channel and organization make one stream', async () => {
    const client = await connect(base, await userToken());
    const canonical = eventsChannelIdentifier(org.id);
    subscribe(client, org.id, canonical);
    const variants = [
      JSON.stringify({ organization: org.id, channel: 'EventsChannel' }),
      JSON.stringify({ channel: 'EventsChannel', organization: org.id, extra: 1 }),
      JSON.stringify({ channel: 'EventsChannel', organization: org.id }, null, 2),
      ...Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ channel: 'EventsChannel', organization: org.id, [`k${i}`]: i })),
    ];
    for (const identifier of variants) subscribe(client, org.id, identifier);
    // The same identifier again: confirmed again (idempotent), no second stream.
    subscribe(client, org.id, canonical);
    await until(() => client.frames.filter(isType('reject_subscription')).length === variants.length, 'every variant answered');
    await until(() => client.frames.filter(isType('confirm_subscription')).length === 2, 'two confirmations');
    expect(client.frames.filter(isType('confirm_subscription'))).toEqual([
      { type: 'confirm_subscription', identifier: canonical },
      { type: 'confirm_subscription', identifier: canonical },
    ]);
    expect(client.frames.find(isType('reject_subscription'))).toEqual({
      type: 'reject_subscription',
      identifier: variants[0],
      reason: 'already_subscribed',
    });

    await ingestPoints(server, [unit.haasId]);
    await until(() => messages(client).length > 0, 'the frame');
    await sleep(200);
    expect(messages(client)).toHaveLength(1);
    expect(messages(client)[0]!.identifier).toBe(canonical);
    client.ws.close();
  });

  it(`a socket holds at most ${SUBSCRIPTIONS_PER_SOCKET_MAX} subscriptions; the next is rejected with the reason`, async () => {
    // Child organizations are visible to their parent's users: one more than the cap, with the own one.
    const children = [];
    for (let i = 0; i < SUBSCRIPTIONS_PER_SOCKET_MAX; i += 1)
      children.push(await server.createOrg({ name: `Hays child ${i}`, parentId: org.id }));
    const client = await connect(base, await userToken());
    for (const target of [org, ...children]) subscribe(client, target.id);
    await until(
      () =>
        client.frames.filter((f) => isType('confirm_subscription')(f) || isType('reject_subscription')(f)).length === children.length + 1,
      'every answer',
    );
    expect(client.frames.filter(isType('confirm_subscription'))).toHaveLength(SUBSCRIPTIONS_PER_SOCKET_MAX);
    expect(client.frames.filter(isType('reject_subscription'))).toEqual([
      { type: 'reject_subscription', identifier: eventsChannelIdentifier(children.at(-1)!.id), reason: 'too_many_subscriptions' },
    ]);
    // Unsubscribing frees a place.
    client.ws.send(JSON.stringify({ command: 'unsubscribe', identifier: eventsChannelIdentifier(org.id) }));
    subscribe(client, children.at(-1)!.id);
    await until(() => client.frames.filter(isType('confirm_subscription')).length === SUBSCRIPTIONS_PER_SOCKET_MAX + 1, 'the freed place');
    client.ws.close();
  });
});

describe('socket: sockets per user', () => {
  it(`a user holds at most ${SOCKETS_PER_USER_MAX} sockets; the next handshake is refused with 429`, async () => {
    const token = await userToken();
    const open: Client[] = [];
    for (let i = 0; i < SOCKETS_PER_USER_MAX; i += 1) open.push(await connect(base, token));
    expect(await refusedHandshake(base, token)).toEqual({
      status: 429,
      body: { error: 'too_many_sockets', message: TOO_MANY_SOCKETS_MESSAGE },
    });
    // Another token of the same user counts too.
    expect((await refusedHandshake(base, await server.signIn((await userOf(token)).email))).status).toBe(429);
    // A closed socket frees its place.
    const first = open.shift()!;
    first.ws.close();
    await first.closed;
    const again = await connectEventually(token);
    open.push(again);
    for (const client of open) client.ws.close();
  });
});

describe('socket: token lifetime', () => {
  it('closes the socket when its access token expires, telling the client to reconnect with a fresh token', async () => {
    const client = await connect(base, await userToken());
    subscribe(client, org.id);
    await until(() => client.frames.find(isType('confirm_subscription')), 'confirm');
    server.clock.advance(ACCESS_TOKEN_TTL_S * 1000 + 1000);
    try {
      const closed = await client.closed;
      expect(closed).toEqual({ code: SOCKET_CLOSE.tokenExpired.code, reason: SOCKET_CLOSE.tokenExpired.reason });
      expect(client.frames).toContainEqual({ type: 'disconnect', reason: 'token_expired', reconnect: true });
    } finally {
      server.clock.advance(-(ACCESS_TOKEN_TTL_S * 1000 + 1000));
    }
  }, 10_000);
});

const emails = new Map<string, string>();
async function userOf(token: string): Promise<{ email: string }> {
  const cached = emails.get(token);
  if (cached) return { email: cached };
  const profile = await server.app.inject({ method: 'GET', url: '/profile', headers: server.auth(token) });
  const email = (profile.json() as { email: string }).email;
  emails.set(token, email);
  return { email };
}

/** The server forgets a closed socket when its close completes: retry the handshake briefly. */
async function connectEventually(token: string): Promise<Client> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await connect(base, token);
    } catch (error) {
      if (attempt > 50) throw error;
      await sleep(20);
    }
  }
}
