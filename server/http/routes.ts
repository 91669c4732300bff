import type { FastifyInstance } from 'fastify';
import type { ServerDeps } from '../deps';
import { authRoutes } from './auth';
import { dataRoutes } from './exports';
import { mapObjectRoutes } from './zones';
import { assetRoutes } from './things';
import { accountRoutes } from './users';

/** Every API route module, registered once. Each module owns the calls of one area of the spec. */
export function registerApiRoutes(app: FastifyInstance, deps: ServerDeps): void {
  authRoutes(app, deps);
  dataRoutes(app, deps);
  mapObjectRoutes(app, deps);
  assetRoutes(app, deps);
  accountRoutes(app, deps);
}
