import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { closureWireSchema } from '../../../src/domain/closure';
import { closureEndLimit, closureTimesOnSave } from '../../../src/domain/closure-form';
import { USER_ROUTE_MIN_POINTS } from '../../../src/domain/constants';
import { truncateLatLng } from '../../../src/domain/geometry';
import type { ClosureContext } from '../../../src/domain/permissions';
import { incrementalAnswerSchema } from '../../../src/domain/incremental';
import { inputDateTime } from '../../../src/domain/validation/boundary';
import { closureFormSchema } from '../../../src/domain/validation/closure';
import { MESSAGES } from '../../../src/domain/validation/messages';
import { WZDX_LOCATION_METHODS, WZDX_VEHICLE_IMPACTS } from '../../../src/domain/wzdx';
import type { closures } from '../../db/schema';
import { parseForm, unprocessable } from '../../core/errors';

/** The closure calls' bodies and save rules (part 2 §3 Closure "Write payload", §4 form modes, §5 Closure, §8 Closure save). */

type ClosureRow = typeof closures.$inferSelect;

// The header the dashboard sends on a phone (src/app/api-client.ts): one definition for both.
import { MOBILE_CLIENT_HEADER, MOBILE_CLIENT_VALUE } from '../../../src/domain/constants';
export { MOBILE_CLIENT_HEADER, MOBILE_CLIENT_VALUE };

/** §8 Closure save: contains 'not managed' → 'Closure not managed by Dashboard'. */
export const NOT_MANAGED_MESSAGE = 'Closure not managed by Dashboard';
/** §8 Closure save: contains 'violates unique' → 'ID is already in use. Please select a new ID'. */
export const DUPLICATE_WZDX_ID_MESSAGE = 'external_id: violates unique index, this WZDx id is already in use';
/** A drawn route has a few points; the directions service's route a few thousand at most. */
const ROUTE_POINTS_MAX = 10_000;

export function closureContext(request: FastifyRequest): ClosureContext {
  const header = request.headers[MOBILE_CLIENT_HEADER];
  return { mobile: typeof header === 'string' && header.trim().toLowerCase() === MOBILE_CLIENT_VALUE };
}

/** The header closureContext reads, for the documented-only headers of the closure writes. */
export const mobileClientHeader = {
  [MOBILE_CLIENT_HEADER]: z
    .string()
    .optional()
    .meta({
      description: `'${MOBILE_CLIENT_VALUE}' (any case): the call is checked against the mobile closure permissions, as the dashboard on a phone sends it; absent or another value: the dashboard's.`,
    }),
};

// ── the answers ───────────────────────────────────────────────────────────────

/** A closure as every closure call answers it (part 2 §3 Closure (server)): the dashboard's own wire schema. */
export const closureAnswer = closureWireSchema;
/** GET /organization/closure (part 2 §7 incremental lists): `{ data, meta: { server_timestamp, deleted_ids } }`. */
export const closureListAnswer = incrementalAnswerSchema(closureWireSchema);
/** DELETE (part 2 §7): the deleted closure's id. */

const text = (max: number) => z.string().max(max).nullish();
const isoTime = inputDateTime('must be an ISO 8601 time').nullish();
const routeBody = z.array(z.object({ lat: z.number(), lng: z.number() })).max(ROUTE_POINTS_MAX);

/** POST/PUT body: part 2 §3 "Write payload" (src/domain/closure.ts `ClosurePayload`). */
export const closureBody = z.object({
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
export type ClosureBody = z.infer<typeof closureBody>;

/** part 2 §3 "Quick update payload: uuid, is_active, end_time (flag isQuickUpdate)". */
export const quickUpdateBody = z.object({
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
export function validClosure(
  body: ClosureBody,
  context: { now: number; isWzdxOrg: boolean; wasActive: boolean; lastStartTime: Date | null },
) {
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
export function validQuickUpdate(body: z.infer<typeof quickUpdateBody>, now: number, existing: ClosureRow) {
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
