import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Client-side routes of part 1 §2 and part 2 §2: every one of them gets the app's index.html. */
const CLIENT_ROUTE = /^\/(?:$|welcome(?:\/|$)|dashboard(?:\/|$)|oauth(?:\/|$))/;

/** Serves the built app, and index.html for the client routes so deep links load the app. */
export async function spaRoutes(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`no built app in ${distDir}: run "npm run build" (npm start does it for you)`);
    return;
  }
  await app.register(fastifyStatic, { root: distDir, index: false, wildcard: false, maxAge: '1h', immutable: false });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (request.method === 'GET' && CLIENT_ROUTE.test(url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    // Static assets under /assets are served by the plugin above; anything else is an unknown API path.
    if (request.method === 'GET' && url.startsWith('/assets/')) {
      return reply.code(404).send({ error: 'not_found', message: 'Not found' });
    }
    return reply.code(404).send({ error: 'not_found', message: `Route ${request.method} ${url} not found` });
  });
}
