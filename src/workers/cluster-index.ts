/**
 * The group view (part 1 §2 Map: "Assets are grouped at stations when zoomed out"; the list's
 * group-view toggle): clusters of the listed assets, and station groups (the listed assets at a
 * station, one marker per station with its count; zoomed out, stations close together merge into a
 * cluster like assets do), answered per viewport and zoom as typed arrays.
 *
 * The index is incremental: a grid of cells per zoom (0 to CLUSTER_MAX_ZOOM, cells of
 * CLUSTER_CELL_PX), each holding integer sums (entries, assets, position, slot, assets per
 * status: a marker's mix). An update re-reads the fleet's typed arrays and moves only the points that changed (a
 * listed asset moved, changed status, joined or left a station or the list) from their old cells
 * to their new ones; a full rebuild and any sequence of updates hold the same sums
 * (tests/workers/cluster-index.test.ts proves it), so they answer the same. A query reads the
 * cells in the viewport and merges markers closer than CLUSTER_RADIUS_PX (two points either side
 * of a cell's edge are one cluster, as they would be drawn).
 *
 * Positions are Web Mercator in integer units (2^WORLD_BITS across the world): sums of integers
 * are exact, so adding and removing a point leaves no rounding behind.
 */
import { ASSET_STATUS } from '../domain/asset-status';
import type { Station } from '../domain/area';
import { FLAG_AT_STATION, FLAG_LISTED } from '../domain/live-diff';
import type { FleetStore } from './fleet-store';
import type { ClusterAnswer, StationGroups } from '../domain/cluster-answer';
import type { ClusterQuery } from './live-protocol';

/** chosen: below this zoom the assets at a station show as one station marker (docs/decisions/spec.md "Values the spec does not give"). */
export const STATION_GROUPS_BELOW_ZOOM = 15;
/** chosen: markers closer than this (deck.gl's 512-px world) merge into one cluster. */
export const CLUSTER_RADIUS_PX = 60;
/** chosen: the grid's cell, an eighth of a 512-px tile. */
export const CLUSTER_CELL_PX = 64;
/** chosen: the last zoom that clusters; from the next one every asset shows alone. */
export const CLUSTER_MAX_ZOOM = 16;

const WORLD_BITS = 26;
const WORLD = 2 ** WORLD_BITS;
/** log2(512 / CLUSTER_CELL_PX): a zoom's cells are the tiles of the zoom this many levels deeper. */
const CELL_LEVELS = 3;
const LEVELS = CLUSTER_MAX_ZOOM + 1;
const STATUSES = ASSET_STATUS.oos + 1;
/** The most urgent status (lowest code) of a mix `mix[at .. at + STATUSES)`; out of service when empty. */
function topOf(mix: ArrayLike<number>, at = 0): number {
  for (let status = 0; status < STATUSES; status += 1) if ((mix[at + status] as number) > 0) return status;
  return ASSET_STATUS.oos;
}

/** Entry ids of stations start here (assets are their slots). */
const STATION_ENTRY = 2 ** 30;

/** Web Mercator x of a longitude, in world units. */
export function worldX(lng: number): number {
  const x = Math.floor(((lng + 180) / 360) * WORLD);
  return x < 0 ? 0 : x >= WORLD ? WORLD - 1 : x;
}

/** Web Mercator y of a latitude (0 at the north edge), in world units. */
export function worldY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * WORLD);
  return Number.isNaN(y) ? 0 : y < 0 ? 0 : y >= WORLD ? WORLD - 1 : y;
}

function lngOf(x: number): number {
  return (x / WORLD) * 360 - 180;
}

function latOf(y: number): number {
  const n = Math.PI * (1 - (2 * y) / WORLD);
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
}

/** World units per cell at a zoom (a power of two). */
function cellShift(zoom: number): number {
  return WORLD_BITS - zoom - CELL_LEVELS;
}

/** World units per pixel of deck.gl's 512-px world at a zoom. */
function unitsPerPx(zoom: number): number {
  return WORLD / (512 * 2 ** zoom);
}

/** Cells across the world at a zoom. */
function cellSide(zoom: number): number {
  return 2 ** (zoom + CELL_LEVELS);
}

function cellKey(zoom: number, cx: number, cy: number): number {
  return cx * cellSide(zoom) + cy;
}

const CELL_UNITS = Float64Array.from({ length: LEVELS }, (_, zoom) => 2 ** cellShift(zoom));
const CELL_SIDE = Float64Array.from({ length: LEVELS }, (_, zoom) => cellSide(zoom));

