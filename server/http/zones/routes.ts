import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { section, type Permission } from '../../../src/domain/permissions';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound } from '../../core/errors';
import { listOrgIds, orgIdsQuery } from '../organization-scope';
import { uuidParam } from '../query';
import { documentedObject } from '../route-validation';
import { findVisibleZone, listZones } from './repository';
import { zoneAnswer, zonesAnswer } from './schema';

/**
 * Alerting zones (part 2 §3 Alerting zone, §7 GET /organization/alerting_zones, §8 Zones fetch):
 * `alertingZoneWireSchema` of src/domain/alerting-zone.ts. `active_things` lists the zone's assets
 * the caller may see; features are GeoJSON features (a stored feature that is not valid GeoJSON is
 * left out rather than failing the list).
 */

const ZONE_VIEW: readonly Permission[] = section('zones').anyOf;

/** part 2 §7: GET /organization/alerting_zones (and a zone's detail, a path the spec does not show). */
export function zoneRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;

  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The query `org_ids[]` is read by listOrgIds (part 2 §8 "Lists and organization": its own 422 and 404): documented only. */
  api.get(
    '/organization/alerting_zones',
    {
      config: { access: ZONE_VIEW },
      schema: {
        summary: "The alerting zones of the caller's organizations or of org_ids[], active first",
        querystring: documentedObject({ ...orgIdsQuery }),
        response: { 200: zonesAnswer, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      return listZones(db, caller.scope, await listOrgIds(db, caller, request.query));
    },
  );

  api.get(
    '/organization/alerting_zones/:id',
    {
      config: { access: ZONE_VIEW },
      schema: {
        summary: 'One alerting zone, with the assets in it the caller may see',
        params: uuidParam,
        response: { 200: zoneAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const zone = await findVisibleZone(db, request.caller.scope, request.params.id);
      if (!zone) throw notFound('Alerting zone');
      return zone;
    },
  );
}
