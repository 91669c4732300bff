/**
 * Douglas–Peucker simplification of a path (beyond the spec: imported WZDx work zones may carry
 * paths of a hundred thousand points, which no closure list should carry). A point is kept when it
 * lies farther than `tolerance` (in degrees, treated as planar: the paths are a few kilometres
 * long) from the chord of the points kept around it; the first and last points always stay.
 * Iterative (an explicit stack): a path of any length cannot exhaust the call stack.
 */
export interface PathPoint {
  lat: number;
  lng: number;
}

/** About 1 m at the equator: fine enough to keep a road's bends, coarse enough to drop GPS jitter. */
export const PATH_SIMPLIFY_TOLERANCE_DEG = 1e-5;

function distanceToSegment(p: PathPoint, a: PathPoint, b: PathPoint): number {
  const dx = b.lng - a.lng;
  const dy = b.lat - a.lat;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.lng - a.lng) * dx + (p.lat - a.lat) * dy) / length2));
  return Math.hypot(p.lng - (a.lng + t * dx), p.lat - (a.lat + t * dy));
}

export function simplifyPath<T extends PathPoint>(points: readonly T[], tolerance = PATH_SIMPLIFY_TOLERANCE_DEG): T[] {
  if (points.length <= 2) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    let farthest = -1;
    let distance = tolerance;
    for (let i = first + 1; i < last; i += 1) {
      const d = distanceToSegment(points[i]!, points[first]!, points[last]!);
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    stack.push([first, farthest], [farthest, last]);
  }
  return points.filter((_, i) => keep[i] === 1);
}
