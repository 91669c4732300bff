import type { FastifyInstance } from 'fastify';
import type { ServerDeps } from '../deps';
import { authRoutes } from './auth';

/** Every API route module, registered once. Each module owns the calls of one area of the spec. */
export function registerApiRoutes(app: FastifyInstance, deps: ServerDeps): void {
  authRoutes(app, deps);
}
