// The drawing test page's own Vite config (e2e/draw.spec.ts builds it and serves the build: serveBuiltPage).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // The page imports src/ from the repository root.
  server: { fs: { allow: [path.join(import.meta.dirname, '..', '..')] }, strictPort: false },
  build: { outDir: path.join(import.meta.dirname, '..', '..', '.tmp', 'draw-page'), emptyOutDir: true },
  logLevel: 'warn',
});
