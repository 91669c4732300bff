/**
 * The group view (part 1 §2 Map: "Assets are grouped at stations when zoomed out"; the list's
 * group-view toggle): clusters of the listed assets from a supercluster index, and station groups
 * (the listed assets at a station, one marker per station with its count), answered per viewport
 * and zoom as typed arrays.
 *
 * The indexes are rebuilt only when something they show changed (a listed asset moved, changed
 * status or icon, joined or left a station or the list) and only when asked: the store raises
 * `changes.clusters`, the engine turns it into a new `version`, a query on an older index rebuilds.
 */
import Supercluster, { type ClusterProperties } from 'supercluster';
import { ASSET_STATUS } from '../domain/asset-status';
import type { Station } from '../domain/area';
import { FLAG_AT_STATION, FLAG_LISTED } from './diff';
import type { FleetStore } from './fleet-store';
import type { ClusterAnswer, ClusterQuery, StationGroups } from './live-protocol';

/** chosen: below this zoom the assets at a station show as one station marker (README). */
export const STATION_GROUPS_BELOW_ZOOM = 15;
/** chosen: supercluster's radius in pixels and the zoom from which every asset shows alone. */
export const CLUSTER_RADIUS_PX = 60;
export const CLUSTER_MAX_ZOOM = 16;

interface PointProps {
  slot: number;
  top: number;
}
type ClusterProps = { top: number };

type Point = GeoJSON.Feature<GeoJSON.Point, PointProps>;

function newIndex(points: Point[] = []): Supercluster<PointProps, ClusterProps> {
  const index = new Supercluster<PointProps, ClusterProps>({
    radius: CLUSTER_RADIUS_PX,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (props) => ({ top: props.top }),
    reduce: (acc, props) => {
      if (props.top < acc.top) acc.top = props.top;
    },
  });
  return index.load(points);
}

export class ClusterIndex {
  private free = newIndex();
  private stationed = newIndex();
  private groups = new Map<string, { station: Station; count: number; top: number }>();
  private builtVersion = -1;
  /** Rebuilds so far (the bench and tests read it). */
  builds = 0;

  /** One GeoJSON point per slot, reused from build to build (50,000 fresh objects a second would feed the GC). */
  private features: Point[] = [];

  private featureOf(slot: number, lng: number, lat: number, top: number): Point {
    let feature = this.features[slot];
    if (!feature) {
      feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { slot, top } };
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
    this.free = newIndex();
    this.stationed = newIndex();
    this.groups.clear();
    this.features = [];
    this.builtVersion = -1;
  }

  /** Rebuilds from the store when `version` is newer than the one built. */
  ensure(store: FleetStore, version: number): void {
    if (version === this.builtVersion) return;
    const free: Point[] = [];
    const stationed: Point[] = [];
    this.groups.clear();
    const { flags, lngLat, status } = store.buffers;
    for (let slot = 0; slot < store.highWater; slot += 1) {
      const f = flags[slot] as number;
      if (!(f & FLAG_LISTED)) continue;
      const top = status[slot] as number;
      const feature = this.featureOf(slot, lngLat[2 * slot] as number, lngLat[2 * slot + 1] as number, top);
      const stationId = f & FLAG_AT_STATION ? store.assets[slot]?.stationId : null;
      const station = stationId ? store.stations.get(stationId) : undefined;
      if (!station || !stationId) {
        free.push(feature);
        continue;
      }
      stationed.push(feature);
      const group = this.groups.get(stationId);
      if (group) {
        group.count += 1;
        if (top < group.top) group.top = top;
      } else {
        this.groups.set(stationId, { station, count: 1, top });
      }
    }
    this.free = newIndex(free);
    this.stationed = newIndex(stationed);
    this.builtVersion = version;
    this.builds += 1;
  }

  query(query: ClusterQuery): ClusterAnswer {
    const zoom = Math.max(0, Math.floor(query.zoom));
    const grouped = query.stationView && zoom < STATION_GROUPS_BELOW_ZOOM;
    const features = [...clustersOf(this.free, query.bbox, zoom)];
    if (!grouped) features.push(...clustersOf(this.stationed, query.bbox, zoom));
    const n = features.length;
    const answer: ClusterAnswer = {
      version: this.builtVersion,
      lngLat: new Float64Array(2 * n),
      count: new Int32Array(n),
      slot: new Int32Array(n),
      clusterId: new Int32Array(n),
      topStatus: new Uint8Array(n),
      stations: grouped ? this.stationGroups(query.bbox) : emptyGroups(),
    };
    features.forEach((feature, i) => {
      const [lng, lat] = feature.geometry.coordinates as [number, number];
      answer.lngLat[2 * i] = lng;
      answer.lngLat[2 * i + 1] = lat;
      const props = feature.properties as Partial<ClusterProperties> & Partial<PointProps> & ClusterProps;
      const isCluster = props.cluster === true;
      answer.count[i] = isCluster ? (props.point_count ?? 0) : 1;
      answer.slot[i] = isCluster ? -1 : (props.slot ?? -1);
      answer.clusterId[i] = isCluster ? (props.cluster_id ?? -1) : -1;
      answer.topStatus[i] = props.top ?? ASSET_STATUS.oos;
    });
    return answer;
  }

  /** The zoom at which a cluster of the free or the station index breaks apart. */
  expansionZoom(clusterId: number): number {
    for (const index of [this.free, this.stationed]) {
      try {
        return index.getClusterExpansionZoom(clusterId);
      } catch {
        // not a cluster of this index
      }
    }
    return CLUSTER_MAX_ZOOM + 1;
  }

  private stationGroups(bbox: [number, number, number, number]): StationGroups {
    const [west, south, east, north] = bbox;
    const inside = [...this.groups.entries()].filter(([, { station }]) => {
      const { lat, lng } = station.position;
      const inLng = west <= east ? lng >= west && lng <= east : lng >= west || lng <= east;
      return lat >= south && lat <= north && inLng;
    });
    const groups: StationGroups = {
      ids: inside.map(([id]) => id),
      names: inside.map(([, group]) => group.station.name),
      lngLat: new Float64Array(2 * inside.length),
      count: new Int32Array(inside.length),
      topStatus: new Uint8Array(inside.length),
    };
    inside.forEach(([, group], i) => {
      groups.lngLat[2 * i] = group.station.position.lng;
      groups.lngLat[2 * i + 1] = group.station.position.lat;
      groups.count[i] = group.count;
      groups.topStatus[i] = group.top;
    });
    return groups;
  }
}

function clustersOf(index: Supercluster<PointProps, ClusterProps>, bbox: [number, number, number, number], zoom: number) {
  return index.getClusters(bbox, zoom) as GeoJSON.Feature<GeoJSON.Point, PointProps | (ClusterProperties & ClusterProps)>[];
}

function emptyGroups(): StationGroups {
  return { ids: [], names: [], lngLat: new Float64Array(0), count: new Int32Array(0), topStatus: new Uint8Array(0) };
}
