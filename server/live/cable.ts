import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { SOCKET_PING_INTERVAL_MS, SOCKET_PROTOCOL } from '../../src/domain/constants';
import { channelIdentifierSchema, clientCommandSchema, type LiveMessageInput } from '../../src/domain/live-message';
import { callerForToken, type Caller } from '../auth/context';
import { canSeeOrg } from '../auth/scope';
import type { ServerDeps } from '../deps';
import type { Bus } from './bus';

/** Past this many buffered bytes a connection is "backed up": points coalesce to the latest per asset. */
export const SOCKET_SOFT_LIMIT_BYTES = 256 * 1024;
/** Past this, or this many queued frames, the connection is dropped: a slow client never grows memory without bound. */
export const SOCKET_HARD_LIMIT_BYTES = 4 * 1024 * 1024;
export const SOCKET_MAX_QUEUED_FRAMES = 5_000;
const FLUSH_INTERVAL_MS = 100;

interface Connection {
  ws: WebSocket;
  caller: Caller;
  subscriptions: Map<string, () => void>;
  /** Latest point frame per asset while backed up. */
  pendingPoints: Map<string, string>;
  /** Other frames while backed up, in order. */
  queue: string[];
}

/** The token is the second subprotocol: `["actioncable-v1-json", token]` (part 1 §4). */
function tokenFromProtocols(request: FastifyRequest): string | null {
  const header = request.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return null;
  const protocols = header.split(',').map((p) => p.trim());
  if (protocols[0] !== SOCKET_PROTOCOL) return null;
  return protocols[1] || null;
}

/**
 * The streaming socket at /cable, ActionCable-compatible JSON (ARCHITECTURE "Live data"): welcome,
 * a ping every 3 s, subscribe/unsubscribe on the EventsChannel of an organization the caller may
 * see, then `{identifier, message}` frames from the bus.
 */
