/**
 * The dashboard map's other markers (issue 7): events (incidents) and areas with their asset
 * counts, with their popups.
 */
import type { LayersList } from '@deck.gl/core';
import type { DashboardMapProps } from './dashboard-map';

export function useOverlayLayers(_props: DashboardMapProps, _display: { events: boolean }): LayersList {
  return [];
}

/** The event and area popups drawn over the map. */
export function OverlayPopups(_props: DashboardMapProps) {
  return null;
}
