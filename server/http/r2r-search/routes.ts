import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { primaryDisplayName } from '../../../src/domain/asset';
import { section, type Permission } from '../../../src/domain/permissions';
import { r2rWindow } from '../../../src/domain/trip';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound } from '../../core/errors';
import { findVisibleThing } from '../trips/repository';
import { listR2RAlerts } from './repository';
import { r2rSearchWireSchema, type R2RSearchWire, searchQuery, validSearch } from './schema';

/**
 * R2R search (part 2 §2 R2R "Search by asset run date, alert time and asset"; §5 R2R: asset and
 * start time required, the end is start plus 15 minutes, no future dates). The spec shows no path:
 *
 * GET /r2r?thing_id={uuid}&start_time={ISO or epoch} — the R2R alerts the asset raised in
 * [start, start + 15 min], oldest first, each with the other asset's name (when the caller may see
 * it) and the distance between them. Needs engineer:test (the r2r section).
 *
 * For the map (part 2 §2 R2R, the alerting vehicle and its receivers at that moment): `lat`/`lng`
 * are where the alerting vehicle was, as stored with the alert, else its nearest trip point; each
 * alert also carries `other_lat`/`other_lng`, the receiver's nearest trip point (a visible
 * receiver only). "Nearest" is the trip point (a point of a run) closest in time to the alert,
 * within R2R_POSITION_TOLERANCE_MS; none → null.
 */

const R2R_VIEW: readonly Permission[] = section('r2r').anyOf;

export function r2rSearchRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The query (thing_id, start_time) is read by the handler with the search form's rules and
   * messages (part 2 §5 R2R): documented only.
   */
  api.get(
    '/r2r',
    {
      config: { access: R2R_VIEW },
      schema: {
        summary: 'The R2R alerts an asset raised in the 15 minutes from start_time, with where both assets were',
        querystring: searchQuery,
        response: { 200: r2rSearchWireSchema, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request): Promise<R2RSearchWire> => {
      const { caller } = request;
      const { thingId, startTime } = validSearch(request.query, deps.now().getTime());
      // The visible, live asset, or 404 'Asset not found' (as the trips call).
      const thing = await findVisibleThing(db, caller.scope, thingId);
      if (!thing) throw notFound('Asset');
      const window = r2rWindow(startTime);
      const alerts = await listR2RAlerts(db, caller.scope, thing.id, window);
      return {
        thing_id: thing.id,
        thing_name: primaryDisplayName(thing.haasId, thing.nickname?.trim()),
        start_time: new Date(window.start).toISOString(),
        end_time: new Date(window.end).toISOString(),
        alerts,
      };
    },
  );
}
