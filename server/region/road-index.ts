/**
 * A spatial index of a road network's edges, for the fleet simulator: the nearest edge
 * to a position (where a parked vehicle joins the road) and the nearest street's name within a
 * distance (what the ingest stores as the stationary street and names new locations by).
 *
 * Positions are projected once onto a flat plane in metres around the network's centre (fine at
 * city scale), and the edges are bucketed in square cells so that a query reads a few cells.
 */
import type { LatLng } from '../../src/domain/geometry';
import type { RoadEdge, RoadNetwork } from './geography';

const EARTH_RADIUS_M = 6_371_008.8;
const CELL_M = 400;

export interface EdgeHit {
  edge: RoadEdge;
  /** Fraction along the edge from `edge.from` (0) to `edge.to` (1) of the nearest point. */
  t: number;
  /** Distance from the position to that point. */
  distanceM: number;
  /** The nearest point itself. */
  point: LatLng;
}

interface Projected {
  edge: RoadEdge;
  ax: number;
  ay: number;
  dx: number;
  dy: number;
  lengthSq: number;
}

export class RoadIndex {
  private readonly cosLat: number;
  private readonly cells = new Map<number, Projected[]>();
  private readonly all: Projected[] = [];

  constructor(private readonly network: RoadNetwork) {
    this.cosLat = Math.cos((network.center.lat * Math.PI) / 180);
    for (const edge of network.edges) {
      const a = network.nodes[edge.from];
      const b = network.nodes[edge.to];
      if (!a || !b) continue;
      const [ax, ay] = this.project(a);
      const [bx, by] = this.project(b);
      const entry: Projected = { edge, ax, ay, dx: bx - ax, dy: by - ay, lengthSq: (bx - ax) ** 2 + (by - ay) ** 2 };
      this.all.push(entry);
      // Every cell the edge's bounding box (grown by one cell) touches.
      const x0 = Math.floor((Math.min(ax, bx) - CELL_M) / CELL_M);
      const x1 = Math.floor((Math.max(ax, bx) + CELL_M) / CELL_M);
      const y0 = Math.floor((Math.min(ay, by) - CELL_M) / CELL_M);
      const y1 = Math.floor((Math.max(ay, by) + CELL_M) / CELL_M);
      for (let x = x0; x <= x1; x++) {
        for (let y = y0; y <= y1; y++) {
          const key = cellKey(x, y);
          const list = this.cells.get(key);
          if (list) list.push(entry);
          else this.cells.set(key, [entry]);
        }
      }
    }
  }

  /** Metres east and north of the network's centre. */
  project(p: LatLng): [number, number] {
    const x = ((p.lng - this.network.center.lng) * Math.PI * EARTH_RADIUS_M * this.cosLat) / 180;
    const y = ((p.lat - this.network.center.lat) * Math.PI * EARTH_RADIUS_M) / 180;
    return [x, y];
  }

  private unproject(x: number, y: number): LatLng {
    return {
      lat: this.network.center.lat + (y * 180) / (Math.PI * EARTH_RADIUS_M),
      lng: this.network.center.lng + (x * 180) / (Math.PI * EARTH_RADIUS_M * this.cosLat),
    };
  }

  /**
   * The nearest edge to a position. Edges within one cell (400 m) are found through the index;
   * a position farther from every road falls back to a scan of all edges.
   */
  nearestEdge(p: LatLng): EdgeHit {
    const [x, y] = this.project(p);
    const candidates = this.cells.get(cellKey(Math.floor(x / CELL_M), Math.floor(y / CELL_M)));
    let best = candidates ? nearestOf(candidates, x, y) : null;
    if (!best || best.distance > CELL_M) best = nearestOf(this.all, x, y);
    if (!best) throw new Error('the road network has no edges');
    return { edge: best.entry.edge, t: best.t, distanceM: best.distance, point: this.unproject(best.px, best.py) };
  }

  /** The name of the nearest street within `maxM` metres, else null. */
  streetAt(p: LatLng, maxM = 60): string | null {
    const hit = this.nearestEdge(p);
    return hit.distanceM <= maxM ? hit.edge.street : null;
  }

  /**
   * Where a position is, as a dispatcher names it: the nearest street within `maxM` metres and the
   * nearest other street within `crossM` ('Guadalupe St & W 24th St'), the street alone when none
   * crosses near, null off the roads.
   */
  placeAt(p: LatLng, maxM = 60, crossM = 250): string | null {
    const street = this.streetAt(p, maxM);
    if (street === null) return null;
    const [x, y] = this.project(p);
    const cx = Math.floor(x / CELL_M);
    const cy = Math.floor(y / CELL_M);
    const near: Projected[] = [];
    for (let dx = -1; dx <= 1; dx += 1)
      for (let dy = -1; dy <= 1; dy += 1) for (const entry of this.cells.get(cellKey(cx + dx, cy + dy)) ?? []) near.push(entry);
    const cross = nearestOf(
      near.filter((entry) => entry.edge.street && entry.edge.street !== street),
      x,
      y,
    );
    return cross && cross.distance <= crossM ? `${street} & ${cross.entry.edge.street}` : street;
  }
}

function cellKey(x: number, y: number): number {
  // Cells stay within ±2^15 of the centre (±13,000 km), so the key is unique.
  return (x + 32_768) * 65_536 + (y + 32_768);
}

function nearestOf(
  entries: readonly Projected[],
  x: number,
  y: number,
): { entry: Projected; t: number; distance: number; px: number; py: number } | null {
  let best: { entry: Projected; t: number; distance: number; px: number; py: number } | null = null;
  for (const entry of entries) {
    const t = entry.lengthSq === 0 ? 0 : Math.max(0, Math.min(1, ((x - entry.ax) * entry.dx + (y - entry.ay) * entry.dy) / entry.lengthSq));
    const px = entry.ax + t * entry.dx;
    const py = entry.ay + t * entry.dy;
    const distance = Math.hypot(x - px, y - py);
    if (!best || distance < best.distance) best = { entry, t, distance, px, py };
  }
  return best;
}
