import type { MapState } from './map-state';

/** The map's parts read the live data from the shell's `LiveContext` (src/app/live/hooks.ts). */
export interface DashboardMapProps {
  map: MapState;
}
