import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { SOCKET_PING_INTERVAL_MS, SOCKET_PROTOCOL } from '../../src/domain/constants';
import { eq } from 'drizzle-orm';
import { LIVE_BATCH_PROTOCOL, channelIdentifierSchema, clientCommandSchema, type LiveMessageInput } from '../../src/domain/live-message';
import { callerForToken, type Caller } from '../auth/context';
import { canSeeOrg } from '../auth/scope';
import { tokens } from '../db/schema';
import type { AccessChange, Bus, ServerDeps } from '../deps';
import { AssetVisibility, audienceOf, mayReceive, type Audience } from './visibility';

/** Past this many buffered bytes a connection is "backed up": points and heartbeats coalesce to the latest per asset. */
export const SOCKET_SOFT_LIMIT_BYTES = 256 * 1024;
/**
 * Past this, or this many queued frames of the kinds that do not coalesce (assets, locations,
 * closures), the connection is dropped: a slow client never grows memory without bound. The
 * coalesced frames are bounded by the fleet the caller sees (a point and a heartbeat per asset,
 * each a frame shared with every other socket of the organization), and at most
 * SOCKET_MAX_COALESCED_FRAMES: a dashboard a second behind a fleet of 100,000 at 20,000 messages a
 * second holds 20,000 of them, and catches up with the latest of each asset instead of being
 * dropped, reconnecting and reading the whole fleet again (README "Application bench").
 */
export const SOCKET_HARD_LIMIT_BYTES = 4 * 1024 * 1024;
export const SOCKET_MAX_QUEUED_FRAMES = 5_000;
export const SOCKET_MAX_COALESCED_FRAMES = 250_000;
const FLUSH_INTERVAL_MS = 100;
/**
 * Frames sent in one turn of the event loop leave a socket together, in writes of about this many
 * bytes, not one write (a system call) per frame: at 20,000 messages a second to ten dashboards, a
 * write per frame took 40 % of the server's time. Each frame is still its own WebSocket message
 * (part 1 §4). Well under the soft limit, so a burst alone never makes a socket look backed up.
 */
export const SOCKET_WRITE_BYTES = 64 * 1024;

/** RFC 6455 §5.2: the header of a final, unmasked text frame (server to client) of `length` bytes. */
function frameHeaderBytes(length: number): number {
  return length <= 125 ? 2 : length <= 0xffff ? 4 : 10;
}

/**
 * A final, unmasked text frame (server to client) of `payload`, header and UTF-8 bytes, ready to
 * be copied into a socket's write. A frame is encoded once however many sockets it goes to.
 */
function encodeTextFrame(payload: string): Buffer {
  const length = Buffer.byteLength(payload);
  const header = frameHeaderBytes(length);
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, text
  if (length <= 125) frame[1] = length;
  else if (length <= 0xffff) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(payload, header, length, 'utf8');
  return frame;
}

/** A control frame (welcome, ping, confirmations, notices). */
const jsonFrame = (value: object): Buffer => encodeTextFrame(JSON.stringify(value));

/**
 * OWASP API4 (unrestricted resource consumption): one dashboard tab holds one socket with one
 * subscription (its organization); an acs user switching organizations resubscribes. These caps
 * leave room for many tabs and switches while one token cannot multiply the stream.
 */
export const SOCKETS_PER_USER_MAX = 16;
export const SUBSCRIPTIONS_PER_SOCKET_MAX = 10;
export const TOO_MANY_SOCKETS_MESSAGE = `Too many open live connections for this user (at most ${SOCKETS_PER_USER_MAX}). Close another tab and try again.`;

/** Close codes (RFC 6455 §7.4.2: 4000–4999 are the application's) and their reasons. */
export const SOCKET_CLOSE = {
  /** Revoked token, or the user suspended or deleted: the client signs out. */
  revoked: { code: 4001, reason: 'token revoked' },
  /** The access token's lifetime ended: the client reconnects with its refreshed token. */
  tokenExpired: { code: 4002, reason: 'token expired' },
  /** RFC 6455 1008 policy violation: over SOCKETS_PER_USER_MAX (a race past the handshake check). */
  tooManySockets: { code: 1008, reason: 'too many sockets' },
} as const;

/** Why a subscription is refused when the client caused it (an invisible organization has no reason). */
const REJECT_REASON = { alreadySubscribed: 'already_subscribed', tooMany: 'too_many_subscriptions' } as const;

interface Subscription {
  /** The identifier as first confirmed: frames go out under it. */
  identifier: string;
  off: () => void;
}

