/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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
    // The multi-process suite needs real Postgres and NATS servers: `npm run test:pg` runs it.
    exclude: process.env.LIGHTBAR_TEST_ENGINE === 'postgres' ? [] : ['tests/scale/**'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
