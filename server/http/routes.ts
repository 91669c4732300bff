import type { FastifyInstance } from 'fastify';
import type { ServerDeps } from '../deps';
import { cableRoutes } from '../live/cable';
import type { IngestEngine } from '../live/ingest';
import { ingestRoutes } from '../live/ingest-route';
import { accountRoutes } from './account';
import { apiKeyRoutes } from './api-keys';
import { areaRoutes } from './areas/routes';
import { authRoutes } from './auth';
import { billingRoutes } from './billing';
import { closureRouteRoutes } from './closure-route';
import { closureRoutes } from './closures/routes';
import { deviceConfigRoutes } from './device-configs';
import { exportRoutes } from './exports';
import { hazardRoutes } from './hazards';
import { integrationRoutes } from './integrations';
import { locationRoutes } from './locations';
import { organizationRoutes } from './organizations';
import { r2rSearchRoutes } from './r2r-search';
import { reportRoutes } from './reports';
import { installRouteAccess } from './route-access';
import { installRouteValidation } from './route-validation';
import { roleRoutes } from './roles';
import { spaRoutes } from './spa';
import { thingRoutes } from './things/routes';
import { tripRoutes } from './trips';
import { userRoutes } from './users';
import { versionRoutes } from './version';
import { tileRoutes } from './tiles';
import type { ServerConfig } from '../config';
import { wzdxFeedRoutes } from './wzdx-feed';
import { wzdxFeedSubscriptionRoutes } from './wzdx-feeds';
import { zoneRoutes } from './zones';

/** A module of API calls over the database. */
type ApiRoutes = (app: FastifyInstance, deps: ServerDeps) => void;

/**
 * Every API route module, each the calls of one area of the spec, in the order of the spec's
 * sections: sign-in (part 1 §7), assets and events (part 1 §7), map objects (part 2 §7), data
 * (reports, exports, downloads), accounts (users, roles, organizations, keys, integrations, devices,
 * billing).
 */
const API_ROUTES: readonly ApiRoutes[] = [
  authRoutes,
  thingRoutes,
  locationRoutes,
  areaRoutes,
  closureRoutes,
  closureRouteRoutes,
  zoneRoutes,
  tripRoutes,
  hazardRoutes,
  r2rSearchRoutes,
  wzdxFeedRoutes,
  wzdxFeedSubscriptionRoutes,
  reportRoutes,
  exportRoutes,
  userRoutes,
  accountRoutes,
  roleRoutes,
  organizationRoutes,
  apiKeyRoutes,
  integrationRoutes,
  deviceConfigRoutes,
  billingRoutes,
];

/** What the database-backed routes need; absent, only /version and the app are served. */
export interface RouteServices {
  deps: ServerDeps;
  ingest: IngestEngine;
}

/**
 * Registers every route of the server, once: /version, the basemap tiles, the API, the live socket (/cable), the
 * devices' ingest (/ingest), and last the built app (its not-found handler answers the rest).
 */
export async function registerRoutes(
  app: FastifyInstance,
  config: Pick<ServerConfig, 'version' | 'distDir' | 'basemapPmtiles'>,
  services?: RouteServices,
): Promise<void> {
  const { version, distDir } = config;
  versionRoutes(app, version);
  // The standalone map's basemap: open routes, no account data (README "Basemap").
  await tileRoutes(app, config);
  if (services) {
    const { deps, ingest } = services;
    installRouteValidation(app);
    installRouteAccess(app, deps.db);
    for (const routes of API_ROUTES) routes(app, deps);
    await cableRoutes(app, deps, deps.bus);
    ingestRoutes(app, deps, ingest);
  }
  await spaRoutes(app, distDir);
}
