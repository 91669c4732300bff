import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const versionAnswer = z.object({
  version: z.string().meta({ description: "The server's release; the client offers a reload when it changes." }),
});

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
