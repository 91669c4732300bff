/**
 * The unit-availability view (beyond the spec: docs/decisions/spec.md "Values the spec does not give"): for the visible area, which parts
 * lie farther than a chosen distance from every available unit — a listed asset in standby or
 * stationary (online, not alerting: free to be sent). The area is cut into a grid of cells evenly
 * spaced on the screen (Web Mercator: longitude linear, latitude through the Mercator y), so the
 * mask draws as one bitmap over the same bounds; the covered share is the share of cells (of the
 * visible area as shown) whose centre lies within the distance of a unit.
 *
 * The units sit in an R-tree (rbush, the station index's library) built once per fleet version;
 * per cell one box test answers most cells (a unit inside the square inscribed in the circle
 * covers the centre), the rest check the distance of the units in the circle's bounding box.
 * Everything here is pure or worker-side: the main thread only draws the mask.
 */
import RBush from 'rbush';
import { ASSET_STATUS } from '../domain/asset-status';
import { distanceM, mercatorY } from '../domain/geometry';
import { FLAG_LISTED, FLAG_PRESENT } from '../domain/live-diff';

/** chosen: 96 × 64 cells, about 10 px each on a 1000 × 650 map (docs/decisions/spec.md "Values the spec does not give"). */
export const AVAILABILITY_COLUMNS = 96;
export const AVAILABILITY_ROWS = 64;
/** Web Mercator's latitude limit. */
const MAX_LAT = 85.0511;
/** Metres per degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320;

/** The statuses of an available unit (display status: out of service is 6, never available). */
export function isAvailableStatus(status: number): boolean {
  return status === ASSET_STATUS.standby || status === ASSET_STATUS.stationary;
}

export interface UnitPoint {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface AvailabilityQuery {
  /** west, south, east, north in degrees. */
  bbox: [number, number, number, number];
  radiusM: number;
  columns?: number;
  rows?: number;
}

export interface AvailabilityAnswer {
  /** The fleet version the units were read at. */
  version: number;
  /** The bounds the grid covers (the query's, clamped to the Mercator world). */
  bbox: [number, number, number, number];
  columns: number;
  rows: number;
  radiusM: number;
  /** One byte per cell, row 0 = north: 1 = a gap (no unit within the radius), 0 = covered. */
  mask: Uint8Array;
  /** Covered cells / all cells, 0..1 (1 for an empty grid). */
  coveredShare: number;
  /** Available units in and around the area. */
  units: number;
}

/** The R-tree of the available units among the listed slots (one point per unit). */
export function availableUnitsIndex(
  count: number,
  flags: ArrayLike<number>,
  status: ArrayLike<number>,
  lngLat: ArrayLike<number>,
): RBush<UnitPoint> {
  const points: UnitPoint[] = [];
  const wanted = FLAG_PRESENT | FLAG_LISTED;
  for (let slot = 0; slot < count; slot += 1) {
    if (((flags[slot] as number) & wanted) !== wanted || !isAvailableStatus(status[slot] as number)) continue;
    const x = lngLat[2 * slot] as number;
    const y = lngLat[2 * slot + 1] as number;
    points.push({ minX: x, minY: y, maxX: x, maxY: y });
  }
  const tree = new RBush<UnitPoint>();
  tree.load(points);
  return tree;
}

const toRad = (deg: number) => (deg * Math.PI) / 180;
const latitudeOf = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) * (180 / Math.PI);

/** The query's bounds inside the Mercator world (west ≤ east, at most one world wide). */
export function clampBounds([west, south, east, north]: [number, number, number, number]): [number, number, number, number] {
  const w = east - west >= 360 ? -180 : Math.max(-180, west);
  const e = east - west >= 360 ? 180 : Math.min(180, east);
  return [w, Math.max(-MAX_LAT, south), Math.max(w, e), Math.min(MAX_LAT, north)];
}

/** The latitude of each row's centre (row 0 = north), evenly spaced in Mercator y. */
export function rowLatitudes(south: number, north: number, rows: number): Float64Array {
  const top = mercatorY(north);
  const bottom = mercatorY(south);
  const out = new Float64Array(rows);
  for (let row = 0; row < rows; row += 1) out[row] = latitudeOf(top + ((row + 0.5) / rows) * (bottom - top));
  return out;
}

