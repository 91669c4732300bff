/**
 * The group view (part 1 §2 Map: "Assets are grouped at stations when zoomed out"; the list's
 * group-view toggle): clusters of the listed assets from a supercluster index, and station groups
 * (the listed assets at a station, one marker per station with its count; zoomed out, stations
 * close together merge into a cluster like assets do), answered per viewport and zoom as typed
 * arrays.
 *
 * The indexes are rebuilt only when something they show changed (a listed asset moved, changed
 * status or icon, joined or left a station or the list) and only when asked: the store raises
 * `changes.clusters`, the engine turns it into a new `version`, a query on an older index rebuilds.
 */
import Supercluster, { type ClusterProperties } from 'supercluster';
import { ASSET_STATUS } from '../domain/asset-status';
import type { Station } from '../domain/area';
import { FLAG_AT_STATION, FLAG_LISTED } from '../domain/live-diff';
import type { FleetStore } from './fleet-store';
import type { ClusterAnswer, StationGroups } from '../domain/cluster-answer';
import type { ClusterQuery } from './live-protocol';

/** chosen: below this zoom the assets at a station show as one station marker (README). */
export const STATION_GROUPS_BELOW_ZOOM = 15;
/** chosen: supercluster's radius in pixels and the zoom from which every asset shows alone. */
export const CLUSTER_RADIUS_PX = 60;
export const CLUSTER_MAX_ZOOM = 16;

interface PointProps {
  /** The asset's slot; -1 for a station's point. */
  slot: number;
  top: number;
  /** Assets the point stands for: 1 for an asset, the listed assets at the station for a station. */
  n: number;
  /** The station's id for a station's point, else null. */
  station: string | null;
}
type ClusterProps = { top: number; n: number };

type Point = GeoJSON.Feature<GeoJSON.Point, PointProps>;
type Index = Supercluster<PointProps, ClusterProps>;

function newIndex(points: Point[] = []): Index {
  const index = new Supercluster<PointProps, ClusterProps>({
    radius: CLUSTER_RADIUS_PX,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (props) => ({ top: props.top, n: props.n }),
    reduce: (acc, props) => {
      if (props.top < acc.top) acc.top = props.top;
      acc.n += props.n;
    },
  });
  return index.load(points);
}

/**
 * Two indexes over the same listed assets, each built on the first query that needs it after a
 * change (a live fleet changes every second; only the view on screen pays):
 * - `all`: every listed asset alone (station view off, or zoomed in from STATION_GROUPS_BELOW_ZOOM);
 * - `grouped`: the assets away from stations plus one point per station standing for its assets,
 *   so station markers that would overlap each other or a cluster merge into one cluster counting
 *   all their assets (zoomed out, a region's stations would otherwise pile up on one another).
 */
export class ClusterIndex {
  /** Every listed asset's point, and those of the assets away from stations. */
  private listed: Point[] = [];
  private free: Point[] = [];
  private all: Index | null = null;
  private grouped: Index | null = null;
  /** The index of the latest answer: its cluster ids are the ones `expansionZoom` is asked about. */
  private answered: Index | null = null;
  private groups = new Map<string, { station: Station; count: number; top: number }>();
  private builtVersion = -1;
  /** Rebuilds so far (the bench and tests read it). */
  builds = 0;

  /** One GeoJSON point per slot, reused from build to build (50,000 fresh objects a second would feed the GC). */
  private features: Point[] = [];

