import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Permission } from '../../../src/domain/permissions';
import { closureRouteAnswer, closureRouteBody, closureRouter } from './schema';

/**
 * POST /closure/route — the offline router of the closure form (part 2 §7 "Closure routing uses a
 * maps directions service (driving, waypoints)"): with no Google key the dashboard routes a drawn
 * path along the server's road network, the one the fleet simulator drives, so a closure follows
 * the streets. A shortest-distance search (ngraph.path's A*) joins each pair of consecutive
 * waypoints, each first snapped to its nearest road; the answer carries the path and the start and
 * end street names. A waypoint farther than ROUTE_SNAP_MAX_M from every road, or two waypoints with
 * no road between them, answer 422 with the reason: the form then keeps the straight drawn path and
 * shows that message (part 2 §8 "Route drawing: the service message, or 'Something went wrong'").
 *
 * No repository.ts: the router reads no database (the network is the region's, built in memory).
 */

/** The calls of the closure form: those who may add or edit a closure, on desktop or phone (part 2 §6). */
const ROUTE_ACCESS: readonly Permission[] = [
  'closure:create',
  'closure:update',
  'closure:manage',
  'mobile:closure:create',
  'mobile:closure:update',
  'mobile:closure:manage',
  'haas:manage',
];

export function closureRouteRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/closure/route',
    {
      config: { access: ROUTE_ACCESS },
      schema: {
        summary: 'Route a drawn closure path along the roads (the offline router of the closure form)',
        body: closureRouteBody,
        response: { 200: closureRouteAnswer },
      },
    },
    async (request) => closureRouter().route(request.body.points),
  );
}
