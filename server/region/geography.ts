/**
 * Where the demo fleet lives: a real city's coordinates (Austin, Texas) and a generated road
 * network around them — a grid of named streets, some of them arterials, and a ring highway
 * joined to the arterials by ramps. The demo seed places assets, incidents, stations, closures
 * and past trips on it, and the fleet simulator drives on it.
 *
 * The network is a plain graph: nodes (intersections) and undirected edges (one block of one
 * street each, with the street's name, kind and speed limit), plus each street as one polyline.
 * Nothing here is random; callers bring their own seeded `Random`.
 *
 * Units: metres, degrees, miles per hour (US speed limits); course in degrees clockwise from north.
 */
import { METRES_PER_MILE_EXACT } from '../../src/domain/constants';
import { distanceM, type LatLng } from '../../src/domain/geometry';
import type { Random } from './random';

// ── the city ─────────────────────────────────────────────────────────────────

export const CITY = {
  name: 'Austin',
  state: 'TX',
  countryCode: 'US',
  timezone: 'America/Chicago',
  /** The Texas State Capitol area, downtown Austin. */
  center: { lat: 30.2672, lng: -97.7431 },
  /** ZIP codes of the area, for addresses. */
  postalCodes: [
    '78701',
    '78702',
    '78703',
    '78704',
    '78705',
    '78721',
    '78722',
    '78723',
    '78741',
    '78745',
    '78751',
    '78752',
    '78756',
    '78757',
  ],
} as const;

export type RoadKind = 'local' | 'arterial' | 'highway' | 'ramp';

/** Posted limits by kind (mph). */
export const SPEED_LIMITS_MPH: Readonly<Record<RoadKind, number>> = {
  local: 30,
  arterial: 45,
  highway: 65,
  ramp: 45,
};

export const mphToMetresPerSecond = (mph: number): number => (mph * METRES_PER_MILE_EXACT) / 3600;
export const metresPerSecondToMph = (mps: number): number => (mps * 3600) / METRES_PER_MILE_EXACT;

/**
 * North–south streets, west to east, and east–west streets, south to north: names of Austin
 * streets laid on an idealized grid (their order is roughly right, their geometry is not).
 * Every fourth line from the second is an arterial.
 */
export const NORTH_SOUTH_STREETS = [
  'Exposition Blvd',
  'Pecos St',
  'Mopac Blvd',
  'Pressler St',
  'West Ave',
  'Rio Grande St',
  'Lamar Blvd',
  'Guadalupe St',
  'Lavaca St',
  'Colorado St',
  'Congress Ave',
  'Brazos St',
  'San Jacinto Blvd',
  'Trinity St',
  'IH-35 Frontage Rd',
  'Chicon St',
  'Chestnut Ave',
  'Pleasant Valley Rd',
  'Airport Blvd',
  'Springdale Rd',
  'Ed Bluestein Blvd',
] as const;
export const EAST_WEST_STREETS = [
  'Slaughter Ln',
  'William Cannon Dr',
  'Stassney Ln',
  'Ben White Blvd',
  'St Elmo Rd',
  'Oltorf St',
  'Riverside Dr',
  'Cesar Chavez St',
  '4th St',
  '7th St',
  'Martin Luther King Jr Blvd',
  '15th St',
  '24th St',
  '29th St',
  '38th St',
  '45th St',
  'Koenig Ln',
  'Justin Ln',
  'Anderson Ln',
  'Rundberg Ln',
  'Braker Ln',
] as const;
export const RING_HIGHWAY_NAME = 'Loop 360';

export const isArterialLine = (index: number): boolean => index % 4 === 2;

export interface RoadNode {
  id: number;
  lat: number;
  lng: number;
}

export interface RoadEdge {
  id: number;
  /** Node ids. Edges are two-way; `course` is the heading from `from` to `to`. */
  from: number;
  to: number;
  street: string;
  kind: RoadKind;
  speedLimitMph: number;
  lengthM: number;
  course: number;
}

export interface Street {
  name: string;
  kind: RoadKind;
  speedLimitMph: number;
  /** The street's node ids in order; a closed street (the ring) repeats its first node at the end. */
  nodeIds: number[];
  path: LatLng[];
}

