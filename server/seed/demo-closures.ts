/**
 * Closures of all three types: TxDOT's manual ones (some published to its WZDx feed), automated
 * ones each run by an arrow board standing at its start, those that came in from the feed, and
 * Public Works' own.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from '../../src/domain/constants';
import type { LatLng } from '../../src/domain/geometry';
import type { closures } from '../db/schema';
import { densify, RING_HIGHWAY_NAME, streetByName, streetSection, type RoadNetwork } from '../region/geography';
import type { Random } from '../region/random';
import { at, truncateCoordinate, type DemoOrgKey, type Insert, type OrgIds, type PlanContext } from './demo-context';
import type { PlannedThing } from './demo-fleet';

type ClosureRow = Insert<typeof closures>;
type ClosureBase = ReturnType<typeof closureMaker>;

/** Closures of all three types; the arrow boards of the automated ones move to where those start. */
export function planClosures(
  ctx: PlanContext,
  closureRandom: Random,
  orgIds: OrgIds,
  plannedThings: readonly PlannedThing[],
): ClosureRow[] {
  const txdotBoards = plannedThings.filter((t) => t.org === 'txdot' && t.type === 'arrow_board');
  const closureBase = closureMaker(ctx, closureRandom, orgIds);
  return [
    ...txdotManualClosures(ctx, closureBase),
    ...automatedClosures(ctx, closureRandom, closureBase, txdotBoards),
    ...feedClosures(ctx, closureBase),
    ...publicWorksClosures(ctx, closureBase),
  ];
}

/** A closure row along a route, by organization. */
function closureMaker(ctx: PlanContext, closureRandom: Random, orgIds: OrgIds) {
  const { net, now, ago } = ctx;
  return (
    org: DemoOrgKey,
    values: Partial<Insert<typeof closures>> & Pick<Insert<typeof closures>, 'closureType' | 'description'>,
    route: RouteSpec,
  ): Insert<typeof closures> => {
    const r = closureRoute(net, route);
    return {
      id: closureRandom.uuid(),
      organizationId: orgIds[org],
      streetStart: r.street,
      streetEnd: r.street,
      userRoute: r.userRoute,
      geocodedRoute: r.geocodedRoute,
      calculatedRoute: r.geocodedRoute,
      createdAt: ago(closureRandom.range(1, 20) * DAY_MS),
      updatedAt: now,
      ...values,
    };
  };
}

const published = (externalId: string, vehicleImpact: string, locationMethod: string, groupId: string | null = null) => ({
  externalId,
  isPublishOn: true,
  isWzdxCompliant: true,
  vehicleImpact,
  locationMethod,
  groupId,
});

function txdotManualClosures(ctx: PlanContext, closureBase: ClosureBase): ClosureRow[] {
  const { nowMs, ago } = ctx;
  return [
    closureBase(
      'txdot',
      {
        closureType: 'manual',
        description: 'Lamar Blvd utility work',
        alertMessage: 'Right lane closed ahead',
        direction: 'N',
        impactedLanes: [2],
        isActive: true,
        startTime: ago(3 * HOUR_MS),
        lastStartTime: ago(3 * HOUR_MS),
        endTime: at(nowMs + 4 * DAY_MS),
        ...published('TXDOT-AUS-2026-0001', 'some-lanes-closed-merge-left', 'channel-device-method', 'LAMAR-UTILITY'),
      },
      { street: 'Lamar Blvd', start: 14, blocks: 1 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'manual',
        description: 'Congress Ave night resurfacing',
        alertMessage: 'Lane shift ahead',
        direction: 'S',
        impactedLanes: [1, 2],
        isActive: false,
        startTime: at(startOfNextHour(nowMs + DAY_MS)),
        endTime: at(startOfNextHour(nowMs + 3 * DAY_MS)),
        ...published('TXDOT-AUS-2026-0002', 'all-lanes-open-shift-left', 'sign-method', 'CONGRESS-RESURFACING'),
      },
      { street: 'Congress Ave', start: 11, blocks: 2 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'manual',
        description: 'Airport Blvd shoulder repair',
        direction: 'N',
        impactedLanes: [3],
        isActive: false,
      },
      { street: 'Airport Blvd', start: 12, blocks: 1 },
    ),
  ];
}

/** Each run by one of TxDOT's arrow boards, which stands at the start of its closure. */
function automatedClosures(
  ctx: PlanContext,
  closureRandom: Random,
  closureBase: ClosureBase,
  txdotBoards: readonly PlannedThing[],
): ClosureRow[] {
  const { ago } = ctx;
  const closureRows: Insert<typeof closures>[] = [];
  const automatedSpecs: { description: string; alert: string; route: RouteSpec; direction: 'N' | 'E' | 'S' | 'W'; active: boolean }[] = [
    {
      description: 'Mobile work zone IH-35 Frontage Rd',
      alert: 'Slow moving work zone',
      route: { street: 'IH-35 Frontage Rd', start: 8, blocks: 1 },
      direction: 'S',
      active: true,
    },
    {
      description: 'Arrow board staging Riverside Dr',
      alert: 'Lane closed ahead',
      route: { street: 'Riverside Dr', start: 12, blocks: 1 },
      direction: 'E',
      active: false,
    },
    {
      description: 'Ben White Blvd shoulder closure',
      alert: 'Shoulder closed',
      route: { street: 'Ben White Blvd', start: 9, blocks: 1 },
      direction: 'W',
      active: false,
    },
  ];
  automatedSpecs.forEach((spec, i) => {
    const board = txdotBoards[i];
    if (!board) return;
    const closure = closureBase(
      'txdot',
      {
        closureType: 'automated',
        description: spec.description,
        alertMessage: spec.alert,
        direction: spec.direction,
        impactedLanes: [1],
        thingId: board.row.id,
        isActive: spec.active,
        lastStartTime: spec.active ? ago(40 * MINUTE_MS) : ago(closureRandom.range(1, 6) * DAY_MS),
        ...(spec.active ? published('TXDOT-AUS-2026-0003', 'some-lanes-closed-merge-right', 'channel-device-method') : {}),
      },
      spec.route,
    );
    closureRows.push(closure);
    // The board stands at the start of its closure.
    const start = (closure.userRoute as LatLng[])[0] as LatLng;
    Object.assign(board.row, { lat: start.lat, lng: start.lng, isAllowedForClosures: true });
    if (spec.active) {
      board.state = 'closure';
      Object.assign(board.row, {
        inService: true,
        enroute: false,
        lightsOn: true,
        speed: 0,
        street: spec.route.street,
        stationId: null,
        stillSince: ago(40 * MINUTE_MS),
        heartbeatAt: ago(closureRandom.range(1, 25) * SECOND_MS),
      });
    } else if (board.row.street) {
      board.row.street = spec.route.street;
    }
  });
  return closureRows;
}

