import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ASSET_STATUS, statusFromServer, type AssetStatus } from '../../../src/domain/asset-status';
import type { ThingSnapshotAnswer } from '../../../src/domain/thing-snapshot';
import {
  canChangeLightIntensity,
  canEditAsset,
  canRunR2RTest,
  HAAS_MANAGE,
  section,
  showsAssetCount,
  showsManageAccounts,
  type Permission,
} from '../../../src/domain/permissions';
import type { Caller } from '../../auth/context';
import type { ServerDeps } from '../../deps';
import type { ThingWireOut } from '../../core/thing-wire';
import { errorAnswer, notFound, parse, unprocessable } from '../../core/errors';
import { requestedOrgIdsQuery, requestedOrgs, type OrgAccess } from '../organization-scope';
import { sinceParam, sinceQuery } from '../query';
import { documentedObject } from '../route-validation';
import { expectVersion, ifMatchHeader, preconditionFailed, replyVersion } from '../versioning';
import {
  assignableOrganizations,
  findThing,
  findThingWire,
  fleetSnapshotJson,
  insertTestAlert,
  listThingsPage,
  listThingSubtypes,
  listThingTypes,
  listValidator,
  replaceAssociations,
  saveThing,
  setLightIntensity,
  setTestMode,
  type SaveRefusal,
  type ThingRow,
} from './repository';
import {
  assignableAnswer,
  associationsAnswer,
  associationsSchema,
  checkRelations,
  fieldError,
  ifNoneMatchHeader,
  lightIntensityAnswer,
  lightIntensitySchema,
  notModifiedAnswer,
  pageQuery,
  pagingSchema,
  r2rAnswer,
  r2rSchema,
  SNAPSHOT_SINCE,
  snapshotSinceQuery,
  thingAnswer,
  type ThingAnswer,
  thingPath,
  THING_ERRORS,
  thingsCountAnswer,
  thingSnapshotAnswer,
  thingsPageAnswer,
  thingSubtypesAnswer,
  thingTypesAnswer,
  thingUpdateSchema,
} from './schema';

/**
 * part 1 §7 asset calls: GET /organization/things (paged, incremental), GET /organization/things_count,
 * GET /thing_types, GET /thing_subtypes, PUT /things/{id}, PUT /things/{thingId}/associations,
 * PUT /things/{id}/r2r, PUT /things/{thingId}/light_intensity, GET /organization/assignable.
 *
 * Who may touch an asset: it is visible when its organization is (own, children, managed,
 * accessed; haas:manage all) or when it is shared with the caller's organization through
 * thing_relationships. Changing it needs write access: the owner, a child's parent or a manager
 * organization, or a manager asset relation; an accessor (organization or asset relation) only
 * reads it (422, the message says so). Anything else answers 404, exactly as an unknown id.
 */
/** Permission rows of part 1 §6 this module checks, written once. */
const THINGS_VIEW = section('things').anyOf;
const ASSOCIATIONS_EDIT: readonly Permission[] = ['thing:update', 'thing:manage', HAAS_MANAGE];
const R2R_TEST: readonly Permission[] = ['thing:invoke_r2r'];
const LIGHT_INTENSITY: readonly Permission[] = ['thing:ha5_light_intensity_change'];
const mayListAssignable = (caller: Caller): boolean =>
  canEditAsset(caller.permissions) || caller.permissions.has(HAAS_MANAGE) || showsManageAccounts(caller.permissions);

/**
 * Sets the ETag; answers whether the client's If-None-Match names it (then the reply is a 304 with
 * no body). Cache-Control stays no-store (OWASP): the asset list must not land in a browser's disk
 * cache; the live worker keeps its last answer in memory and revalidates it itself.
 */