export interface RoadNetwork {
  center: LatLng;
  nodes: RoadNode[];
  edges: RoadEdge[];
  streets: Street[];
  /** For each node id, the ids of the edges that touch it. */
  adjacency: number[][];
  /** The edges of the street grid (no ring highway, no ramps). */
  gridEdges: RoadEdge[];
  /** Grid node id at (row = east–west street index, col = north–south street index). */
  gridNode(row: number, col: number): number;
  gridSize: number;
}

export interface RoadNetworkOptions {
  center?: LatLng;
  /** Distance between neighbouring parallel streets. */
  blockM?: number;
  /** Radius of the ring highway. */
  ringRadiusM?: number;
  /** Points on the ring. */
  ringNodes?: number;
}

// ── small geometry ───────────────────────────────────────────────────────────

const toRad = (deg: number): number => (deg * Math.PI) / 180;
const toDeg = (rad: number): number => (rad * 180) / Math.PI;

/** Moves a point by metres north and east (flat-earth, fine at city scale). */
export function offsetMetres(p: LatLng, northM: number, eastM: number): LatLng {
  const lat = p.lat + toDeg(northM / 6_371_008.8);
  const lng = p.lng + toDeg(eastM / (6_371_008.8 * Math.cos(toRad(p.lat))));
  return { lat, lng };
}

/** Initial bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearing(a: LatLng, b: LatLng): number {
  const phi1 = toRad(a.lat);
  const phi2 = toRad(b.lat);
  const dLng = toRad(b.lng - a.lng);
  const y = Math.sin(dLng) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLng);
  return (toDeg(Math.atan2(y, x)) + 360) % 360;
}

export function interpolate(a: LatLng, b: LatLng, t: number): LatLng {
  return { lat: a.lat + (b.lat - a.lat) * t, lng: a.lng + (b.lng - a.lng) * t };
}

/** Points every `stepM` metres along a path (its first and last points included). */
export function densify(path: readonly LatLng[], stepM: number): LatLng[] {
  const first = path[0];
  if (!first) return [];
  const out: LatLng[] = [first];
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1] as LatLng;
    const b = path[i] as LatLng;
    const steps = Math.max(1, Math.round(distanceM(a, b) / stepM));
    for (let s = 1; s <= steps; s++) out.push(interpolate(a, b, s / steps));
  }
  return out;
}

// ── the network ──────────────────────────────────────────────────────────────

