/**
 * Routes and motion of the fleet simulator: a route is a polyline of legs (each with
 * its street and speed limit) built from the road network, and `advance` drives a vehicle along
 * it second by second with believable speeds — a share of each leg's limit, accelerating gently,
 * braking ahead of turns (slower the sharper the turn) and to a stop at the end.
 */
import { distanceM, type LatLng } from '../../src/domain/geometry';
import { bearing, edgeBetween, interpolate, mphToMetresPerSecond, nodePosition, otherEnd, type RoadNetwork } from './geography';
import type { Random } from './random';
import type { RoadIndex } from './road-index';

/** Gentle acceleration and the braking the look-ahead plans with (m/s²). */
export const ACCELERATION = 2;
export const PLANNED_BRAKING = 2.5;
/** The hardest braking allowed when a constraint comes up suddenly (m/s²). */
export const MAX_BRAKING = 4.5;
/** Speed through a right-angle turn and a U-turn (m/s): about 10 mph and 6 mph. */
export const TURN_MPS = 4.5;
export const U_TURN_MPS = 2.7;
/** Driving off the road (a station's driveway, a yard): about 10 mph. */
export const OFF_ROAD_MPS = 4.5;
/** A position farther than this from every road is off the road. */
export const ON_ROAD_M = 15;
const LOOK_AHEAD_M = 400;

export interface Leg {
  from: LatLng;
  to: LatLng;
  lengthM: number;
  course: number;
  limitMps: number;
  street: string;
}

export interface Route {
  /**
   * Where the vehicle was when the route was planned, and its heading: where it stays when the
   * route has no leg (it stood at its goal already), never at 0°, 0°.
   */
  start: { position: LatLng; course: number };
  legs: Leg[];
  /** The speed allowed at the end of each leg: the turn into the next one, or 0 at the end. */
  endMps: number[];
  /** The road node the route ends at (or stops just short of); null when it ends off the road. */
  endNode: number | null;
  leg: number;
  /** Metres driven into the current leg. */
  along: number;
}

export interface Motion {
  position: LatLng;
  course: number;
  speedMps: number;
  arrived: boolean;
}

function makeLeg(from: LatLng, to: LatLng, limitMps: number, street: string, course?: number): Leg {
  return { from, to, lengthM: distanceM(from, to), course: course ?? bearing(from, to), limitMps, street };
}

/** The turn between two headings, 0..180 degrees. */
export function turnAngle(a: number, b: number): number {
  const d = Math.abs(((b - a) % 360) + 360) % 360;
  return d > 180 ? 360 - d : d;
}

function cornerSpeed(a: Leg, b: Leg): number {
  const lower = Math.min(a.limitMps, b.limitMps);
  const angle = turnAngle(a.course, b.course);
  if (angle < 15) return lower;
  if (angle > 150) return Math.min(lower, U_TURN_MPS);
  if (angle >= 75) return Math.min(lower, TURN_MPS);
  // 15..75 degrees: from the lower limit down to a right-angle turn's speed.
  return Math.min(lower, lower + ((TURN_MPS - lower) * (angle - 15)) / 60);
}

/**
 * Fastest-path trees towards each node, built on first use and kept (the network is small: a
 * tree is two arrays of its node count). A route to a node then costs only its length, which
 * keeps routing cheap with tens of thousands of vehicles. Costs are seconds at the limits, as in
 * `shortestPath`; edges are two-way, so a tree grown from the target serves every start.
 */
export class RouteTrees {
  private readonly trees = new Map<number, { seconds: Float64Array; next: Int32Array }>();

  constructor(private readonly network: RoadNetwork) {}

  tree(target: number): { seconds: Float64Array; next: Int32Array } {
    const cached = this.trees.get(target);
    if (cached) return cached;
    const { nodes, edges, adjacency } = this.network;
    const seconds = new Float64Array(nodes.length).fill(Infinity);
    const next = new Int32Array(nodes.length).fill(-1);
    const done = new Uint8Array(nodes.length);
    seconds[target] = 0;
    // A plain O(n²) Dijkstra: with a few hundred nodes it beats a heap's bookkeeping.
    for (;;) {
      let u = -1;
      let best = Infinity;
      for (let i = 0; i < nodes.length; i++) {
        if (!done[i] && (seconds[i] as number) < best) {
          best = seconds[i] as number;
          u = i;
        }
      }
      if (u < 0) break;
      done[u] = 1;
      for (const edgeId of adjacency[u] ?? []) {
        const edge = edges[edgeId]!;
        const v = otherEnd(edge, u);
        const cost = best + edge.lengthM / mphToMetresPerSecond(edge.speedLimitMph);
        if (cost < (seconds[v] as number)) {
          seconds[v] = cost;
          next[v] = u;
        }
      }
    }
    const tree = { seconds, next };
    this.trees.set(target, tree);
    return tree;
  }

