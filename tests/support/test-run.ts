/**
 * What a test run prepares once for all its files (the Vitest and Playwright global setups,
 * tests/support/global-setup.ts and e2e/global-setup.ts): a folder for the run and the server
 * bundle in it, and a PGlite database with the migrations applied.
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

/**
 * A new folder for the run inside the checkout (.tmp/ is ignored: the bundle finds its packages in
 * node_modules from there), with the server bundle built in it; sets LIGHTBAR_SERVER_BUNDLE, which
 * `serverArgs` (tests/support/spawn-server.ts) reads, and `remove` takes the folder away.
 */
export async function prepareTestRun(prefix: string): Promise<{ dir: string; remove(): void }> {
  fs.mkdirSync(path.join(ROOT_DIR, '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(ROOT_DIR, '.tmp', prefix));
  process.env.LIGHTBAR_SERVER_BUNDLE = (await buildServerBundle(path.join(dir, 'server', 'main.mjs'))) as string;
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** PGlite in `dataDir` (in memory without one) with every migration applied; the caller closes it. */
export async function migratedPGlite(dataDir?: string): Promise<PGlite> {
  const pglite = new PGlite(dataDir);
  await migrate(drizzle({ client: pglite }), { migrationsFolder: MIGRATIONS_DIR });
  return pglite;
}