/**
 * The cells of one index: a map per zoom from the cell's key to its row in columns of sums (a row
 * is reused once its cell empties).
 */
class Grid {
  readonly levels: Map<number, number>[] = Array.from({ length: LEVELS }, () => new Map());
  members = new Int32Array(0);
  weight = new Float64Array(0);
  sumX = new Float64Array(0);
  sumY = new Float64Array(0);
  sumEntry = new Float64Array(0);
  /** Listed assets per display status, STATUSES per row (a station entry adds its assets' mix). */
  mix = new Int32Array(0);
  private rows = 0;
  private readonly free: number[] = [];

  private newRow(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if (this.rows === this.members.length) {
      const size = Math.max(1024, this.rows * 2);
      const grow = <T extends Int32Array | Float64Array>(array: T, make: (n: number) => T, per = 1): T => {
        const next = make(size * per);
        next.set(array);
        return next;
      };
      this.members = grow(this.members, (n) => new Int32Array(n));
      this.weight = grow(this.weight, (n) => new Float64Array(n));
      this.sumX = grow(this.sumX, (n) => new Float64Array(n));
      this.sumY = grow(this.sumY, (n) => new Float64Array(n));
      this.sumEntry = grow(this.sumEntry, (n) => new Float64Array(n));
      this.mix = grow(this.mix, (n) => new Int32Array(n), STATUSES);
    }
    const row = this.rows;
    this.rows += 1;
    return row;
  }

  /**
   * Adds (sign 1) or removes (sign -1) one entry at every zoom: an asset (its `status`, weight 1)
   * or a station standing for `weight` assets whose statuses are the mix `status[at .. at + STATUSES)`.
   */
  put(sign: 1 | -1, entry: number, x: number, y: number, weight: number, status: number | Int32Array, at = 0): void {
    for (let zoom = 0; zoom < LEVELS; zoom += 1) {
      const size = CELL_UNITS[zoom] as number;
      const key = Math.floor(x / size) * (CELL_SIDE[zoom] as number) + Math.floor(y / size);
      const level = this.levels[zoom]!;
      let row = level.get(key);
      if (row === undefined) {
        row = this.newRow();
        level.set(key, row);
      }
      this.members[row] = (this.members[row] as number) + sign;
      this.weight[row] = (this.weight[row] as number) + sign * weight;
      this.sumX[row] = (this.sumX[row] as number) + sign * weight * x;
      this.sumY[row] = (this.sumY[row] as number) + sign * weight * y;
      this.sumEntry[row] = (this.sumEntry[row] as number) + sign * entry;
      const base = row * STATUSES;
      if (typeof status === 'number') this.mix[base + status] = (this.mix[base + status] as number) + sign;
      else for (let s = 0; s < STATUSES; s += 1) this.mix[base + s] = (this.mix[base + s] as number) + sign * (status[at + s] as number);
      if (this.members[row] === 0) {
        level.delete(key);
        this.weight[row] = 0;
        this.sumX[row] = 0;
        this.sumY[row] = 0;
        this.sumEntry[row] = 0;
        this.mix.fill(0, row * STATUSES, (row + 1) * STATUSES);
        this.free.push(row);
      }
    }
  }

  /** The most urgent status (lowest code) of an asset in the row. */
  top(row: number): number {
    return topOf(this.mix, row * STATUSES);
  }

  /** A cell's marker before merging: its weighted centre in pixels at the zoom. */
  marker(zoom: number, key: number, row: number): CellMarker {
    const perPx = unitsPerPx(zoom);
    const weight = this.weight[row] as number;
    return { key, row, px: (this.sumX[row] as number) / weight / perPx, py: (this.sumY[row] as number) / weight / perPx };
  }

  get cells(): number {
    return this.levels.reduce((sum, level) => sum + level.size, 0);
  }
}

/** One marker before merging: a cell's sums at the answered zoom. */
interface CellMarker {
  key: number;
  row: number;
  /** Pixel position at the zoom (for the merge). */
  px: number;
  py: number;
}

/** What a cluster of the latest answer stands for (`expansionZoom` reads it). */
interface AnsweredCluster {
  zoom: number;
  keys: number[];
}

/**
 * The listed assets as the index last read them (per slot), the stations' groups, and two grids
 * over them, each built on the first query that needs it and kept up to date from then on:
 * - `all`: every listed asset alone (station view off, or zoomed in from STATION_GROUPS_BELOW_ZOOM);
 * - `grouped`: the assets away from stations plus one entry per station standing for its assets,
 *   so station markers that would overlap each other or a cluster merge into one cluster counting
 *   all their assets.
 */
