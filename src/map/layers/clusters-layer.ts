/**
 * The group view's markers (part 1 §2 Map: "Assets are grouped at stations when
 * zoomed out"): the worker's cluster answer (src/workers/cluster-index.ts) drawn as circles with
 * their count, filled with the status most of their assets have and ringed in the most urgent one
 * when it differs (chosen: a cluster of 300 units with 19 on scene reads as a mostly standing-by
 * fleet with some on scene, not as a region on scene; hovering lists the mix), and station groups
 * as a station marker with its count. A single asset of the answer is drawn with its real icon by the assets
 * layer over a compact attribute set built here from the answer's slots and the live store's
 * buffers — work proportional to the markers on screen, never to the fleet.
 */
import { ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Layer, PickingInfo } from '@deck.gl/core';
import { ASSET_STATUS } from '../../domain/asset-status';
import type { AssetsLayerData } from './assets-layer-data';
import { STATUS_COUNT, type FleetBuffers } from '../../domain/live-diff';
import type { ClusterAnswer } from '../../domain/cluster-answer';
import { STATUS_COLORS } from '../icon-atlas';

type Rgb = readonly [number, number, number];

/** Out of service (the icon's status colours stop at offline): the app's --status-6. */
export const OOS_COLOR: Rgb = [66, 66, 66];

/** The colour of a marker whose most urgent status inside is `status` (display status 0..6). */
export function clusterColor(status: number): Rgb {
  if (status === ASSET_STATUS.oos) return OOS_COLOR;
  return STATUS_COLORS[status] ?? OOS_COLOR;
}

/** chosen: a cluster's radius grows with the log of its count, 14 px for 2 up to 30 px (docs/decisions/spec.md "Values the spec does not give"). */
export const CLUSTER_MIN_RADIUS_PX = 14;
export const CLUSTER_MAX_RADIUS_PX = 30;

export function clusterRadiusPx(count: number): number {
  const grown = CLUSTER_MIN_RADIUS_PX + 5 * Math.log10(Math.max(1, count / 2));
  return Math.min(CLUSTER_MAX_RADIUS_PX, Math.round(grown));
}

/** The count as drawn: up to 999 in full, then '1.2k', '12k', '120k'. */
export function clusterLabel(count: number): string {
  if (count < 1_000) return String(count);
  const thousands = count / 1_000;
  return thousands < 10 ? `${(Math.floor(thousands * 10) / 10).toString()}k` : `${Math.floor(thousands)}k`;
}

export interface ClusterMarker {
  position: [number, number];
  count: number;
  clusterId: number;
  /** The most urgent display status inside. */
  status: number;
  /** The display status most assets inside have (ties: the more urgent). */
  dominant: number;
  /** Assets per display status (index = status code). */
  mix: number[];
  label: string;
  radius: number;
}

export interface StationMarker {
  id: string;
  name: string;
  position: [number, number];
  count: number;
  status: number;
  /** Assets per display status (index = status code). */
  mix: number[];
  label: string;
}

/** The display status most of a mix's assets have; ties go to the more urgent (lower code). */
export function dominantStatus(mix: readonly number[]): number {
  let best = ASSET_STATUS.oos as number;
  let most = 0;
  mix.forEach((count, status) => {
    if (count > most) {
      most = count;
      best = status;
    }
  });
  return best;
}

function mixAt(array: Int32Array, i: number): number[] {
  return Array.from(array.subarray(i * STATUS_COUNT, (i + 1) * STATUS_COUNT));
}

/** The clusters of an answer (its markers that hold more than one asset). */
export function clusterMarkers(answer: ClusterAnswer): ClusterMarker[] {
  const markers: ClusterMarker[] = [];
  for (let i = 0; i < answer.count.length; i += 1) {
    if ((answer.slot[i] as number) >= 0) continue;
    const count = answer.count[i] as number;
    const mix = mixAt(answer.mix, i);
    markers.push({
      position: [answer.lngLat[2 * i] as number, answer.lngLat[2 * i + 1] as number],
      count,
      clusterId: answer.clusterId[i] as number,
      status: answer.topStatus[i] as number,
      dominant: dominantStatus(mix),
      mix,
      label: clusterLabel(count),
      radius: clusterRadiusPx(count),
    });
  }
  return markers;
}

export function stationMarkers(answer: ClusterAnswer): StationMarker[] {
  const { stations } = answer;
  return stations.ids.map((id, i) => ({
    id,
    name: stations.names[i] ?? '',
    position: [stations.lngLat[2 * i] as number, stations.lngLat[2 * i + 1] as number],
    count: stations.count[i] as number,
    status: stations.topStatus[i] as number,
    mix: mixAt(stations.mix, i),
    label: clusterLabel(stations.count[i] as number),
  }));
}

/** The slots of the answer's single assets, in answer order. */
export function singleSlots(answer: ClusterAnswer): Int32Array {
  let n = 0;
  for (let i = 0; i < answer.slot.length; i += 1) if ((answer.slot[i] as number) >= 0) n += 1;
  const slots = new Int32Array(n);
  let j = 0;
  for (let i = 0; i < answer.slot.length; i += 1) {
    const slot = answer.slot[i] as number;
    if (slot >= 0) slots[j++] = slot;
  }
  return slots;
}