/** Whether some unit lies within `radiusM` of (lng, lat). */
export function isCovered(tree: RBush<UnitPoint>, lng: number, lat: number, radiusM: number): boolean {
  const dLat = radiusM / METRES_PER_DEGREE;
  const dLng = radiusM / (METRES_PER_DEGREE * Math.max(Math.cos(toRad(lat)), 1e-6));
  // The square inscribed in the circle: any unit inside covers the point without a distance check.
  const inner = Math.SQRT1_2 * 0.999;
  if (tree.collides({ minX: lng - dLng * inner, minY: lat - dLat * inner, maxX: lng + dLng * inner, maxY: lat + dLat * inner }))
    return true;
  const candidates = tree.search({ minX: lng - dLng, minY: lat - dLat, maxX: lng + dLng, maxY: lat + dLat });
  for (const unit of candidates) {
    if (distanceM({ lat, lng }, { lat: unit.minY, lng: unit.minX }) <= radiusM) return true;
  }
  return false;
}

/** The gaps grid of an area (pure given the tree). */
export function availabilityGrid(tree: RBush<UnitPoint>, query: AvailabilityQuery, version = 0): AvailabilityAnswer {
  const columns = Math.max(1, Math.floor(query.columns ?? AVAILABILITY_COLUMNS));
  const rows = Math.max(1, Math.floor(query.rows ?? AVAILABILITY_ROWS));
  const bbox = clampBounds(query.bbox);
  const [west, south, east, north] = bbox;
  const mask = new Uint8Array(columns * rows);
  const latitudes = rowLatitudes(south, north, rows);
  let covered = 0;
  for (let row = 0; row < rows; row += 1) {
    const lat = latitudes[row] as number;
    for (let column = 0; column < columns; column += 1) {
      const lng = west + ((column + 0.5) / columns) * (east - west);
      if (isCovered(tree, lng, lat, query.radiusM)) covered += 1;
      else mask[row * columns + column] = 1;
    }
  }
  // The units counted: those whose circle reaches into the area.
  const dLat = query.radiusM / METRES_PER_DEGREE;
  const dLng = query.radiusM / (METRES_PER_DEGREE * Math.max(Math.cos(toRad(Math.max(Math.abs(south), Math.abs(north)))), 1e-6));
  const units = tree.search({ minX: west - dLng, minY: south - dLat, maxX: east + dLng, maxY: north + dLat }).length;
  return { version, bbox, columns, rows, radiusM: query.radiusM, mask, coveredShare: mask.length === 0 ? 1 : covered / mask.length, units };
}

/**
 * Answers availability queries for a fleet, rebuilding the tree only when the fleet's version
 * moved (the group view's version: a listed asset moved, changed status or joined or left the list).
 */
export class AvailabilityIndex {
  private tree: RBush<UnitPoint> | null = null;
  private builtVersion = -1;
  /** Rebuilds so far (tests read it). */
  builds = 0;

  clear(): void {
    this.tree = null;
    this.builtVersion = -1;
  }

  query(
    fleet: { highWater: number; buffers: { flags: Uint8Array; status: Uint8Array; lngLat: Float64Array } },
    version: number,
    query: AvailabilityQuery,
  ): AvailabilityAnswer {
    if (!this.tree || version !== this.builtVersion) {
      const { flags, status, lngLat } = fleet.buffers;
      this.tree = availableUnitsIndex(fleet.highWater, flags, status, lngLat);
      this.builtVersion = version;
      this.builds += 1;
    }
    return availabilityGrid(this.tree, query, version);
  }
}

/** The positions [lng, lat, …] of the listed assets, in list order (the density view's input). */
export function listedPositions(order: ArrayLike<number>, lngLat: ArrayLike<number>): Float64Array {
  const out = new Float64Array(order.length * 2);
  for (let i = 0; i < order.length; i += 1) {
    const slot = order[i] as number;
    out[2 * i] = lngLat[2 * slot] as number;
    out[2 * i + 1] = lngLat[2 * slot + 1] as number;
  }
  return out;
}
