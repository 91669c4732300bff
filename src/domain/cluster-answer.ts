/**
 * The group view's answer from the live worker (part 1 §2 group view, §9 clustering): cluster and
 * station markers as parallel typed arrays, transferred to the main thread and drawn by the map.
 */
/** Station groups of an answer; the arrays are parallel, one entry per station. */
export interface StationGroups {
  ids: string[];
  names: string[];
  lngLat: Float64Array;
  count: Int32Array;
  topStatus: Uint8Array;
  /** The station's listed assets per display status, STATUS_COUNT per station. */
  mix: Int32Array;
}

/** Markers of one answer; the arrays are parallel, one entry per marker. */
export interface ClusterAnswer {
  /** The index version answered (equals the diff's clusterVersion). */
  version: number;
  lngLat: Float64Array;
  /** Assets in the marker (1 for a single asset). */
  count: Int32Array;
  /** The asset's slot for a single asset, -1 for a cluster. */
  slot: Int32Array;
  /** The cluster's id for `expansionZoom`, -1 for a single asset. */
  clusterId: Int32Array;
  /** The most urgent display status inside (lowest code). */
  topStatus: Uint8Array;
  /** Assets per display status inside, STATUS_COUNT per marker (a single asset: 1 at its status). */
  mix: Int32Array;
  /** Station groups (empty from STATION_GROUPS_BELOW_ZOOM on, or without station view). */
  stations: StationGroups;
}

export function clusterTransferables(answer: ClusterAnswer): ArrayBuffer[] {
  const arrays = [
    answer.lngLat,
    answer.count,
    answer.slot,
    answer.clusterId,
    answer.topStatus,
    answer.mix,
    answer.stations.lngLat,
    answer.stations.count,
    answer.stations.topStatus,
    answer.stations.mix,
  ];
  return arrays.map((array) => array.buffer as ArrayBuffer);
}