export function buildRoadNetwork(options: RoadNetworkOptions = {}): RoadNetwork {
  const center = options.center ?? CITY.center;
  const blockM = options.blockM ?? 800;
  const ringRadiusM = options.ringRadiusM ?? 12_500;
  const ringCount = options.ringNodes ?? 72;
  const size = NORTH_SOUTH_STREETS.length;
  const half = (size - 1) / 2;
  const nodes: RoadNode[] = [];
  const edges: RoadEdge[] = [];
  const streets: Street[] = [];
  const adjacency: number[][] = [];

  const addNode = (p: LatLng): number => {
    const id = nodes.length;
    nodes.push({ id, lat: p.lat, lng: p.lng });
    adjacency.push([]);
    return id;
  };
  const nodeAt = (id: number): RoadNode => nodes[id] as RoadNode;
  const addEdge = (from: number, to: number, street: string, kind: RoadKind): void => {
    const a = nodeAt(from);
    const b = nodeAt(to);
    const id = edges.length;
    edges.push({ id, from, to, street, kind, speedLimitMph: SPEED_LIMITS_MPH[kind], lengthM: distanceM(a, b), course: bearing(a, b) });
    adjacency[from]?.push(id);
    adjacency[to]?.push(id);
  };
  const addStreet = (name: string, kind: RoadKind, nodeIds: number[]): void => {
    for (let i = 1; i < nodeIds.length; i++) addEdge(nodeIds[i - 1] as number, nodeIds[i] as number, name, kind);
    streets.push({
      name,
      kind,
      speedLimitMph: SPEED_LIMITS_MPH[kind],
      nodeIds,
      path: nodeIds.map((id) => ({ lat: nodeAt(id).lat, lng: nodeAt(id).lng })),
    });
  };

  // Grid: row r is an east–west street, column c a north–south one.
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) addNode(offsetMetres(center, (r - half) * blockM, (c - half) * blockM));
  }
  const gridNode = (row: number, col: number): number => row * size + col;
  for (let r = 0; r < size; r++) {
    const ids = Array.from({ length: size }, (_, c) => gridNode(r, c));
    addStreet(EAST_WEST_STREETS[r] as string, isArterialLine(r) ? 'arterial' : 'local', ids);
  }
  for (let c = 0; c < size; c++) {
    const ids = Array.from({ length: size }, (_, r) => gridNode(r, c));
    addStreet(NORTH_SOUTH_STREETS[c] as string, isArterialLine(c) ? 'arterial' : 'local', ids);
  }

  // Ring highway, counter-clockwise from due east.
  const ringIds: number[] = [];
  for (let i = 0; i < ringCount; i++) {
    const angle = (2 * Math.PI * i) / ringCount;
    ringIds.push(addNode(offsetMetres(center, ringRadiusM * Math.sin(angle), ringRadiusM * Math.cos(angle))));
  }
  addStreet(RING_HIGHWAY_NAME, 'highway', [...ringIds, ringIds[0] as number]);

  // Ramps: each arterial continues from both ends of the grid to the nearest ring node.
  const nearestRing = (id: number): number => {
    const p = nodeAt(id);
    let best = ringIds[0] as number;
    let bestD = Infinity;
    for (const ringId of ringIds) {
      const d = distanceM(p, nodeAt(ringId));
      if (d < bestD) {
        bestD = d;
        best = ringId;
      }
    }
    return best;
  };
  for (let i = 0; i < size; i++) {
    if (!isArterialLine(i)) continue;
    const ew = EAST_WEST_STREETS[i] as string;
    const ns = NORTH_SOUTH_STREETS[i] as string;
    addStreet(ew, 'ramp', [nearestRing(gridNode(i, 0)), gridNode(i, 0)]);
    addStreet(ew, 'ramp', [gridNode(i, size - 1), nearestRing(gridNode(i, size - 1))]);
    addStreet(ns, 'ramp', [nearestRing(gridNode(0, i)), gridNode(0, i)]);
    addStreet(ns, 'ramp', [gridNode(size - 1, i), nearestRing(gridNode(size - 1, i))]);
  }

  const gridEdges = edges.filter((e) => e.kind === 'local' || e.kind === 'arterial');
  return { center, nodes, edges, streets, adjacency, gridEdges, gridNode, gridSize: size };
}

/** The river through the demo city (Lady Bird Lake, the Colorado River downtown): water on the demo basemap. */
export const LAKE_NAME = 'Lady Bird Lake';

/**
 * The lake as one closed ring: a band between Riverside Dr and Cesar Chavez St (the grid rows the
 * real lake lies between), across the grid and a block beyond it each side, gently meandering.
 * No road is moved for it: the north–south streets cross it (bridges).
 */
export function lakeOutline(network: RoadNetwork): LatLng[] {
  const south = EAST_WEST_STREETS.indexOf('Riverside Dr');
  const north = EAST_WEST_STREETS.indexOf('Cesar Chavez St');
  const last = network.gridSize - 1;
  const sw = nodePosition(network, network.gridNode(south, 0));
  const nw = nodePosition(network, network.gridNode(north, 0));
  const se = nodePosition(network, network.gridNode(south, last));
  const rowGap = nw.lat - sw.lat;
  const blockLng = (se.lng - sw.lng) / last;
  const west = sw.lng - blockLng;
  const east = se.lng + blockLng;
  const steps = 48;
  const shore = (side: 'north' | 'south'): LatLng[] =>
    Array.from({ length: steps + 1 }, (_, i) => {
      const t = i / steps;
      const mid = sw.lat + rowGap * (0.5 + 0.12 * Math.sin(t * Math.PI * 5));
      const half = rowGap * (0.16 + 0.05 * Math.sin(t * Math.PI * 9 + 1));
      return { lat: side === 'north' ? mid + half : mid - half, lng: west + (east - west) * t };
    });
  const ring = [...shore('south'), ...shore('north').reverse()];
  return [...ring, ring[0] as LatLng];
}