export class ClusterIndex {
  // per slot, as last read
  private listed = new Uint8Array(0);
  private lng = new Float64Array(0);
  private lat = new Float64Array(0);
  private x = new Int32Array(0);
  private y = new Int32Array(0);
  private status = new Uint8Array(0);
  /** The station's number (in `stations`) the asset is grouped at, -1 for none. */
  private station = new Int32Array(0);
  private slots = 0;

  // stations, as loaded, with their listed assets
  private stations: Station[] = [];
  private stationNumber = new Map<string, number>();
  private stationsRead: readonly Station[] | null = null;
  private stationCount = new Int32Array(0);
  /** Listed assets per display status at each station, STATUSES per station. */
  private stationMix = new Int32Array(0);
  /** The count and mix each station's entry in `grouped` holds (count 0: no entry). */
  private stationEntryCount = new Int32Array(0);
  private stationEntryMix = new Int32Array(0);
  private stationX = new Int32Array(0);
  private stationY = new Int32Array(0);

  private all: Grid | null = null;
  private grouped: Grid | null = null;
  /** The grid and clusters of the latest answer: its cluster ids are the ones `expansionZoom` is asked about. */
  private answered: { grid: Grid; clusters: AnsweredCluster[] } | null = null;
  private builtVersion = -1;
  /** Updates so far (the bench and tests read it). */
  builds = 0;
  /** Points the latest update moved between cells (the bench reads it). */
  lastMoved = 0;

  /** Drops everything (organization switch); the per-slot arrays keep their size for the next fleet. */
  clear(): void {
    this.forgetSlots();
    this.setStations([]);
    this.stationsRead = null;
    this.builtVersion = -1;
  }

  /** Forgets every slot read and the grids over them: the next update reads the fleet afresh. */
  private forgetSlots(): void {
    this.listed.fill(0);
    this.station.fill(-1);
    this.slots = 0;
    this.all = null;
    this.grouped = null;
    this.answered = null;
  }

  private setStations(stations: readonly Station[]): void {
    this.stations = [...stations];
    this.stationNumber = new Map(this.stations.map((station, i) => [station.id, i]));
    const n = this.stations.length;
    this.stationCount = new Int32Array(n);
    this.stationMix = new Int32Array(n * STATUSES);
    this.stationEntryCount = new Int32Array(n);
    this.stationEntryMix = new Int32Array(n * STATUSES);
    this.stationX = Int32Array.from(this.stations, (station) => worldX(station.position.lng));
    this.stationY = Int32Array.from(this.stations, (station) => worldY(station.position.lat));
  }

  private growSlots(size: number): void {
    if (size <= this.listed.length) return;
    const capacity = Math.max(size, this.listed.length * 2, 1024);
    const grow = <T extends Uint8Array | Int32Array | Float64Array>(array: T, next: T): T => {
      next.set(array);
      return next;
    };
    this.listed = grow(this.listed, new Uint8Array(capacity));
    this.lng = grow(this.lng, new Float64Array(capacity));
    this.lat = grow(this.lat, new Float64Array(capacity));
    this.x = grow(this.x, new Int32Array(capacity));
    this.y = grow(this.y, new Int32Array(capacity));
    this.status = grow(this.status, new Uint8Array(capacity));
    const station = new Int32Array(capacity).fill(-1);
    station.set(this.station);
    this.station = station;
  }

