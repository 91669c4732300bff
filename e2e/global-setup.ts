/**
 * Playwright's global setup (playwright.config.ts), once per run before any spec:
 * - the server bundle (scripts/server-bundle.mjs) every spec's real server process starts from
 *   (tests/support/spawn-server.ts), instead of compiling the sources through tsx in each;
 * - an embedded database folder with the migrations applied, which each spec's fresh data
 *   directory starts as a copy of (`e2eDataDir`, e2e/server-fixture.ts): the server then opens an
 *   existing database instead of creating its cluster (about 5 s a server here). Creating one is
 *   the Vitest suites' business (tests/security/ops-data-dir-lock.test.ts).
 * Both are made from the current sources on every run and removed by the returned teardown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { ROOT_DIR } from '../server/config';
import { MIGRATIONS_DIR } from '../server/db/connection';
// @ts-expect-error: a plain ES module script without declarations.
import { buildServerBundle } from '../scripts/server-bundle.mjs';

export default async function globalSetup(): Promise<() => void> {
  fs.mkdirSync(path.join(ROOT_DIR, '.tmp'), { recursive: true });
  // Inside the checkout (.tmp/ is ignored): the bundle finds its packages in node_modules from there.
  const dir = fs.mkdtempSync(path.join(ROOT_DIR, '.tmp', 'e2e-'));
  process.env.LIGHTBAR_SERVER_BUNDLE = (await buildServerBundle(path.join(dir, 'server', 'main.mjs'))) as string;
  const template = path.join(dir, 'pglite');
  const pglite = new PGlite(template);
  await migrate(drizzle({ client: pglite }), { migrationsFolder: MIGRATIONS_DIR });
  await pglite.close();
  process.env.LIGHTBAR_E2E_PGLITE_TEMPLATE = template;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