/** Closures TxDOT's WZDx feed brought in; the dashboard does not manage them. */
function feedClosures(ctx: PlanContext, closureBase: ClosureBase): ClosureRow[] {
  const { nowMs, ago } = ctx;
  return [
    closureBase(
      'txdot',
      {
        closureType: 'feed',
        description: 'IH-35 Capital Express Central lane closures',
        direction: 'N',
        impactedLanes: [1, 2],
        isActive: true,
        isDashboardManaged: false,
        isWzdxCompliant: true,
        externalId: 'TXDOT-WZDX-48721',
        startTime: ago(2 * DAY_MS),
        lastStartTime: ago(2 * DAY_MS),
        endTime: at(nowMs + 30 * DAY_MS),
        locationMethod: 'channel-device-method',
        vehicleImpact: 'some-lanes-closed',
        groupId: 'CAPEX-CENTRAL',
      },
      { street: 'IH-35 Frontage Rd', start: 11, blocks: 2 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'feed',
        description: 'Loop 360 bridge inspection',
        direction: 'N',
        impactedLanes: [1],
        isActive: false,
        isDashboardManaged: false,
        isWzdxCompliant: true,
        externalId: 'TXDOT-WZDX-48755',
        startTime: at(startOfNextHour(nowMs + 2 * DAY_MS)),
        endTime: at(startOfNextHour(nowMs + 2 * DAY_MS) + 6 * HOUR_MS),
        locationMethod: 'sign-method',
        vehicleImpact: 'alternating-one-way',
      },
      { street: RING_HIGHWAY_NAME, start: 5, blocks: 2 },
    ),
    closureBase(
      'txdot',
      {
        closureType: 'feed',
        description: 'Ben White Blvd widening',
        direction: 'E',
        impactedLanes: [3],
        isActive: true,
        isDashboardManaged: false,
        isWzdxCompliant: true,
        externalId: 'TXDOT-WZDX-48790',
        startTime: ago(12 * DAY_MS),
        lastStartTime: ago(12 * DAY_MS),
        endTime: at(nowMs + 60 * DAY_MS),
        locationMethod: 'junction-method',
        vehicleImpact: 'all-lanes-open-shift-left',
      },
      { street: 'Ben White Blvd', start: 4, blocks: 3 },
    ),
  ];
}

function publicWorksClosures(ctx: PlanContext, closureBase: ClosureBase): ClosureRow[] {
  const { nowMs, ago } = ctx;
  return [
    closureBase(
      'publicWorks',
      {
        closureType: 'manual',
        description: '7th St water main repair',
        alertMessage: 'Road work ahead',
        direction: 'W',
        impactedLanes: [2],
        isActive: true,
        startTime: ago(DAY_MS),
        lastStartTime: ago(DAY_MS),
        endTime: at(nowMs + 2 * DAY_MS),
      },
      { street: '7th St', start: 12, blocks: 1 },
    ),
    closureBase(
      'publicWorks',
      {
        closureType: 'manual',
        description: 'Riverside Dr marathon route',
        alertMessage: 'Road closed for event',
        direction: 'E',
        impactedLanes: [1, 2],
        isActive: false,
        startTime: at(startOfNextHour(nowMs + 5 * DAY_MS)),
        endTime: at(startOfNextHour(nowMs + 5 * DAY_MS) + 8 * HOUR_MS),
      },
      { street: 'Riverside Dr', start: 5, blocks: 3 },
    ),
  ];
}

function startOfNextHour(ms: number): number {
  return Math.ceil(ms / HOUR_MS) * HOUR_MS;
}

interface RouteSpec {
  street: string;
  /** Index of the first intersection along the street. */
  start: number;
  /** Blocks covered. */
  blocks: number;
}

/**
 * A closure's routes along a street: the user's route is the intersections (and block
 * midpoints) as drawn; the geocoded route follows the road every 40 m.
 */
function closureRoute(net: RoadNetwork, spec: RouteSpec): { street: string; userRoute: LatLng[]; geocodedRoute: LatLng[] } {
  const street = net.streets.find((s) => s.name === spec.street && s.kind !== 'ramp') ?? streetByName(net, spec.street);
  const section = streetSection(street, spec.start, spec.blocks + 1).path;
  const trunc = (p: LatLng): LatLng => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) });
  const user: LatLng[] = [];
  section.forEach((p, i) => {
    const prev = section[i - 1];
    if (prev) user.push({ lat: (prev.lat + p.lat) / 2, lng: (prev.lng + p.lng) / 2 });
    user.push(p);
  });
  return { street: street.name, userRoute: user.map(trunc), geocodedRoute: densify(section, 40).map(trunc) };
}
