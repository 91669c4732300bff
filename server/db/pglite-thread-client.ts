import { Worker } from 'node:worker_threads';

/** What Drizzle's PGlite driver asks of a query (drizzle-orm/pglite): the row shape and its parsers. */
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, type: number) => unknown>;
}

interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Record<string, unknown> & { message: string } };

/** An error from the thread, with the driver's fields (SQLSTATE `code`, `constraint`, `detail`…) as PGlite gave them. */
function toError(data: Record<string, unknown> & { message: string }): Error {
  return Object.assign(new Error(data.message), data);
}

/**
 * PGlite in a worker thread (server/db/pglite-thread.mjs), behind the client interface Drizzle's
 * PGlite driver calls. Measured on a 2-core machine under 20,000 device messages a second, the
 * embedded database's statements took about 40 % of the server's event loop, one flush statement
 * of 2,000 asset states 140 ms at a time; here they run beside it. The thread's queue is PGlite's
 * own (one statement at a time; a transaction holds it until it ends), so the semantics are those
 * of PGlite in the process. Only Drizzle's parsers are supported: they keep date and time values as
 * text, and the thread does the same for the types they name.
 */
export class PGliteThread {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private ended: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.settled(reply.id);
      if (reply.ok) waiting.resolve(reply.result);
      else waiting.reject(toError(reply.error));
    });
    const end = (error: Error) => {
      this.ended ??= error;
      for (const [id, waiting] of this.pending) {
        this.settled(id);
        waiting.reject(this.ended);
      }
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`the database thread ended (exit code ${code})`)));
  }

  /**
   * Starts the thread on `dataDir` (in memory when null) and waits until the database is open;
   * with `template`, the database starts as that dump of a data directory (`dumpDataDir`'s tar).
   */
  static async open(dataDir: string | null, template?: string): Promise<PGliteThread> {
    const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), { workerData: { dataDir, template } });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the database thread ended while opening (exit code ${code})`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (message: { ready: boolean; error?: Record<string, unknown> & { message: string } }) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (message.ready) resolve();
        else reject(toError(message.error ?? { message: 'the database did not open' }));
      });
    });
    // Held only while a call waits for its answer: an idle database does not keep the process alive.
    worker.unref();
    return new PGliteThread(worker);
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private queryIn(tx: number | undefined, sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<QueryResult> {
    const rawTypes = options.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    return this.call<QueryResult>({ op: 'query', tx, sql, params, rowMode: options.rowMode, rawTypes });
  }

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult> {
    return this.queryIn(undefined, sql, params, options);
  }

  async transaction<T>(callback: (tx: Pick<PGliteThread, 'query'>) => Promise<T>): Promise<T> {
    const { tx } = await this.call<{ tx: number }>({ op: 'begin' });
    let result: T;
    try {
      result = await callback({ query: (sql, params, options) => this.queryIn(tx, sql, params, options) });
    } catch (error) {
      await this.call({ op: 'end', tx, commit: false });
      throw error;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }

  async close(): Promise<void> {
    if (this.ended) return;
    await this.call({ op: 'close' });
    this.ended = new Error('the database is closed');
    await this.worker.terminate();
  }
}
