/** The dashboard map's controls (issue 7 "Controls"): drawn over the map. */
import type { DashboardMapProps } from './dashboard-map';

export function MapControls(_props: DashboardMapProps) {
  return null;
}
