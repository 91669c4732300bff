/**
 * Playwright's global setup (playwright.config.ts), once per run before any spec:
 * - the server bundle (scripts/server-bundle.mjs) every spec's real server process starts from
 *   (tests/support/spawn-server.ts), instead of compiling the sources through tsx in each;
 * - an embedded database folder with the migrations applied, which each spec's fresh data
 *   directory starts as a copy of (`templateDataDir`, tests/support/spawn-server.ts): the server then opens an
 *   existing database instead of creating its cluster (about 5 s a server here). Creating one is
 *   the Vitest suites' business (tests/security/ops-data-dir-lock.test.ts).
 * Both are made from the current sources on every run and removed by the returned teardown.
 */
import { migratedDataDirTemplate, prepareTestRun } from '../tests/support/test-run';

export default async function globalSetup(): Promise<() => void> {
  const run = await prepareTestRun('e2e-');
  await (await migratedDataDirTemplate(run.dir)).close();
  return run.remove;
}
