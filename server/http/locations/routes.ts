/**
 * part 1 §7 event (location) calls: GET /locations, GET /locations/active, PUT /locations/{id};
 * the incident's notes and acknowledgement (docs/decisions/spec.md "Incident notes and
 * acknowledgement"): GET/POST /locations/{id}/notes, POST /locations/{id}/acknowledge.
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Caller } from '../../auth/context';
import type { FastifyInstance } from 'fastify';
import { EVENT_HISTORY_DAYS, EVENT_HISTORY_MS } from '../../../src/domain/constants';
import { canEditEvent, section } from '../../../src/domain/permissions';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound, unprocessable } from '../../core/errors';
import { toLocationWires } from '../../core/location-wire';
import { publishLocationChange } from '../../live/location-change';
import { sinceParam, sinceQuery, timeValue } from '../query';
import { documentedObject } from '../route-validation';
import { orgAccess, requestedOrgIdsQuery, requestedOrgs } from '../organization-scope';
import {
  acknowledgeLocation,
  addLocationNote,
  findLocation,
  listLocationNotes,
  listActiveLocations,
  listDeletedLocationIds,
  listLocations,
  locationWires,
  updateLocationPosition,
} from './repository';
import {
  acknowledgementAnswer,
  LOCATION_ERRORS,
  locationAnswer,
  locationNoteAnswer,
  locationNoteBody,
  locationNotesAnswer,
  locationPath,
  locationsAnswer,
  locationUpdateSchema,
  notLocationOrganization,
} from './schema';

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

  /**
   * The incident the caller sees, exactly as the event calls scope it: another organization's (or
   * none, or a deleted one) is 404 'Location not found'.
   */
  const visibleLocation = async (caller: Caller, id: string) => {
    const location = await findLocation(db, id);
    const access = location ? orgAccess(caller.scope, location.organizationId) : 'none';
    if (!location || access === 'none' || location.deletedAt) throw notFound('Location');
    return { location, access };
  };

  // docs/decisions/spec.md "Incident notes and acknowledgement": whoever sees incidents reads and adds notes.
  api.get(
    '/locations/:id/notes',
    {
      config: { access: section('events').anyOf },
      schema: {
        summary: "An incident's notes, newest first",
        params: locationPath,
        response: { 200: locationNotesAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { location } = await visibleLocation(request.caller, request.params.id);
      return { data: await listLocationNotes(db, location.id) };
    },
  );

  api.post(
    '/locations/:id/notes',
    {
      config: { access: section('events').anyOf },
      schema: {
        summary: 'Add a note to an incident (1 to 1,000 characters after trimming)',
        params: locationPath,
        body: locationNoteBody,
        response: { 201: locationNoteAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const { location } = await visibleLocation(caller, request.params.id);
      const now = deps.now();
      const added = await addLocationNote(db, location.id, caller.userId, body.text, now);
      const [wire] = await toLocationWires(db, [added.location], now);
      await publishLocationChange(deps, wire!, now);
      reply.code(201);
      return added.note;
    },
  );

  // The first acknowledgement stays: a repeat answers it unchanged (idempotent).
  api.post(
    '/locations/:id/acknowledge',
    {
      config: { access: mayEdit },
      schema: {
        summary: 'Acknowledge an incident: who took it and when (the first acknowledgement stays)',
        params: locationPath,
        response: { 200: acknowledgementAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const { location, access } = await visibleLocation(caller, request.params.id);
      if (access === 'read') throw unprocessable(LOCATION_ERRORS.noAccess, 'no_access');
      const now = deps.now();
      const result = await acknowledgeLocation(db, location.id, caller.userId, now);
      // One wire of the incident: what the sockets are told, and the answer's who and when.
      const [wire] = await toLocationWires(db, [result.location], now);
      if (result.changed) await publishLocationChange(deps, wire!, now);
      return { location_id: wire!.id, acknowledged_at: wire!.acknowledged_at!, acknowledged_by: wire!.acknowledged_by ?? null };
    },
  );
}
