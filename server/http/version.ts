import type { FastifyInstance } from 'fastify';

/** part 1 §7 GET /version: the client polls it every 10 minutes to offer a reload. */
export function versionRoutes(app: FastifyInstance, version: string): void {
  app.get('/version', async () => ({ version }));
}