  /**
   * Re-reads the listed assets from the store when `version` is newer than the one read, and
   * moves in the built grids only the points that changed. The stations are read again (and the
   * grids rebuilt) when the store loaded other stations.
   */
  ensure(store: FleetStore, version: number): void {
    if (version === this.builtVersion) return;
    const stations = store.stations.all();
    if (!sameStations(stations, this.stationsRead)) {
      // Other stations: every grouping is read again from scratch.
      this.stationsRead = stations;
      this.forgetSlots();
      this.setStations(stations);
    }
    const { flags, lngLat, status } = store.buffers;
    const end = Math.max(store.highWater, this.slots);
    this.growSlots(end);
    const all = this.all;
    const grouped = this.grouped;
    let moved = 0;
    const dirtyStations = new Set<number>();
    for (let slot = 0; slot < end; slot += 1) {
      const inStore = slot < store.highWater;
      const f = inStore ? (flags[slot] as number) : 0;
      const isListed = f & FLAG_LISTED ? 1 : 0;
      const wasListed = this.listed[slot] as number;
      if (!isListed && !wasListed) continue;
      const lng = lngLat[2 * slot] as number;
      const lat = lngLat[2 * slot + 1] as number;
      const top = status[slot] as number;
      let stationAt = -1;
      if (isListed && f & FLAG_AT_STATION) {
        const id = store.assets[slot]?.stationId;
        stationAt = id ? (this.stationNumber.get(id) ?? -1) : -1;
      }
      const wasStation = this.station[slot] as number;
      if (
        isListed &&
        wasListed &&
        lng === this.lng[slot] &&
        lat === this.lat[slot] &&
        top === this.status[slot] &&
        stationAt === wasStation
      )
        continue;
      moved += 1;
      // out of the old place
      if (wasListed) {
        const oldX = this.x[slot] as number;
        const oldY = this.y[slot] as number;
        const oldTop = this.status[slot] as number;
        all?.put(-1, slot, oldX, oldY, 1, oldTop);
        if (wasStation < 0) grouped?.put(-1, slot, oldX, oldY, 1, oldTop);
        else this.countAtStation(-1, wasStation, oldTop, dirtyStations);
      }
      // into the new one
      this.listed[slot] = isListed;
      this.station[slot] = stationAt;
      if (!isListed) continue;
      const x = worldX(lng);
      const y = worldY(lat);
      this.lng[slot] = lng;
      this.lat[slot] = lat;
      this.x[slot] = x;
      this.y[slot] = y;
      this.status[slot] = top;
      all?.put(1, slot, x, y, 1, top);
      if (stationAt < 0) grouped?.put(1, slot, x, y, 1, top);
      else this.countAtStation(1, stationAt, top, dirtyStations);
    }
    this.slots = store.highWater;
    if (grouped) for (const n of dirtyStations) this.putStation(grouped, n);
    this.lastMoved = moved;
    this.builtVersion = version;
    this.builds += 1;
  }

  private countAtStation(sign: 1 | -1, n: number, top: number, dirty: Set<number>): void {
    this.stationCount[n] = (this.stationCount[n] as number) + sign;
    this.stationMix[n * STATUSES + top] = (this.stationMix[n * STATUSES + top] as number) + sign;
    dirty.add(n);
  }

  /** Brings a station's entry in the grouped grid in line with its listed assets. */
  private putStation(grid: Grid, n: number): void {
    const count = this.stationCount[n] as number;
    const held = this.stationEntryCount[n] as number;
    const at = n * STATUSES;
    let same = held === count;
    for (let status = 0; same && status < STATUSES; status += 1) same = this.stationEntryMix[at + status] === this.stationMix[at + status];
    if (same) return;
    const x = this.stationX[n] as number;
    const y = this.stationY[n] as number;
    if (held > 0) grid.put(-1, STATION_ENTRY + n, x, y, held, this.stationEntryMix, at);
    if (count > 0) grid.put(1, STATION_ENTRY + n, x, y, count, this.stationMix, at);
    this.stationEntryCount[n] = count;
    this.stationEntryMix.set(this.stationMix.subarray(at, at + STATUSES), at);
  }

  /** A grid from what the index read (the first query that needs it). */
  private build(grouped: boolean): Grid {
    const grid = new Grid();
    for (let slot = 0; slot < this.slots; slot += 1) {
      if (!this.listed[slot]) continue;
      if (grouped && (this.station[slot] as number) >= 0) continue;
      grid.put(1, slot, this.x[slot] as number, this.y[slot] as number, 1, this.status[slot] as number);
    }
    if (grouped) {
      this.stationEntryCount.fill(0);
      this.stationEntryMix.fill(0);
      for (let n = 0; n < this.stations.length; n += 1) this.putStation(grid, n);
    }
    return grid;
  }

  /** Cells held by the built grids (the bench reads it). */
  get cells(): number {
    return (this.all?.cells ?? 0) + (this.grouped?.cells ?? 0);
  }

