import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isAvAreaType } from '../../../src/domain/area';
import { canAddArea, canDeleteArea, canEditArea, section, type Permission } from '../../../src/domain/permissions';
import type { Caller } from '../../auth/context';
import type { ServerDeps } from '../../deps';
import { errorAnswer, forbidden, notFound, parse, unprocessable } from '../../core/errors';
import { listOrgIds, orgIdsQuery, visibleOrganization } from '../organization-scope';
import { deletedAnswer, uuidParam } from '../query';
import { documentedObject, documentedOnly } from '../route-validation';
import { expectVersion, ifMatchHeader, preconditionFailed, replyVersion } from '../versioning';
import {
  type AreaJoinedRow,
  type AreaTypeRow,
  deleteArea,
  findAreaType,
  findVisibleArea,
  insertArea,
  joinedToWire,
  listAreas,
  listAreaTypes,
  updateArea,
} from './repository';
import { areaAnswer, areaBody, areasAnswer, areaTypesAnswer, validArea } from './schema';

/**
 * Areas: stations, exclusions and points of interest (part 2 §3 Area, §5 Area, §6 areas rows,
 * §7 exclusion_zone calls, §8 Area save / Area delete), and GET /ez_types. The server holds the
 * rules the form holds and two of its own (./schema), and the owner and is_av_type rules
 * (`canAddArea`, `canEditArea`, `canDeleteArea`).
 */

const AREA_VIEW: readonly Permission[] = section('areas').anyOf;
/** part 2 §6: create, update and delete are each satisfied by manage; haas:manage is the super permission. */
const AREA_CREATE: readonly Permission[] = ['exclusion:create', 'exclusion:manage', 'haas:manage'];
const AREA_UPDATE: readonly Permission[] = ['exclusion:update', 'exclusion:manage', 'haas:manage'];
const AREA_DELETE: readonly Permission[] = ['exclusion:delete', 'exclusion:manage', 'haas:manage'];

/** part 2 §7: exclusion_zone (areas) and ez_types. */
export function areaRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** A live area the caller may see, or 404 'Area not found' (never 403: nothing leaks). */
  async function visibleArea(caller: Caller, id: string): Promise<AreaJoinedRow> {
    const row = await findVisibleArea(db, caller.scope, id);
    if (!row) throw notFound('Area');
    return row;
  }

  /** The area type a write names, or 422 'ez_type_id: unknown area type'. */
  async function areaType(id: string): Promise<AreaTypeRow> {
    const type = await findAreaType(db, id);
    if (!type) throw unprocessable('ez_type_id: unknown area type');
    return type;
  }

  api.get(
    '/ez_types',
    {
      config: { access: AREA_VIEW },
      schema: { summary: 'The area types, alphabetical with Other last', response: { 200: areaTypesAnswer } },
    },
    async () => listAreaTypes(db),
  );

  /** The query `org_ids[]` is read by listOrgIds (part 2 §8 "Lists and organization": its own 422 and 404): documented only. */
  api.get(
    '/organization/exclusion_zone',
    {
      config: { access: AREA_VIEW },
      schema: {
        summary: "The areas (stations, exclusions, points of interest) of the caller's organizations or of org_ids[]",
        querystring: documentedObject({ ...orgIdsQuery }),
        response: { 200: areasAnswer, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request) => listAreas(db, await listOrgIds(db, request.caller, request.query)),
  );

  /** Area detail (a path the spec does not show; part 2 §7 "zone or area detail"). */
  api.get(
    '/organization/exclusion_zone/:id',
    {
      config: { access: AREA_VIEW },
      schema: { summary: 'One area, with its version as ETag', params: uuidParam, response: { 200: areaAnswer, 404: errorAnswer } },
    },
    async (request, reply) => replyVersion(reply, joinedToWire(await visibleArea(request.caller, request.params.id))),
  );

  api.post(
    '/organization/exclusion_zone',
    {
      config: { access: AREA_CREATE },
      schema: {
        summary: 'Add an area: a station, an exclusion or a point of interest',
        body: areaBody,
        response: { 201: areaAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const org = await visibleOrganization(db, caller, body.organization_id);
      // part 2 §6: "Add area needs exclusion create or manage, and owner or haas manage".
      if (!canAddArea(caller.permissions, org.id, caller.scope.organizationId)) throw forbidden();
      const { ezTypeId, values } = validArea(body);
      const type = await areaType(ezTypeId);
      reply.code(201);
      return insertArea(db, org, type, values, deps.now());
    },
  );

  api.put(
    '/organization/exclusion_zone/:id',
    {
      config: { access: AREA_UPDATE },
      // The body (areaBody) is parsed by the handler, after the 404 and 403: documented only.
      schema: {
        summary: 'Save an area (If-Match: the version it was opened on)',
        params: uuidParam,
        body: documentedOnly(areaBody.clone()),
        headers: documentedObject({ ...ifMatchHeader }),
        response: { 200: areaAnswer, 404: errorAnswer, 412: errorAnswer, 422: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const existing = await visibleArea(caller, request.params.id);
      const ownership = (isAvType: boolean) => ({ orgId: existing.area.organizationId, isAvType });
      const userOrg = caller.scope.organizationId;
      if (!canEditArea(caller.permissions, ownership(isAvAreaType(existing.type.dbName)), userOrg)) throw forbidden();
      const expected = expectVersion(request, 'area', existing.area.version);
      // The body is read after the 404 and 403 above (a stranger learns nothing from a 422).
      const body = parse(areaBody, request.body);
      if (body.id !== undefined && body.id !== existing.area.id) throw unprocessable('id: does not match the area of the path');
      if (body.organization_id !== existing.area.organizationId) {
        throw unprocessable('organization_id: an area cannot move to another organization');
      }
      const { ezTypeId, values } = validArea(body);
      const type = await areaType(ezTypeId);
      // Turning an area into an automated-vehicle type needs what editing one needs (part 2 §6).
      if (!canEditArea(caller.permissions, ownership(isAvAreaType(type.dbName)), userOrg)) throw forbidden();
      const updated = await updateArea(db, existing, type, values, deps.now(), expected);
      // Saved by someone else since the read (If-Match): 412; deleted meanwhile: 404.
      if (updated === 'stale') throw preconditionFailed('area');
      if (!updated) throw notFound('Area');
      return replyVersion(reply, updated);
    },
  );

  /** part 2 §7: "Response reads id"; the client treats 404 as already deleted. */
  api.delete(
    '/organization/exclusion_zone/:id',
    {
      config: { access: AREA_DELETE },
      schema: { summary: 'Delete an area', params: uuidParam, response: { 200: deletedAnswer, 404: errorAnswer } },
    },
    async (request) => {
      const { caller } = request;
      const existing = await visibleArea(caller, request.params.id);
      const ownership = { orgId: existing.area.organizationId, isAvType: isAvAreaType(existing.type.dbName) };
      if (!canDeleteArea(caller.permissions, ownership, caller.scope.organizationId)) throw forbidden();
      const deleted = await deleteArea(db, existing.area.id, deps.now());
      if (!deleted) throw notFound('Area');
      return deleted;
    },
  );
}
