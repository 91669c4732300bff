/**
 * The streaming socket of part 1 §4 (ARCHITECTURE "Live data"), ActionCable JSON: it connects with
 * the protocol pair `["actioncable-v1-json", token]`, waits for `welcome`, subscribes to the
 * organization's EventsChannel and hands every message of the subscription on. `ping` is no data
 * but is watched: no ping for SOCKET_DEAD_AFTER_MS counts as a dead socket. A socket that closes or
 * dies is reconnected up to SOCKET_RECONNECT_ATTEMPTS times, the n-th time (from 0) after
 * min(1000 × 2^n, 10000) ms; a confirmed subscription starts the count again.
 */
import {
  SOCKET_DEAD_AFTER_MS,
  SOCKET_PROTOCOL,
  SOCKET_RECONNECT_ATTEMPTS,
  SOCKET_RECONNECT_BASE_MS,
  SOCKET_RECONNECT_MAX_MS,
} from '../domain/constants';
import {
  LIVE_BATCH_PROTOCOL,
  eventsChannelIdentifier,
  liveMessageSchema,
  serverFrameSchema,
  type LiveMessage,
} from '../domain/live-message';
import type { SocketInfo, SocketState } from './live-protocol';

/** What the client needs of a WebSocket: the browser's, or `ws`'s in Node. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

export interface SocketClientOptions {
  url: string;
  /** Read at every (re)connect, so a refreshed token is used. */
  token: () => string;
  organizationId: string;
  open: SocketFactory;
  onMessage: (message: LiveMessage) => void;
  onState: (info: SocketInfo) => void;
  /** A subscription was confirmed (the first one, or after a reconnect): a fetch closes any gap. */
  onSubscribed: () => void;
  /** The server said the token is no good (`disconnect` with reason unauthorized): the token this socket opened with. */
  onUnauthorized: (token: string) => void;
}

/** part 1 §4, §9: the delay before reconnect number `attempt` (from 0). */
export function reconnectDelay(attempt: number): number {
  return Math.min(SOCKET_RECONNECT_BASE_MS * 2 ** attempt, SOCKET_RECONNECT_MAX_MS);
}

export class SocketClient {
  private socket: SocketLike | null = null;
  private state: SocketState = 'off';
  private attempt = 0;
  private delayMs: number | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private deadTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly identifier: string;
  /** The token of the current connection (what a 'disconnect unauthorized' refused). */
  private openedWith = '';

  constructor(private readonly options: SocketClientOptions) {
    this.identifier = eventsChannelIdentifier(options.organizationId);
  }

  get info(): SocketInfo {
    return { state: this.state, attempt: this.attempt, delayMs: this.delayMs };
  }

  get active(): boolean {
    return this.state === 'subscribed';
  }

  /** Connects now (no-op while connected or connecting); the attempt count starts again. */
  start(): void {
    this.attempt = 0;
    if (this.socket || this.state === 'connecting') return;
    this.clearReconnect();
    this.connect();
  }

  /** Closes for good (until `start`). */
  stop(): void {
    this.clearReconnect();
    this.drop();
    this.setState('off');
  }

  private connect(): void {
    this.delayMs = null;
    this.setState('connecting');
    let socket: SocketLike;
    try {
      this.openedWith = this.options.token();
      // part 1 §4's pair, and the batches of LIVE_BATCH_PROTOCOL (a server without them sends a frame per message).
      socket = this.options.open(this.options.url, [SOCKET_PROTOCOL, this.openedWith, LIVE_BATCH_PROTOCOL]);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.armDead();
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.receive(typeof event.data === 'string' ? event.data : String(event.data));
    };
    socket.onerror = () => undefined; // a close follows
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.drop();
      this.scheduleReconnect();
    };
  }

  private receive(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof raw !== 'object' || raw === null) return;
    // Data frames carry no type: parse only the messages (the bulk of the traffic) with their schema;
    // a batch's message that does not read is passed over, the others are taken in order.
    if (!('type' in raw) && ('message' in raw || 'messages' in raw)) {
      if ((raw as { identifier?: unknown }).identifier !== this.identifier) return;
      const batch = (raw as { messages?: unknown }).messages;
      const messages = 'message' in raw ? [(raw as { message: unknown }).message] : Array.isArray(batch) ? batch : [];
      for (const item of messages) {
        const message = liveMessageSchema.safeParse(item);
        if (message.success) this.options.onMessage(message.data);
      }
      return;
    }
    const frame = serverFrameSchema.safeParse(raw);
    if (!frame.success || !('type' in frame.data)) return;
    switch (frame.data.type) {
      case 'welcome':
        this.armDead();
        this.setState('open');
        this.socket?.send(JSON.stringify({ command: 'subscribe', identifier: this.identifier }));
        return;
      case 'ping':
        this.armDead();
        return;
      case 'confirm_subscription':
        if (frame.data.identifier !== this.identifier) return;
        this.attempt = 0;
        this.setState('subscribed');
        this.options.onSubscribed();
        return;
      case 'reject_subscription':
        if (frame.data.identifier !== this.identifier) return;
        this.drop();
        this.setState('failed');
        return;
      case 'disconnect':
        this.drop();
        if (frame.data.reason === 'unauthorized') {
          this.setState('failed');
          this.options.onUnauthorized(this.openedWith);
        } else if (frame.data.reconnect === false) {
          this.setState('failed');
        } else {
          this.scheduleReconnect();
        }
        return;
    }
  }

  /** part 1 §4: no ping for SOCKET_DEAD_AFTER_MS and the socket counts as dead. */
  private armDead(): void {
    if (this.deadTimer) clearTimeout(this.deadTimer);
    this.deadTimer = setTimeout(() => {
      this.deadTimer = null;
      this.drop();
      this.scheduleReconnect();
    }, SOCKET_DEAD_AFTER_MS);
  }

  private scheduleReconnect(): void {
    this.clearReconnect();
    if (this.attempt >= SOCKET_RECONNECT_ATTEMPTS) {
      this.delayMs = null;
      this.setState('failed');
      return;
    }
    const delay = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.delayMs = delay;
    this.setState('waiting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  /** Forgets the current socket (its late events are ignored) and closes it. */
  private drop(): void {
    if (this.deadTimer) clearTimeout(this.deadTimer);
    this.deadTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = () => undefined;
    try {
      socket.close();
    } catch {
      // already closed
    }
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private setState(state: SocketState): void {
    if (this.state === state && state !== 'waiting') return;
    this.state = state;
    this.options.onState(this.info);
  }
}
