/**
 * The group view's markers (part 1 §2 "Assets are grouped at stations when
 * zoomed out"): colour by the most urgent status inside, size and label by count, station markers,
 * and the singles' compact attribute set built from the answer's slots and the store's buffers.
 */
import { describe, expect, it } from 'vitest';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import { STATUS_COLORS } from '../../src/map/icon-atlas';
import {
  CLUSTER_MAX_RADIUS_PX,
  CLUSTER_MIN_RADIUS_PX,
  clusterColor,
  clusterLabel,
  clusterMarkers,
  clusterRadiusPx,
  clustersLayers,
  dominantStatus,
  OOS_COLOR,
  singleSlots,
  singlesLayerData,
  stationMarkers,
} from '../../src/map/layers/clusters-layer';
import { createFleetBuffers, FLAG_LISTED, FLAG_PRESENT, STATUS_COUNT } from '../../src/domain/live-diff';
import type { ClusterAnswer } from '../../src/domain/cluster-answer';

type Mix = number[];
/** A mix of `count` assets all at `top`, unless given. */
const mixOf = (count: number, top: number, mix?: Mix): Mix =>
  mix ?? Array.from({ length: STATUS_COUNT }, (_, s) => (s === top ? count : 0));

function answerOf(
  markers: { lng: number; lat: number; count: number; slot: number; clusterId: number; top: number; mix?: Mix }[],
  stations: { id: string; name: string; lng: number; lat: number; count: number; top: number; mix?: Mix }[] = [],
): ClusterAnswer {
  return {
    version: 3,
    lngLat: new Float64Array(markers.flatMap((m) => [m.lng, m.lat])),
    count: new Int32Array(markers.map((m) => m.count)),
    slot: new Int32Array(markers.map((m) => m.slot)),
    clusterId: new Int32Array(markers.map((m) => m.clusterId)),
    topStatus: new Uint8Array(markers.map((m) => m.top)),
    mix: new Int32Array(markers.flatMap((m) => mixOf(m.count, m.top, m.mix))),
    stations: {
      ids: stations.map((s) => s.id),
      names: stations.map((s) => s.name),
      lngLat: new Float64Array(stations.flatMap((s) => [s.lng, s.lat])),
      count: new Int32Array(stations.map((s) => s.count)),
      topStatus: new Uint8Array(stations.map((s) => s.top)),
      mix: new Int32Array(stations.flatMap((s) => mixOf(s.count, s.top, s.mix))),
    },
  };
}

describe('group view: cluster look', () => {
  it.each([
    [ASSET_STATUS.location, STATUS_COLORS[0]],
    [ASSET_STATUS.active, STATUS_COLORS[1]],
    [ASSET_STATUS.standby, STATUS_COLORS[2]],
    [ASSET_STATUS.stationary, STATUS_COLORS[3]],
    [ASSET_STATUS.pending, STATUS_COLORS[4]],
    [ASSET_STATUS.offline, STATUS_COLORS[5]],
    [ASSET_STATUS.oos, OOS_COLOR],
  ])('the most urgent status %i inside gives the status colour of the icons', (status, colour) => {
    expect(clusterColor(status)).toEqual(colour);
  });

  it('the radius grows with the count, within its bounds', () => {
    expect(clusterRadiusPx(2)).toBe(CLUSTER_MIN_RADIUS_PX);
    expect(clusterRadiusPx(20)).toBeGreaterThan(clusterRadiusPx(2));
    expect(clusterRadiusPx(2_000)).toBeGreaterThan(clusterRadiusPx(20));
    expect(clusterRadiusPx(10_000_000)).toBe(CLUSTER_MAX_RADIUS_PX);
  });

  it.each([
    [2, '2'],
    [999, '999'],
    [1_000, '1k'],
    [1_234, '1.2k'],
    [9_999, '9.9k'],
    [12_345, '12k'],
    [120_000, '120k'],
  ])('count %i is labelled %s', (count, label) => {
    expect(clusterLabel(count)).toBe(label);
  });
});

