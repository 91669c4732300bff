import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { truncateCoordinate } from '../../../src/domain/geometry';
import { section, type Permission } from '../../../src/domain/permissions';
import type { ServerDeps } from '../../deps';
import { listOrgIds, orgAccess, visibleOrganization } from '../organization-scope';
import { errorAnswer, forbidden } from '../../core/errors';
import { findVisibleThingOrg, insertHazard, listHazards } from './repository';
import {
  hazardBody,
  hazardCounts,
  hazardReportWireSchema,
  type HazardReportWire,
  hazardWireSchema,
  type HazardWire,
  orgNotOwner,
  reportedInFuture,
  reportQuery,
  thingNotFound,
  validReport,
} from './schema';

/**
 * Hazards (part 2 §2 Hazards: "a report of hazards by type and severity", §5 Hazard report; the
 * spec shows no path, so these are designed in the style of the others and documented in
 * docs/api/areas-closures-zones-trips.md):
 *
 * - GET /organization/hazards?org_ids[]&start_time&end_time&types[]&severities[]&all_types — the
 *   hazards reported in a past range of at most 24 h, with counts by type and severity; needs
 *   hazard:read (the hazards section). At least one type, or `all_types=true` ('Must select at
 *   least 1 type'); no severity means every severity.
 * - POST /organization/hazards — a device (or the simulator) reports a hazard. Reporting writes
 *   fleet data, so it needs thing:manage or haas:manage, as the other writes about assets do.
 */

const HAZARD_VIEW: readonly Permission[] = section('hazards').anyOf;
const HAZARD_REPORT: readonly Permission[] = ['thing:manage', 'haas:manage'];

export function hazardRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The query (org_ids[], start_time, end_time, types[], severities[], all_types) is read by the
   * handler with the report form's rules and messages (part 2 §5 Hazard report): documented only.
   */
  api.get(
    '/organization/hazards',
    {
      config: { access: HAZARD_VIEW },
      schema: {
        summary: 'The hazards reported in a past range of at most 24 hours, with counts by type and severity',
        querystring: reportQuery,
        response: { 200: hazardReportWireSchema, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request): Promise<HazardReportWire> => {
      const orgIds = await listOrgIds(db, request.caller, request.query);
      const form = validReport(request.query, deps.now().getTime());
      const startTime = new Date(form.startTime!);
      const endTime = new Date(form.endTime!);
      const answer = { start_time: startTime.toISOString(), end_time: endTime.toISOString() };
      if (orgIds !== null && orgIds.length === 0) return { ...answer, hazards: [], counts: [] };
      const types = form.allTypes ? null : form.types;
      const list = await listHazards(db, { orgIds, startTime, endTime, types, severities: form.severities ?? [] });
      return { ...answer, hazards: list, counts: hazardCounts(list) };
    },
  );

  api.post(
    '/organization/hazards',
    {
      config: { access: HAZARD_REPORT },
      schema: {
        summary: 'Report a hazard (a device or the simulator)',
        body: hazardBody,
        response: { 201: hazardWireSchema, 404: errorAnswer },
      },
    },
    async (request, reply): Promise<HazardWire> => {
      const { caller, body } = request;
      const now = deps.now();
      const reportedAt = body.reported_at ? new Date(body.reported_at) : now;
      if (reportedAt.getTime() > now.getTime()) throw reportedInFuture();
      let organizationId = body.organization_id ?? caller.scope.organizationId;
      if (body.thing_id) {
        const thingOrg = await findVisibleThingOrg(db, caller.scope, body.thing_id);
        if (thingOrg === undefined) throw thingNotFound();
        if (body.organization_id && body.organization_id !== thingOrg) throw orgNotOwner();
        organizationId = thingOrg;
      }
      const org = await visibleOrganization(db, caller, organizationId);
      // Reporting writes the organization's data: an accessor organization only reads (orgAccess; OWASP ASVS V4.2.1).
      if (orgAccess(caller.scope, org.id) !== 'write') throw forbidden();
      const created = await insertHazard(db, {
        organizationId: org.id,
        thingId: body.thing_id ?? null,
        hazardType: body.hazard_type,
        severity: body.severity,
        lat: truncateCoordinate(body.lat),
        lng: truncateCoordinate(body.lng),
        reportedAt,
      });
      reply.code(201);
      return created;
    },
  );
}
