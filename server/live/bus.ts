import type { LiveMessageInput } from '../../src/domain/live-message';
import type { AccessChange } from '../deps';

/** What every server process must apply to its own open sockets, wherever the change was made. */
export type ControlEvent = { type: 'tokens-revoked'; tokenIds: string[] } | { type: 'access-changed'; change: AccessChange };

/**
 * Between ingest and socket fan-out (ARCHITECTURE "Embedded default and scale-out"): in-process
 * by default; NATS with NATS_URL, one subject per organization, so any number of server
 * processes share one stream. A message is published on the subject of every organization
 * that may see its asset (the audience), so a subscriber listens to one subject only.
 */
export interface Bus {
  publish(organizationId: string, message: LiveMessageInput): void;
  /** Returns the unsubscribe function. */
  subscribe(organizationId: string, handler: (message: LiveMessageInput) => void): () => void;
  /** To every process, this one included (revocations and access changes reach every socket). */
  publishControl(event: ControlEvent): void;
  subscribeControl(handler: (event: ControlEvent) => void): () => void;
  close(): Promise<void>;
}

export class InProcessBus implements Bus {
  private readonly handlers = new Map<string, Set<(message: LiveMessageInput) => void>>();

  publish(organizationId: string, message: LiveMessageInput): void {
    const set = this.handlers.get(organizationId);
    if (!set) return;
    for (const handler of set) handler(message);
  }

  subscribe(organizationId: string, handler: (message: LiveMessageInput) => void): () => void {
    let set = this.handlers.get(organizationId);
    if (!set) {
      set = new Set();
      this.handlers.set(organizationId, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(organizationId);
    };
  }

  private readonly controlHandlers = new Set<(event: ControlEvent) => void>();

  publishControl(event: ControlEvent): void {
    for (const handler of this.controlHandlers) handler(event);
  }

  subscribeControl(handler: (event: ControlEvent) => void): () => void {
    this.controlHandlers.add(handler);
    return () => this.controlHandlers.delete(handler);
  }

  listenerCount(organizationId: string): number {
    return this.handlers.get(organizationId)?.size ?? 0;
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.controlHandlers.clear();
  }
}

export const natsSubject = (organizationId: string) => `lightbar.org.${organizationId}`;
export const NATS_CONTROL_SUBJECT = 'lightbar.control';

/** NATS: every process publishes and subscribes; one NATS subscription per organization with local listeners. */
export async function connectNatsBus(url: string, name = 'lightbar'): Promise<Bus> {
  const { connect, JSONCodec } = await import('nats');
  const connection = await connect({ servers: url, name, maxReconnectAttempts: -1 });
  const codec = JSONCodec<LiveMessageInput>();
  const controlCodec = JSONCodec<ControlEvent>();
  const local = new InProcessBus();
  const subscriptions = new Map<string, { unsubscribe(): void }>();
  // One subscription to the control subject per process; NATS echoes a process's own publications.
  connection.subscribe(NATS_CONTROL_SUBJECT, {
    callback: (error, msg) => {
      if (!error) local.publishControl(controlCodec.decode(msg.data));
    },
  });
  return {
    publishControl(event) {
      connection.publish(NATS_CONTROL_SUBJECT, controlCodec.encode(event));
    },
    subscribeControl(handler) {
      return local.subscribeControl(handler);
    },
    publish(organizationId, message) {
      connection.publish(natsSubject(organizationId), codec.encode(message));
    },
    subscribe(organizationId, handler) {
      if (!subscriptions.has(organizationId)) {
        const subscription = connection.subscribe(natsSubject(organizationId), {
          callback: (error, msg) => {
            if (error) return;
            local.publish(organizationId, codec.decode(msg.data));
          },
        });
        subscriptions.set(organizationId, subscription);
      }
      const off = local.subscribe(organizationId, handler);
      return () => {
        off();
        // The last local listener gone: leave the NATS subject too.
        if (local.listenerCount(organizationId) === 0) {
          subscriptions.get(organizationId)?.unsubscribe();
          subscriptions.delete(organizationId);
        }
      };
    },
    async close() {
      await connection.drain();
      await local.close();
    },
  };
}
