/**
 * What the dashboard's socket client (src/workers/socket-client.ts) does with the server's close on
 * token expiry, against the real server and real sockets: it reconnects with its refreshed token
 * (part 1 §4 Session) and streams again, without signing the user out. (A subscription the server
 * ends with reject_subscription puts the client in 'failed' and the worker polls REST instead:
 * tests/workers/socket-client.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LiveMessage } from '../../src/domain/live-message';
import type { SocketInfo } from '../../src/workers/live-protocol';
import { SocketClient, type SocketLike } from '../../src/workers/socket-client';
import { ACCESS_TOKEN_TTL_S } from '../../server/auth/tokens';
import { createTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { createThing, engineOf, ingestPoints } from './socket-harness';

let server: TestServer;
let base: string;
let org: { id: string };
let unit: { id: string; haasId: string };

beforeAll(async () => {
  server = await createTestServer();
  org = await server.createOrg({ name: 'Bastrop County' });
  unit = await createThing(server, org.id, 'Bastrop 1');
  await engineOf(server).reload();
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http', 'ws');
});
afterAll(() => server.close());

describe('socket client: reaction to the server closing for expiry', () => {
  it('reconnects with the refreshed token when the access token expires, and streams again', async () => {
    const email = (await server.createUser({ org, role: 'USER' })).email;
    let token = await server.signIn(email);
    const used: string[] = [];
    const received: LiveMessage[] = [];
    const states: SocketInfo[] = [];
    let subscribed = 0;
    let unauthorized = 0;
    const client = new SocketClient({
      url: `${base}/cable`,
      token: () => token,
      organizationId: org.id,
      open: (url, protocols) => {
        used.push(protocols[1]!);
        return new WebSocket(url, protocols) as unknown as SocketLike;
      },
      onMessage: (message) => received.push(message),
      onState: (info) => states.push(info),
      onSubscribed: () => (subscribed += 1),
      onUnauthorized: () => (unauthorized += 1),
    });
    const first = token;
    try {
      client.start();
      await until(() => subscribed === 1, 'the first subscription');
      // The session refreshed its token (a new sign-in stands in for the refresh grant), then the
      // old one's lifetime ends on the server's clock.
      server.clock.advance(ACCESS_TOKEN_TTL_S * 1000 + 1000);
      token = await server.signIn(email);
      await until(() => subscribed === 2, 'the subscription after the reconnect', 15_000, 20);
      expect(used).toEqual([first, token]);
      expect(unauthorized).toBe(0);
      expect(states.some((info) => info.state === 'waiting')).toBe(true);
      await until(
        () => received.some((m) => m.type === 'point' && m.thing_id === unit.id) || (void ingestPoints(server, [unit.haasId]), false),
        'frames again',
        5_000,
        50,
      );
    } finally {
      client.stop();
    }
  }, 25_000);
});
