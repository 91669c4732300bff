import { and, eq, gte, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { routeWireSchema, type ClosureWire } from '../../src/domain/closure';
import { closureEndLimit, closureTimesOnSave } from '../../src/domain/closure-form';
import { CLOSURE_DIRECTIONS, MOBILE_CLIENT_HEADER, MOBILE_CLIENT_VALUE, USER_ROUTE_MIN_POINTS } from '../../src/domain/constants';
import { truncateLatLng, type LatLng } from '../../src/domain/geometry';
import type { IncrementalMeta } from '../../src/domain/incremental';
import {
  canAddClosure,
  canDeleteClosure,
  canEditClosure,
  section,
  type ClosureContext,
  type Permission,
} from '../../src/domain/permissions';
import { inputDateTime } from '../../src/domain/validation/boundary';
import { closureFormSchema } from '../../src/domain/validation/closure';
import { MESSAGES } from '../../src/domain/validation/messages';
import { WZDX_LOCATION_METHODS, WZDX_VEHICLE_IMPACTS } from '../../src/domain/wzdx';
import { requireAny, requireCaller, type Caller } from '../auth/context';
import { canSeeOrg, thingVisibleSql } from '../auth/scope';
import type { Db } from '../db/connection';
import { closures, organizations, organizationTypes, things } from '../db/schema';
import type { ServerDeps } from '../deps';
import { listOrgIds, visibleOrganization } from './areas';
import { forbidden, isUniqueViolation, notFound, parse, parseForm, unprocessable } from './errors';
import { sinceParam, uuidParam } from './query';
import { orgAccess } from './locations';

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

// The header the dashboard sends on a phone (src/app/api-client.ts): one definition for both.
export { MOBILE_CLIENT_HEADER, MOBILE_CLIENT_VALUE } from '../../src/domain/constants';

/** §8 Closure save: contains 'not managed' → 'Closure not managed by Dashboard'. */
export const NOT_MANAGED_MESSAGE = 'Closure not managed by Dashboard';
/** §8 Closure save: contains 'violates unique' → 'ID is already in use. Please select a new ID'. */
export const DUPLICATE_WZDX_ID_MESSAGE = 'external_id: violates unique index, this WZDx id is already in use';
const EXTERNAL_ID_INDEX = 'closures_external_id_idx';
/** A drawn route has a few points; the directions service's route a few thousand at most. */
const ROUTE_POINTS_MAX = 10_000;

const CLOSURE_VIEW: readonly Permission[] = section('closures').anyOf;

function closureContext(request: FastifyRequest): ClosureContext {
  const header = request.headers[MOBILE_CLIENT_HEADER];
  return { mobile: typeof header === 'string' && header.trim().toLowerCase() === MOBILE_CLIENT_VALUE };
}

// ── wire ─────────────────────────────────────────────────────────────────────

type ClosureRow = typeof closures.$inferSelect;

export interface ClosureJoinedRow {
  closure: ClosureRow;
  organization: { id: string; name: string; isWzdxOrg: boolean };
  organizationType: { id: string; name: string; acs: boolean } | null;
  thing: typeof things.$inferSelect | null;
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

function route(value: unknown): LatLng[] | null {
  const parsed = routeWireSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function closureToWire(row: ClosureJoinedRow): ClosureWire {
  const { closure, organization, organizationType, thing } = row;
  const direction = (CLOSURE_DIRECTIONS as readonly string[]).includes(closure.direction ?? '')
    ? (closure.direction as (typeof CLOSURE_DIRECTIONS)[number])
    : '';
  return {
    id: closure.id,
    closure_type: closure.closureType,
    is_active: closure.isActive,
    description: closure.description,
    alert_message: closure.alertMessage,
    direction,
    street_start: closure.streetStart,
    street_end: closure.streetEnd,
    external_id: closure.externalId,
    geocoded_route: route(closure.geocodedRoute),
    calculated_route: route(closure.calculatedRoute),
    user_route: route(closure.userRoute),
    impacted_lanes: closure.impactedLanes,
    // No column of its own: an automated closure is in service while its asset is (README of the API).
    is_in_service: thing?.inService ?? true,
    organization: {
      id: organization.id,
      name: organization.name,
      organization_type: organizationType
        ? { id: organizationType.id, name: organizationType.name, acs: organizationType.acs, icon_urls: {} }
        : null,
    },
    thing: thing
      ? {
          id: thing.id,
          nickname: thing.nickname,
          heartbeat_datetime: iso(thing.heartbeatAt),
          haas_id: thing.haasId,
          registry_number: thing.registryNumber,
          vin_number: thing.vinNumber,
          license_plate_number: thing.licensePlateNumber,
        }
      : null,
    last_start_time: iso(closure.lastStartTime),
    start_time: iso(closure.startTime),
    end_time: iso(closure.endTime),
    is_wzdx_compliant: closure.isWzdxCompliant,
    is_dashboard_managed: closure.isDashboardManaged,
    location_method: closure.locationMethod,
    vehicle_impact: closure.vehicleImpact,
    group_id: closure.groupId,
  };
}

/** Closures with their organization, organization type and asset. */
export async function selectClosures(db: Db, where: SQL | undefined): Promise<ClosureJoinedRow[]> {
  return db
    .select({
      closure: closures,
      organization: { id: organizations.id, name: organizations.name, isWzdxOrg: organizations.isWzdxOrg },
      organizationType: { id: organizationTypes.id, name: organizationTypes.name, acs: organizationTypes.acs },
      thing: things,
    })
    .from(closures)
    .innerJoin(organizations, eq(organizations.id, closures.organizationId))
    .leftJoin(organizationTypes, eq(organizationTypes.id, organizations.organizationTypeId))
    .leftJoin(things, eq(things.id, closures.thingId))
    .where(where)
    .orderBy(closures.createdAt, closures.id);
}

/** A live closure the caller may see, or 404 'Closure not found'. */
async function visibleClosure(db: Db, caller: Caller, params: unknown): Promise<ClosureJoinedRow> {
  const { id } = parse(uuidParam, params);
  const [row] = await selectClosures(db, and(eq(closures.id, id), isNull(closures.deletedAt)));
  if (!row || !canSeeOrg(caller.scope, row.closure.organizationId)) throw notFound('Closure');
  return row;
}

// ── unique violations, on both engines ───────────────────────────────────────


// ── request bodies ───────────────────────────────────────────────────────────

const text = (max: number) => z.string().max(max).nullish();
const isoTime = inputDateTime('must be an ISO 8601 time').nullish();
const routeBody = z.array(z.object({ lat: z.number(), lng: z.number() })).max(ROUTE_POINTS_MAX);

/** POST/PUT body: part 2 §3 "Write payload" (src/domain/closure.ts `ClosurePayload`). */
const closureBody = z.object({
  uuid: z.string().max(100).optional(),
  organization_id: z.uuid({ error: 'must be a uuid' }),
  closure_type: z.enum(['manual', 'automated', 'feed']),
  thing_id: z.string().max(100).nullish(),
  /** Always true on a write, whatever is sent. */
  is_dashboard_managed: z.boolean().optional(),
  is_active: z.boolean(),
  /** Read from the asset; a sent value is ignored. */
  is_in_service: z.boolean().optional(),
  description: z.string().max(10_000),
  alert_message: text(10_000),
  direction: text(10),
  street_start: text(500),
  street_end: text(500),
  user_route: routeBody.default([]),
  calculated_route: routeBody.nullish(),
  geocoded_route: routeBody.nullish(),
  impacted_lanes: z.array(z.number()).max(50).default([]),
  start_time: isoTime,
  end_time: isoTime,
  /** The WZDx id. */
  external_id: text(10_000),
  location_method: text(500),
  vehicle_impact: text(500),
  group_id: text(500),
  /** Optional: without it, publishing is on when any WZDx field is sent. */
  is_publish_on: z.boolean().optional(),
  isQuickUpdate: z.literal(false).optional(),
});
type ClosureBody = z.infer<typeof closureBody>;

/** part 2 §3 "Quick update payload: uuid, is_active, end_time (flag isQuickUpdate)". */
const quickUpdateBody = z.object({
  uuid: z.string().max(100).optional(),
  is_active: z.boolean(),
  end_time: isoTime,
  isQuickUpdate: z.literal(true),
});

const FORM_WIRE_NAMES = {
  closureType: 'closure_type',
  thingId: 'thing_id',
  description: 'description',
  alertMessage: 'alert_message',
  direction: 'direction',
  impactedLanes: 'impacted_lanes',
  pathStart: 'user_route',
  pathEnd: 'user_route',
  userRoute: 'user_route',
  routePath: 'calculated_route',
  isActive: 'is_active',
  isScheduled: 'start_time',
  startTime: 'start_time',
  endTime: 'end_time',
  isPublishOn: 'is_publish_on',
  wzdxId: 'external_id',
  locationMethod: 'location_method',
  vehicleImpact: 'vehicle_impact',
  groupId: 'group_id',
} as const;

const ms = (value: string | null | undefined): number | null => (value ? Date.parse(value) : null);
const blank = (value: string | null | undefined): boolean => !value || value.trim().length === 0;
const trimmedOrNull = (value: string | null | undefined): string | null => (blank(value) ? null : value!.trim());

/** The values a full write stores, after the domain's rules. */
function validClosure(body: ClosureBody, context: { now: number; isWzdxOrg: boolean; wasActive: boolean; lastStartTime: Date | null }) {
  if (body.closure_type === 'feed') throw unprocessable(`closure_type: ${NOT_MANAGED_MESSAGE}`, 'not_managed');
  const closureType = body.closure_type;
  const calculated = body.calculated_route && body.calculated_route.length > 0 ? body.calculated_route : body.user_route;
  const startTime = ms(body.start_time);
  const endTime = ms(body.end_time);
  const isPublishOn = body.is_publish_on ?? !(blank(body.external_id) && blank(body.location_method) && blank(body.vehicle_impact));
  // part 2 §4 form modes: active (immediate), scheduled (a start time, not active), inactive.
  const isScheduled = !body.is_active && startTime !== null;
  const form = parseForm(
    closureFormSchema({ now: context.now, isWzdxOrg: context.isWzdxOrg }),
    {
      closureType,
      thingId: body.thing_id,
      description: body.description,
      alertMessage: body.alert_message ?? undefined,
      direction: body.direction,
      impactedLanes: body.impacted_lanes,
      pathStart: body.user_route[0] ?? null,
      pathEnd: body.user_route.length >= USER_ROUTE_MIN_POINTS ? body.user_route[body.user_route.length - 1] : null,
      userRoute: body.user_route,
      routePath: calculated,
      isActive: body.is_active,
      isScheduled,
      startTime,
      endTime,
      isPublishOn,
      wzdxId: body.external_id ?? undefined,
      locationMethod: body.location_method ?? undefined,
      vehicleImpact: body.vehicle_impact ?? undefined,
      groupId: body.group_id ?? undefined,
    },
    FORM_WIRE_NAMES,
  );

  // Automated closures hide the status section (part 2 §4): their activity follows the asset.
  const times =
    closureType === 'automated'
      ? { isActive: context.wasActive, startTime: null, endTime: null }
      : closureTimesOnSave({ isActive: body.is_active, isScheduled, startTime, endTime }, context.now);
  const direction = form.direction ? form.direction : null;
  const userRoute = form.userRoute.map((p) => truncateLatLng(p));
  const calculatedRoute = form.routePath.map((p) => truncateLatLng(p));
  const externalId = isPublishOn ? trimmedOrNull(form.wzdxId) : null;
  const locationMethod = isPublishOn ? trimmedOrNull(form.locationMethod) : null;
  const vehicleImpact = isPublishOn ? trimmedOrNull(form.vehicleImpact) : null;
  const isWzdxCompliant =
    isPublishOn &&
    direction !== null &&
    calculatedRoute.length >= USER_ROUTE_MIN_POINTS &&
    (WZDX_LOCATION_METHODS as readonly (string | null)[]).includes(locationMethod) &&
    (WZDX_VEHICLE_IMPACTS as readonly (string | null)[]).includes(vehicleImpact);
  return {
    thingCandidate: closureType === 'automated' ? (form.thingId ?? null) : null,
    values: {
      closureType,
      isActive: times.isActive,
      description: form.description,
      alertMessage: trimmedOrNull(form.alertMessage),
      direction,
      streetStart: trimmedOrNull(body.street_start),
      streetEnd: trimmedOrNull(body.street_end),
      userRoute,
      calculatedRoute,
      geocodedRoute: body.geocoded_route ? body.geocoded_route.map((p) => truncateLatLng(p)) : null,
      impactedLanes: [...new Set(form.impactedLanes)].sort((a, b) => a - b),
      startTime: times.startTime === null ? null : new Date(times.startTime),
      endTime: times.endTime === null ? null : new Date(times.endTime),
      lastStartTime: times.isActive && !context.wasActive ? new Date(context.now) : context.lastStartTime,
      isWzdxCompliant,
      isPublishOn,
      isDashboardManaged: true,
      externalId,
      locationMethod,
      vehicleImpact,
      groupId: isPublishOn ? trimmedOrNull(form.groupId) : null,
    },
  };
}

/** part 2 §4 quick toggle: activate with an end time (≤ 3 months ahead), or deactivate (times cleared). */
function validQuickUpdate(body: z.infer<typeof quickUpdateBody>, now: number, existing: ClosureRow) {
  if (existing.closureType !== 'manual') throw unprocessable('isQuickUpdate: only manual closures have the quick toggle');
  if (!body.is_active) return { isActive: false, startTime: null, endTime: null, lastStartTime: existing.lastStartTime };
  const endTime = ms(body.end_time);
  if (endTime === null) throw unprocessable(`end_time: ${MESSAGES.endDateRequired}`);
  if (endTime > closureEndLimit(now)) throw unprocessable(`end_time: ${MESSAGES.endDateTooFar}`);
  if (endTime <= now) throw unprocessable(`end_time: ${MESSAGES.endDateInPast}`);
  return {
    isActive: true,
    startTime: existing.isActive && existing.startTime ? existing.startTime : new Date(now),
    endTime: new Date(endTime),
    lastStartTime: existing.isActive ? existing.lastStartTime : new Date(now),
  };
}

/** The automated closure's asset, which the caller must see; else 422 'Asset not found'. */
async function visibleThingId(db: Db, caller: Caller, thingId: string): Promise<string> {
  const id = z.uuid().safeParse(thingId);
  const visibleOrgs = caller.scope.visibleOrgIds === null ? null : [...caller.scope.visibleOrgIds];
  const [thing] = id.success
    ? await db
        .select({ id: things.id })
        .from(things)
        .where(and(eq(things.id, id.data), isNull(things.deletedAt), thingVisibleSql(caller.scope, visibleOrgs)))
        .limit(1)
    : [];
  if (!thing) throw unprocessable('thing_id: Asset not found');
  return thing.id;
}

/** Runs a write; a duplicate WZDx id becomes 422 '… violates unique …'. */
async function guardUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, EXTERNAL_ID_INDEX)) throw unprocessable(DUPLICATE_WZDX_ID_MESSAGE, 'duplicate_wzdx_id');
    throw error;
  }
}

