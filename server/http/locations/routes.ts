/**
 * part 1 §7 event (location) calls: GET /locations, GET /locations/active, PUT /locations/{id}.
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Caller } from '../../auth/context';
import type { FastifyInstance } from 'fastify';
import { EVENT_HISTORY_DAYS, EVENT_HISTORY_MS } from '../../../src/domain/constants';
import { canEditEvent, section } from '../../../src/domain/permissions';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound, unprocessable } from '../../core/errors';
import { sinceParam, sinceQuery, timeValue } from '../query';
import { documentedObject } from '../route-validation';
import { orgAccess, requestedOrgIdsQuery, requestedOrgs } from '../organization-scope';
import {
  findLocation,
  listActiveLocations,
  listDeletedLocationIds,
  listLocations,
  locationWires,
  updateLocationPosition,
} from './repository';
import { LOCATION_ERRORS, locationAnswer, locationPath, locationsAnswer, locationUpdateSchema, notLocationOrganization } from './schema';

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
      const rows = await listLocations(db, orgIds, startDate, since);
      const deletedIds = since ? await listDeletedLocationIds(db, orgIds, since) : [];
      return {
        data: await locationWires(db, rows, now),
        meta: { server_timestamp: now.toISOString(), deleted_ids: deletedIds },
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
      const rows = await listActiveLocations(db, orgIds);
      return { data: await locationWires(db, rows, now), meta: { server_timestamp: now.toISOString(), deleted_ids: [] } };
    },
  );

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
      const location = await findLocation(db, id);
      const access = location ? orgAccess(caller.scope, location.organizationId) : 'none';
      if (!location || access === 'none') throw notFound('Location');
      // A location the caller could see that has since been removed: the catalogue's 'found' row.
      if (location.deletedAt) throw unprocessable(LOCATION_ERRORS.notFound, 'not_found');
      if (access === 'read') throw unprocessable(LOCATION_ERRORS.noAccess, 'no_access');
      if (body.organization_id !== location.organizationId && body.organization_id !== caller.scope.organizationId) {
        throw notLocationOrganization();
      }
      if (!location.isActive) throw unprocessable(LOCATION_ERRORS.inactive, 'inactive');
      if (location.isGeoMarker) throw unprocessable(LOCATION_ERRORS.geoMarker, 'geo_marker');
      const now = deps.now();
      const updated = await updateLocationPosition(db, id, body, now);
      const [wire] = await locationWires(db, [updated!], now);
      return wire!;
    },
  );
}
