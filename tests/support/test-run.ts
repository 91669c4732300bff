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
import { DATA_DIR_TEMPLATE_ENV } from './spawn-server';
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

/**
 * Makes the run's migrated embedded database folder in `dir` (a server opening it finds every
 * migration applied) and names it for templateDataDir (tests/support/spawn-server.ts); returns
 * the open PGlite, which the caller may dump before closing it.
 */
export async function migratedDataDirTemplate(dir: string): Promise<PGlite> {
  const pglite = await migratedPGlite(path.join(dir, 'pglite'));
  process.env[DATA_DIR_TEMPLATE_ENV] = dir;
  return pglite;
}
