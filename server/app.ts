import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';
import { versionRoutes } from './http/version';
import { spaRoutes } from './http/spa';

/** Builds the server without listening, so tests drive it with `inject`. */
export async function buildServer(config: ServerConfig, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 1_048_576 });
  versionRoutes(app, config.version);
  await spaRoutes(app, config.distDir);
  return app;
}
