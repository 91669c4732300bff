import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_BATCH_PROTOCOL, eventsChannelIdentifier, serverFrameSchema, type LiveMessage } from '../../src/domain/live-message';
import { SOCKET_HARD_LIMIT_BYTES, SOCKET_MAX_QUEUED_FRAMES, SOCKET_WRITE_BYTES } from '../../server/live/cable';
import { createThing } from '../security/socket-harness';
import { createTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

let server: TestServer;
let base: string;
let orgA: { id: string };
let orgB: { id: string };
let tokenA: string;
let tokenB: string;
/** Real assets: the socket sends frames only of assets the caller's REST list shows. */
let thingA: { id: string; haasId: string };
let thingB: { id: string; haasId: string };

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Org A' });
  orgB = await server.createOrg({ name: 'Org B' });
  tokenA = await server.signIn((await server.createUser({ org: orgA, role: 'USER' })).email);
  tokenB = await server.signIn((await server.createUser({ org: orgB, role: 'USER' })).email);
  thingA = await createThing(server, orgA.id, 'Unit A');
  thingB = await createThing(server, orgB.id, 'Unit B');
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http', 'ws');
});
afterAll(() => server.close());

/** A real client that records every frame. */
async function connect(token: string, extraProtocols: string[] = []) {
  const frames: unknown[] = [];
  const ws = new WebSocket(`${base}/cable`, ['actioncable-v1-json', token, ...extraProtocols]);
  ws.on('message', (data) => frames.push(serverFrameSchema.parse(JSON.parse(data.toString()))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames };
}

const point = (thingId: string, lat = 30.27): LiveMessage => ({
  type: 'point',
  thing_id: thingId,
  lat,
  lng: -97.74,
  speed: 10,
  course: 90,
  accuracy: 5,
  timestamp: '2026-11-22T12:00:00.000Z',
});

function subscribe(ws: WebSocket, organization: string) {
  ws.send(JSON.stringify({ command: 'subscribe', identifier: eventsChannelIdentifier(organization) }));
}

/** A stream's frames ({ identifier, message }), not the connection's pings ({ type: 'ping', message: n }), which may come at any time. */
function streamFrames(frames: unknown[]): unknown[] {
  return frames.filter(
    (f) => (f as { identifier?: string }).identifier !== undefined && (f as { message?: LiveMessage }).message !== undefined,
  );
}

describe('part1 §4 streaming socket (ActionCable protocol)', () => {
  it('refuses a bad token at the handshake with 401', async () => {
    const ws = new WebSocket(`${base}/cable`, ['actioncable-v1-json', 'not-a-token']);
    const error = await new Promise<Error>((resolve) => ws.once('error', resolve));
    expect(error.message).toContain('401');
  });

  it('refuses a connection without the protocol pair', async () => {
    const ws = new WebSocket(`${base}/cable`);
    const error = await new Promise<Error>((resolve) => ws.once('error', resolve));
    expect(error.message).toContain('401');
  });

  it('echoes the feed name (never the token) and sends welcome', async () => {
    const { ws, frames } = await connect(tokenA);
    expect(ws.protocol).toBe('actioncable-v1-json');
    await until(() => frames.find((f) => (f as { type?: string }).type === 'welcome'));
    ws.close();
  });

  it('pings every 3 s', async () => {
    const { ws, frames } = await connect(tokenA);
    const ping = await until(() => frames.find((f) => (f as { type?: string }).type === 'ping'), 'a ping', 4000, 10);
    expect(ping).toMatchObject({ type: 'ping', message: expect.any(Number) });
    ws.close();
  }, 10_000);

  it('confirms a visible organization, rejects another, and streams only the visible one', async () => {
    const { ws, frames } = await connect(tokenA);
    subscribe(ws, orgA.id);
    subscribe(ws, orgB.id);
    await until(() => frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    const rejected = await until(() => frames.find((f) => (f as { type?: string }).type === 'reject_subscription'));
    expect(rejected).toEqual({ type: 'reject_subscription', identifier: eventsChannelIdentifier(orgB.id) });

    server.deps.bus.publish(orgB.id, point(thingB.id));
    server.deps.bus.publish(orgA.id, point(thingA.id));
    const received = await until(() => streamFrames(frames)[0]);
    expect(received).toEqual({ identifier: eventsChannelIdentifier(orgA.id), message: point(thingA.id) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(streamFrames(frames)).toHaveLength(1);
    ws.close();
  });

  it.each([
    { type: 'heartbeat', thing_id: 't1', is_active: true, timestamp: '2026-11-22T12:00:00.000Z' },
    { type: 'thing', thing: { id: 't1', haas_id: 'HA5-1', nickname: 'Engine 1' } },
    { type: 'location', thing_id: 't1', location_id: null, timestamp: '2026-11-22T12:00:00.000Z' },
    {
      type: 'closure',
      thing_id: 't1',
      closure_id: 'c1',
      organization_id: 'org-b',
      wzdx_id: 'wz-1',
      is_active: true,
      timestamp: '2026-11-22T12:00:00.000Z',
    },
  ] as const)('delivers a $type message', async (template) => {
    const { ws, frames } = await connect(tokenB);
    subscribe(ws, orgB.id);
    await until(() => frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    // The template's placeholders become Org B's real asset and id.
    const message = JSON.parse(
      JSON.stringify(template).replaceAll('"t1"', JSON.stringify(thingB.id)).replaceAll('"org-b"', JSON.stringify(orgB.id)),
    ) as LiveMessage;
    server.deps.bus.publish(orgB.id, message);
    const received = (await until(() => streamFrames(frames)[0])) as { message: LiveMessage };
    expect(received.message.type).toBe(message.type);
    ws.close();
  });

  it('one message on two organizations goes to each socket under each identifier it subscribed with, byte for byte the same message', async () => {
    // The ingest publishes an asset's message on every organization that may see it: here a child's
    // asset on the child and on its parent, to a parent dispatcher watching both and a child one.
    const parent = await server.createOrg({ name: 'Cable Parent' });
    const child = await server.createOrg({ name: 'Cable Child', parentId: parent.id });
    const thing = await createThing(server, child.id, 'Unit C');
    const parentSocket = await connect(await server.signIn((await server.createUser({ org: parent, role: 'ADMIN' })).email));
    const childSocket = await connect(await server.signIn((await server.createUser({ org: child, role: 'USER' })).email));
    subscribe(parentSocket.ws, child.id);
    subscribe(parentSocket.ws, parent.id);
    subscribe(childSocket.ws, child.id);
    const confirmed = (frames: unknown[], count: number) =>
      until(() => (frames.filter((f) => (f as { type?: string }).type === 'confirm_subscription').length >= count ? true : undefined));
    await confirmed(parentSocket.frames, 2);
    await confirmed(childSocket.frames, 1);
    const sent = [point(thing.id, 30.1), point(thing.id, 30.2)];
    for (const message of sent) {
      server.deps.bus.publish(child.id, message);
      server.deps.bus.publish(parent.id, message);
    }
    await until(() => (streamFrames(parentSocket.frames).length >= 4 && streamFrames(childSocket.frames).length >= 2 ? true : undefined));
    expect(streamFrames(parentSocket.frames)).toEqual([
      { identifier: eventsChannelIdentifier(child.id), message: sent[0] },
      { identifier: eventsChannelIdentifier(parent.id), message: sent[0] },
      { identifier: eventsChannelIdentifier(child.id), message: sent[1] },
      { identifier: eventsChannelIdentifier(parent.id), message: sent[1] },
    ]);
    expect(streamFrames(childSocket.frames)).toEqual(sent.map((message) => ({ identifier: eventsChannelIdentifier(child.id), message })));
    parentSocket.ws.close();
    childSocket.ws.close();
  });

  it(`a client offering ${LIVE_BATCH_PROTOCOL} gets a turn's messages as one frame per subscription, in order; others a frame each`, async () => {
    const parent = await server.createOrg({ name: 'Batch Parent' });
    const child = await server.createOrg({ name: 'Batch Child', parentId: parent.id });
    const thing = await createThing(server, child.id, 'Unit D');
    const token = await server.signIn((await server.createUser({ org: parent, role: 'ADMIN' })).email);
    const batched = await connect(token, [LIVE_BATCH_PROTOCOL]);
    const plain = await connect(token);
    expect(batched.ws.protocol).toBe('actioncable-v1-json');
    for (const { ws } of [batched, plain]) {
      subscribe(ws, child.id);
      subscribe(ws, parent.id);
    }
    const confirmed = (frames: unknown[]) =>
      until(() => (frames.filter((f) => (f as { type?: string }).type === 'confirm_subscription').length >= 2 ? true : undefined));
    await confirmed(batched.frames);
    await confirmed(plain.frames);
    // One turn: three points on the child, then one on the parent, then two more on the child.
    const sent = [30.1, 30.2, 30.3, 30.4, 30.5, 30.6].map((lat) => point(thing.id, lat));
    const on = [child.id, child.id, child.id, parent.id, child.id, child.id];
    sent.forEach((message, i) => server.deps.bus.publish(on[i]!, message));
    const data = (frames: unknown[]) => frames.filter((f) => 'message' in (f as object) || 'messages' in (f as object));
    await until(() => (data(batched.frames).length >= 3 && data(plain.frames).length >= 6 ? true : undefined));
    expect(data(batched.frames)).toEqual([
      { identifier: eventsChannelIdentifier(child.id), messages: sent.slice(0, 3) },
      { identifier: eventsChannelIdentifier(parent.id), messages: [sent[3]] },
      { identifier: eventsChannelIdentifier(child.id), messages: sent.slice(4) },
    ]);
    expect(data(plain.frames)).toEqual(sent.map((message, i) => ({ identifier: eventsChannelIdentifier(on[i]!), message })));
    // A control frame keeps its place between batches.
    server.deps.bus.publish(child.id, sent[0]!);
    batched.ws.send(JSON.stringify({ command: 'subscribe', identifier: eventsChannelIdentifier(child.id) }));
    await until(() =>
      batched.frames.filter((f) => (f as { type?: string }).type === 'confirm_subscription').length >= 3 ? true : undefined,
    );
    expect(batched.frames.slice(-2)).toEqual([
      { identifier: eventsChannelIdentifier(child.id), messages: [sent[0]] },
      { type: 'confirm_subscription', identifier: eventsChannelIdentifier(child.id) },
    ]);
    batched.ws.close();
    plain.ws.close();
  });

  it(`a batched client behind the stream is not dropped either: it catches up with the latest point of each asset`, async () => {
    const { ws, frames } = await connect(tokenA, [LIVE_BATCH_PROTOCOL]);
    subscribe(ws, orgA.id);
    await until(() => frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    const clients = server.app.websocketServer.clients;
    const connectedBefore = clients.size;
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // More bytes than the kernel's buffers hold (batches are as many bytes as the frames were).
    const rounds = 12 * SOCKET_MAX_QUEUED_FRAMES;
    for (let i = 1; i <= rounds; i += 1) {
      server.deps.bus.publish(orgA.id, point(thingA.id, 30 + i / 1e6));
      if (i % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(clients.size).toBe(connectedBefore);
    (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const points = () => frames.flatMap((f) => ((f as { messages?: LiveMessage[] }).messages ?? []) as (LiveMessage & { lat: number })[]);
    await until(() => (points().at(-1)?.lat === 30 + rounds / 1e6 ? true : undefined), 'the latest point', 20_000);
    expect(points().length).toBeLessThan(rounds);
    // In order: each point newer than the one before.
    const lats = points().map((m) => m.lat);
    expect(lats).toEqual([...lats].sort((a, b) => a - b));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  }, 40_000);

  it('unsubscribe stops the stream', async () => {
    const { ws, frames } = await connect(tokenA);
    subscribe(ws, orgA.id);
    await until(() => frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    ws.send(JSON.stringify({ command: 'unsubscribe', identifier: eventsChannelIdentifier(orgA.id) }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.deps.bus.publish(orgA.id, point(thingA.id));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(streamFrames(frames)).toHaveLength(0);
    ws.close();
  });

  it('revoking the token closes its sockets', async () => {
    const token = await server.signIn((await server.createUser({ org: orgA, role: 'USER' })).email);
    const { ws, frames } = await connect(token);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await server.app.inject({ method: 'POST', url: '/revoke_token', payload: { token } });
    expect(await closed).toBe(4001);
    expect(frames).toContainEqual({ type: 'disconnect', reason: 'unauthorized', reconnect: false });
  });

  it('frames of every length arrive intact (RFC 6455 length forms: up to 125 bytes, 16-bit, 64-bit), multi-byte text included', async () => {
    const { ws, frames } = await connect(tokenA);
    subscribe(ws, orgA.id);
    await until(() => frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    // Nicknames whose frames take each length form; 'Ü', 'Ω' and the fire engine are 2, 2 and 4 bytes in UTF-8.
    const nicknames = ['E1', 'Ünit Ω 🚒 '.repeat(12), 'x'.repeat(70_000) + '🚒', 'Ω'.repeat(40_000)];
    const sent = nicknames.map(
      (nickname, i) => ({ type: 'thing', thing: { id: thingA.id, haas_id: `HA5-LEN${i}`, nickname } }) as LiveMessage,
    );
    for (const message of sent) server.deps.bus.publish(orgA.id, message);
    const received = () => streamFrames(frames).map((f) => (f as { message: LiveMessage }).message);
    await until(() => (received().length >= sent.length ? true : undefined), 'every frame', 10_000, 10);
    const text = (message: LiveMessage) => {
      const { haas_id, nickname } = (message as Extract<LiveMessage, { type: 'thing' }>).thing;
      return { haas_id, nickname };
    };
    expect(received().map(text)).toEqual(sent.map(text));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('a burst of frames leaves the socket in a few large writes, every frame intact, in order and none coalesced', async () => {
    const { ws, frames } = await connect(tokenA);
    subscribe(ws, orgA.id);
    await until(() => frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    // The server's side of this connection: the newest socket, its TCP writes counted.
    const serverSide = [...server.app.websocketServer.clients].at(-1) as unknown as {
      _socket: { _writev(...args: unknown[]): void; _write(...args: unknown[]): void };
    };
    const tcp = serverSide._socket;
    let writes = 0;
    for (const method of ['_writev', '_write'] as const) {
      const original = tcp[method].bind(tcp);
      tcp[method] = (...args: unknown[]) => {
        writes += 1;
        original(...args);
      };
    }
    // 2,000 points of one asset in one turn (about 500 KB of frames: past the 256 KB at which a
    // backed-up socket would coalesce them to the last one).
    const burst = 2_000;
    for (let i = 0; i < burst; i += 1) server.deps.bus.publish(orgA.id, point(thingA.id, 30 + i / 10_000));
    const received = () => streamFrames(frames) as { message: LiveMessage & { lat: number } }[];
    await until(() => (received().length >= burst ? true : undefined), 'the whole burst', 10_000, 10);
    expect(received().map((f) => f.message.lat)).toEqual(Array.from({ length: burst }, (_, i) => 30 + i / 10_000));
    const bytes = received().reduce((sum, f) => sum + JSON.stringify(f).length, 0);
    // A write per frame would be 2,000 writes; frames gathered up to SOCKET_WRITE_BYTES are a handful.
    expect(writes).toBeLessThanOrEqual(Math.ceil(bytes / SOCKET_WRITE_BYTES) + 2);
    ws.close();
  });

  it('a slow client is dropped past the buffer while a fast client beside it keeps receiving', async () => {
    const slow = await connect(tokenA);
    const fast = await connect(tokenA);
    for (const client of [slow, fast]) subscribe(client.ws, orgA.id);
    await until(() => slow.frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    await until(() => fast.frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    const clients = server.app.websocketServer.clients;
    const connectedBefore = clients.size;
    // The slow client stops reading: its TCP window fills and the server's buffer grows.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const padding = 'x'.repeat(2000);
    let sent = 0;
    const deadline = Date.now() + 20_000;
    let maxBuffered = 0;
    const dropped = () => clients.size < connectedBefore;
    while (!dropped() && Date.now() < deadline) {
      for (const client of clients) maxBuffered = Math.max(maxBuffered, client.bufferedAmount);
      for (let i = 0; i < 500; i += 1) {
        server.deps.bus.publish(orgA.id, {
          type: 'thing',
          thing: { id: thingA.id, haas_id: `HA5-${sent}`, nickname: padding },
        } as LiveMessage);
        sent += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(dropped()).toBe(true);
    // Bounded: the server never held much more than the hard limit for it.
    expect(maxBuffered).toBeLessThan(SOCKET_HARD_LIMIT_BYTES + 64 * 1024);
    // The fast client got the stream and is still connected.
    await until(() => (streamFrames(fast.frames).length >= sent ? true : undefined), 'every message', 10_000, 10);
    expect(fast.ws.readyState).toBe(WebSocket.OPEN);
    fast.ws.close();
  }, 40_000);

  it('a client behind the stream of points and heartbeats is not dropped: it catches up with the latest of each asset', async () => {
    const slow = await connect(tokenA);
    subscribe(slow.ws, orgA.id);
    await until(() => slow.frames.find((f) => (f as { type?: string }).type === 'confirm_subscription'));
    const clients = server.app.websocketServer.clients;
    const connectedBefore = clients.size;
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // Far more frames than SOCKET_MAX_QUEUED_FRAMES, and bytes than the kernel's buffers and the soft limit.
    const rounds = 4 * SOCKET_MAX_QUEUED_FRAMES;
    for (let i = 1; i <= rounds; i += 1) {
      server.deps.bus.publish(orgA.id, point(thingA.id, 30 + i / 1e6));
      server.deps.bus.publish(orgA.id, {
        type: 'heartbeat',
        thing_id: thingA.id,
        is_active: i % 2 === 0,
        timestamp: new Date(Date.UTC(2026, 10, 22, 12) + i).toISOString(),
      });
      if (i % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(clients.size).toBe(connectedBefore);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const messages = () =>
      slow.frames.flatMap((f) => ((f as { message?: LiveMessage }).message ? [(f as { message: LiveMessage }).message] : []));
    const last = await until(
      () => {
        const received = messages();
        const lastPoint = received.findLast((m) => m.type === 'point');
        const lastHeartbeat = received.findLast((m) => m.type === 'heartbeat');
        return lastPoint?.type === 'point' && lastPoint.lat === 30 + rounds / 1e6 && lastHeartbeat
          ? { lastHeartbeat, received }
          : undefined;
      },
      'the latest point',
      20_000,
    );
    expect(last.lastHeartbeat).toMatchObject({ is_active: true, timestamp: new Date(Date.UTC(2026, 10, 22, 12) + rounds).toISOString() });
    // Coalesced while it was behind: fewer frames than were sent, and the client is still there.
    expect(last.received.length).toBeLessThan(2 * rounds);
    expect(slow.ws.readyState).toBe(WebSocket.OPEN);
    expect(clients.size).toBe(connectedBefore);
    slow.ws.close();
  }, 40_000);
});