  private featureOf(slot: number, lng: number, lat: number, top: number): Point {
    let feature = this.features[slot];
    if (!feature) {
      feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { slot, top, n: 1, station: null } };
      this.features[slot] = feature;
      return feature;
    }
    const coordinates = feature.geometry.coordinates;
    coordinates[0] = lng;
    coordinates[1] = lat;
    feature.properties.top = top;
    return feature;
  }

  /** Drops the indexes (organization switch). */
  clear(): void {
    this.listed = [];
    this.free = [];
    this.all = null;
    this.grouped = null;
    this.answered = null;
    this.groups.clear();
    this.features = [];
    this.builtVersion = -1;
  }

  /** Re-reads the listed assets from the store when `version` is newer than the one built. */
  ensure(store: FleetStore, version: number): void {
    if (version === this.builtVersion) return;
    const listed: Point[] = [];
    const free: Point[] = [];
    this.groups.clear();
    const { flags, lngLat, status } = store.buffers;
    for (let slot = 0; slot < store.highWater; slot += 1) {
      const f = flags[slot] as number;
      if (!(f & FLAG_LISTED)) continue;
      const top = status[slot] as number;
      const feature = this.featureOf(slot, lngLat[2 * slot] as number, lngLat[2 * slot + 1] as number, top);
      listed.push(feature);
      const stationId = f & FLAG_AT_STATION ? store.assets[slot]?.stationId : null;
      const station = stationId ? store.stations.get(stationId) : undefined;
      if (!station || !stationId) {
        free.push(feature);
        continue;
      }
      const group = this.groups.get(stationId);
      if (group) {
        group.count += 1;
        if (top < group.top) group.top = top;
      } else {
        this.groups.set(stationId, { station, count: 1, top });
      }
    }
    this.listed = listed;
    this.free = free;
    this.all = null;
    this.grouped = null;
    this.builtVersion = version;
    this.builds += 1;
  }

  private allIndex(): Index {
    this.all ??= newIndex(this.listed);
    return this.all;
  }

  private groupedIndex(): Index {
    if (!this.grouped) {
      const stations: Point[] = [];
      for (const [id, group] of this.groups) {
        const { lat, lng } = group.station.position;
        stations.push({
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [lng, lat] },
          properties: { slot: -1, top: group.top, n: group.count, station: id },
        });
      }
      this.grouped = newIndex(this.free.concat(stations));
    }
    return this.grouped;
  }

  query(query: ClusterQuery): ClusterAnswer {
    const zoom = Math.max(0, Math.floor(query.zoom));
    const grouped = query.stationView && zoom < STATION_GROUPS_BELOW_ZOOM;
    const index = grouped ? this.groupedIndex() : this.allIndex();
    this.answered = index;
    const markers: Feature[] = [];
    const stations: Feature[] = [];
    for (const feature of clustersOf(index, query.bbox, zoom)) {
      const props = feature.properties as Partial<ClusterProperties> & Partial<PointProps>;
      if (props.cluster !== true && props.station) stations.push(feature);
      else markers.push(feature);
    }
    const n = markers.length;
    const answer: ClusterAnswer = {
      version: this.builtVersion,
      lngLat: new Float64Array(2 * n),
      count: new Int32Array(n),
      slot: new Int32Array(n),
      clusterId: new Int32Array(n),
      topStatus: new Uint8Array(n),
      stations: this.stationGroups(stations),
    };
    markers.forEach((feature, i) => {
      const [lng, lat] = feature.geometry.coordinates as [number, number];
      answer.lngLat[2 * i] = lng;
      answer.lngLat[2 * i + 1] = lat;
      const props = feature.properties as Partial<ClusterProperties> & Partial<PointProps> & ClusterProps;
      const isCluster = props.cluster === true;
      answer.count[i] = isCluster ? props.n : 1;
      answer.slot[i] = isCluster ? -1 : (props.slot ?? -1);
      answer.clusterId[i] = isCluster ? (props.cluster_id ?? -1) : -1;
      answer.topStatus[i] = props.top ?? ASSET_STATUS.oos;
    });
    return answer;
  }

  /** The zoom at which a cluster of the latest answer breaks apart. */
  expansionZoom(clusterId: number): number {
    try {
      if (this.answered) return this.answered.getClusterExpansionZoom(clusterId);
    } catch {
      // not a cluster of the index answered last
    }
    return CLUSTER_MAX_ZOOM + 1;
  }

  private stationGroups(features: readonly Feature[]): StationGroups {
    const groups: StationGroups = {
      ids: [],
      names: [],
      lngLat: new Float64Array(2 * features.length),
      count: new Int32Array(features.length),
      topStatus: new Uint8Array(features.length),
    };
    features.forEach((feature, i) => {
      const { station: id, n, top } = feature.properties as PointProps;
      const [lng, lat] = feature.geometry.coordinates as [number, number];
      groups.ids.push(id ?? '');
      groups.names.push((id && this.groups.get(id)?.station.name) || '');
      groups.lngLat[2 * i] = lng;
      groups.lngLat[2 * i + 1] = lat;
      groups.count[i] = n;
      groups.topStatus[i] = top;
    });
    return groups;
  }
}

type Feature = GeoJSON.Feature<GeoJSON.Point, PointProps | (ClusterProperties & ClusterProps)>;

function clustersOf(index: Index, bbox: [number, number, number, number], zoom: number): Feature[] {
  return index.getClusters(bbox, zoom) as Feature[];
}
