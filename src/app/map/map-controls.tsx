/** The dashboard map's controls (issue 7 "Controls"): drawn over the map. */
import type { LayersList } from '@deck.gl/core';
import type { DashboardMapProps } from './dashboard-map';

export function MapControls(_props: DashboardMapProps) {
  return null;
}

/** Layers the controls draw (e.g. the found location). */
export function useControlLayers(_props: DashboardMapProps): LayersList {
  return [];
}
