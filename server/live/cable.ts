import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { RawData, WebSocket } from 'ws';
import { SOCKET_PING_INTERVAL_MS, SOCKET_PROTOCOL } from '../../src/domain/constants';
import { eq } from 'drizzle-orm';
import { LIVE_BATCH_PROTOCOL, channelIdentifierSchema, clientCommandSchema, type LiveMessageInput } from '../../src/domain/live-message';
import { callerForToken } from '../auth/context';
import { canSeeOrg } from '../auth/scope';
import { tokens } from '../db/schema';
import type { AccessChange, Bus, ServerDeps } from '../deps';
import { CableConnection, CableWrites, coalesceKey, type CloseCode, type Handshake } from './cable-connection';
import { MessageFrames, jsonFrame } from './cable-frame';
import { AssetVisibility, audienceOf, mayReceive } from './visibility';

export {
  SOCKET_HARD_LIMIT_BYTES,
  SOCKET_MAX_COALESCED_FRAMES,
  SOCKET_MAX_QUEUED_FRAMES,
  SOCKET_SOFT_LIMIT_BYTES,
  SOCKET_WRITE_BYTES,
  coalesceKey,
} from './cable-connection';

const FLUSH_INTERVAL_MS = 100;

/**
 * OWASP API4 (unrestricted resource consumption): one dashboard tab holds one socket with one
 * subscription (its organization); an acs user switching organizations resubscribes. These caps
 * leave room for many tabs and switches while one token cannot multiply the stream.
 */
export const SOCKETS_PER_USER_MAX = 16;
export const SUBSCRIPTIONS_PER_SOCKET_MAX = 10;
export const TOO_MANY_SOCKETS_MESSAGE = `Too many open live connections for this user (at most ${SOCKETS_PER_USER_MAX}). Close another tab and try again.`;

/** How long a stopping server waits for its clients to answer the close frame before it cuts them. */
const CLOSE_ANSWER_MS = 1_000;

/** Close codes (RFC 6455 §7.4.2: 4000–4999 are the application's) and their reasons. */
export const SOCKET_CLOSE = {
  /** Revoked token, or the user suspended or deleted: the client signs out. */
  revoked: { code: 4001, reason: 'token revoked' },
  /** The access token's lifetime ended: the client reconnects with its refreshed token. */
  tokenExpired: { code: 4002, reason: 'token expired' },
  /** RFC 6455 1008 policy violation: over SOCKETS_PER_USER_MAX (a race past the handshake check). */
  tooManySockets: { code: 1008, reason: 'too many sockets' },
  /** RFC 6455 1012 service restart: the server is stopping; the client reconnects (to another process behind the proxy). */
  restart: { code: 1012, reason: 'server restart' },
} as const;

/** Why a subscription is refused when the client caused it (an invisible organization has no reason). */
const REJECT_REASON = { alreadySubscribed: 'already_subscribed', tooMany: 'too_many_subscriptions' } as const;

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
 * see, then `{identifier, message}` frames from the bus. The hub holds the open connections, the
 * frames of the bus's last message and the visible assets of their callers, and re-checks them
 * when tokens are revoked or access or the fleet changes.
 */