function notManaged(closure: ClosureRow): boolean {
  return closure.closureType === 'feed' || !closure.isDashboardManaged;
}

// ── routes ───────────────────────────────────────────────────────────────────

/** part 2 §7: GET/POST /organization/closure, PUT/DELETE /organization/closure/{id}. */
export function closureRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;

  async function answer(id: string): Promise<ClosureWire> {
    const [row] = await selectClosures(db, eq(closures.id, id));
    if (!row) throw notFound('Closure');
    return closureToWire(row);
  }

  app.get('/organization/closure', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, CLOSURE_VIEW);
    const orgIds = await listOrgIds(db, caller, request.query);
    const since = sinceParam(request.query);
    const serverTimestamp = deps.now();
    const meta: IncrementalMeta = { server_timestamp: serverTimestamp.toISOString(), deleted_ids: [] };
    if (orgIds !== null && orgIds.length === 0) return { data: [], meta };
    const scoped = orgIds === null ? undefined : inArray(closures.organizationId, orgIds);
    const live = and(scoped, isNull(closures.deletedAt), since ? gte(closures.updatedAt, since) : undefined);
    const data = (await selectClosures(db, live)).map(closureToWire);
    if (since) {
      const deleted = await db
        .select({ id: closures.id })
        .from(closures)
        .where(and(scoped, isNotNull(closures.deletedAt), gte(closures.deletedAt, since)));
      meta.deleted_ids = deleted.map((row) => row.id);
    }
    return { data, meta };
  });

  /** Closure detail (a path the spec does not show). */
  app.get('/organization/closure/:id', async (request) => {
    const caller = await requireCaller(db, request);
    requireAny(caller, CLOSURE_VIEW);
    return closureToWire(await visibleClosure(db, caller, request.params));
  });

  app.post('/organization/closure', async (request, reply) => {
    const caller = await requireCaller(db, request);
    if (!canAddClosure(caller.permissions, closureContext(request))) throw forbidden();
    const body = parse(closureBody, request.body);
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
    const thingId = thingCandidate === null ? null : await visibleThingId(db, caller, thingCandidate);
    const created = await guardUnique(() =>
      db
        .insert(closures)
        .values({ ...values, organizationId: org.id, thingId, createdAt: now, updatedAt: now })
        .returning({ id: closures.id }),
    );
    reply.code(201);
    return answer(created[0]!.id);
  });

  app.put('/organization/closure/:id', async (request) => {
    const caller = await requireCaller(db, request);
    const context = closureContext(request);
    const updatePermissions: readonly Permission[] = context.mobile
      ? ['mobile:closure:update', 'mobile:closure:manage']
      : ['closure:update', 'closure:manage'];
    requireAny(caller, updatePermissions);
    const existing = await visibleClosure(db, caller, request.params);
    if (orgAccess(caller.scope, existing.closure.organizationId) !== 'write') throw forbidden();
    if (notManaged(existing.closure)) throw unprocessable(NOT_MANAGED_MESSAGE, 'not_managed');
    if (!canEditClosure(caller.permissions, existing.closure, context)) throw forbidden();
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const now = deps.now();
    const id = existing.closure.id;
    const where = and(eq(closures.id, id), isNull(closures.deletedAt));

    if (raw['isQuickUpdate'] === true) {
      const body = parse(quickUpdateBody, request.body);
      if (body.uuid !== undefined && body.uuid !== id) throw unprocessable('uuid: does not match the closure of the path');
      const values = validQuickUpdate(body, now.getTime(), existing.closure);
      const [updated] = await db.update(closures).set({ ...values, updatedAt: now }).where(where).returning({ id: closures.id });
      if (!updated) throw notFound('Closure');
      return answer(id);
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
    const thingId = thingCandidate === null ? null : await visibleThingId(db, caller, thingCandidate);
    const updated = await guardUnique(() =>
      db
        .update(closures)
        .set({ ...values, thingId, updatedAt: now })
        .where(where)
        .returning({ id: closures.id }),
    );
    if (!updated[0]) throw notFound('Closure');
    return answer(id);
  });

  /** part 2 §7: "404 counts as deleted"; answers `{ id }`. Soft: the incremental list reports it. */
  app.delete('/organization/closure/:id', async (request) => {
    const caller = await requireCaller(db, request);
    const context = closureContext(request);
    const deletePermissions: readonly Permission[] = context.mobile
      ? ['closure:delete', 'closure:manage', 'mobile:closure:manage']
      : ['closure:delete', 'closure:manage'];
    requireAny(caller, deletePermissions);
    const existing = await visibleClosure(db, caller, request.params);
    if (orgAccess(caller.scope, existing.closure.organizationId) !== 'write') throw forbidden();
    if (notManaged(existing.closure)) throw unprocessable(NOT_MANAGED_MESSAGE, 'not_managed');
    if (!canDeleteClosure(caller.permissions, existing.closure, context)) throw forbidden();
    const now = deps.now();
    const [deleted] = await db
      .update(closures)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(closures.id, existing.closure.id), isNull(closures.deletedAt)))
      .returning({ id: closures.id });
    if (!deleted) throw notFound('Closure');
    return { id: deleted.id };
  });
}

/** For the WZDx feed: the publishing closures of one organization (dashboard-managed, not deleted). */
export function publishingClosuresWhere(organizationId: string): SQL | undefined {
  return and(
    eq(closures.organizationId, organizationId),
    isNull(closures.deletedAt),
    eq(closures.isPublishOn, true),
    sql`${closures.closureType} <> 'feed'`,
  );
}
