// The map bench page's own Vite config (not the app's build): `npx vite --config bench/vite.map-page.config.ts`.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

export default defineConfig({
  root: path.join(import.meta.dirname, 'map-page'),
  plugins: [react()],
  worker: { format: 'es' },
  // The page imports src/ from the repository root.
  server: { fs: { allow: [path.join(import.meta.dirname, '..')] }, strictPort: false },
  // BENCH_MINIFY=0: readable names in a CPU profile (the bench's BENCH_PROFILE).
  build: {
    outDir: path.join(import.meta.dirname, '..', '.tmp', process.env.BENCH_MINIFY === '0' ? 'map-page-plain' : 'map-page'),
    emptyOutDir: true,
    minify: process.env.BENCH_MINIFY !== '0',
  },
  logLevel: 'warn',
});