let austin: RoadNetwork | null = null;

/** The Austin network with default options, built once. */
export function austinRoadNetwork(): RoadNetwork {
  austin ??= buildRoadNetwork();
  return austin;
}

// ── queries ──────────────────────────────────────────────────────────────────

export function nodePosition(network: RoadNetwork, id: number): LatLng {
  const node = network.nodes[id];
  if (!node) throw new Error(`no road node ${id}`);
  return { lat: node.lat, lng: node.lng };
}

export function edgeOf(network: RoadNetwork, id: number): RoadEdge {
  const edge = network.edges[id];
  if (!edge) throw new Error(`no road edge ${id}`);
  return edge;
}

/** The other end of an edge. */
export function otherEnd(edge: RoadEdge, nodeId: number): number {
  return edge.from === nodeId ? edge.to : edge.from;
}

export function nearestNode(network: RoadNetwork, p: LatLng): number {
  let best = 0;
  let bestD = Infinity;
  for (const node of network.nodes) {
    const d = distanceM(p, node);
    if (d < bestD) {
      bestD = d;
      best = node.id;
    }
  }
  return best;
}

export interface RoadPosition extends LatLng {
  edgeId: number;
  street: string;
  /** Heading of travel along the edge (from → to, or reversed). */
  course: number;
  speedLimitMph: number;
}

/** The point a fraction `t` along an edge, heading from→to (or to→from when `reverse`). */
export function positionOnEdge(network: RoadNetwork, edgeId: number, t: number, reverse = false): RoadPosition {
  const edge = edgeOf(network, edgeId);
  const p = interpolate(nodePosition(network, edge.from), nodePosition(network, edge.to), t);
  return {
    ...p,
    edgeId,
    street: edge.street,
    course: reverse ? (edge.course + 180) % 360 : edge.course,
    speedLimitMph: edge.speedLimitMph,
  };
}

/** A random point on the network. `inner` keeps it on the grid (not on the ring or its ramps). */
export function randomRoadPosition(network: RoadNetwork, random: Random, inner = false): RoadPosition {
  const edge = random.pick(inner ? network.gridEdges : network.edges);
  return positionOnEdge(network, edge.id, random.range(0.1, 0.9), random.chance(0.5));
}

/** Seconds to drive an edge at its limit. */
export function edgeSeconds(edge: RoadEdge): number {
  return edge.lengthM / mphToMetresPerSecond(edge.speedLimitMph);
}

/** The street names crossing at a node ('Lamar Blvd & 38th St'); one name at a ring node. */
export function intersectionName(network: RoadNetwork, nodeId: number): string {
  const names: string[] = [];
  for (const edgeId of network.adjacency[nodeId] ?? []) {
    const name = edgeOf(network, edgeId).street;
    if (!names.includes(name)) names.push(name);
  }
  return names.slice(0, 2).join(' & ');
}

/**
 * Fastest path between two nodes by travel time at the speed limits (Dijkstra with a binary
 * heap): the node ids from `from` to `to` inclusive, or [] when unreachable.
 */
