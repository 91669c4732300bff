// `npm run test:pg`: the server and security suites again, on a real Postgres server (less the embedded
// database's own suites: EMBEDDED_DATABASE_SUITES in vite.config.ts).
// CI must have TEST_DATABASE_URL (`.ci/run` sets it and starts Postgres); elsewhere a missing URL skips, saying so.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresPhaseRuns } from './postgres-phase.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!postgresPhaseRuns()) {
  if (process.env.CI === 'true') {
    console.error('test:pg: CI=true but TEST_DATABASE_URL or TEST_NATS_URL is not set: the Postgres and NATS run is required in CI.');
    process.exit(1);
  }
  console.log(
    'test:pg: Postgres and NATS run skipped: TEST_DATABASE_URL and TEST_NATS_URL are not both set (the server suites ran on PGlite).',
  );
  process.exit(0);
}
// The Node the phase runs under: LIGHTBAR_TEST_NODE when set (CI sets Node 24 LTS, the supported
// runtime: .ci/run), else this one. Vitest's forks and the servers the suites start run on it too.
const node = process.env.LIGHTBAR_TEST_NODE || process.execPath;
const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
if (version.status !== 0) {
  console.error(`test:pg: LIGHTBAR_TEST_NODE=${node} does not run: ${version.error?.message ?? version.stderr}`);
  process.exit(1);
}
console.log(`test:pg: Postgres and NATS on Node ${version.stdout.trim()}`);
const result = spawnSync(
  node,
  [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'tests/server', 'tests/security', 'tests/scale'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, LIGHTBAR_TEST_ENGINE: 'postgres' } },
);
process.exit(result.status ?? 1);
