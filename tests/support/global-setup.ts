/**
 * Vitest's global setup (vite.config.ts), run once per `vitest run` before any file:
 * - the server bundle (scripts/server-bundle.mjs) that the suites spawning real server processes
 *   start (tests/support/spawn-server.ts), instead of compiling the sources through tsx in each;
 * - one migrated PGlite database, in a folder that the suites spawning servers copy as their
 *   DATA_DIR (templateDataDir), and dumped: every file's fresh in-memory database starts from the
 *   dump (tests/support/test-db.ts) instead of creating a cluster and migrating it again.
 * Both are rebuilt on every run from the current sources and migrations, and removed at its end;
 * the projects of one run share them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { migratedDataDirTemplate, prepareTestRun } from './test-run';

/** The run's preparation, shared: Vitest calls the global setup once per project (vite.config.ts), in one process. */
const PREPARED = Symbol.for('lightbar.vitest.prepared');

/** Builds the bundle and the migrated database (each sets its variable in this process's environment); resolves with their removal. */
async function prepare(): Promise<() => void> {
  const run = await prepareTestRun('vitest-');
  const template = path.join(run.dir, 'pglite-migrated.tar');
  const pglite = await migratedDataDirTemplate(run.dir);
  const dump = await pglite.dumpDataDir('none');
  fs.writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  process.env.LIGHTBAR_TEST_PGLITE_TEMPLATE = template;
  return run.remove;
}

export default async function setup(): Promise<() => void> {
  const shared = globalThis as { [PREPARED]?: { removal: Promise<() => void>; users: number } };
  const entry = (shared[PREPARED] ??= { removal: prepare(), users: 0 });
  entry.users += 1;
  const remove = await entry.removal;
  return () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[PREPARED];
    remove();
  };
}
