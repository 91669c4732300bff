/**
 * Vitest's global setup (vite.config.ts), run once per `vitest run` before any file:
 * - the server bundle (scripts/server-bundle.mjs) that the suites spawning real server processes
 *   start (tests/support/spawn-server.ts), instead of compiling the sources through tsx in each;
 * - one migrated PGlite database, dumped, that every file's fresh in-memory database starts from
 *   (tests/support/test-db.ts) instead of creating a cluster and migrating it again.
 * Both are rebuilt on every run from the current sources and migrations, and removed at its end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { ROOT_DIR } from '../../server/config';
import { MIGRATIONS_DIR } from '../../server/db/connection';
// @ts-expect-error: a plain ES module script without declarations.
import { buildServerBundle } from '../../scripts/server-bundle.mjs';

export default async function setup(): Promise<() => void> {
  // Inside the checkout (.tmp/ is ignored): the bundle finds its packages in node_modules from there.
  fs.mkdirSync(path.join(ROOT_DIR, '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(ROOT_DIR, '.tmp', 'vitest-'));
  const bundle = (await buildServerBundle(path.join(dir, 'server', 'main.mjs'))) as string;
  const template = path.join(dir, 'pglite-migrated.tar');
  const pglite = new PGlite();
  await migrate(drizzle({ client: pglite }), { migrationsFolder: MIGRATIONS_DIR });
  const dump = await pglite.dumpDataDir('none');
  fs.writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  process.env.LIGHTBAR_SERVER_BUNDLE = bundle;
  process.env.LIGHTBAR_TEST_PGLITE_TEMPLATE = template;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
