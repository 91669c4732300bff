/// <reference types="vitest/config" />
import os from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Suites of the embedded database's own behaviour: its folder's lock, its thread, a server killed or restarted on its DATA_DIR. */
const EMBEDDED_DATABASE_SUITES = [
  'tests/server/data-dir-lock.test.ts',
  'tests/server/pglite-thread.test.ts',
  'tests/security/ops-data-dir-lock.test.ts',
  'tests/security/fault-kill-writes.test.ts',
  'tests/security/fault-socket-reconnect.test.ts',
];

// One config for the app build and for Vitest (tests mirror src/ and server/ under tests/).
export default defineConfig({
  plugins: [react()],
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
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // The multi-process suite needs real Postgres and NATS servers: `npm run test:pg` runs it. That
    // run leaves out the suites about the embedded database itself, which start PGlite servers on a
    // DATA_DIR whichever engine the other suites use: it would only repeat them.
    exclude: process.env.LIGHTBAR_TEST_ENGINE === 'postgres' ? EMBEDDED_DATABASE_SUITES : ['tests/scale/**'],
    environment: 'node',
    // The server bundle and the migrated PGlite dump every file starts from (README "Tests").
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: one on a 2-core machine, where the files
    // spend much of their time waiting on servers, databases and timers. Two there took the suite
    // from about 24 to 17 minutes (README "Tests"); more cores keep the default.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