  /** The fastest node path from `from` to `to` (both included); [] when unreachable. */
  path(from: number, to: number): number[] {
    const { next } = this.tree(to);
    if (from !== to && next[from] === -1) return [];
    const path = [from];
    for (let at = from; at !== to;) {
      at = next[at] as number;
      path.push(at);
    }
    return path;
  }

  seconds(from: number, to: number): number {
    return this.tree(to).seconds[from] ?? Infinity;
  }
}

export interface RouteRequest {
  /** Where the vehicle is now and where it heads. */
  from: LatLng;
  course: number | null;
  /** The node to reach (by the fastest path), or a node path to follow from the road (patrols). */
  to: number | { path: readonly number[] };
  /** Stop this far short of the last node, on the last road leg (vehicles at one scene line up). */
  stopShortM?: number;
  /** Leave the road at the last node and drive to this spot (a station bay, a yard). */
  finalSpot?: LatLng;
}

/**
 * A route from where a vehicle is to a node (by the fastest path) or along a given node path.
 * A vehicle on a road joins it where it is and drives to whichever end of its block gets it there
 * sooner (turning round costs 30 s); one off the road first drives to the nearer end of the
 * nearest block.
 */
export function planRoute(network: RoadNetwork, index: RoadIndex, trees: RouteTrees, request: RouteRequest): Route {
  const hit = index.nearestEdge(request.from);
  const edge = hit.edge;
  const legs: Leg[] = [];
  const follow = (start: number): number[] =>
    typeof request.to === 'number' ? trees.path(start, request.to) : [start, ...request.to.path.filter((n, i) => i > 0 || n !== start)];
  let nodes: number[];
  if (hit.distanceM > ON_ROAD_M) {
    const start = hit.t < 0.5 ? edge.from : edge.to;
    legs.push(makeLeg(request.from, nodePosition(network, start), OFF_ROAD_MPS, edge.street));
    nodes = follow(start);
  } else {
    const limit = mphToMetresPerSecond(edge.speedLimitMph);
    const ends = [
      { node: edge.from, metres: hit.t * edge.lengthM, course: (edge.course + 180) % 360 },
      { node: edge.to, metres: (1 - hit.t) * edge.lengthM, course: edge.course },
    ] as const;
    let pick: 0 | 1;
    if (typeof request.to !== 'number') {
      pick = request.to.path[0] === edge.from ? 0 : request.to.path[0] === edge.to ? 1 : hit.t < 0.5 ? 0 : 1;
    } else {
      const target = request.to;
      const cost = (end: (typeof ends)[number]): number =>
        end.metres / limit +
        trees.seconds(end.node, target) +
        (request.course !== null && turnAngle(request.course, end.course) > 90 ? 30 : 0);
      pick = cost(ends[0]) <= cost(ends[1]) ? 0 : 1;
    }
    const end = ends[pick];
    nodes = follow(end.node);
    legs.push(makeLeg(request.from, nodePosition(network, end.node), limit, edge.street, end.course));
  }
  for (let i = 1; i < nodes.length; i++) {
    const a = nodes[i - 1] as number;
    const b = nodes[i] as number;
    const road = edgeBetween(network, a, b);
    if (!road) break;
    legs.push(
      makeLeg(
        nodePosition(network, a),
        nodePosition(network, b),
        mphToMetresPerSecond(road.speedLimitMph),
        road.street,
        road.from === a ? road.course : (road.course + 180) % 360,
      ),
    );
  }
  const endNode = nodes.length > 0 ? (nodes[nodes.length - 1] as number) : null;
  if (request.finalSpot) {
    const last = legs[legs.length - 1]!;
    legs.push(makeLeg(last.to, request.finalSpot, OFF_ROAD_MPS, last.street));
  } else if (request.stopShortM && legs.length > 0) {
    const last = legs[legs.length - 1]!;
    if (last.lengthM > request.stopShortM + 5) {
      const to = interpolate(last.from, last.to, (last.lengthM - request.stopShortM) / last.lengthM);
      legs[legs.length - 1] = makeLeg(last.from, to, last.limitMps, last.street, last.course);
    }
  }
  // Zero-length legs (already at a node) only confuse the headings.
  const kept = legs.filter((leg) => leg.lengthM > 0.5);
  const endMps = kept.map((leg, i) => {
    const following = kept[i + 1];
    return following ? cornerSpeed(leg, following) : 0;
  });
  return {
    start: { position: request.from, course: request.course ?? 0 },
    legs: kept,
    endMps,
    endNode: request.finalSpot ? null : endNode,
    leg: 0,
    along: 0,
  };
}

