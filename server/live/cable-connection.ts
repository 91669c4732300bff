import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { LiveMessageInput } from '../../src/domain/live-message';
import type { Caller } from '../auth/context';
import { encodeTextFrame, jsonFrame } from './cable-frame';
import type { Audience } from './visibility';

/** Past this many buffered bytes a connection is "backed up": points and heartbeats coalesce to the latest per asset. */
export const SOCKET_SOFT_LIMIT_BYTES = 256 * 1024;
/**
 * Past this, or this many queued frames of the kinds that do not coalesce (assets, locations,
 * closures), the connection is dropped: a slow client never grows memory without bound. The
 * coalesced frames are bounded by the fleet the caller sees (a point and a heartbeat per asset,
 * each a frame shared with every other socket of the organization), and at most
 * SOCKET_MAX_COALESCED_FRAMES: a dashboard a second behind a fleet of 100,000 at 20,000 messages a
 * second holds 20,000 of them, and catches up with the latest of each asset instead of being
 * dropped, reconnecting and reading the whole fleet again (bench/README.md "Application bench").
 */
export const SOCKET_HARD_LIMIT_BYTES = 4 * 1024 * 1024;
export const SOCKET_MAX_QUEUED_FRAMES = 5_000;
export const SOCKET_MAX_COALESCED_FRAMES = 250_000;
/**
 * Frames sent in one turn of the event loop leave a socket together, in writes of about this many
 * bytes, not one write (a system call) per frame: at 20,000 messages a second to ten dashboards, a
 * write per frame took 40 % of the server's time. Each frame is still its own WebSocket message
 * (part 1 §4). Well under the soft limit, so a burst alone never makes a socket look backed up.
 */
export const SOCKET_WRITE_BYTES = 64 * 1024;

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

export interface Subscription {
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
export type Outgoing = Buffer | BatchItem;

/** Who the handshake found behind a socket. */
export interface Handshake {
  /** Kept in memory to re-check the caller when access changes (the same rule as the handshake). */
  token: string;
  caller: Caller;
  expiresAt: Date;
  audience: Audience;
}

/** An application close code and its reason (RFC 6455 §7.4.2). */
export interface CloseCode {
  readonly code: number;
  readonly reason: string;
}

/**
 * The writes of one hub's connections: the connections holding this turn's frames, which one
 * setImmediate writes all out, and the backed-up ones, which the hub's flusher serves.
 */
export class CableWrites {
  // Connections holding this turn's frames; one setImmediate writes them all out.
  private readonly unwritten = new Set<CableConnection>();
  private writeScheduled = false;
  /** Connections backed up (past SOCKET_SOFT_LIMIT_BYTES), holding what they keep until they catch up. */
  readonly backedUp = new Set<CableConnection>();
  /** Since start (GET /metrics): frames replaced by a newer one of their asset while backed up, and connections dropped as too slow. */
  readonly counts = { coalesced: 0, dropped: 0 };

  private readonly writeAll = () => {
    this.writeScheduled = false;
    for (const connection of this.unwritten) connection.writeOut();
  };

  /** The connection holds frames of this turn: they are written out at its end. */
  schedule(connection: CableConnection): void {
    this.unwritten.add(connection);
    if (!this.writeScheduled) {
      this.writeScheduled = true;
      setImmediate(this.writeAll);
    }
  }

  /** The connection's frames were written, or dropped: nothing of it is left for the turn's end. */
  unschedule(connection: CableConnection): void {
    this.unwritten.delete(connection);
  }

  /** Every backed-up socket sends what it kept, as far as its buffer allows. */
  flushBackedUp(): void {
    for (const connection of this.backedUp) connection.flush();
  }
}

/**
 * One socket of /cable: who is behind it, its subscriptions, and its outgoing queue (a turn's
 * frames gathered into one write; past the soft limit, what it keeps until it catches up).
 */
export class CableConnection implements Handshake {
  /** This turn's frames, encoded, not yet written, and their bytes (the open batch's included). */
  private outbox: Buffer[] = [];
  private outboxBytes = 0;
  /** The batch being gathered (LIVE_BATCH_PROTOCOL). */
  private batch: { opening: string; json: string[]; length: number } | null = null;
  readonly token: string;
  caller: Caller;
  readonly expiresAt: Date;
  audience: Audience;
  /** One per organization (the EventsChannel is the only channel): identifier spellings collapse. */
  readonly subscriptions = new Map<string, Subscription>();
  /** While backed up, the latest point and the latest heartbeat frame of each asset (`coalesceKey`). */
  private readonly pendingLatest = new Map<string, Outgoing>();
  /** Other frames while backed up, in order. */
  private readonly queue: Outgoing[] = [];

  constructor(
    readonly ws: WebSocket,
    /** The TCP socket under `ws`: the frames gathered in a turn are written to it as one buffer. */
    private readonly socket: Socket,
    /** Whether the client asked for batches (LIVE_BATCH_PROTOCOL). */
    readonly batched: boolean,
    handshake: Handshake,
    private readonly writes: CableWrites,
    private readonly log: FastifyBaseLogger,
  ) {
    this.token = handshake.token;
    this.caller = handshake.caller;
    this.expiresAt = handshake.expiresAt;
    this.audience = handshake.audience;
  }

