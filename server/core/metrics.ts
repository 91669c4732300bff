import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric's name starts so (Prometheus naming: one namespace per application). */
export const METRICS_PREFIX = 'lightbar_';

/** A count kept by the part that owns it, read when /metrics is scraped. */
type Read = () => number;
/** Values by label, read when scraped (an async read may ask the database). */
type ReadLabelled = () => Record<string, number> | Promise<Record<string, number>>;

/**
 * The process's metrics in Prometheus's text format (GET /metrics, docs/operations.md): each part
 * keeps its own plain counts (the ingest's messages, the socket hub's coalesced frames), and the
 * registry reads them only when scraped, so the ingest and the sockets pay nothing per message
 * for being measured. One registry per server (tests build many in one process); Node's own
 * metrics (event-loop delay, memory, handles) join at the first scrape.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private nodeMetrics = false;
  /** API calls refused under load (503 overloaded): counted by the pressure gate. */
  shedCalls = 0;
  /** The ingest's flush durations, seconds (observed by the ingest). */
  readonly flushSeconds = new Histogram({
    name: `${METRICS_PREFIX}ingest_flush_seconds`,
    help: 'Duration of the once-a-second write of changed asset states and trip points.',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    this.counter('http_shed_total', 'API calls refused with 503 under load (load shedding).', () => this.shedCalls);
  }

  /** A counter whose total `read` answers at each scrape. */
  counter(name: string, help: string, read: Read): void {
    new Counter({
      name: `${METRICS_PREFIX}${name}`,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }

  /** A counter with one label, its totals by label value read at each scrape. */
  labelledCounter(name: string, help: string, label: string, read: () => Record<string, number>): void {
    new Counter({
      name: `${METRICS_PREFIX}${name}`,
      help,
      labelNames: [label],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [value, total] of Object.entries(read())) this.inc({ [label]: value }, total);
      },
    });
  }

  /** A gauge read at each scrape; with `label`, one value per label value. */
  gauge(name: string, help: string, read: Read): void;
  gauge(name: string, help: string, read: ReadLabelled, label: string): void;
  gauge(name: string, help: string, read: Read | ReadLabelled, label?: string): void {
    new Gauge({
      name: `${METRICS_PREFIX}${name}`,
      help,
      labelNames: label ? [label] : [],
      registers: [this.registry],
      async collect() {
        const value = await read();
        if (typeof value === 'number') {
          this.set(value);
          return;
        }
        this.reset();
        for (const [key, count] of Object.entries(value)) this.set({ [label!]: key }, count);
      },
    });
  }

  /** The text of a scrape (Prometheus exposition format). */
  async text(): Promise<string> {
    if (!this.nodeMetrics) {
      this.nodeMetrics = true;
      collectDefaultMetrics({ register: this.registry, prefix: METRICS_PREFIX });
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
