/**
 * part 1 §7 event (location) calls: GET /locations, GET /locations/active, PUT /locations/{id}.
 */
import { and, asc, desc, eq, gt, gte, isNull, or, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Caller } from '../auth/context';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EVENT_HISTORY_DAYS, EVENT_HISTORY_MS, EVENTS_KEPT } from '../../src/domain/constants';
import { canEditEvent, section } from '../../src/domain/permissions';
import { incrementalAnswerSchema } from '../../src/domain/incremental';
import { locationThingWireSchema, locationWireSchema } from '../../src/domain/location';
import { locationEditSchema } from '../../src/domain/validation/location';
import { locations } from '../db/schema';
import type { ServerDeps } from '../deps';
import { errorAnswer, HttpError, notFound, unprocessable } from '../core/errors';
import { toLocationWires, type LocationWireOut } from '../core/location-wire';
import { sinceParam, sinceQuery, timeValue } from './query';
import { documentedObject, pathIds } from './route-validation';
import { orgAccess, orgCondition, requestedOrgIdsQuery, requestedOrgs } from './organization-scope';

const UUID_MESSAGE = 'must be a uuid';
const uuid = () => z.uuid({ error: UUID_MESSAGE });

/** The 422 texts of part 1 §8 "Location update", each carrying the word the catalogue reads. */
export const LOCATION_ERRORS = {
  notFound: 'Location not found',
  noAccess: 'User does not have access to Location',
  inactive: 'Location is no longer active',
  geoMarker: "A geo marker's position cannot be edited",
  otherOrganization: "organization_id: is not the Location's organization",
} as const;

const locationUpdateSchema = z.object({
  lat: locationEditSchema.shape.lat,
  lng: locationEditSchema.shape.lng,
  roadway_heading: locationEditSchema.shape.roadwayHeading,
  organization_id: uuid(),
});

/**
 * A location as the calls answer it: the domain's wire (src/domain/location.ts), each vehicle with
 * the display name the server sends beside it (server/core/location-wire.ts). Every field is
 * always sent, so the wire schema's defaults add nothing.
 */
const locationThingAnswer = locationThingWireSchema.extend({
  display_name: z.string().meta({ description: 'The nickname, otherwise the upper-cased haas_id.' }),
});
const locationAnswer = locationWireSchema.extend({
  things_active: z.array(locationThingAnswer),
  things_inactive: z.array(locationThingAnswer),
});
type LocationAnswer = z.output<typeof locationAnswer>;
/** GET /locations and /locations/active: `{ data, meta: { server_timestamp, deleted_ids } }` (src/domain/incremental.ts). */
const locationsAnswer = incrementalAnswerSchema(locationAnswer);
/** What `toLocationWires` writes is the answer: every field present. */
const answered = (wires: LocationWireOut[]) => wires as LocationAnswer[];

/** Active first; active by newest start; inactive by newest end (part 1 §4, src/domain compareEvents). */
const EVENT_ORDER = [
  desc(locations.isActive),
  sql`case when ${locations.isActive} then ${locations.startTime} else ${locations.endTime} end desc nulls last`,
  asc(locations.id),
];

export function locationRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // The query (org_ids[], last_updated_timestamp, start_date) is read by the shared helpers, in that
  // order: documented only, so no 422 changes.
  api.get(
    '/locations',
    {
      config: { access: section('events').anyOf },
      schema: {
        summary: 'The events of the last 7 days and the active ones (incremental with last_updated_timestamp)',
        querystring: documentedObject({
          ...requestedOrgIdsQuery,
          ...sinceQuery,
          start_date: timeValue(
            `The events started or ended since this time, besides the active ones; absent = the last ${EVENT_HISTORY_DAYS} days.`,
          ),
        }),
        response: { 200: locationsAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const orgIds = requestedOrgs(request.query, caller.scope);
      const since = sinceParam(request.query);
      const now = deps.now();
      // part 1 §4, §9: the first fetch covers the last 7 days.
      const startDate = sinceParam(request.query, 'start_date') ?? new Date(now.getTime() - EVENT_HISTORY_MS);
      const inOrgs = orgCondition(locations.organizationId, orgIds);
      const inWindow = or(eq(locations.isActive, true), gte(locations.startTime, startDate), gte(locations.endTime, startDate));
      const query = db
        .select()
        .from(locations)
        .where(and(isNull(locations.deletedAt), inOrgs, inWindow, since ? gt(locations.updatedAt, since) : undefined))
        .orderBy(...EVENT_ORDER);
      // part 1 §9: a full load answers at most the newest EVENTS_KEPT; an incremental one every change.
      const rows = since ? await query : await query.limit(EVENTS_KEPT);
      const deleted = since
        ? await db
            .select({ id: locations.id })
            .from(locations)
            .where(and(gt(locations.deletedAt, since), inOrgs))
            .orderBy(asc(locations.id))
        : [];
      return {
        data: answered(await toLocationWires(db, rows, now)),
        meta: { server_timestamp: now.toISOString(), deleted_ids: deleted.map((row) => row.id) },
      };
    },
  );

  api.get(
    '/locations/active',
    {
      config: { access: section('events').anyOf },
      schema: {
        summary: 'The active events',
        querystring: documentedObject({ ...requestedOrgIdsQuery }),
        response: { 200: locationsAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const orgIds = requestedOrgs(request.query, caller.scope);
      const now = deps.now();
      const rows = await db
        .select()
        .from(locations)
        .where(and(isNull(locations.deletedAt), eq(locations.isActive, true), orgCondition(locations.organizationId, orgIds)))
        .orderBy(...EVENT_ORDER);
      return { data: answered(await toLocationWires(db, rows, now)), meta: { server_timestamp: now.toISOString(), deleted_ids: [] } };
    },
  );

  const locationPath = pathIds(z.object({ id: z.uuid() }), 'Location');
  const mayEdit = (caller: Caller) => canEditEvent(caller.permissions);
  api.put(
    '/locations/:id',
    {
      config: { access: mayEdit },
      schema: {
        summary: "Move an active event's position and roadway heading",
        params: locationPath,
        body: locationUpdateSchema,
        response: { 200: locationAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller, body } = request;
      const { id } = request.params;
      const [location] = await db.select().from(locations).where(eq(locations.id, id)).limit(1);
      const access = location ? orgAccess(caller.scope, location.organizationId) : 'none';
      if (!location || access === 'none') throw notFound('Location');
      // A location the caller could see that has since been removed: the catalogue's 'found' row.
      if (location.deletedAt) throw unprocessable(LOCATION_ERRORS.notFound, 'not_found');
      if (access === 'read') throw unprocessable(LOCATION_ERRORS.noAccess, 'no_access');
      if (body.organization_id !== location.organizationId && body.organization_id !== caller.scope.organizationId) {
        throw new HttpError(422, 'invalid', LOCATION_ERRORS.otherOrganization, {
          fields: { organization_id: LOCATION_ERRORS.otherOrganization },
        });
      }
      if (!location.isActive) throw unprocessable(LOCATION_ERRORS.inactive, 'inactive');
      if (location.isGeoMarker) throw unprocessable(LOCATION_ERRORS.geoMarker, 'geo_marker');
      const now = deps.now();
      const [updated] = await db
        .update(locations)
        .set({ lat: body.lat, lng: body.lng, roadwayHeading: body.roadway_heading, updatedAt: now })
        .where(eq(locations.id, id))
        .returning();
      const [wire] = answered(await toLocationWires(db, [updated!], now));
      return wire!;
    },
  );
}