describe('group view: markers from the worker answer', () => {
  const answer = answerOf(
    [
      // 12 assets: 2 en route (the most urgent), 10 standing by (the most).
      { lng: -97.7, lat: 30.2, count: 12, slot: -1, clusterId: 41, top: ASSET_STATUS.active, mix: [0, 2, 10, 0, 0, 0, 0] },
      { lng: -97.6, lat: 30.3, count: 1, slot: 5, clusterId: -1, top: ASSET_STATUS.standby },
      { lng: -97.5, lat: 30.4, count: 3, slot: -1, clusterId: 42, top: ASSET_STATUS.offline },
      { lng: -97.4, lat: 30.5, count: 1, slot: 2, clusterId: -1, top: ASSET_STATUS.location },
    ],
    [{ id: 'st-1', name: 'Fire Station 1', lng: -97.3, lat: 30.1, count: 4, top: ASSET_STATUS.stationary }],
  );

  it('clusters are the markers of more than one asset, with id, most urgent and most common status, mix, label and radius', () => {
    expect(clusterMarkers(answer)).toEqual([
      {
        position: [-97.7, 30.2],
        count: 12,
        clusterId: 41,
        status: ASSET_STATUS.active,
        dominant: ASSET_STATUS.standby,
        mix: [0, 2, 10, 0, 0, 0, 0],
        label: '12',
        radius: clusterRadiusPx(12),
      },
      {
        position: [-97.5, 30.4],
        count: 3,
        clusterId: 42,
        status: ASSET_STATUS.offline,
        dominant: ASSET_STATUS.offline,
        mix: [0, 0, 0, 0, 0, 3, 0],
        label: '3',
        radius: clusterRadiusPx(3),
      },
    ]);
  });

  it('a cluster is filled with the status most of it has and ringed in the most urgent one when that differs (not red all over for 2 en route of 12)', () => {
    const [clusters] = clustersLayers(clusterMarkers(answer), []);
    const props = clusters!.props as unknown as {
      getFillColor: (d: unknown) => number[];
      getLineColor: (d: unknown) => number[];
      getLineWidth: (d: unknown) => number;
    };
    const [mixed, plain] = clusterMarkers(answer);
    expect(props.getFillColor(mixed)).toEqual([...clusterColor(ASSET_STATUS.standby), 235]);
    expect(props.getLineColor(mixed)).toEqual([...clusterColor(ASSET_STATUS.active), 255]);
    expect(props.getLineWidth(mixed)).toBe(4);
    expect(props.getFillColor(plain)).toEqual([...clusterColor(ASSET_STATUS.offline), 235]);
    expect(props.getLineColor(plain)).toEqual([255, 255, 255, 255]);
    expect(props.getLineWidth(plain)).toBe(2);
  });

  it('the most common status: ties go to the more urgent; an empty mix reads out of service', () => {
    expect(dominantStatus([0, 3, 3, 0, 0, 0, 0])).toBe(ASSET_STATUS.active);
    expect(dominantStatus([1, 0, 0, 0, 0, 0, 5])).toBe(ASSET_STATUS.oos);
    expect(dominantStatus([0, 0, 0, 0, 0, 0, 0])).toBe(ASSET_STATUS.oos);
  });

  it('station groups keep their name, count and mix', () => {
    expect(stationMarkers(answer)).toEqual([
      {
        id: 'st-1',
        name: 'Fire Station 1',
        position: [-97.3, 30.1],
        count: 4,
        status: ASSET_STATUS.stationary,
        mix: [0, 0, 0, 4, 0, 0, 0],
        label: '4',
      },
    ]);
  });

  it('single assets are the answer’s slots, in answer order', () => {
    expect(Array.from(singleSlots(answer))).toEqual([5, 2]);
  });

  it('builds the singles’ compact attributes from the store buffers (current values, one instance per slot)', () => {
    const buffers = createFleetBuffers(8);
    const listed = FLAG_PRESENT | FLAG_LISTED;
    buffers.lngLat.set([-97.61, 30.31], 10);
    buffers.icon[5] = 17;
    buffers.status[5] = ASSET_STATUS.standby;
    buffers.heading[5] = 90;
    buffers.flags[5] = listed;
    buffers.lngLat.set([-97.41, 30.51], 4);
    buffers.icon[2] = 3;
    buffers.flags[2] = listed;
    const data = singlesLayerData(new Int32Array([5, 2, 99]), buffers, 12);
    expect(data.length).toBe(3);
    expect(data.version).toBe(12);
    expect(Array.from(data.attributes.getPosition.value)).toEqual([-97.61, 30.31, -97.41, 30.51, 0, 0]);
    expect(Array.from(data.attributes.getIconIndex.value)).toEqual([17, 3, 0]);
    expect(Array.from(data.attributes.getStatus.value)).toEqual([ASSET_STATUS.standby, 0, 0]);
    expect(data.attributes.getHeading.value[0]).toBe(90);
    expect(Number.isNaN(data.attributes.getHeading.value[2])).toBe(true);
    // A slot beyond the buffers is not drawn (no flags).
    expect(Array.from(data.attributes.getFlags.value)).toEqual([listed, listed, 0]);
    // The attributes are copies: the store's buffers are untouched by the layer.
    expect(data.attributes.getPosition.value.buffer).not.toBe(buffers.lngLat.buffer);
  });

  it('makes pickable clusters and stations whose clicks and hovers reach the handlers', () => {
    const clicked: number[] = [];
    const stationClicks: string[] = [];
    const hovered: (string | null)[] = [];
    const clusterHovers: (number | null)[] = [];
    const layers = clustersLayers(clusterMarkers(answer), stationMarkers(answer), {
      onClusterClick: (m) => clicked.push(m.clusterId),
      onClusterHover: (m) => clusterHovers.push(m?.clusterId ?? null),
      onStationClick: (m) => stationClicks.push(m.name),
      onStationHover: (m) => hovered.push(m?.name ?? null),
    });
    expect(layers.map((l) => l.id)).toEqual(['asset-clusters', 'asset-cluster-counts', 'asset-stations', 'asset-station-counts']);
    const [clusters, , stations] = layers;
    const first = clusterMarkers(answer)[0];
    // deck.gl calls a layer's onClick/onHover with the picked object.
    (clusters!.props.onClick as (info: unknown, event: unknown) => unknown)({ object: first }, {});
    (clusters!.props.onHover as (info: unknown, event: unknown) => unknown)({ object: first }, {});
    (clusters!.props.onHover as (info: unknown, event: unknown) => unknown)({ object: null }, {});
    (stations!.props.onClick as (info: unknown, event: unknown) => unknown)({ object: stationMarkers(answer)[0] }, {});
    (stations!.props.onHover as (info: unknown, event: unknown) => unknown)({ object: stationMarkers(answer)[0] }, {});
    (stations!.props.onHover as (info: unknown, event: unknown) => unknown)({ object: null }, {});
    expect(clicked).toEqual([41]);
    expect(clusterHovers).toEqual([41, null]);
    expect(stationClicks).toEqual(['Fire Station 1']);
    expect(hovered).toEqual(['Fire Station 1', null]);
    expect(clusters!.props.pickable).toBe(true);
  });

  it('the counts are drawn over their markers: white on a cluster, dark on a station, bold and centred', () => {
    const layers = clustersLayers(clusterMarkers(answer), stationMarkers(answer));
    const [, clusterCounts, , stationCounts] = layers;
    const text = (layer: (typeof layers)[number] | undefined, d: unknown) =>
      (layer!.props as unknown as { getText: (d: unknown) => string }).getText(d);
    const position = (layer: (typeof layers)[number] | undefined, d: unknown) =>
      (layer!.props as unknown as { getPosition: (d: unknown) => unknown }).getPosition(d);
    const [cluster] = clusterMarkers(answer);
    const [station] = stationMarkers(answer);
    expect(text(clusterCounts, cluster)).toBe('12');
    expect(position(clusterCounts, cluster)).toEqual([-97.7, 30.2]);
    expect(text(stationCounts, station)).toBe('4');
    expect(position(stationCounts, station)).toEqual([-97.3, 30.1]);
    expect(clusterCounts!.props).toMatchObject({
      getSize: 13,
      getColor: [255, 255, 255, 255],
      fontWeight: 700,
      getTextAnchor: 'middle',
      getAlignmentBaseline: 'center',
      characterSet: '0123456789.k',
    });
    expect(stationCounts!.props).toMatchObject({
      getSize: 12,
      getColor: [23, 32, 46, 255],
      fontWeight: 700,
      getTextAnchor: 'middle',
      getAlignmentBaseline: 'center',
      characterSet: '0123456789.k',
    });
  });
});
