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
  build: { outDir: path.join(import.meta.dirname, '..', '.tmp', 'map-page'), emptyOutDir: true },
  logLevel: 'warn',
});
