import type { LiveMessageInput } from '../../src/domain/live-message';
import type { Bus, ControlEvent } from '../deps';

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

  private closed = false;

  connected(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
    this.controlHandlers.clear();
  }
}

export const natsSubject = (organizationId: string) => `lightbar.org.${organizationId}`;
export const NATS_CONTROL_SUBJECT = 'lightbar.control';
/**
 * A subject's messages of one turn of the event loop travel as one NATS message (a JSON array),
 * of at most about this many bytes (NATS refuses more than the server's max_payload, 1 MiB by
 * default). One NATS message per live message cost, at 20,000 messages a second, a socket write
 * each (the client flushes on a microtask, and the ingest yields one per message) and an encode
 * and a decode each: the ingesting process spent most of its time writing to NATS and reached
 * about 15,000 of the 20,000 asked (bench/README.md "Server ingest").
 */
export const NATS_BATCH_BYTES = 256 * 1024;

/** The live messages of one NATS message: a batch, or (from a process of an earlier version) one message alone. */
export function natsLiveMessages(data: unknown): LiveMessageInput[] {
  return Array.isArray(data) ? (data as LiveMessageInput[]) : [data as LiveMessageInput];
}

/** NATS: every process publishes and subscribes; one NATS subscription per organization with local listeners. */
export async function connectNatsBus(url: string, name = 'lightbar'): Promise<Bus> {
  const { connect, JSONCodec } = await import('nats');
  const connection = await connect({ servers: url, name, maxReconnectAttempts: -1 });
  // Connected until the client reports a disconnect, again from its reconnect (it retries forever).
  let up = true;
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') up = false;
      else if (status.type === 'reconnect') up = true;
    }
  })();
  const codec = JSONCodec<unknown>();
  const controlCodec = JSONCodec<ControlEvent>();
  const local = new InProcessBus();
  const subscriptions = new Map<string, { unsubscribe(): void }>();
  // One subscription to the control subject per process; NATS echoes a process's own publications.
  connection.subscribe(NATS_CONTROL_SUBJECT, {
    callback: (error, msg) => {
      if (!error) local.publishControl(controlCodec.decode(msg.data));
    },
  });
  const batchBytes = Math.min(NATS_BATCH_BYTES, Math.floor((connection.info?.max_payload ?? NATS_BATCH_BYTES) / 2));
  const encoder = new TextEncoder();
  /** This turn's messages per subject, serialized, and their length (UTF-16 units: at most 3 bytes each, well inside max_payload). */
  const batches = new Map<string, { parts: string[]; bytes: number }>();
  let sendScheduled = false;
  const sendBatch = (subject: string, batch: { parts: string[] }) => {
    batches.delete(subject);
    connection.publish(subject, encoder.encode(`[${batch.parts.join(',')}]`));
  };
  const sendAll = () => {
    sendScheduled = false;
    for (const [subject, batch] of batches) sendBatch(subject, batch);
  };
  return {
    publishControl(event) {
      connection.publish(NATS_CONTROL_SUBJECT, controlCodec.encode(event));
    },
    subscribeControl(handler) {
      return local.subscribeControl(handler);
    },
    connected() {
      return up && !connection.isClosed();
    },
    publish(organizationId, message) {
      const subject = natsSubject(organizationId);
      const json = JSON.stringify(message);
      let batch = batches.get(subject);
      // Past the limit the subject's batch leaves now and a new one starts.
      if (batch && batch.bytes + json.length > batchBytes) {
        sendBatch(subject, batch);
        batch = undefined;
      }
      if (!batch) {
        batch = { parts: [], bytes: 0 };
        batches.set(subject, batch);
      }
      batch.parts.push(json);
      batch.bytes += json.length + 1;
      if (!sendScheduled) {
        sendScheduled = true;
        setImmediate(sendAll);
      }
    },
    subscribe(organizationId, handler) {
      if (!subscriptions.has(organizationId)) {
        const subscription = connection.subscribe(natsSubject(organizationId), {
          callback: (error, msg) => {
            if (error) return;
            for (const message of natsLiveMessages(codec.decode(msg.data))) local.publish(organizationId, message);
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
      sendAll();
      await connection.drain();
      await local.close();
    },
  };
}