/**
 * A patrol: a random walk of `steps` blocks from a node, going straight on more often than
 * turning and never turning back unless at a dead end.
 */
export function randomWalk(network: RoadNetwork, random: Random, start: number, steps: number, previous: number | null = null): number[] {
  const path = [start];
  let at = start;
  let prev = previous;
  let street: string | null = null;
  for (let i = 0; i < steps; i++) {
    const options = (network.adjacency[at] ?? []).map((id) => network.edges[id]!).filter((edge) => otherEnd(edge, at) !== prev);
    const choices = options.length > 0 ? options : (network.adjacency[at] ?? []).map((id) => network.edges[id]!);
    if (choices.length === 0) break;
    const straight = choices.find((edge) => edge.street === street);
    const edge = straight && random.chance(0.55) ? straight : random.pick(choices);
    prev = at;
    at = otherEnd(edge, at);
    street = edge.street;
    path.push(at);
  }
  return path;
}

/**
 * Drives `seconds` along a route at `factor` × the limits, starting at `speedMps`: accelerates
 * gently, brakes ahead of turns and of the end (looking up to 400 m ahead), and stops at the end.
 */
export function advance(route: Route, speedMps: number, seconds: number, factor: number): Motion {
  let speed = speedMps;
  let left = seconds;
  while (left > 1e-9) {
    const dt = Math.min(1, left);
    left -= dt;
    const leg = route.legs[route.leg];
    if (!leg) break;
    // The tightest constraint within the look-ahead.
    let allowed = leg.limitMps * factor;
    let ahead = leg.lengthM - route.along;
    for (let i = route.leg; i < route.legs.length; i++) {
      if (i > route.leg) ahead += route.legs[i]!.lengthM;
      const end = route.endMps[i] ?? 0;
      // The speed that, after this step's move, still brakes to `end` by the constraint
      // (v² = end² + 2·b·(ahead − v·dt)), and never less than `end` itself.
      const b = PLANNED_BRAKING * dt;
      allowed = Math.min(allowed, Math.max(end, -b + Math.sqrt(b * b + end * end + 2 * PLANNED_BRAKING * Math.max(0, ahead))));
      if (ahead > LOOK_AHEAD_M) break;
    }
    speed = speed < allowed ? Math.min(allowed, speed + ACCELERATION * dt) : Math.max(allowed, speed - MAX_BRAKING * dt);
    let move = speed * dt;
    while (move > 0) {
      const current = route.legs[route.leg];
      if (!current) break;
      const rest = current.lengthM - route.along;
      if (move < rest) {
        route.along += move;
        move = 0;
      } else {
        move -= rest;
        route.leg += 1;
        route.along = 0;
      }
    }
    if (route.leg >= route.legs.length) break;
  }
  return { ...positionOf(route), speedMps: route.leg >= route.legs.length ? 0 : speed, arrived: route.leg >= route.legs.length };
}

/** Where a vehicle on a route is, and its heading. */
export function positionOf(route: Route): { position: LatLng; course: number } {
  const leg = route.legs[route.leg];
  if (!leg) {
    const last = route.legs[route.legs.length - 1];
    return last ? { position: last.to, course: last.course } : route.start;
  }
  return { position: interpolate(leg.from, leg.to, leg.lengthM > 0 ? route.along / leg.lengthM : 1), course: leg.course };
}

/** The length of a route still to drive. */
export function remainingM(route: Route): number {
  let metres = 0;
  for (let i = route.leg; i < route.legs.length; i++) metres += route.legs[i]!.lengthM;
  return metres - route.along;
}
