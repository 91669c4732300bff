import type { FastifyInstance } from 'fastify';
import type { ServerDeps } from '../deps';
import { cableRoutes, type CableHub } from '../live/cable';
import type { ServerMetrics } from '../core/metrics';
import { healthRoutes, type HealthSources } from './health/routes';
import { jobsByStatus } from './health/repository';
import type { IngestEngine } from '../live/ingest';
import { ingestRoutes } from '../live/ingest-route';
import { accountRoutes } from './account/routes';
import { apiKeyRoutes } from './api-keys/routes';
import { areaRoutes } from './areas/routes';
import { authRoutes } from './auth/routes';
import { billingRoutes } from './billing/routes';
import { closureRouteRoutes } from './closure-route/routes';
import { closureRoutes } from './closures/routes';
import { deviceConfigRoutes } from './device-configs/routes';
import { exportRoutes } from './exports/routes';
import { hazardRoutes } from './hazards/routes';
import { integrationRoutes } from './integrations/routes';
import { locationRoutes } from './locations/routes';
import { installOpenApi } from './openapi';
import { organizationRoutes } from './organizations/routes';
import { r2rSearchRoutes } from './r2r-search/routes';
import { reportRoutes } from './reports/routes';
import { installRouteAccess } from './route-access';
import { installRouteValidation } from './route-validation';
import { roleRoutes } from './roles/routes';
import { spaRoutes } from './spa';
import { thingRoutes } from './things/routes';
import { tripRoutes } from './trips/routes';
import { userRoutes } from './users/routes';
import { versionRoutes } from './version/routes';
import { tileRoutes } from './tiles/routes';
import type { ServerConfig } from '../config';
import { wzdxFeedRoutes } from './wzdx-feed/routes';
import { wzdxFeedSubscriptionRoutes } from './wzdx-feeds/routes';
import { zoneRoutes } from './zones/routes';

/** A module of API calls over the database. */
type ApiRoutes = (app: FastifyInstance, deps: ServerDeps) => void;

/**
 * Every API route module, each the calls of one area of the spec under its tag in the OpenAPI
 * document, in the order of the spec's sections: sign-in (part 1 §7), assets and events (part 1
 * §7), map objects (part 2 §7), data (reports, exports, downloads), accounts (users, roles,
 * organizations, keys, integrations, devices, billing).
 */
const API_ROUTES: readonly (readonly [tag: string, routes: ApiRoutes])[] = [
  ['Sign-in', authRoutes],
  ['Assets', thingRoutes],
  ['Events', locationRoutes],
  ['Areas', areaRoutes],
  ['Closures', closureRoutes],
  ['Closures', closureRouteRoutes],
  ['Alerting zones', zoneRoutes],
  ['Trips', tripRoutes],
  ['Hazards', hazardRoutes],
  ['Road-to-road search', r2rSearchRoutes],
  ['WZDx', wzdxFeedRoutes],
  ['WZDx', wzdxFeedSubscriptionRoutes],
  ['Reports', reportRoutes],
  ['Exports', exportRoutes],
  ['Users', userRoutes],
  ['Account', accountRoutes],
  ['Roles', roleRoutes],
  ['Organizations', organizationRoutes],
  ['API keys', apiKeyRoutes],
  ['Integrations', integrationRoutes],
  ['Device configurations', deviceConfigRoutes],
  ['Billing', billingRoutes],
];

/**
 * Stamps each route declared during `declare` with `tag` (the OpenAPI document groups by it).
 * Fastify calls onRoute as a route is declared, so the tag in force is the module's.
 */
function routeTagger(app: FastifyInstance) {
  let tag = '';
  app.addHook('onRoute', (route) => {
    if (tag) route.schema = { ...route.schema, tags: [tag] };
  });
  return async (name: string, declare: () => unknown) => {
    tag = name;
    try {
      await declare();
    } finally {
      tag = '';
    }
  };
}

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
  services: RouteServices | undefined,
  health: Omit<HealthSources, 'db' | 'bus'>,
): Promise<void> {
  const { version, distDir } = config;
  installRouteValidation(app);
  await installOpenApi(app, version);
  const during = routeTagger(app);
  await during('Server', () => versionRoutes(app, version));
  // The operations calls (docs/operations.md): open routes, like /version.
  await during('Server', () => healthRoutes(app, { ...health, db: services?.deps.db, bus: services?.deps.bus }));
  // The standalone map's basemap: open routes, no account data (docs/map.md "Basemap").
  await during('Basemap', () => tileRoutes(app, config));
  if (services) {
    const { deps, ingest } = services;
    installRouteAccess(app, deps.db);
    for (const [tag, routes] of API_ROUTES) await during(tag, () => routes(app, deps));
    await during('Live', async () => watchCable(health.metrics, await cableRoutes(app, deps, deps.bus)));
    health.metrics.gauge(
      'jobs',
      'Jobs in the queue table by status (exports, reports, scheduled work).',
      () => jobsByStatus(deps.db),
      'status',
    );
    await during('Live', () => ingestRoutes(app, deps, ingest));
  }
  await spaRoutes(app, distDir);
}

/** The socket hub's connections, subscriptions and write counts, read at each scrape (GET /metrics). */
function watchCable(metrics: ServerMetrics, hub: CableHub): void {
  metrics.gauge('cable_connections', 'Open live sockets (/cable).', () => hub.stats().connections);
  metrics.gauge(
    'cable_subscriptions',
    'Subscriptions of the open sockets (one per organization a socket follows).',
    () => hub.stats().subscriptions,
  );
  metrics.counter(
    'cable_frames_coalesced_total',
    'Frames replaced by a newer one of the same asset while their socket was backed up (the client gets the latest).',
    () => hub.stats().coalesced,
  );
  metrics.counter('cable_connections_dropped_total', 'Sockets dropped as too slow (their send buffer full).', () => hub.stats().dropped);
}
