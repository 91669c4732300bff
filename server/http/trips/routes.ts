import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { section, type Permission } from '../../../src/domain/permissions';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound } from '../../core/errors';
import { findVisibleThing, listCoverage, listTripRuns } from './repository';
import {
  coverageAnswer,
  coverageIds,
  coverageQuery,
  type CoverageWire,
  thingIdParam,
  thingPath,
  tripsQuery,
  tripWireSchema,
  type TripWire,
  validRange,
} from './schema';

/**
 * Trips (part 2 §2 Trips, §3 Trip, §5 "Trips and date-range reports", §7 GET things/{thingId}/trips
 * and GET things/coverage, §8 Trips 404 'Asset not found').
 *
 * A trip answer holds the runs that have points of the asset in the range, each with those points
 * in time order (`tripWireSchema` of src/domain/trip.ts). Points recorded outside any run are not
 * part of a trip. run_duration is in seconds; a run still going counts up to now.
 *
 * The range: `start_time` and `end_time` (ISO or epoch), checked by the domain's trips rules (in
 * the past, different, end after start, at most 24 h); or `run_date=YYYY-MM-DD` alone, the whole
 * day in the asset organization's time zone (today: up to now).
 */

const TRIP_VIEW: readonly Permission[] = section('trips').anyOf;

/** part 2 §7: GET /things/{thingId}/trips and GET /things/coverage. */
export function tripRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/things/:thingId/trips',
    // The query (start_time, end_time or run_date) is read after the asset is found, by the domain's
    // trips rules: documented only, so no 404 turns into a 422.
    {
      config: { access: TRIP_VIEW },
      schema: {
        summary: "An asset's trips in a time range or on a day: its runs with their points",
        params: thingPath,
        querystring: tripsQuery,
        response: { 200: tripWireSchema, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request): Promise<TripWire> => {
      const thingId = thingIdParam(request.params.thingId, 'thingId');
      // The visible, live asset with its organization's time zone, or 404 'Asset not found'.
      const thing = await findVisibleThing(db, request.caller.scope, thingId);
      if (!thing) throw notFound('Asset');
      const now = deps.now().getTime();
      const { startTime, endTime } = validRange(request.query, thing.id, thing.timezone, now);
      return {
        thing_id: thing.id,
        start_time: new Date(startTime).toISOString(),
        end_time: new Date(endTime).toISOString(),
        runs: await listTripRuns(db, thing.id, startTime, endTime, now),
      };
    },
  );

  // thing_ids[] is read by the shared list helper, whose messages the 422s carry: documented only.
  api.get(
    '/things/coverage',
    {
      config: { access: TRIP_VIEW },
      schema: {
        summary: 'For each asset asked, the time span of its recorded points and its run count',
        querystring: coverageQuery,
        response: { 200: coverageAnswer, 422: errorAnswer },
      },
    },
    // Unknown and invisible assets are left out: the answer never confirms they exist.
    async (request): Promise<CoverageWire[]> => listCoverage(db, request.caller.scope, coverageIds(request.query)),
  );
}
