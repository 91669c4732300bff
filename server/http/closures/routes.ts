import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { canAddClosure, canDeleteClosure, canEditClosure, hasAny, section, type Permission } from '../../../src/domain/permissions';
import type { Caller } from '../../auth/context';
import type { ServerDeps } from '../../deps';
import { errorAnswer, forbidden, notFound, parse, unprocessable } from '../../core/errors';
import { listOrgIds, orgAccess, orgIdsQuery, visibleOrganization } from '../organization-scope';
import { deletedAnswer, sinceParam, sinceQuery, uuidParam } from '../query';
import { documentedObject, documentedOnly } from '../route-validation';
import { expectVersion, ifMatchHeader, preconditionFailed, replyVersion } from '../versioning';
import {
  type ClosureJoinedRow,
  type ClosureRefusal,
  closureToWire,
  deleteClosure,
  findVisibleClosure,
  findVisibleThingId,
  insertClosure,
  listClosures,
  notManaged,
  updateClosure,
} from './repository';
import {
  closureAnswer,
  closureBody,
  closureContext,
  closureListAnswer,
  DUPLICATE_WZDX_ID_MESSAGE,
  mobileClientHeader,
  NOT_MANAGED_MESSAGE,
  quickUpdateBody,
  validClosure,
  validQuickUpdate,
} from './schema';

/**
 * Closures (part 2 §3 Closure, §4 closure status and form modes, §5 Closure, §6 closure rows,
 * §7 closure calls, §8 Closure save / Closure toggle).
 *
 * - The list is incremental: `{ data, meta: { server_timestamp, deleted_ids } }`; deletes are soft
 *   (deleted_at), so a later call reports the ids deleted since its `last_updated_timestamp`.
 * - Writes run the domain's closure form rules (`closureFormSchema`) and its save rules
 *   (`closureTimesOnSave`: a scheduled closure whose start is already past is active on save; one
 *   starting later stays inactive until the job starts it). `is_dashboard_managed` is always true.
 * - Feed closures belong to their WZDx feed: editing or deleting one answers 422 'Closure not
 *   managed by Dashboard'. A WZDx id already in use answers 422 '… violates unique …', caught
 *   from the unique index `closures_external_id_idx` on either engine.
 * - Mobile: a request carrying the header `X-Lightbar-Client: mobile` is checked against the
 *   mobile closure permissions (part 1 §2, part 2 §6), as the dashboard on a phone sends it.
 */

const CLOSURE_VIEW: readonly Permission[] = section('closures').anyOf;

/** part 2 §6: the mobile closure permissions count for a request from the mobile client. */
const mayUpdate = (caller: Caller, request: FastifyRequest): boolean =>
  hasAny(
    caller.permissions,
    closureContext(request).mobile ? ['mobile:closure:update', 'mobile:closure:manage'] : ['closure:update', 'closure:manage'],
  );
const mayDelete = (caller: Caller, request: FastifyRequest): boolean =>
  hasAny(
    caller.permissions,
    closureContext(request).mobile ? ['closure:delete', 'closure:manage', 'mobile:closure:manage'] : ['closure:delete', 'closure:manage'],
  );
const mayAdd = (caller: Caller, request: FastifyRequest): boolean => canAddClosure(caller.permissions, closureContext(request));

/** A closure write's answer, or the error of its refusal: 422 duplicate WZDx id, 412 stale copy, 404 gone. */
function written<T>(result: T | ClosureRefusal): T {
  if (result === 'duplicate_wzdx_id') throw unprocessable(DUPLICATE_WZDX_ID_MESSAGE, 'duplicate_wzdx_id');
  if (result === 'stale') throw preconditionFailed('closure');
  if (result === 'gone') throw notFound('Closure');
  return result;
}

