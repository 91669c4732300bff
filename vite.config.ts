/// <reference types="vitest/config" />
import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './scripts/precompress.mjs';

/** Suites of the embedded database's own behaviour: its folder's lock, its thread, a server killed or restarted on its DATA_DIR. */
const EMBEDDED_DATABASE_SUITES = [
  'tests/server/data-dir-lock.test.ts',
  'tests/server/pglite-thread.test.ts',
  'tests/security/ops-data-dir-lock.test.ts',
  'tests/security/fault-kill-writes.test.ts',
  'tests/security/fault-socket-reconnect.test.ts',
  'tests/security/ops-graceful-stop.test.ts',
];

/**
 * The security suites whose subject is not the database engine (authorization, validation, limits,
 * mail, exports, sockets, operations): where `npm test` runs the Postgres phase as well
 * (`LIGHTBAR_SECURITY_ON_POSTGRES=1`, set by scripts/test.mjs when TEST_DATABASE_URL and
 * TEST_NATS_URL are given, as in CI), they run there only, on the engine production uses, instead
 * of on both (docs/testing.md). The locking suite (lost updates) and the embedded database's own
 * suites keep running on PGlite.
 */
const SECURITY_KEPT_ON_PGLITE = ['tests/security/lost-updates.test.ts', ...EMBEDDED_DATABASE_SUITES];
const ENGINE_NEUTRAL_SECURITY_SUITES = (fs.existsSync('tests/security') ? fs.readdirSync('tests/security') : [])
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `tests/security/${name}`)
  .filter((file) => !SECURITY_KEPT_ON_PGLITE.includes(file));

/** The embedded (PGlite) run's exclusions: the multi-process suites (Postgres and NATS), and the engine-neutral security suites when the Postgres phase runs them. */
const PGLITE_RUN_EXCLUDES = [
  'tests/scale/**',
  ...(process.env.LIGHTBAR_SECURITY_ON_POSTGRES === '1' ? ENGINE_NEUTRAL_SECURITY_SUITES : []),
];

/** The suites run in Node without module mocks, and the screens' suites (docs/testing.md). */
const NODE_SUITES = ['domain', 'server', 'security', 'workers', 'bench', 'lint', 'scale', 'deploy'].map(
  (folder) => `tests/${folder}/**/*.test.ts`,
);
const SCREEN_SUITES = ['app', 'features', 'map'].flatMap((folder) => [`tests/${folder}/**/*.test.ts`, `tests/${folder}/**/*.test.tsx`]);

// One config for the app build and for Vitest (tests mirror src/ and server/ under tests/).
export default defineConfig({
  plugins: [react(), precompressPlugin()],
  build: { outDir: 'dist', sourcemap: true },
  worker: { format: 'es' },
  // `npm run dev`: everything that is not a client route or a Vite asset goes to the API server.
  server: process.env.LIGHTBAR_API
    ? {
        proxy: {
          '^/(?!$|welcome|dashboard|oauth|src/|@|node_modules/|assets/|index\\.html|favicon)': {
            target: process.env.LIGHTBAR_API,
            ws: true,
          },
        },
      }
    : {},
  test: {
    // The multi-process suite needs real Postgres and NATS servers: `npm run test:pg` runs it. That
    // run leaves out the suites about the embedded database itself, which start PGlite servers on a
    // DATA_DIR whichever engine the other suites use: it would only repeat them.
    exclude: process.env.LIGHTBAR_TEST_ENGINE === 'postgres' ? EMBEDDED_DATABASE_SUITES : PGLITE_RUN_EXCLUDES,
    environment: 'node',
    // Every answer is checked against its route's response schema, in the servers the suites build
    // and spawn alike (server/http/route-validation.ts).
    env: { LIGHTBAR_CHECK_RESPONSES: '1' },
    // Two projects, one run (docs/testing.md): the suites that run in Node (domain tables, the server
    // through inject, the spawned servers, the worker) share each fork's loaded modules from file to
    // file, which spares each file its second or two of imports; the screens (jsdom, module mocks)
    // keep a fresh module graph per file, as their mocks would otherwise leak into the next file.
    projects: [
      { extends: true, test: { name: 'node', include: NODE_SUITES, isolate: false } },
      { extends: true, test: { name: 'screens', include: SCREEN_SUITES, setupFiles: ['tests/support/screens-setup.ts'] } },
    ],
    // The server bundle and the migrated PGlite dump every file starts from (docs/testing.md).
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: one on a 2-core machine, where the files
    // spend much of their time waiting on servers, databases and timers. Two there took the suite
    // from about 24 to 17 minutes (docs/testing.md); more cores keep the default.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
