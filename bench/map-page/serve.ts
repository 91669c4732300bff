/**
 * Serves the map bench page: Vite's dev server (the e2e test: no build step) or a production build
 * under `vite preview` (`npm run bench -- map`: timings of the code users get, not of dev React).
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build, createServer, preview } from 'vite';

export interface MapPageServer {
  url: string;
  close(): Promise<void>;
}

const configFile = path.join(import.meta.dirname, '..', 'vite.map-page.config.ts');

function urlOf(address: AddressInfo | string | null | undefined): string {
  if (!address || typeof address === 'string') throw new Error('the map page server has no port');
  return `http://127.0.0.1:${address.port}/`;
}

export async function startMapPage(mode: 'dev' | 'build' = 'dev'): Promise<MapPageServer> {
  if (mode === 'build') {
    await build({ configFile, logLevel: 'warn' });
    const server = await preview({ configFile, preview: { port: 0, host: '127.0.0.1' } });
    return { url: urlOf(server.httpServer.address()), close: () => server.close() };
  }
  const server = await createServer({ configFile, server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  return { url: urlOf(server.httpServer?.address()), close: () => server.close() };
}
