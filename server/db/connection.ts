import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { ROOT_DIR } from '../config';
import type { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock';
import { PGliteThread } from './pglite-thread-client';
import * as schema from './schema';

/** The one database type the code sees, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** The Postgres pool's sizes (GET /metrics); PGlite has none. */
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
  close(): Promise<void>;
}

export { DataDirInUseError } from './data-dir-lock';

export const MIGRATIONS_DIR = path.join(ROOT_DIR, 'server', 'db', 'migrations');

/** A connect to the Postgres server that gets no answer in this time fails (503) instead of holding the request forever. */
export const DATABASE_CONNECT_TIMEOUT_MS = 5_000;

/** Socket errors of a database server that is down, restarting or unreachable. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now (the server is stopping or starting). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);

/**
 * Whether an error (or one it wraps: Drizzle wraps the driver's error as `cause`) means the
 * database server is away (stopped, restarting, unreachable), not that the query was wrong: such a
 * request may succeed when retried, so it is answered 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string') {
      // SQLSTATE class 08: connection exception.
      if (UNREACHABLE_CODES.has(candidate.code) || SHUTDOWN_STATES.has(candidate.code) || /^08[0-9A-Z]{3}$/.test(candidate.code))
        return true;
    }
    // node-postgres's own connection failures carry no code.
    if (typeof candidate.message === 'string' && /^Connection terminated|timeout exceeded when trying to connect/.test(candidate.message))
      return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * Opens the database and runs the migrations: a Postgres server when `url` is given
 * (`DATABASE_URL`), else PGlite in `dataDir` (or in memory for `dataDir: null`, used by tests).
 * `template` (PGlite only) starts the database from a dump of a data directory instead of an
 * empty cluster: the test suites load one migrated dump per file (tests/support/test-db.ts).
 */
export async function openDatabase(opts: { url?: string | undefined; dataDir?: string | null; template?: string }): Promise<Database> {
  if (opts.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS });
    // An idle client dropped by the server (a restart, an administrator, a test dropping its
    // database) must not crash the process: the pool replaces it on the next query.
    pool.on('error', (error) => console.warn(`database: idle connection lost (${error.message})`));
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    return { db: db as unknown as Db, engine: 'postgres', pool, close: () => pool.end() };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let release = () => {};
  let dir: string | null = null;
  if (opts.dataDir) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    release = lockDataDir(opts.dataDir);
    process.once('exit', release);
    dir = path.join(opts.dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
  }
  let client: PGliteThread;
  try {
    client = await PGliteThread.open(dir, opts.template);
  } catch (error) {
    release();
    throw error;
  }
  // The thread's client stands in for PGlite's (the driver calls only `query` and `transaction`).
  const db = drizzle({ client: client as unknown as PGlite, schema });
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await client.close().catch(() => undefined);
    release();
    throw error;
  }
  return {
    db: db as unknown as Db,
    engine: 'pglite',
    close: async () => {
      await client.close();
      release();
      process.removeListener('exit', release);
    },
  };
}