/** part 2 §7: GET/POST /organization/closure, PUT/DELETE /organization/closure/{id}. */
export function closureRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** A live closure the caller may see, or 404 'Closure not found'. */
  async function visibleClosure(caller: Caller, id: string): Promise<ClosureJoinedRow> {
    const row = await findVisibleClosure(db, caller.scope, id);
    if (!row) throw notFound('Closure');
    return row;
  }

  /** The automated closure's asset, which the caller must see; else 422 'thing_id: Asset not found'. */
  async function visibleThingId(caller: Caller, thingId: string): Promise<string> {
    const id = await findVisibleThingId(db, caller.scope, thingId);
    if (!id) throw unprocessable('thing_id: Asset not found');
    return id;
  }

  /**
   * The query (`org_ids[]`, `last_updated_timestamp`) is read by listOrgIds and sinceParam, with
   * their own 422 and 404 rules (part 2 §8 "Lists and organization"): documented only.
   */
  api.get(
    '/organization/closure',
    {
      config: { access: CLOSURE_VIEW },
      schema: {
        summary: "The closures of the caller's organizations or of org_ids[], changed since last_updated_timestamp",
        querystring: documentedObject({ ...orgIdsQuery, ...sinceQuery }),
        response: { 200: closureListAnswer, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      const orgIds = await listOrgIds(db, request.caller, request.query);
      return listClosures(db, orgIds, sinceParam(request.query), deps.now());
    },
  );

  /** Closure detail (a path the spec does not show). */
  api.get(
    '/organization/closure/:id',
    {
      config: { access: CLOSURE_VIEW },
      schema: { summary: 'One closure, with its version as ETag', params: uuidParam, response: { 200: closureAnswer, 404: errorAnswer } },
    },
    async (request, reply) => replyVersion(reply, closureToWire(await visibleClosure(request.caller, request.params.id))),
  );

  api.post(
    '/organization/closure',
    {
      config: { access: mayAdd },
      schema: {
        summary: 'Add a closure: manual, or automated by an asset',
        body: closureBody,
        headers: documentedObject({ ...mobileClientHeader }),
        response: { 201: closureAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const org = await visibleOrganization(db, caller, body.organization_id);
      // An accessor organization only reads (orgAccess; OWASP ASVS V4.2.1): writing needs write access.
      if (orgAccess(caller.scope, org.id) !== 'write') throw forbidden();
      const now = deps.now();
      const { thingCandidate, values } = validClosure(body, {
        now: now.getTime(),
        isWzdxOrg: org.isWzdxOrg,
        wasActive: false,
        lastStartTime: null,
      });
      const thingId = thingCandidate === null ? null : await visibleThingId(caller, thingCandidate);
      reply.code(201);
      return written(await insertClosure(db, org.id, thingId, values, now));
    },
  );

  /** A full save (closureBody) or the quick toggle of part 2 §4 (quickUpdateBody, `isQuickUpdate: true`). */
  api.put(
    '/organization/closure/:id',
    {
      config: { access: mayUpdate },
      schema: {
        summary: 'Save a closure, or toggle it active (If-Match: the version it was opened on)',
        params: uuidParam,
        // Read by the handler after the 404, 403 and 422 below: documented only.
        body: documentedOnly(
          z.union([closureBody, quickUpdateBody]).meta({
            description:
              'The full save (the body of POST), or the quick toggle of a manual closure: `isQuickUpdate: true`, is_active, end_time.',
          }),
        ),
        headers: documentedObject({ ...ifMatchHeader, ...mobileClientHeader }),
        response: { 200: closureAnswer, 404: errorAnswer, 412: errorAnswer, 422: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const existing = await visibleClosure(caller, request.params.id);
      if (orgAccess(caller.scope, existing.closure.organizationId) !== 'write') throw forbidden();
      if (notManaged(existing.closure)) throw unprocessable(NOT_MANAGED_MESSAGE, 'not_managed');
      if (!canEditClosure(caller.permissions, existing.closure, closureContext(request))) throw forbidden();
      // The body is read after the 404, 403 and 422 above, so it is no route schema.
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const now = deps.now();
      const id = existing.closure.id;
      // Lost updates: a save from an older copy (If-Match) is refused. The quick toggle sends none:
      // it stays last-write-wins (docs/security.md), and moves the version on like every write.
      const expected = expectVersion(request, 'closure', existing.closure.version);

      if (raw['isQuickUpdate'] === true) {
        const body = parse(quickUpdateBody, request.body);
        if (body.uuid !== undefined && body.uuid !== id) throw unprocessable('uuid: does not match the closure of the path');
        const quick = validQuickUpdate(body, now.getTime(), existing.closure);
        return replyVersion(reply, written(await updateClosure(db, id, quick, now, expected)));
      }

      const body = parse(closureBody, request.body);
      if (body.uuid !== undefined && body.uuid !== id) throw unprocessable('uuid: does not match the closure of the path');
      if (body.organization_id !== existing.closure.organizationId) {
        throw unprocessable('organization_id: a closure cannot move to another organization');
      }
      const { thingCandidate, values } = validClosure(body, {
        now: now.getTime(),
        isWzdxOrg: existing.organization.isWzdxOrg,
        wasActive: existing.closure.isActive,
        lastStartTime: existing.closure.lastStartTime,
      });
      const thingId = thingCandidate === null ? null : await visibleThingId(caller, thingCandidate);
      return replyVersion(reply, written(await updateClosure(db, id, { ...values, thingId }, now, expected)));
    },
  );

  /** part 2 §7: "404 counts as deleted"; answers `{ id }`. Soft: the incremental list reports it. */
  api.delete(
    '/organization/closure/:id',
    {
      config: { access: mayDelete },
      schema: {
        summary: 'Delete a closure',
        params: uuidParam,
        headers: documentedObject({ ...mobileClientHeader }),
        response: { 200: deletedAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const existing = await visibleClosure(caller, request.params.id);
      if (orgAccess(caller.scope, existing.closure.organizationId) !== 'write') throw forbidden();
      if (notManaged(existing.closure)) throw unprocessable(NOT_MANAGED_MESSAGE, 'not_managed');
      if (!canDeleteClosure(caller.permissions, existing.closure, closureContext(request))) throw forbidden();
      return written(await deleteClosure(db, existing.closure.id, deps.now()));
    },
  );
}
