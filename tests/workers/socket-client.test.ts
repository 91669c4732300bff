/**
 * The socket client's protocol handling with an in-memory socket (the worker test drives a real
 * one): subscription rejected, unauthorized disconnect, frames of other identifiers, bad frames,
 * and the token read again at each connect.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SOCKET_PROTOCOL } from '../../src/domain/constants';
import { LIVE_BATCH_PROTOCOL, eventsChannelIdentifier, type LiveMessage } from '../../src/domain/live-message';
import type { SocketInfo } from '../../src/workers/live-protocol';
import { reconnectDelay, SocketClient, type SocketLike } from '../../src/workers/socket-client';
import { ORG, iso, NOW } from '../support/live-fixtures';

class MemorySocket implements SocketLike {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  sent: unknown[] = [];
  closed = false;
  constructor(readonly protocols: string[]) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  frame(value: unknown) {
    this.onmessage?.({ data: typeof value === 'string' ? value : JSON.stringify(value) });
  }
  serverClose() {
    this.onclose?.({});
  }
}

const identifier = eventsChannelIdentifier(ORG);
let sockets: MemorySocket[];
let messages: LiveMessage[];
let states: SocketInfo[];
let subscribed: number;
let unauthorized: number;
let token: string;

function client() {
  return new SocketClient({
    url: 'ws://test/cable',
    token: () => token,
    organizationId: ORG,
    open: (_url, protocols) => {
      const socket = new MemorySocket(protocols);
      sockets.push(socket);
      return socket;
    },
    onMessage: (message) => messages.push(message),
    onState: (info) => states.push(info),
    onSubscribed: () => (subscribed += 1),
    onUnauthorized: () => (unauthorized += 1),
  });
}

function live(c: SocketClient): MemorySocket {
  c.start();
  const socket = sockets.at(-1)!;
  socket.open();
  socket.frame({ type: 'welcome' });
  socket.frame({ type: 'confirm_subscription', identifier });
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  sockets = [];
  messages = [];
  states = [];
  subscribed = 0;
  unauthorized = 0;
  token = 'first';
});
afterEach(() => vi.useRealTimers());

describe('part1 §4 socket client', () => {
  it('connects with the protocol pair, subscribes after welcome, hands on the subscription’s messages only', () => {
    const c = client();
    const socket = live(c);
    expect(socket.protocols).toEqual([SOCKET_PROTOCOL, 'first', LIVE_BATCH_PROTOCOL]);
    expect(socket.sent).toEqual([{ command: 'subscribe', identifier }]);
    expect(subscribed).toBe(1);
    expect(c.info.state).toBe('subscribed');
    const point = { type: 'point', thing_id: 't1', lat: 30, lng: -97, timestamp: iso(NOW) };
    socket.frame({ identifier, message: point });
    socket.frame({ identifier: eventsChannelIdentifier('another'), message: point });
    socket.frame({ identifier, message: { type: 'point', thing_id: 't1' } }); // fails the schema
    socket.frame('not json');
    socket.frame({ type: 'ping', message: 1 });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ type: 'point', thing_id: 't1' });
  });

  it(`hands on a batch's messages (${LIVE_BATCH_PROTOCOL}) in order, passing over one that does not read`, () => {
    const socket = live(client());
    const point = (lat: number) => ({ type: 'point', thing_id: 't1', lat, lng: -97, timestamp: iso(NOW) });
    socket.frame({ identifier, messages: [point(30.1), { type: 'point', thing_id: 't1' }, point(30.2)] });
    socket.frame({ identifier: eventsChannelIdentifier('another'), messages: [point(31)] });
    socket.frame({ identifier, messages: 'not a list' });
    socket.frame({ identifier, message: point(30.3) });
    expect(messages.map((m) => (m as { lat: number }).lat)).toEqual([30.1, 30.2, 30.3]);
  });

  it('a rejected subscription stops (failed) without reconnecting', () => {
    const c = client();
    c.start();
    sockets[0]!.open();
    sockets[0]!.frame({ type: 'welcome' });
    sockets[0]!.frame({ type: 'reject_subscription', identifier });
    expect(c.info.state).toBe('failed');
    expect(sockets[0]!.closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('an unauthorized disconnect is reported and not retried', () => {
    const c = client();
    const socket = live(c);
    socket.frame({ type: 'disconnect', reason: 'unauthorized', reconnect: false });
    expect(unauthorized).toBe(1);
    expect(c.info.state).toBe('failed');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('reconnects with the token handed over since, and a confirmed subscription starts the count again', () => {
    const c = client();
    live(c).serverClose();
    expect(c.info).toEqual({ state: 'waiting', attempt: 1, delayMs: reconnectDelay(0) });
    token = 'second';
    vi.advanceTimersByTime(reconnectDelay(0));
    expect(sockets[1]!.protocols).toEqual([SOCKET_PROTOCOL, 'second', LIVE_BATCH_PROTOCOL]);
    sockets[1]!.serverClose();
    expect(c.info).toEqual({ state: 'waiting', attempt: 2, delayMs: reconnectDelay(1) });
    vi.advanceTimersByTime(reconnectDelay(1));
    sockets[2]!.open();
    sockets[2]!.frame({ type: 'welcome' });
    sockets[2]!.frame({ type: 'confirm_subscription', identifier });
    expect(c.info).toEqual({ state: 'subscribed', attempt: 0, delayMs: null });
    expect(subscribed).toBe(2);
  });

  it('stop closes the socket and cancels a due reconnect', () => {
    const c = client();
    live(c).serverClose();
    c.stop();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(c.info.state).toBe('off');
  });
});
