// No repository.ts: GET /version reads no database (the release comes from the server's config).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { versionAnswer } from './schema';

/** part 1 §7 GET /version: the client polls it every 10 minutes to offer a reload. */
export function versionRoutes(app: FastifyInstance, version: string): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/version',
    { schema: { summary: "The server's version (polled to offer a reload)", response: { 200: versionAnswer } } },
    async () => ({
      version,
    }),
  );
}