async function notModified(request: FastifyRequest, reply: FastifyReply, etag: string): Promise<boolean> {
  reply.header('etag', etag);
  const header = request.headers['if-none-match'];
  if (!header) return false;
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes do not matter.
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const matches = header.trim() === '*' || header.split(',').some((tag) => opaque(tag) === opaque(etag));
  if (matches) reply.code(304);
  return matches;
}

/** An accessor only reads the asset: changing it needs write access (422, the message says so). */
function requireWrite(access: OrgAccess): void {
  if (access !== 'write') throw unprocessable(THING_ERRORS.readOnly, 'read_only');
}

/** The error a refused save answers: 422 naming the field or the nickname, 412 stale copy, 422 removed meanwhile. */
function saveRefused(refusal: SaveRefusal): Error {
  if (refusal === 'nickname_taken') return unprocessable(THING_ERRORS.nicknameTaken, 'nickname_taken');
  if (refusal === 'stale') return preconditionFailed('asset');
  if (refusal === 'gone') return unprocessable(THING_ERRORS.notFound, 'not_found');
  return fieldError(refusal.field, refusal.message);
}

export function thingRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The asset `id` as the caller may see it: 404 when unknown or invisible (a non-uuid id too);
   * when it was removed since, 404 or 422 'Asset not found' as the call's catalogue row wants.
   */
  async function visibleThing(caller: Caller, id: string, removed: 404 | 422): Promise<{ thing: ThingRow; access: OrgAccess }> {
    const found = await findThing(db, caller.scope, id);
    if (!found) throw notFound('Asset');
    if (found.thing.deletedAt) {
      throw removed === 404 ? notFound('Asset') : unprocessable(THING_ERRORS.notFound, 'not_found');
    }
    return found;
  }

  /** The thing's wire object now (after a write); 404 'Asset not found' when there is none. */
  async function wireOf(id: string, now: Date): Promise<ThingWireOut> {
    const wire = await findThingWire(db, id, now);
    if (!wire) throw notFound('Asset');
    return wire;
  }

  /**
   * The asset a change acts on: visible (404 or 422 when removed, as `visibleThing`) and of an
   * organization the caller writes (else 422 read-only), with the server's now the change is made at.
   */
  async function writableThing(caller: Caller, id: string, removed: 404 | 422): Promise<{ thing: ThingRow; now: Date }> {
    const { thing, access } = await visibleThing(caller, id, removed);
    requireWrite(access);
    return { thing, now: deps.now() };
  }

  /** The asset's wire object and its status at `now` (offline when it has none), as the buttons judge it (part 1 §5). */
  async function statusAt(id: string, now: Date): Promise<{ wire: ThingWireOut; status: AssetStatus }> {
    const wire = await wireOf(id, now);
    return { wire, status: wire.status ? statusFromServer(wire.status) : ASSET_STATUS.offline };
  }

  // The query (org_ids[], last_updated_timestamp, page, per_page) is read by the shared helpers, in
  // that order, as every list reads it: documented only, so no 422 changes.
  api.get(
    '/organization/things',
    {
      config: { access: THINGS_VIEW },
      schema: {
        summary: 'A page of the assets the caller sees (incremental with last_updated_timestamp)',
        querystring: documentedObject({ ...requestedOrgIdsQuery, ...sinceQuery, ...pageQuery }),
        headers: documentedObject({ ...ifNoneMatchHeader }),
        response: { 200: thingsPageAnswer, 304: notModifiedAnswer, 422: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const orgIds = requestedOrgs(query, caller.scope);
      const since = sinceParam(query);
      const { page, per_page } = parse(pagingSchema, { page: query.page, per_page: query.per_page });
      const now = deps.now();
      const { validator, total } = await listValidator(db, caller, orgIds, request.url, since);
      if (await notModified(request, reply, validator)) return reply.send(undefined);
      const { data, deletedIds } = await listThingsPage(db, caller.scope, orgIds, since, { page, perPage: per_page }, now);
      return {
        data: data as ThingAnswer[],
        meta: { page, per_page, total, server_timestamp: now.toISOString(), deleted_ids: deletedIds },
      };
    },
  );

  // The fleet snapshot (docs/decisions/spec.md): the assets of GET /organization/things, same
  // access, scope and org_ids[], in one compact answer (src/domain/thing-snapshot.ts). With `since`
  // (read as the list's last_updated_timestamp, the same 422s), only the assets changed after it and
  // the ids deleted since: the 15 s poll of a large organization (part 1 §7), with the list's ETag.
  // The answer is JSON text (thingSnapshotJson): the serializer is bypassed, the schema documents it.
  api.get(
    '/organization/things/snapshot',
    {
      config: { access: THINGS_VIEW },
      schema: {
        summary: 'The whole fleet the caller sees, in one compact answer (with since: what changed after it)',
        querystring: documentedObject({ ...requestedOrgIdsQuery, ...snapshotSinceQuery }),
        headers: documentedObject({ ...ifNoneMatchHeader }),
        response: { 200: thingSnapshotAnswer, 304: notModifiedAnswer, 422: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const orgIds = requestedOrgs(query, caller.scope);
      const since = sinceParam(query, SNAPSHOT_SINCE);
      // A poll that finds nothing changed answers 304 with no body, as the list's (its validator).
      if (since) {
        const { validator } = await listValidator(db, caller, orgIds, request.url, since);
        if (await notModified(request, reply, validator)) return reply.send(undefined);
      }
      const body = await fleetSnapshotJson(db, caller.scope, orgIds, deps.now(), since);
      // The answer's JSON text, sent as it is (a string bypasses the serializer).
      return reply.type('application/json; charset=utf-8').send(body as unknown as ThingSnapshotAnswer);
    },
  );

  // part 1 §2: the top bar's asset count shows with thing read or manage.
  api.get(
    '/organization/things_count',
    {
      config: { access: (caller) => showsAssetCount(caller.permissions) },
      schema: {
        summary: 'How many assets the caller sees (the top bar count)',
        querystring: documentedObject({ ...requestedOrgIdsQuery }),
        headers: documentedObject({ ...ifNoneMatchHeader }),
        response: { 200: thingsCountAnswer, 304: notModifiedAnswer, 422: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      // The same org_ids[] as GET /organization/things, so an acs user's top bar counts the chosen organization.
      const orgIds = requestedOrgs(request.query ?? {}, caller.scope);
      const { validator, total } = await listValidator(db, caller, orgIds, request.url, null);
      if (await notModified(request, reply, validator)) return reply.send(undefined);
      return { count: total };
    },
  );

  // Reference data of every installation (no organization's record): any signed-in user.
  api.get(
    '/thing_types',
    { config: { access: 'signed-in' }, schema: { summary: 'Every asset type, by name', response: { 200: thingTypesAnswer } } },
    async () => listThingTypes(db),
  );

  api.get(
    '/thing_subtypes',
    {
      config: { access: 'signed-in' },
      schema: { summary: 'Every asset subtype, with the type it belongs to', response: { 200: thingSubtypesAnswer } },
    },
    async () => listThingSubtypes(db),
  );

  // Used by the asset's organization access edit and by account administration.
  api.get(
    '/organization/assignable',
    {
      config: { access: mayListAssignable },
      schema: { summary: 'The organizations an asset may be related to (manager or accessor)', response: { 200: assignableAnswer } },
    },
    async (request) => assignableOrganizations(db, request.caller.scope),
  );

  api.put(
    '/things/:id',
    {
      config: { access: (caller) => canEditAsset(caller.permissions) },
      schema: {
        summary: "Edit an asset's profile: service, alerting, nickname, type, identifiers",
        params: thingPath,
        body: thingUpdateSchema,
        headers: documentedObject({ ...ifMatchHeader }),
        response: { 200: thingAnswer, 404: errorAnswer, 412: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const { id } = request.params;
      if (body.id !== id) throw fieldError('id', 'must be the asset of the path');
      const { thing, now } = await writableThing(caller, id, 422);
      const expected = expectVersion(request, 'asset', thing.version);
      const saved = await saveThing(db, thing, body, now, expected);
      if (saved !== 'saved') throw saveRefused(saved);
      return replyVersion(reply, (await wireOf(thing.id, now)) as ThingAnswer);
    },
  );

  api.put(
    '/things/:id/associations',
    {
      config: { access: ASSOCIATIONS_EDIT },
      schema: {
        summary: 'Replace the organizations that manage or access an asset',
        params: thingPath,
        body: associationsSchema,
        response: { 200: associationsAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller, body } = request;
      const { id } = request.params;
      const { thing } = await visibleThing(caller, id, 422);
      const now = deps.now();
      if (caller.scope.visibleOrgIds !== null && thing.organizationId !== caller.scope.organizationId) {
        throw unprocessable(THING_ERRORS.ownerOnly, 'owner_only');
      }
      const assignable = new Set((await assignableOrganizations(db, caller.scope)).map((org) => org.id));
      checkRelations(thing.organizationId, body.organization_relationships, assignable);
      const { organizationIds } = await replaceAssociations(db, thing.id, body.organization_relationships, now);
      // The organizations that gained or lost the asset: their open sockets re-check what they see.
      deps.events.emit('access-changed', { organizationIds });
      const wire = (await wireOf(thing.id, now)) as ThingAnswer;
      return { organization_relationships: wire.organization_relationships };
    },
  );

  api.put(
    '/things/:id/r2r',
    {
      config: { access: R2R_TEST },
      schema: {
        summary: 'Send an R2R test alert to an asset, or switch its test mode',
        params: thingPath,
        body: r2rSchema,
        response: { 200: r2rAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller, body } = request;
      const { id } = request.params;
      const { thing, now } = await writableThing(caller, id, 404);
      if (body.test_mode !== undefined) {
        if (body.test_mode && !thing.isAllowedForTestMode) throw unprocessable(THING_ERRORS.testModeNotAllowed, 'test_mode_not_allowed');
        await setTestMode(db, thing.id, body.test_mode, now);
        return { id: thing.id, is_test_mode_on: body.test_mode };
      }

      // part 1 §5: the same conditions as the button, at the server's now.
      const { wire, status } = await statusAt(thing.id, now);
      const allowed = canRunR2RTest(
        { deviceType: thing.deviceType, isR2REnabled: thing.isR2rEnabled, thingType: wire.thing_type, status, inService: thing.inService },
        caller.permissions,
      );
      if (!allowed.allowed) throw unprocessable(`R2R test not allowed: ${allowed.tooltip ?? 'Not authorized'}`, 'r2r_not_allowed');
      // Delivered when the device is connected now (a heartbeat younger than the stale threshold);
      // a standby asset that has gone quiet cannot receive the alert.
      const delivered = !wire.is_stale;
      await insertTestAlert(db, thing, delivered, now);
      return { delivered };
    },
  );

  api.put(
    '/things/:id/light_intensity',
    {
      config: { access: LIGHT_INTENSITY },
      schema: {
        summary: "Set an asset's light intensity",
        params: thingPath,
        body: lightIntensitySchema,
        response: { 200: lightIntensityAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller, body } = request;
      const { id } = request.params;
      const { thing, now } = await writableThing(caller, id, 404);
      const { status } = await statusAt(thing.id, now);
      const allowed = canChangeLightIntensity({ status, inService: thing.inService }, caller.permissions, body.light_intensity);
      if (!allowed.allowed) {
        throw unprocessable(`Light intensity cannot change: ${allowed.tooltip ?? 'no intensity chosen'}`, 'light_intensity_not_allowed');
      }
      await setLightIntensity(db, thing.id, body.light_intensity, now);
      return { id: thing.id, light_intensity: body.light_intensity };
    },
  );
}
