/**
 * Serves the map bench page: Vite's dev server (the e2e test: no build step) or a production build
 * under `vite preview` (`npm run bench -- map`: timings of the code users get, not of dev React).
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface MapPageServer {
  url: string;
  close(): Promise<void>;
}

const configFile = path.join(import.meta.dirname, '..', 'vite.map-page.config.ts');

function urlOf(address: AddressInfo | string | null | undefined): string {
  if (!address || typeof address === 'string') throw new Error('the map page server has no port');
  return `http://127.0.0.1:${address.port}/`;
}

/** Serves an already built page (the device machine's run, where no Vite is installed). */
async function serveBuilt(dir: string): Promise<MapPageServer> {
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

export async function startMapPage(mode: 'dev' | 'build' | { dir: string } = 'dev'): Promise<MapPageServer> {
  if (typeof mode === 'object') return serveBuilt(path.resolve(mode.dir));
  // Vite is loaded only here: the device machine's run serves a built page without it.
  const { build, createServer, preview } = await import('vite');
  if (mode === 'build') {
    await build({ configFile, logLevel: 'warn' });
    const server = await preview({ configFile, preview: { port: 0, host: '127.0.0.1' } });
    return { url: urlOf(server.httpServer.address()), close: () => server.close() };
  }
  const server = await createServer({ configFile, server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  return { url: urlOf(server.httpServer?.address()), close: () => server.close() };
}