  query(query: ClusterQuery): ClusterAnswer {
    const zoom = Math.max(0, Math.floor(query.zoom));
    const useGrouped = query.stationView && zoom < STATION_GROUPS_BELOW_ZOOM;
    const grid = useGrouped ? (this.grouped ??= this.build(true)) : (this.all ??= this.build(false));
    const ranges = lngRanges(query.bbox);
    const north = worldY(Math.min(85.06, Math.max(-85.06, query.bbox[3])));
    const south = worldY(Math.min(85.06, Math.max(-85.06, query.bbox[1])));
    const singles: number[] = [];
    const clusters: AnsweredCluster[] = [];
    const markers: { lng: number; lat: number; count: number; slot: number; cluster: number; top: number; mix: Int32Array | null }[] = [];
    const stationMarkers: number[] = [];
    if (zoom > CLUSTER_MAX_ZOOM) {
      // every asset alone
      for (let slot = 0; slot < this.slots; slot += 1) {
        if (!this.listed[slot]) continue;
        const x = this.x[slot] as number;
        const y = this.y[slot] as number;
        if (y < north || y > south || !ranges.some(([west, east]) => x >= west && x <= east)) continue;
        singles.push(slot);
      }
    } else {
      const cells = this.cellsIn(grid, zoom, ranges, north, south);
      for (const group of mergeClose(cells)) {
        const cell = cells[group[0]!]!;
        let members = 0;
        let weight = 0;
        let sumX = 0;
        let sumY = 0;
        const mix = new Int32Array(STATUSES);
        for (const j of group) {
          const row = cells[j]!.row;
          members += grid.members[row] as number;
          weight += grid.weight[row] as number;
          sumX += grid.sumX[row] as number;
          sumY += grid.sumY[row] as number;
          for (let status = 0; status < STATUSES; status += 1)
            mix[status] = (mix[status] as number) + (grid.mix[row * STATUSES + status] as number);
        }
        if (members === 1) {
          const entry = grid.sumEntry[cell.row] as number;
          if (entry >= STATION_ENTRY) stationMarkers.push(entry - STATION_ENTRY);
          else singles.push(entry);
          continue;
        }
        clusters.push({ zoom, keys: group.map((j) => cells[j]!.key) });
        markers.push({
          lng: lngOf(sumX / weight),
          lat: latOf(sumY / weight),
          count: weight,
          slot: -1,
          cluster: clusters.length - 1,
          top: topOf(mix),
          mix,
        });
      }
    }
    for (const slot of singles)
      markers.push({
        lng: this.lng[slot] as number,
        lat: this.lat[slot] as number,
        count: 1,
        slot,
        cluster: -1,
        top: this.status[slot] as number,
        mix: null,
      });
    this.answered = { grid, clusters };
    const n = markers.length;
    const answer: ClusterAnswer = {
      version: this.builtVersion,
      lngLat: new Float64Array(2 * n),
      count: new Int32Array(n),
      slot: new Int32Array(n),
      clusterId: new Int32Array(n),
      topStatus: new Uint8Array(n),
      mix: new Int32Array(n * STATUSES),
      stations: this.stationGroups(stationMarkers),
    };
    markers.forEach((marker, i) => {
      answer.lngLat[2 * i] = marker.lng;
      answer.lngLat[2 * i + 1] = marker.lat;
      answer.count[i] = marker.count;
      answer.slot[i] = marker.slot;
      answer.clusterId[i] = marker.cluster;
      answer.topStatus[i] = marker.top;
      if (marker.mix) answer.mix.set(marker.mix, i * STATUSES);
      else answer.mix[i * STATUSES + marker.top] = 1;
    });
    return answer;
  }

