/**
 * Serves a test page as built (`vite build`, then `vite preview`): the map bench page (`npm run bench
 * -- map` and e2e/map.spec.ts: timings of the code users get, not of dev React) and the drawing page
 * of e2e/draw.spec.ts. A dev server's first load transforms hundreds of modules on request, which
 * beside another spec's browser once outlasted a spec's wait for the page (docs/testing.md).
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

const mapPageConfig = path.join(import.meta.dirname, '..', 'vite.map-page.config.ts');

function urlOf(address: AddressInfo | string | null | undefined): string {
  if (!address || typeof address === 'string') throw new Error('the page server has no port');
  return `http://127.0.0.1:${address.port}/`;
}

/** Serves an already built page (the device machine's run, where no Vite is installed). */
async function serveBuilt(dir: string): Promise<PageServer> {
  const http = await import('node:http');
  const fs = await import('node:fs');
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.json': 'application/json',
    '.wasm': 'application/wasm',
  };
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(path.resolve(dir)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: urlOf(server.address()), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Builds the page of a Vite config (into its `build.outDir`) and serves the build on a free port. */
export async function serveBuiltPage(configFile: string): Promise<PageServer> {
  // Vite is loaded only here: the device machine's run serves a built page without it.
  const { build, preview } = await import('vite');
  await build({ configFile, logLevel: 'warn' });
  const server = await preview({ configFile, preview: { port: 0, host: '127.0.0.1' } });
  return { url: urlOf(server.httpServer.address()), close: () => server.close() };
}

/** The map bench page: built here, or a folder built elsewhere (`{ dir }`). */
export async function startMapPage(mode: 'build' | { dir: string } = 'build'): Promise<PageServer> {
  return typeof mode === 'object' ? serveBuilt(path.resolve(mode.dir)) : serveBuiltPage(mapPageConfig);
}
