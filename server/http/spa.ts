import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Client-side routes of part 1 §2 and part 2 §2: every one of them gets the app's index.html. */
const CLIENT_ROUTE = /^\/(?:$|welcome(?:\/|$)|dashboard(?:\/|$)|oauth(?:\/|$))/;

/**
 * Whether a GET asks for the app itself: a built file under /assets (chunks, styles, fonts) or a
 * client route's index.html. Load shedding lets these through (server/app.ts): they are files
 * from disk, and refusing one leaves the browser on the crash page instead of a slower app.
 */
export function isAppFileRequest(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathOnly = url.split('?')[0] ?? '/';
  return pathOnly.startsWith('/assets/') || CLIENT_ROUTE.test(pathOnly);
}

/** A content-hashed build file: a year, never revalidated. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';

/** Serves the built app, and index.html for the client routes so deep links load the app. */
export async function spaRoutes(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`no built app in ${distDir}: run "npm run build" (npm start does it for you)`);
    // Fastify's own 404 logs and answers the whole URL, query tokens included (OWASP Logging).
    app.setNotFoundHandler((request, reply) => unknownPath(request, reply));
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    wildcard: false,
    // The build writes a .br and a .gz beside each text file (scripts/precompress.mjs): sent by the
    // browser's Accept-Encoding, with Vary, so nothing is compressed per request.
    preCompressed: true,
    maxAge: '1h',
    immutable: false,
    // Vite names every file under /assets by its content hash: a new build has new names, so they
    // may be cached for good (RFC 8246); other files (favicon, manifest) keep the hour.
    setHeaders: (reply, filePath) => {
      if (path.relative(distDir, filePath).split(path.sep)[0] === 'assets') reply.header('cache-control', HASHED_ASSET_CACHE);
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (request.method === 'GET' && CLIENT_ROUTE.test(url)) {
      // no-cache: a new build's index.html names new asset files, so it is revalidated on every load
      // (the plugin's own max-age is turned off for it).
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    // Static assets under /assets are served by the plugin above; anything else is an unknown API path.
    if (request.method === 'GET' && url.startsWith('/assets/')) {
      return reply.code(404).send({ error: 'not_found', message: 'Not found' });
    }
    // part 1 §2 not-found page: a browser opening an unknown address (a navigation asks for HTML
    // first) gets the app, which shows the page, with status 404; API callers (JSON or any type)
    // keep the JSON 404.
    if (request.method === 'GET' && wantsPage(request)) {
      return reply.code(404).header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    return unknownPath(request, reply);
  });
}

/** A browser navigation: its Accept header names text/html (fetch and API clients ask for JSON or any type). */
function wantsPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /(^|,)\s*text\/html\s*(;|,|$)/.test(accept);
}

/** An unknown API path: named without its query (which may carry a token). */
function unknownPath(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const url = request.url.split('?')[0] ?? '/';
  return reply.code(404).send({ error: 'not_found', message: `Route ${request.method} ${url} not found` });
}