export async function cableRoutes(app: FastifyInstance, deps: ServerDeps, bus: Bus): Promise<{ connections(): number }> {
  const connections = new Set<Connection>();
  // One bus message goes to many sockets: serialize it once, not once per subscriber.
  const serialized = new WeakMap<object, string>();
  const messageJson = (message: LiveMessageInput): string => {
    let json = serialized.get(message);
    if (json === undefined) {
      json = JSON.stringify(message);
      serialized.set(message, json);
    }
    return json;
  };
  const backedUp = new Set<Connection>();
  const callers = new WeakMap<FastifyRequest, Caller>();

  await app.register(websocket, {
    options: {
      maxPayload: 64 * 1024,
      // Echo the feed name, never the token.
      handleProtocols: (protocols) => (protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
    },
  });

  function rawSend(connection: Connection, frame: string): void {
    connection.ws.send(frame);
  }

  function drop(connection: Connection, reason: string): void {
    connection.ws.terminate();
    app.log.warn({ userId: connection.caller.userId, reason }, 'cable: connection dropped');
  }

  /** Sends now, or queues while the socket is backed up (points coalesce per asset). */
  function send(connection: Connection, frame: string, pointOf?: string): void {
    const { ws } = connection;
    if (ws.readyState !== ws.OPEN) return;
    if (!backedUp.has(connection) && ws.bufferedAmount < SOCKET_SOFT_LIMIT_BYTES) {
      rawSend(connection, frame);
      return;
    }
    backedUp.add(connection);
    if (pointOf) connection.pendingPoints.set(pointOf, frame);
    else connection.queue.push(frame);
    if (ws.bufferedAmount > SOCKET_HARD_LIMIT_BYTES || connection.queue.length + connection.pendingPoints.size > SOCKET_MAX_QUEUED_FRAMES) {
      drop(connection, 'send buffer full');
    }
  }

  function flush(connection: Connection): void {
    const { ws } = connection;
    if (ws.readyState !== ws.OPEN) {
      backedUp.delete(connection);
      return;
    }
    while (ws.bufferedAmount < SOCKET_SOFT_LIMIT_BYTES && connection.queue.length > 0) rawSend(connection, connection.queue.shift()!);
    for (const [thingId, frame] of connection.pendingPoints) {
      if (ws.bufferedAmount >= SOCKET_SOFT_LIMIT_BYTES) break;
      connection.pendingPoints.delete(thingId);
      rawSend(connection, frame);
    }
    if (connection.queue.length === 0 && connection.pendingPoints.size === 0) backedUp.delete(connection);
    else if (ws.bufferedAmount > SOCKET_HARD_LIMIT_BYTES) drop(connection, 'send buffer full');
  }

  // One clock for every connection: pings every 3 s, flushes of backed-up sockets every 100 ms.
  const ping = setInterval(() => {
    const frame = JSON.stringify({ type: 'ping', message: Math.floor(deps.now().getTime() / 1000) });
    for (const connection of connections) send(connection, frame);
  }, SOCKET_PING_INTERVAL_MS);
  const flusher = setInterval(() => {
    for (const connection of backedUp) flush(connection);
  }, FLUSH_INTERVAL_MS);
  ping.unref();
  flusher.unref();

  deps.events.on('tokens-revoked', (tokenIds) => {
    const revoked = new Set(tokenIds);
    for (const connection of connections) {
      if (revoked.has(connection.caller.tokenId)) {
        connection.ws.send(JSON.stringify({ type: 'disconnect', reason: 'unauthorized', reconnect: false }));
        connection.ws.close(4001, 'token revoked');
      }
    }
  });

  app.addHook('onClose', async () => {
    clearInterval(ping);
    clearInterval(flusher);
    for (const connection of connections) connection.ws.terminate();
  });

  app.get(
    '/cable',
    {
      websocket: true,
      // A bad or expired token is refused at the handshake, before the upgrade.
      preValidation: async (request, reply) => {
        const token = tokenFromProtocols(request);
        const caller = token ? await callerForToken(deps.db, token, deps.now()) : null;
        if (!caller) return reply.code(401).send({ error: 'unauthorized', message: 'Access token is expired or does not exist.' });
        callers.set(request, caller);
      },
    },
    (ws, request) => {
      const caller = callers.get(request)!;
      const connection: Connection = { ws, caller, subscriptions: new Map(), pendingPoints: new Map(), queue: [] };
      connections.add(connection);
      ws.send(JSON.stringify({ type: 'welcome' }));

      ws.on('message', (data) => {
        let command;
        try {
          command = clientCommandSchema.safeParse(JSON.parse(data.toString()));
        } catch {
          return; // not JSON: ignored, as ActionCable does
        }
        if (!command.success) return;
        const { identifier } = command.data;
        if (command.data.command === 'unsubscribe') {
          connection.subscriptions.get(identifier)?.();
          connection.subscriptions.delete(identifier);
          return;
        }
        const channel = channelIdentifierSchema.safeParse(identifier);
        if (!channel.success || !canSeeOrg(caller.scope, channel.data.organization)) {
          send(connection, JSON.stringify({ type: 'reject_subscription', identifier }));
          return;
        }
        if (!connection.subscriptions.has(identifier)) {
          const framePrefix = `{"identifier":${JSON.stringify(identifier)},"message":`;
          const off = bus.subscribe(channel.data.organization, (message: LiveMessageInput) => {
            const frame = `${framePrefix}${messageJson(message)}}`;
            send(connection, frame, message.type === 'point' ? message.thing_id : undefined);
          });
          connection.subscriptions.set(identifier, off);
        }
        send(connection, JSON.stringify({ type: 'confirm_subscription', identifier }));
      });

      ws.on('close', () => {
        for (const off of connection.subscriptions.values()) off();
        connections.delete(connection);
        backedUp.delete(connection);
      });
      ws.on('error', () => ws.terminate());
    },
  );

  return { connections: () => connections.size };
}
