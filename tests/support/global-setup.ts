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
import { migratedPGlite, prepareTestRun } from './test-run';

export default async function setup(): Promise<() => void> {
  const run = await prepareTestRun('vitest-');
  const template = path.join(run.dir, 'pglite-migrated.tar');
  const pglite = await migratedPGlite();
  const dump = await pglite.dumpDataDir('none');
  fs.writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  process.env.LIGHTBAR_TEST_PGLITE_TEMPLATE = template;
  return run.remove;
}