  /** Encodes the batch being gathered as one frame at the end of the outbox. */
  private closeBatch(): void {
    const { batch } = this;
    if (!batch) return;
    this.batch = null;
    const frame = encodeTextFrame(`${batch.opening}${batch.json.join(',')}]}`);
    this.outbox.push(frame);
    // The batch was counted by its messages' text; from now on by its frame.
    this.outboxBytes += frame.length - batch.length;
  }

  /** Writes the connection's gathered frames to its socket in one buffer. */
  writeOut(): void {
    this.writes.unschedule(this);
    this.closeBatch();
    const { outbox, outboxBytes, ws } = this;
    if (outbox.length === 0) return;
    this.outbox = [];
    this.outboxBytes = 0;
    // Closing (its close frame may be out already) or closed: what was gathered is dropped, as ws drops a send then.
    if (ws.readyState !== ws.OPEN) return;
    this.socket.write(outbox.length === 1 ? outbox[0]! : Buffer.concat(outbox, outboxBytes));
  }

  /**
   * Gathers a frame, or a message into the open batch of its subscription (another subscription's
   * message or a frame closes the batch first: the order is kept), for this turn's write.
   */
  rawSend(item: Outgoing): void {
    if (Buffer.isBuffer(item)) {
      this.closeBatch();
      this.outbox.push(item);
      this.outboxBytes += item.length;
    } else {
      if (this.batch?.opening !== item.opening) this.closeBatch();
      this.batch ??= { opening: item.opening, json: [], length: 0 };
      this.batch.json.push(item.json);
      this.batch.length += item.json.length;
      this.outboxBytes += item.json.length;
    }
    if (this.outboxBytes >= SOCKET_WRITE_BYTES) {
      this.writeOut();
      return;
    }
    this.writes.schedule(this);
  }

  /** Bytes on their way to the client: in the socket's buffer, and gathered this turn. */
  private buffered(): number {
    return this.ws.bufferedAmount + this.outboxBytes;
  }

  private drop(reason: string): void {
    this.writes.counts.dropped += 1;
    this.ws.terminate();
    this.log.warn({ userId: this.caller.userId, reason }, 'cable: connection dropped');
  }

  /** Sends now, or queues while the socket is backed up (points and heartbeats coalesce per asset: `coalesceKey`). */
  send(frame: Outgoing, coalesce?: string): void {
    const { ws } = this;
    const { backedUp } = this.writes;
    if (ws.readyState !== ws.OPEN) return;
    // A backed-up socket whose buffer drained sends what it kept first (as fast as its client reads,
    // not only at the flusher's ticks: 256 KB a tick held a client to about 10,000 frames a second).
    if (backedUp.has(this) && this.buffered() < SOCKET_SOFT_LIMIT_BYTES) this.flush();
    if (!backedUp.has(this) && this.buffered() < SOCKET_SOFT_LIMIT_BYTES) {
      this.rawSend(frame);
      return;
    }
    backedUp.add(this);
    if (coalesce) {
      if (this.pendingLatest.has(coalesce)) this.writes.counts.coalesced += 1;
      this.pendingLatest.set(coalesce, frame);
    } else this.queue.push(frame);
    if (
      this.buffered() > SOCKET_HARD_LIMIT_BYTES ||
      this.queue.length > SOCKET_MAX_QUEUED_FRAMES ||
      this.pendingLatest.size > SOCKET_MAX_COALESCED_FRAMES
    ) {
      this.drop('send buffer full');
    }
  }

  flush(): void {
    const { ws } = this;
    const { backedUp } = this.writes;
    if (ws.readyState !== ws.OPEN) {
      backedUp.delete(this);
      return;
    }
    while (this.buffered() < SOCKET_SOFT_LIMIT_BYTES && this.queue.length > 0) this.rawSend(this.queue.shift()!);
    for (const [key, frame] of this.pendingLatest) {
      if (this.buffered() >= SOCKET_SOFT_LIMIT_BYTES) break;
      this.pendingLatest.delete(key);
      this.rawSend(frame);
    }
    if (this.queue.length === 0 && this.pendingLatest.size === 0) backedUp.delete(this);
    else if (this.buffered() > SOCKET_HARD_LIMIT_BYTES) this.drop('send buffer full');
  }

  /** Sends a `disconnect` notice with what was gathered, then the close frame. */
  close(close: CloseCode, notice: object): void {
    // The notice goes after the frames gathered before it, and before the close frame.
    if (this.ws.readyState === this.ws.OPEN) this.rawSend(jsonFrame({ type: 'disconnect', ...notice }));
    this.writeOut();
    this.ws.close(close.code, close.reason);
  }

  /** Ends what the connection holds on the bus and in the writes (the hub's `release` calls it once). */
  release(): void {
    for (const subscription of this.subscriptions.values()) subscription.off();
    this.subscriptions.clear();
    this.writes.backedUp.delete(this);
    this.writes.unschedule(this);
    this.outbox = [];
    this.outboxBytes = 0;
  }
}