/**
 * A live message for a socket that takes batches (LIVE_BATCH_PROTOCOL): its JSON text and the
 * frame's opening for the subscription it goes out under (`{"identifier":…,"messages":[`).
 */
interface BatchItem {
  opening: string;
  json: string;
}
/** What a socket sends: an encoded frame, or a message that joins the turn's batch of its subscription. */
type Outgoing = Buffer | BatchItem;

interface Connection {
  ws: WebSocket;
  /** The TCP socket under `ws`: the frames gathered in a turn are written to it as one buffer. */
  socket: Socket;
  /** This turn's frames, encoded, not yet written, and their bytes (the open batch's included). */
  outbox: Buffer[];
  outboxBytes: number;
  /** Whether the client asked for batches (LIVE_BATCH_PROTOCOL), and the batch being gathered. */
  batched: boolean;
  batch: { opening: string; json: string[]; length: number } | null;
  /** Kept in memory to re-check the caller when access changes (the same rule as the handshake). */
  token: string;
  caller: Caller;
  expiresAt: Date;
  audience: Audience;
  /** One per organization (the EventsChannel is the only channel): identifier spellings collapse. */
  subscriptions: Map<string, Subscription>;
  /** While backed up, the latest point and the latest heartbeat frame of each asset (`coalesceKey`). */
  pendingLatest: Map<string, Outgoing>;
  /** Other frames while backed up, in order. */
  queue: Outgoing[];
}

/**
 * What a backed-up socket keeps only the latest of: a point and a heartbeat per asset and
 * organization stream (a later one says all an earlier one did: position, speed and course; the
 * active flag and run; the check-in time). Every other kind keeps each message, in order.
 */
export function coalesceKey(organizationId: string, message: LiveMessageInput): string | undefined {
  if (message.type === 'point') return `p ${organizationId} ${message.thing_id}`;
  if (message.type === 'heartbeat') return `h ${organizationId} ${message.thing_id}`;
  return undefined;
}

/** The subprotocols the client offered, in order. */
function protocolsOf(request: FastifyRequest): string[] {
  const header = request.headers['sec-websocket-protocol'];
  return typeof header === 'string' ? header.split(',').map((p) => p.trim()) : [];
}