export class CableHub {
  private readonly connected = new Set<CableConnection>();
  private readonly frames = new MessageFrames();
  private readonly writes = new CableWrites();
  private readonly visibility: AssetVisibility;
  private readonly handshakes = new WeakMap<FastifyRequest, Handshake>();
  /** The app's logger, from `register`. */
  private log!: FastifyBaseLogger;
  // Changes apply one after another, in the order they happened.
  private changes: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: ServerDeps,
    private readonly bus: Bus,
  ) {
    this.visibility = new AssetVisibility(deps.db);
  }

  /** How many connections are open. */
  connections(): number {
    return this.connected.size;
  }

  /** For GET /metrics: open connections, their subscriptions, and the write counts since start. */
  stats(): { connections: number; subscriptions: number; coalesced: number; dropped: number } {
    let subscriptions = 0;
    for (const connection of this.connected) subscriptions += connection.subscriptions.size;
    return { connections: this.connected.size, subscriptions, ...this.writes.counts };
  }

  /** Registers the websocket plugin and GET /cable, starts the clock and listens to control events until the app closes. */
  async register(app: FastifyInstance): Promise<void> {
    this.log = app.log;
    const closeAll = () => this.closeAllForRestart();
    await app.register(websocket, {
      // A stop tells every client to reconnect (a 'disconnect' notice, then 1012), so that behind a
      // proxy it moves to another process at once; a client that does not answer the close in time
      // is cut. (The plugin's own preClose would close them without a word.)
      preClose: async function (this: FastifyInstance) {
        await closeAll();
        await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
      },
      options: {
        maxPayload: 64 * 1024,
        // Echo the feed name, never the token.
        handleProtocols: (protocols) => (protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
      },
    });
    const stopClock = this.startClock();
    const offControl = this.listen();
    app.addHook('onClose', async () => {
      offControl();
      stopClock();
      for (const connection of [...this.connected]) {
        connection.ws.terminate();
        this.release(connection);
      }
    });
    app.get('/cable', { websocket: true, preValidation: (request, reply) => this.handshake(request, reply) }, (ws, request) =>
      this.open(ws, request),
    );
  }

  /** Sends every open connection the restart notice and close, waits (at most CLOSE_ANSWER_MS) for the clients' answers, cuts the rest. */
  private async closeAllForRestart(): Promise<void> {
    const open = [...this.connected];
    const closed = open.map((connection) => new Promise<void>((resolve) => connection.ws.once('close', () => resolve())));
    for (const connection of open) this.closeWith(connection, SOCKET_CLOSE.restart, { reason: 'server_restart', reconnect: true });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_ANSWER_MS)))]);
    clearTimeout(timer);
    for (const connection of open) connection.ws.terminate();
  }

  /**
   * One clock for every connection: pings (and the token expiry check, on the server's clock) every
   * 3 s, flushes of backed-up sockets every 100 ms. Returns what stops it.
   */
  private startClock(): () => void {
    const ping = setInterval(() => this.ping(), SOCKET_PING_INTERVAL_MS);
    const flusher = setInterval(() => this.writes.flushBackedUp(), FLUSH_INTERVAL_MS);
    ping.unref();
    flusher.unref();
    return () => {
      clearInterval(ping);
      clearInterval(flusher);
    };
  }

  private ping(): void {
    const now = this.deps.now();
    const frame = jsonFrame({ type: 'ping', message: Math.floor(now.getTime() / 1000) });
    for (const connection of this.connected) {
      if (connection.expiresAt <= now) this.expire(connection);
      else connection.send(frame);
    }
  }

  /**
   * Revocations and access changes go through the bus, so sockets held by every process (NATS)
   * apply them, not only those of the process that made the change. Returns what ends the bus's
   * control subscription.
   */
  private listen(): () => void {
    const { events } = this.deps;
    events.on('tokens-revoked', (tokenIds) => this.bus.publishControl({ type: 'tokens-revoked', tokenIds }));
    events.on('access-changed', (change) => this.bus.publishControl({ type: 'access-changed', change }));
    const offControl = this.bus.subscribeControl((event) => {
      if (event.type === 'tokens-revoked') this.tokensRevoked(event.tokenIds);
      else this.enqueue(() => this.accessChanged(event.change));
    });
    events.on('assets-changed', () => this.enqueue(() => this.visibility.refresh()));
    return offControl;
  }

  private enqueue(work: () => Promise<void>): void {
    this.changes = this.changes.then(work).catch((error: unknown) => this.log.error({ err: error }, 'cable: access re-check failed'));
  }

  /**
   * A bad or expired token is refused at the handshake, before the upgrade; so is a user over
   * the socket cap (429, OWASP API4).
   */
  private async handshake(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const { deps, visibility, handshakes } = this;
    const token = tokenFromProtocols(request);
    const caller = token ? await callerForToken(deps.db, token, deps.now()) : null;
    if (!token || !caller) return reply.code(401).send({ error: 'unauthorized', message: 'Access token is expired or does not exist.' });
    if (this.socketsOf(caller.userId) >= SOCKETS_PER_USER_MAX) {
      return reply.code(429).send({ error: 'too_many_sockets', message: TOO_MANY_SOCKETS_MESSAGE });
    }
    const [row] = await deps.db.select({ expiresAt: tokens.accessExpiresAt }).from(tokens).where(eq(tokens.id, caller.tokenId)).limit(1);
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
  }

  private socketsOf(userId: string): number {
    let count = 0;
    for (const connection of this.connected) if (connection.caller.userId === userId) count += 1;
    return count;
  }

  /** An upgraded socket: its connection (batches if the client offered LIVE_BATCH_PROTOCOL), welcomed, taking commands. */
  private open(ws: WebSocket, request: FastifyRequest): void {
    const handshake = this.handshakes.get(request)!;
    this.handshakes.delete(request);
    const batched = protocolsOf(request).includes(LIVE_BATCH_PROTOCOL);
    const connection = new CableConnection(ws, request.raw.socket, batched, handshake, this.writes, this.log);
    this.connected.add(connection);
    ws.on('close', () => this.release(connection));
    ws.on('error', () => ws.terminate());
    // Handshakes of one user racing past the handshake's check: the ones over the cap are closed.
    if (this.socketsOf(connection.caller.userId) > SOCKETS_PER_USER_MAX) {
      ws.close(SOCKET_CLOSE.tooManySockets.code, SOCKET_CLOSE.tooManySockets.reason);
      this.release(connection);
      return;
    }
    connection.rawSend(jsonFrame({ type: 'welcome' }));
    ws.on('message', (data) => this.command(connection, data));
  }

  /** A client's command: subscribe or unsubscribe (anything else, or not JSON, is ignored). */
  private command(connection: CableConnection, data: RawData): void {
    let command;
    try {
      command = clientCommandSchema.safeParse(JSON.parse(data.toString()));
    } catch {
      return; // not JSON: ignored, as ActionCable does
    }
    if (!command.success || !this.connected.has(connection)) return;
    const { identifier } = command.data;
    const channel = channelIdentifierSchema.safeParse(identifier);
    const organizationId = channel.success ? channel.data.organization : null;
    if (command.data.command === 'unsubscribe') this.unsubscribe(connection, identifier, organizationId);
    else this.subscribe(connection, identifier, organizationId);
  }

  private unsubscribe(connection: CableConnection, identifier: string, organizationId: string | null): void {
    const current = organizationId === null ? undefined : connection.subscriptions.get(organizationId);
    // ActionCable matches the identifier exactly.
    if (organizationId !== null && current?.identifier === identifier) {
      current.off();
      connection.subscriptions.delete(organizationId);
    }
  }

  private subscribe(connection: CableConnection, identifier: string, organizationId: string | null): void {
    if (organizationId === null || !canSeeOrg(connection.audience.scope, organizationId)) return this.reject(connection, identifier);
    const current = connection.subscriptions.get(organizationId);
    if (current) {
      // One stream per channel and organization: the same identifier again is confirmed again
      // (idempotent); another spelling of it is refused, since frames only ever go out under
      // the identifier first confirmed and a confirmation would promise a stream that never comes.
      if (current.identifier !== identifier) return this.reject(connection, identifier, REJECT_REASON.alreadySubscribed);
    } else {
      if (connection.subscriptions.size >= SUBSCRIPTIONS_PER_SOCKET_MAX) return this.reject(connection, identifier, REJECT_REASON.tooMany);
      connection.subscriptions.set(organizationId, { identifier, off: this.stream(connection, identifier, organizationId) });
    }
    connection.send(jsonFrame({ type: 'confirm_subscription', identifier }));
  }

  private reject(connection: CableConnection, identifier: string, reason?: string): void {
    connection.send(jsonFrame(reason ? { type: 'reject_subscription', identifier, reason } : { type: 'reject_subscription', identifier }));
  }

  /** Sends the organization's bus messages the caller may receive to the connection, under `identifier`; returns what ends it. */
  private stream(connection: CableConnection, identifier: string, organizationId: string): () => void {
    const framePrefix = `{"identifier":${JSON.stringify(identifier)},"message":`;
    const opening = `{"identifier":${JSON.stringify(identifier)},"messages":[`;
    return this.bus.subscribe(organizationId, (message: LiveMessageInput) => {
      // The caller's rights, computed at connect and kept current by re-checks: no query here.
      if (!mayReceive(connection.audience, message)) return;
      const outgoing = connection.batched ? { opening, json: this.frames.json(message) } : this.frames.frame(framePrefix, message);
      connection.send(outgoing, coalesceKey(organizationId, message));
    });
  }

  /** Ends a connection and what it holds on the bus and in the visibility cache (once). */
  private release(connection: CableConnection): void {
    if (!this.connected.delete(connection)) return;
    connection.release();
    this.visibility.release(connection.audience.assets);
  }

  private closeWith(connection: CableConnection, close: CloseCode, notice: object): void {
    connection.close(close, notice);
    this.release(connection);
  }

  private revoke(connection: CableConnection): void {
    this.closeWith(connection, SOCKET_CLOSE.revoked, { reason: 'unauthorized', reconnect: false });
  }

  // The worker reconnects on any other disconnect, reading its (refreshed) token again.
  private expire(connection: CableConnection): void {
    this.closeWith(connection, SOCKET_CLOSE.tokenExpired, { reason: 'token_expired', reconnect: true });
  }

  private tokensRevoked(tokenIds: readonly string[]): void {
    const revoked = new Set(tokenIds);
    for (const connection of this.connected) if (revoked.has(connection.caller.tokenId)) this.revoke(connection);
  }

  /**
   * Re-resolves a connection's caller by the handshake's rule (callerForToken: revoked, expired,
   * suspended, deleted) and narrows or widens what it receives: its permissions and asset view are
   * replaced, and subscriptions of organizations it may no longer see end with `reject_subscription`.
   */
  private async recheck(connection: CableConnection): Promise<void> {
    const caller = await callerForToken(this.deps.db, connection.token, this.deps.now());
    if (!this.connected.has(connection)) return;
    if (!caller) {
      if (connection.expiresAt <= this.deps.now()) this.expire(connection);
      else this.revoke(connection);
      return;
    }
    const assets = await this.visibility.acquire(caller.scope);
    if (!this.connected.has(connection)) {
      this.visibility.release(assets);
      return;
    }
    this.visibility.release(connection.audience.assets);
    connection.caller = caller;
    connection.audience = audienceOf(caller, assets);
    for (const [organizationId, subscription] of connection.subscriptions) {
      if (canSeeOrg(caller.scope, organizationId)) continue;
      subscription.off();
      connection.subscriptions.delete(organizationId);
      connection.send(jsonFrame({ type: 'reject_subscription', identifier: subscription.identifier }));
    }
  }

  private async accessChanged(change: AccessChange): Promise<void> {
    const userIds = new Set(change.userIds ?? []);
    const organizationIds = new Set(change.organizationIds ?? []);
    await this.visibility.refresh(change.all ? undefined : organizationIds);
    const affected = [...this.connected].filter(
      (c) => change.all || userIds.has(c.caller.userId) || organizationIds.has(c.caller.scope.organizationId),
    );
    await Promise.all(affected.map((connection) => this.recheck(connection)));
  }
}

/** Registers GET /cable on `app` (see CableHub); the hub answers how many connections are open (`connections()`). */
export async function cableRoutes(app: FastifyInstance, deps: ServerDeps, bus: Bus): Promise<CableHub> {
  const hub = new CableHub(deps, bus);
  await hub.register(app);
  return hub;
}