export function shortestPath(network: RoadNetwork, from: number, to: number): number[] {
  const n = network.nodes.length;
  const dist = new Float64Array(n).fill(Infinity);
  const prev = new Int32Array(n).fill(-1);
  // A binary heap of node ids keyed by their distance when pushed (lazy deletion).
  const heapNode: number[] = [];
  const heapCost: number[] = [];
  const push = (node: number, cost: number): void => {
    let i = heapNode.length;
    heapNode.push(node);
    heapCost.push(cost);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentCost = heapCost[parent] as number;
      if (parentCost <= cost) break;
      heapNode[i] = heapNode[parent] as number;
      heapCost[i] = parentCost;
      i = parent;
    }
    heapNode[i] = node;
    heapCost[i] = cost;
  };
  const pop = (): number => {
    const top = heapNode[0] as number;
    const lastNode = heapNode.pop() as number;
    const lastCost = heapCost.pop() as number;
    const size = heapNode.length;
    if (size === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const child = r < size && (heapCost[r] as number) < (heapCost[l] as number) ? r : l;
      if ((heapCost[child] as number) >= lastCost) break;
      heapNode[i] = heapNode[child] as number;
      heapCost[i] = heapCost[child] as number;
      i = child;
    }
    heapNode[i] = lastNode;
    heapCost[i] = lastCost;
    return top;
  };
  dist[from] = 0;
  push(from, 0);
  while (heapNode.length > 0) {
    const d = heapCost[0] as number;
    const u = pop();
    if (u === to) break;
    if (d > (dist[u] as number)) continue;
    for (const edgeId of network.adjacency[u] ?? []) {
      const edge = network.edges[edgeId] as RoadEdge;
      const v = edge.from === u ? edge.to : edge.from;
      const nd = d + edgeSeconds(edge);
      if (nd < (dist[v] as number)) {
        dist[v] = nd;
        prev[v] = u;
        push(v, nd);
      }
    }
  }
  if (from !== to && prev[to] === -1) return [];
  const path: number[] = [to];
  for (let at = to; at !== from;) {
    at = prev[at] as number;
    path.push(at);
  }
  return path.reverse();
}

/** The edge joining two neighbouring nodes (the fastest when there are several). */
export function edgeBetween(network: RoadNetwork, a: number, b: number): RoadEdge | null {
  let best: RoadEdge | null = null;
  for (const edgeId of network.adjacency[a] ?? []) {
    const edge = edgeOf(network, edgeId);
    if (otherEnd(edge, a) === b && (!best || edgeSeconds(edge) < edgeSeconds(best))) best = edge;
  }
  return best;
}

export interface DriveSample extends LatLng {
  /** ms since epoch */
  timestamp: number;
  course: number;
  speedMph: number;
  street: string;
}

/**
 * Drives a node path, one sample every `intervalMs`: at `speedFactor` × each edge's limit, from
 * `startMs`. The first sample is at the first node; the last at (or just before) the last node.
 */
export function drivePath(
  network: RoadNetwork,
  nodePath: readonly number[],
  opts: { startMs: number; intervalMs: number; speedFactor?: number; maxSamples?: number },
): DriveSample[] {
  const factor = opts.speedFactor ?? 0.85;
  const max = opts.maxSamples ?? Infinity;
  const samples: DriveSample[] = [];
  let t = opts.startMs;
  let carry = 0; // seconds already driven into the current edge
  for (let i = 1; i < nodePath.length && samples.length < max; i++) {
    const a = nodePath[i - 1] as number;
    const b = nodePath[i] as number;
    const edge = edgeBetween(network, a, b);
    if (!edge) continue;
    const speedMps = mphToMetresPerSecond(edge.speedLimitMph) * factor;
    const seconds = edge.lengthM / speedMps;
    const from = nodePosition(network, a);
    const to = nodePosition(network, b);
    const course = bearing(from, to);
    let s = carry;
    for (; s < seconds && samples.length < max; s += opts.intervalMs / 1000) {
      const p = interpolate(from, to, s / seconds);
      samples.push({ ...p, timestamp: t, course, speedMph: metresPerSecondToMph(speedMps), street: edge.street });
      t += opts.intervalMs;
    }
    carry = s - seconds;
  }
  return samples;
}

/** `count` consecutive nodes of a street from index `start` (clamped to the street). */
export function streetSection(street: Street, start: number, count: number): { nodeIds: number[]; path: LatLng[] } {
  const from = Math.max(0, Math.min(start, street.nodeIds.length - count));
  return { nodeIds: street.nodeIds.slice(from, from + count), path: street.path.slice(from, from + count) };
}

export function streetByName(network: RoadNetwork, name: string, kind?: RoadKind): Street {
  const street = network.streets.find((s) => s.name === name && (kind === undefined || s.kind === kind));
  if (!street) throw new Error(`no street ${name}`);
  return street;
}
