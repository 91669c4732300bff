import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/connection';

/**
 * The engine the server suites run on: PGlite in memory by default; a fresh database on the
 * Postgres server of TEST_DATABASE_URL when LIGHTBAR_TEST_ENGINE=postgres (`npm run test:pg`).
 */
export const TEST_ENGINE: 'pglite' | 'postgres' = process.env.LIGHTBAR_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';

/**
 * A new, empty database on the Postgres server of `adminUrl` (named `prefix` and random hex): its
 * URL, and `drop` to remove it (connections still open are ended). The suites and the application
 * bench use it.
 */
export async function createScratchDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * One fresh, migrated database per test file; `close` drops it again on Postgres. On PGlite it
 * starts from the run's migrated dump (LIGHTBAR_TEST_PGLITE_TEMPLATE, tests/support/global-setup.ts)
 * when there is one; the migrations still run over it (none is left to apply).
 */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_ENGINE === 'pglite') return openDatabase({ dataDir: null, template: process.env.LIGHTBAR_TEST_PGLITE_TEMPLATE });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('LIGHTBAR_TEST_ENGINE=postgres needs TEST_DATABASE_URL');
  const scratch = await createScratchDatabase(adminUrl, 'lightbar_test');
  const database = await openDatabase({ url: scratch.url });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}