/** The token is the second subprotocol: `["actioncable-v1-json", token]` (part 1 §4). */
function tokenFromProtocols(request: FastifyRequest): string | null {
  const protocols = protocolsOf(request);
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
  // One bus message goes to many sockets: it is serialized once, and its frame encoded once per
  // identifier it goes out under (every dashboard of an organization subscribes with the same one),
  // not once per socket. The bus hands a message to all its subscribers in one go, so the last
  // message's frames are all there is to keep.
  let framedMessage: LiveMessageInput | null = null;
  let framedJson = '';
  const framesByPrefix = new Map<string, Buffer>();
  const messageJson = (message: LiveMessageInput): string => {
    if (message !== framedMessage) {
      framedMessage = message;
      framedJson = JSON.stringify(message);
      framesByPrefix.clear();
    }
    return framedJson;
  };
  const messageFrame = (framePrefix: string, message: LiveMessageInput): Buffer => {
    messageJson(message);
    let frame = framesByPrefix.get(framePrefix);
    if (!frame) {
      frame = encodeTextFrame(`${framePrefix}${framedJson}}`);
      framesByPrefix.set(framePrefix, frame);
    }
    return frame;
  };
  const backedUp = new Set<Connection>();
  const visibility = new AssetVisibility(deps.db);
  const handshakes = new WeakMap<FastifyRequest, Pick<Connection, 'token' | 'caller' | 'expiresAt' | 'audience'>>();
  const socketsOf = (userId: string) => {
    let count = 0;
    for (const connection of connections) if (connection.caller.userId === userId) count += 1;
    return count;
  };

  await app.register(websocket, {
    options: {
      maxPayload: 64 * 1024,
      // Echo the feed name, never the token.
      handleProtocols: (protocols) => (protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
    },
  });

  // Connections holding this turn's frames; one setImmediate writes them all out.
  const unwritten = new Set<Connection>();
  let writeScheduled = false;
  const writeAll = () => {
    writeScheduled = false;
    for (const connection of unwritten) writeOut(connection);
  };

  /** Encodes the batch being gathered as one frame at the end of the outbox. */
  function closeBatch(connection: Connection): void {
    const { batch } = connection;
    if (!batch) return;
    connection.batch = null;
    const frame = encodeTextFrame(`${batch.opening}${batch.json.join(',')}]}`);
    connection.outbox.push(frame);
    // The batch was counted by its messages' text; from now on by its frame.
    connection.outboxBytes += frame.length - batch.length;
  }

  /** Writes the connection's gathered frames to its socket in one buffer. */
  function writeOut(connection: Connection): void {
    unwritten.delete(connection);
    closeBatch(connection);
    const { outbox, outboxBytes, ws } = connection;
    if (outbox.length === 0) return;
    connection.outbox = [];
    connection.outboxBytes = 0;
    // Closing (its close frame may be out already) or closed: what was gathered is dropped, as ws drops a send then.
    if (ws.readyState !== ws.OPEN) return;
    connection.socket.write(outbox.length === 1 ? outbox[0]! : Buffer.concat(outbox, outboxBytes));
  }

  /**
   * Gathers a frame, or a message into the open batch of its subscription (another subscription's
   * message or a frame closes the batch first: the order is kept), for this turn's write.
   */
  function rawSend(connection: Connection, item: Outgoing): void {
    if (Buffer.isBuffer(item)) {
      closeBatch(connection);
      connection.outbox.push(item);
      connection.outboxBytes += item.length;
    } else {
      if (connection.batch?.opening !== item.opening) closeBatch(connection);
      connection.batch ??= { opening: item.opening, json: [], length: 0 };
      connection.batch.json.push(item.json);
      connection.batch.length += item.json.length;
      connection.outboxBytes += item.json.length;
    }
    if (connection.outboxBytes >= SOCKET_WRITE_BYTES) {
      writeOut(connection);
      return;
    }
    unwritten.add(connection);
    if (!writeScheduled) {
      writeScheduled = true;
      setImmediate(writeAll);
    }
  }

  /** Bytes on their way to the client: in the socket's buffer, and gathered this turn. */
  const buffered = (connection: Connection) => connection.ws.bufferedAmount + connection.outboxBytes;

  function drop(connection: Connection, reason: string): void {
    connection.ws.terminate();
    app.log.warn({ userId: connection.caller.userId, reason }, 'cable: connection dropped');
  }

  /** Sends now, or queues while the socket is backed up (points and heartbeats coalesce per asset: `coalesceKey`). */
  function send(connection: Connection, frame: Outgoing, coalesce?: string): void {
    const { ws } = connection;
    if (ws.readyState !== ws.OPEN) return;
    // A backed-up socket whose buffer drained sends what it kept first (as fast as its client reads,
    // not only at the flusher's ticks: 256 KB a tick held a client to about 10,000 frames a second).
    if (backedUp.has(connection) && buffered(connection) < SOCKET_SOFT_LIMIT_BYTES) flush(connection);
    if (!backedUp.has(connection) && buffered(connection) < SOCKET_SOFT_LIMIT_BYTES) {
      rawSend(connection, frame);
      return;
    }
    backedUp.add(connection);
    if (coalesce) connection.pendingLatest.set(coalesce, frame);
    else connection.queue.push(frame);
    if (
      buffered(connection) > SOCKET_HARD_LIMIT_BYTES ||
      connection.queue.length > SOCKET_MAX_QUEUED_FRAMES ||
      connection.pendingLatest.size > SOCKET_MAX_COALESCED_FRAMES
    ) {
      drop(connection, 'send buffer full');
    }
  }

  function flush(connection: Connection): void {
    const { ws } = connection;
    if (ws.readyState !== ws.OPEN) {
      backedUp.delete(connection);
      return;
    }
    while (buffered(connection) < SOCKET_SOFT_LIMIT_BYTES && connection.queue.length > 0) rawSend(connection, connection.queue.shift()!);
    for (const [key, frame] of connection.pendingLatest) {
      if (buffered(connection) >= SOCKET_SOFT_LIMIT_BYTES) break;
      connection.pendingLatest.delete(key);
      rawSend(connection, frame);
    }
    if (connection.queue.length === 0 && connection.pendingLatest.size === 0) backedUp.delete(connection);
    else if (buffered(connection) > SOCKET_HARD_LIMIT_BYTES) drop(connection, 'send buffer full');
  }

  /** Ends a connection and what it holds on the bus and in the visibility cache (once). */
  function release(connection: Connection): void {
    if (!connections.delete(connection)) return;
    for (const subscription of connection.subscriptions.values()) subscription.off();
    connection.subscriptions.clear();
    backedUp.delete(connection);
    unwritten.delete(connection);
    connection.outbox = [];
    connection.outboxBytes = 0;
    visibility.release(connection.audience.assets);
  }

  function closeWith(connection: Connection, close: (typeof SOCKET_CLOSE)[keyof typeof SOCKET_CLOSE], notice: object): void {
    // The notice goes after the frames gathered before it, and before the close frame.
    if (connection.ws.readyState === connection.ws.OPEN) rawSend(connection, jsonFrame({ type: 'disconnect', ...notice }));
    writeOut(connection);
    connection.ws.close(close.code, close.reason);
    release(connection);
  }

  const revoke = (connection: Connection) => closeWith(connection, SOCKET_CLOSE.revoked, { reason: 'unauthorized', reconnect: false });
  // The worker reconnects on any other disconnect, reading its (refreshed) token again.
  const expire = (connection: Connection) => closeWith(connection, SOCKET_CLOSE.tokenExpired, { reason: 'token_expired', reconnect: true });

  // One clock for every connection: pings (and the token expiry check, on the server's clock) every
  // 3 s, flushes of backed-up sockets every 100 ms.
  const ping = setInterval(() => {
    const now = deps.now();
    const frame = jsonFrame({ type: 'ping', message: Math.floor(now.getTime() / 1000) });
    for (const connection of connections) {
      if (connection.expiresAt <= now) expire(connection);
      else send(connection, frame);
    }
  }, SOCKET_PING_INTERVAL_MS);
  const flusher = setInterval(() => {
    for (const connection of backedUp) flush(connection);
  }, FLUSH_INTERVAL_MS);
  ping.unref();
  flusher.unref();

  function tokensRevoked(tokenIds: readonly string[]): void {
    const revoked = new Set(tokenIds);
    for (const connection of connections) if (revoked.has(connection.caller.tokenId)) revoke(connection);
  }

  /**
   * Re-resolves a connection's caller by the handshake's rule (callerForToken: revoked, expired,
   * suspended, deleted) and narrows or widens what it receives: its permissions and asset view are
   * replaced, and subscriptions of organizations it may no longer see end with `reject_subscription`.
   */
  async function recheck(connection: Connection): Promise<void> {
    const caller = await callerForToken(deps.db, connection.token, deps.now());
    if (!connections.has(connection)) return;
    if (!caller) {
      if (connection.expiresAt <= deps.now()) expire(connection);
      else revoke(connection);
      return;
    }
    const assets = await visibility.acquire(caller.scope);
    if (!connections.has(connection)) {
      visibility.release(assets);
      return;
    }
    visibility.release(connection.audience.assets);
    connection.caller = caller;
    connection.audience = audienceOf(caller, assets);
    for (const [organizationId, subscription] of connection.subscriptions) {
      if (canSeeOrg(caller.scope, organizationId)) continue;
      subscription.off();
      connection.subscriptions.delete(organizationId);
      send(connection, jsonFrame({ type: 'reject_subscription', identifier: subscription.identifier }));
    }
  }

  async function accessChanged(change: AccessChange): Promise<void> {
    const userIds = new Set(change.userIds ?? []);
    const organizationIds = new Set(change.organizationIds ?? []);
    await visibility.refresh(change.all ? undefined : organizationIds);
    const affected = [...connections].filter(
      (c) => change.all || userIds.has(c.caller.userId) || organizationIds.has(c.caller.scope.organizationId),
    );
    await Promise.all(affected.map((connection) => recheck(connection)));
  }

  // Changes apply one after another, in the order they happened.
  let changes: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => {
    changes = changes.then(work).catch((error: unknown) => app.log.error({ err: error }, 'cable: access re-check failed'));
  };
  // Revocations and access changes go through the bus, so sockets held by every process (NATS)
  // apply them, not only those of the process that made the change.
  deps.events.on('tokens-revoked', (tokenIds) => bus.publishControl({ type: 'tokens-revoked', tokenIds }));
  deps.events.on('access-changed', (change) => bus.publishControl({ type: 'access-changed', change }));
  const offControl = bus.subscribeControl((event) => {
    if (event.type === 'tokens-revoked') tokensRevoked(event.tokenIds);
    else enqueue(() => accessChanged(event.change));
  });
  deps.events.on('assets-changed', () => enqueue(() => visibility.refresh()));

  app.addHook('onClose', async () => {
    offControl();
    clearInterval(ping);
    clearInterval(flusher);
    for (const connection of [...connections]) {
      connection.ws.terminate();
      release(connection);
    }
  });

  app.get(
    '/cable',
    {
      websocket: true,
      // A bad or expired token is refused at the handshake, before the upgrade; so is a user over
      // the socket cap (429, OWASP API4).
      preValidation: async (request, reply) => {
        const token = tokenFromProtocols(request);
        const caller = token ? await callerForToken(deps.db, token, deps.now()) : null;
        if (!token || !caller)
          return reply.code(401).send({ error: 'unauthorized', message: 'Access token is expired or does not exist.' });
        if (socketsOf(caller.userId) >= SOCKETS_PER_USER_MAX) {
          return reply.code(429).send({ error: 'too_many_sockets', message: TOO_MANY_SOCKETS_MESSAGE });
        }
        const [row] = await deps.db
          .select({ expiresAt: tokens.accessExpiresAt })
          .from(tokens)
          .where(eq(tokens.id, caller.tokenId))
          .limit(1);
        const assets = await visibility.acquire(caller.scope);
        handshakes.set(request, {
          token,
          caller,
          expiresAt: row?.expiresAt ?? deps.now(),
          audience: audienceOf(caller, assets),
        });
        // A client gone before the upgrade completes: the view it held is given back.
        request.raw.socket.once('close', () => {
          if (handshakes.delete(request)) visibility.release(assets);
        });
      },
    },
    (ws, request) => {
      const handshake = handshakes.get(request)!;
      handshakes.delete(request);
      const connection: Connection = {
        ws,
        socket: request.raw.socket,
        outbox: [],
        outboxBytes: 0,
        batched: protocolsOf(request).includes(LIVE_BATCH_PROTOCOL),
        batch: null,
        ...handshake,
        subscriptions: new Map(),
        pendingLatest: new Map(),
        queue: [],
      };
      connections.add(connection);
      ws.on('close', () => release(connection));
      ws.on('error', () => ws.terminate());
      // Handshakes of one user racing past the check above: the ones over the cap are closed.
      if (socketsOf(connection.caller.userId) > SOCKETS_PER_USER_MAX) {
        ws.close(SOCKET_CLOSE.tooManySockets.code, SOCKET_CLOSE.tooManySockets.reason);
        release(connection);
        return;
      }
      rawSend(connection, jsonFrame({ type: 'welcome' }));

      const reject = (identifier: string, reason?: string) =>
        send(
          connection,
          jsonFrame(reason ? { type: 'reject_subscription', identifier, reason } : { type: 'reject_subscription', identifier }),
        );

      ws.on('message', (data) => {
        let command;
        try {
          command = clientCommandSchema.safeParse(JSON.parse(data.toString()));
        } catch {
          return; // not JSON: ignored, as ActionCable does
        }
        if (!command.success || !connections.has(connection)) return;
        const { identifier } = command.data;
        const channel = channelIdentifierSchema.safeParse(identifier);
        const organizationId = channel.success ? channel.data.organization : null;
        const current = organizationId === null ? undefined : connection.subscriptions.get(organizationId);
        if (command.data.command === 'unsubscribe') {
          // ActionCable matches the identifier exactly.
          if (organizationId !== null && current?.identifier === identifier) {
            current.off();
            connection.subscriptions.delete(organizationId);
          }
          return;
        }
        if (organizationId === null || !canSeeOrg(connection.audience.scope, organizationId)) return reject(identifier);
        if (current) {
          // One stream per channel and organization: the same identifier again is confirmed again
          // (idempotent); another spelling of it is refused, since frames only ever go out under
          // the identifier first confirmed and a confirmation would promise a stream that never comes.
          if (current.identifier !== identifier) return reject(identifier, REJECT_REASON.alreadySubscribed);
        } else {
          if (connection.subscriptions.size >= SUBSCRIPTIONS_PER_SOCKET_MAX) return reject(identifier, REJECT_REASON.tooMany);
          const framePrefix = `{"identifier":${JSON.stringify(identifier)},"message":`;
          const opening = `{"identifier":${JSON.stringify(identifier)},"messages":[`;
          const off = bus.subscribe(organizationId, (message: LiveMessageInput) => {
            // The caller's rights, computed at connect and kept current by re-checks: no query here.
            if (!mayReceive(connection.audience, message)) return;
            const outgoing = connection.batched ? { opening, json: messageJson(message) } : messageFrame(framePrefix, message);
            send(connection, outgoing, coalesceKey(organizationId, message));
          });
          connection.subscriptions.set(organizationId, { identifier, off });
        }
        send(connection, jsonFrame({ type: 'confirm_subscription', identifier }));
      });
    },
  );

  return { connections: () => connections.size };
}