  /** The non-empty cells of a zoom inside the viewport, in key order. */
  private cellsIn(grid: Grid, zoom: number, ranges: [number, number][], north: number, south: number): CellMarker[] {
    const level = grid.levels[zoom]!;
    const shift = CELL_UNITS[zoom] as number;
    const cy0 = Math.floor(north / shift);
    const cy1 = Math.floor(south / shift);
    const found: CellMarker[] = [];
    const add = (key: number, row: number) => found.push(grid.marker(zoom, key, row));
    for (const [west, east] of ranges) {
      const cx0 = Math.floor(west / shift);
      const cx1 = Math.floor(east / shift);
      if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > level.size) {
        const side = cellSide(zoom);
        for (const [key, row] of level) {
          const cx = Math.floor(key / side);
          const cy = key - cx * side;
          if (cx >= cx0 && cx <= cx1 && cy >= cy0 && cy <= cy1) add(key, row);
        }
      } else {
        for (let cx = cx0; cx <= cx1; cx += 1)
          for (let cy = cy0; cy <= cy1; cy += 1) {
            const key = cellKey(zoom, cx, cy);
            const row = level.get(key);
            if (row !== undefined) add(key, row);
          }
      }
    }
    return found.sort((a, b) => a.key - b.key);
  }

  /**
   * The zoom at which a cluster of the latest answer breaks apart: the first deeper zoom at which
   * its points fall in cells that no longer merge into one marker.
   */
  expansionZoom(clusterId: number): number {
    const cluster = this.answered?.clusters[clusterId];
    if (!this.answered || !cluster) return CLUSTER_MAX_ZOOM + 1;
    const { grid } = this.answered;
    let keys = cluster.keys;
    for (let zoom = cluster.zoom + 1; zoom <= CLUSTER_MAX_ZOOM; zoom += 1) {
      const parentSide = cellSide(zoom - 1);
      const children: CellMarker[] = [];
      for (const key of keys) {
        const cx = Math.floor(key / parentSide);
        const cy = key - cx * parentSide;
        for (let dx = 0; dx <= 1; dx += 1)
          for (let dy = 0; dy <= 1; dy += 1) {
            const child = cellKey(zoom, 2 * cx + dx, 2 * cy + dy);
            const row = grid.levels[zoom]!.get(child);
            if (row !== undefined) children.push(grid.marker(zoom, child, row));
          }
      }
      if (children.length !== 1 && mergeClose(children.sort((a, b) => a.key - b.key)).length !== 1) return zoom;
      keys = children.map((child) => child.key);
    }
    return CLUSTER_MAX_ZOOM + 1;
  }

  private stationGroups(numbers: readonly number[]): StationGroups {
    const groups: StationGroups = {
      ids: [],
      names: [],
      lngLat: new Float64Array(2 * numbers.length),
      count: new Int32Array(numbers.length),
      topStatus: new Uint8Array(numbers.length),
      mix: new Int32Array(numbers.length * STATUSES),
    };
    numbers.forEach((n, i) => {
      const station = this.stations[n]!;
      groups.ids.push(station.id);
      groups.names.push(station.name || '');
      groups.lngLat[2 * i] = station.position.lng;
      groups.lngLat[2 * i + 1] = station.position.lat;
      groups.count[i] = this.stationEntryCount[n] as number;
      groups.topStatus[i] = topOf(this.stationEntryMix, n * STATUSES);
      groups.mix.set(this.stationEntryMix.subarray(n * STATUSES, (n + 1) * STATUSES), i * STATUSES);
    });
    return groups;
  }
}

/**
 * Greedy merge of markers closer than CLUSTER_RADIUS_PX, in the order given (key order: the answer
 * depends on the cells only); each group lists indexes into `cells`, its first the seed.
 */
function mergeClose(cells: readonly CellMarker[]): number[][] {
  const radius = CLUSTER_RADIUS_PX;
  const bucketKey = (bx: number, by: number) => bx * 2 ** 26 + by;
  const buckets = new Map<number, number[]>();
  cells.forEach((cell, i) => {
    const key = bucketKey(Math.floor(cell.px / radius), Math.floor(cell.py / radius));
    const list = buckets.get(key);
    if (list) list.push(i);
    else buckets.set(key, [i]);
  });
  const used = new Uint8Array(cells.length);
  const groups: number[][] = [];
  for (let i = 0; i < cells.length; i += 1) {
    if (used[i]) continue;
    used[i] = 1;
    const cell = cells[i]!;
    const group = [i];
    const bx = Math.floor(cell.px / radius);
    const by = Math.floor(cell.py / radius);
    for (let dx = -1; dx <= 1; dx += 1)
      for (let dy = -1; dy <= 1; dy += 1)
        for (const j of buckets.get(bucketKey(bx + dx, by + dy)) ?? []) {
          if (used[j]) continue;
          const other = cells[j]!;
          if (Math.hypot(other.px - cell.px, other.py - cell.py) < radius) {
            used[j] = 1;
            group.push(j);
          }
        }
    groups.push(group);
  }
  return groups;
}

function sameStations(a: readonly Station[], b: readonly Station[] | null): boolean {
  return b !== null && a.length === b.length && a.every((station, i) => station === b[i]);
}

/** The viewport's longitudes as world-unit ranges (two across the antimeridian, the world when wider). */
function lngRanges(bbox: readonly [number, number, number, number]): [number, number][] {
  if (bbox[2] - bbox[0] >= 360) return [[0, WORLD - 1]];
  const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;
  const west = wrap(bbox[0]);
  const east = bbox[2] === 180 ? 180 : wrap(bbox[2]);
  if (west > east)
    return [
      [worldX(west), WORLD - 1],
      [0, worldX(east)],
    ];
  return [[worldX(west), worldX(east)]];
}
