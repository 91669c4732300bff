import createGraph, { type Graph } from 'ngraph.graph';
import ngraphPath, { type PathFinder } from 'ngraph.path';
import { z } from 'zod';
import { routePointSchema } from '../../../src/domain/closure';
import { distanceM, truncateLatLng, type LatLng } from '../../../src/domain/geometry';
import { austinRoadNetwork, type RoadEdge, type RoadNetwork } from '../../region/geography';
import { RoadIndex, type EdgeHit } from '../../region/road-index';
import { unprocessable } from '../../core/errors';

/**
 * The closure router's body, answer, limits and texts, and the router itself (./routes): the
 * road network as a graph, a waypoint snapped to its nearest road, the legs joined by A*.
 */

/** A waypoint farther than this from every road has no route. */
export const ROUTE_SNAP_MAX_M = 250;
/** Waypoints of one request (a drawn closure path has a handful). */
export const ROUTE_WAYPOINTS_MAX = 25;
export const NO_ROAD_MESSAGE = 'No road near the drawn point';
export const NO_ROUTE_MESSAGE = 'No route found between the drawn points';

const pointSchema = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) });
export const closureRouteBody = z.object({ points: z.array(pointSchema).min(2).max(ROUTE_WAYPOINTS_MAX) });

/** The answer: the path along the roads (points lat, lng, as the closure's routes travel), its end streets and length. */
export const closureRouteAnswer = z.object({
  path: z.array(routePointSchema),
  street_start: z.string(),
  street_end: z.string(),
  distance_m: z.number(),
});
export type ClosureRouteAnswer = z.infer<typeof closureRouteAnswer>;

interface NodeData {
  position: LatLng;
}

/** The network as an ngraph graph (edges two-way, weighted by length) with its edge index; built once. */
export class ClosureRouter {
  private readonly graph: Graph<NodeData, RoadEdge>;
  private readonly finder: PathFinder<NodeData>;
  private readonly index: RoadIndex;

  constructor(private readonly network: RoadNetwork) {
    this.index = new RoadIndex(network);
    this.graph = createGraph<NodeData, RoadEdge>({ multigraph: true });
    network.nodes.forEach((node, id) => this.graph.addNode(id, { position: { lat: node.lat, lng: node.lng } }));
    for (const edge of network.edges) this.graph.addLink(edge.from, edge.to, edge);
    this.finder = ngraphPath.aStar<NodeData, RoadEdge>(this.graph, {
      oriented: false,
      distance: (_from, _to, link) => link.data.lengthM,
      heuristic: (from, to) => distanceM(from.data.position, to.data.position),
    });
  }

  private node(id: number): LatLng {
    const node = this.network.nodes[id];
    if (!node) throw new Error(`no node ${id}`);
    return { lat: node.lat, lng: node.lng };
  }

  /** The node ids from `from` to `to` (inclusive) and their length, or null when unreachable. */
  private nodePath(from: number, to: number): { ids: number[]; lengthM: number } | null {
    if (from === to) return { ids: [from], lengthM: 0 };
    const found = this.finder.find(from, to);
    if (found.length === 0) return null;
    // ngraph.path answers from the target back to the start.
    const ids = found.map((n) => Number(n.id)).reverse();
    let lengthM = 0;
    for (let i = 1; i < ids.length; i++) lengthM += distanceM(this.node(ids[i - 1]!), this.node(ids[i]!));
    return { ids, lengthM };
  }

  /** The road route between two snapped points: along their edge when they share it, else through the nearer ends. */
  private leg(a: EdgeHit, b: EdgeHit): { path: LatLng[]; lengthM: number } | null {
    if (a.edge.id === b.edge.id) return { path: [a.point, b.point], lengthM: distanceM(a.point, b.point) };
    let best: { path: LatLng[]; lengthM: number } | null = null;
    for (const fromEnd of [a.edge.from, a.edge.to]) {
      for (const toEnd of [b.edge.from, b.edge.to]) {
        const between = this.nodePath(fromEnd, toEnd);
        if (!between) continue;
        const lengthM = distanceM(a.point, this.node(fromEnd)) + between.lengthM + distanceM(this.node(toEnd), b.point);
        if (!best || lengthM < best.lengthM) {
          best = { path: [a.point, ...between.ids.map((id) => this.node(id)), b.point], lengthM };
        }
      }
    }
    return best;
  }

  /** The route through the waypoints; throws a 422 with the reason when there is none. */
  route(points: readonly LatLng[]): ClosureRouteAnswer {
    const hits = points.map((p) => this.index.nearestEdge(p));
    if (hits.some((hit) => hit.distanceM > ROUTE_SNAP_MAX_M)) throw unprocessable(NO_ROAD_MESSAGE, 'no_route');
    const path: LatLng[] = [];
    let total = 0;
    for (let i = 1; i < hits.length; i++) {
      const leg = this.leg(hits[i - 1]!, hits[i]!);
      if (!leg) throw unprocessable(NO_ROUTE_MESSAGE, 'no_route');
      total += leg.lengthM;
      for (const p of leg.path) {
        const t = truncateLatLng(p);
        const last = path[path.length - 1];
        if (!last || last.lat !== t.lat || last.lng !== t.lng) path.push(t);
      }
    }
    if (path.length < 2) throw unprocessable(NO_ROUTE_MESSAGE, 'no_route');
    return { path, street_start: hits[0]!.edge.street, street_end: hits[hits.length - 1]!.edge.street, distance_m: Math.round(total) };
  }
}

let shared: ClosureRouter | null = null;

/** The router over the network the simulator drives (the Austin demo network), built on first use. */
export function closureRouter(): ClosureRouter {
  shared ??= new ClosureRouter(austinRoadNetwork());
  return shared;
}
