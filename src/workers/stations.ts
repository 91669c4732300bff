/**
 * The station check's index (part 1 §4 "A status above active marks the asset for a station
 * check"; part 1 §9 "Station radius default 100 m"). Stations are the areas whose type is a station
 * view (`stationsFrom`); each is a circle of its radius. An R-tree (rbush) over their bounding
 * boxes answers "which station is this position in" in O(log n) per asset.
 */
import RBush from 'rbush';
import type { Station } from '../domain/area';
import { distanceM } from '../domain/geometry';

/** Metres per degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320;

interface StationBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  station: Station;
}

export class StationIndex {
  private readonly tree = new RBush<StationBox>();
  private readonly byId = new Map<string, Station>();

  get size(): number {
    return this.byId.size;
  }

  /** Replaces every station. */
  load(stations: readonly Station[]): void {
    this.tree.clear();
    this.byId.clear();
    const boxes: StationBox[] = [];
    for (const station of stations) {
      const { lat, lng } = station.position;
      const dLat = station.radius / METRES_PER_DEGREE;
      const dLng = station.radius / (METRES_PER_DEGREE * Math.max(Math.cos((lat * Math.PI) / 180), 1e-6));
      boxes.push({ minX: lng - dLng, minY: lat - dLat, maxX: lng + dLng, maxY: lat + dLat, station });
      this.byId.set(station.id, station);
    }
    this.tree.load(boxes);
  }

  get(id: string): Station | undefined {
    return this.byId.get(id);
  }

  all(): Station[] {
    return [...this.byId.values()];
  }

  /** The station whose circle holds the position (the nearest centre when circles overlap), or null. */
  stationAt(lng: number, lat: number): Station | null {
    if (this.byId.size === 0) return null;
    const candidates = this.tree.search({ minX: lng, minY: lat, maxX: lng, maxY: lat });
    let best: Station | null = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const { station } of candidates) {
      const distance = distanceM({ lat, lng }, station.position);
      if (distance <= station.radius && distance < bestDistance) {
        best = station;
        bestDistance = distance;
      }
    }
    return best;
  }
}