/**
 * The assets layer's data for a few slots: a compact copy of their values from the store's
 * buffers (current, so a single follows its diffs between two cluster answers). Instance i is
 * `slots[i]`; a slot beyond the buffers (or emptied since) carries no flags and is not drawn.
 */
export function singlesLayerData(slots: Int32Array, buffers: FleetBuffers, version: number): AssetsLayerData {
  const n = slots.length;
  const lngLat = new Float64Array(2 * n);
  const icon = new Uint8Array(n);
  const status = new Uint8Array(n);
  const heading = new Float32Array(n);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) {
    const slot = slots[i] as number;
    if (slot >= buffers.capacity) {
      heading[i] = Number.NaN;
      continue;
    }
    lngLat[2 * i] = buffers.lngLat[2 * slot] as number;
    lngLat[2 * i + 1] = buffers.lngLat[2 * slot + 1] as number;
    icon[i] = buffers.icon[slot] as number;
    status[i] = buffers.status[slot] as number;
    heading[i] = buffers.heading[slot] as number;
    flags[i] = buffers.flags[slot] as number;
  }
  return {
    length: n,
    version,
    attributes: {
      getPosition: { value: lngLat, size: 2 },
      getIconIndex: { value: icon, size: 1 },
      getStatus: { value: status, size: 1 },
      getHeading: { value: heading, size: 1 },
      getFlags: { value: flags, size: 1 },
    },
  };
}

const rgba = (c: Rgb, a = 255): [number, number, number, number] => [c[0], c[1], c[2], a];
const WHITE: [number, number, number, number] = [255, 255, 255, 255];
const INK: [number, number, number, number] = [23, 32, 46, 255];
/** chosen: a station marker's radius, px. */
export const STATION_RADIUS_PX = 16;

/** chosen: the ring of a cluster whose most urgent status is not its most common, px. */
const URGENT_RING_PX = 4;
/** chosen: the count's text size on a cluster and on a station marker, px. */
const CLUSTER_COUNT_SIZE_PX = 13;
const STATION_COUNT_SIZE_PX = 12;
/** Every character clusterLabel writes: the font atlas holds these only. */
const COUNT_CHARACTERS = '0123456789.k';

/** A marker's count (`clusterLabel`), bold and centred on it. */
function countLabels<T extends { position: [number, number]; label: string }>(
  id: string,
  data: T[],
  size: number,
  color: [number, number, number, number],
): TextLayer<T> {
  return new TextLayer<T>({
    id,
    data,
    getPosition: (d) => d.position,
    getText: (d) => d.label,
    getSize: size,
    getColor: color,
    fontWeight: 700,
    fontFamily: 'sans-serif',
    getTextAnchor: 'middle',
    getAlignmentBaseline: 'center',
    characterSet: COUNT_CHARACTERS,
  });
}

export interface ClustersLayerHandlers {
  onClusterClick?: (marker: ClusterMarker) => void;
  onClusterHover?: (marker: ClusterMarker | null, info: PickingInfo) => void;
  onStationClick?: (marker: StationMarker) => void;
  onStationHover?: (marker: StationMarker | null, info: PickingInfo) => void;
}

/** The clusters (circles with counts) and station markers (white discs ringed in the top status, with counts). */
export function clustersLayers(clusters: ClusterMarker[], stations: StationMarker[], handlers: ClustersLayerHandlers = {}): Layer[] {
  return [
    new ScatterplotLayer<ClusterMarker>({
      id: 'asset-clusters',
      data: clusters,
      pickable: true,
      radiusUnits: 'pixels',
      lineWidthUnits: 'pixels',
      stroked: true,
      getPosition: (d) => d.position,
      getRadius: (d) => d.radius,
      getFillColor: (d) => rgba(clusterColor(d.dominant), 235),
      // The most urgent status inside rings the cluster when most of it is something else.
      getLineColor: (d) => (d.status === d.dominant ? WHITE : rgba(clusterColor(d.status))),
      getLineWidth: (d) => (d.status === d.dominant ? 2 : URGENT_RING_PX),
      onClick: (info) => {
        if (info.object) handlers.onClusterClick?.(info.object);
        return true;
      },
      onHover: (info) => {
        handlers.onClusterHover?.(info.object ?? null, info);
        return false;
      },
    }),
    countLabels('asset-cluster-counts', clusters, CLUSTER_COUNT_SIZE_PX, WHITE),
    new ScatterplotLayer<StationMarker>({
      id: 'asset-stations',
      data: stations,
      pickable: true,
      radiusUnits: 'pixels',
      lineWidthUnits: 'pixels',
      stroked: true,
      getPosition: (d) => d.position,
      getRadius: STATION_RADIUS_PX,
      getFillColor: WHITE,
      getLineColor: (d) => rgba(clusterColor(d.status)),
      getLineWidth: 4,
      onClick: (info) => {
        if (info.object) handlers.onStationClick?.(info.object);
        return true;
      },
      onHover: (info) => {
        handlers.onStationHover?.(info.object ?? null, info);
        return false;
      },
    }),
    countLabels('asset-station-counts', stations, STATION_COUNT_SIZE_PX, INK),
  ];
}
