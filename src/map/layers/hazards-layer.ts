/**
 * The hazard report on the map (part 2 §2 Hazards "a report of hazards by type and severity"):
 * each hazard a dot coloured by severity, and zoomed out a heatmap (deck.gl HeatmapLayer) where
 * dots would pile up. Pure functions of data → layers; the colours are one table.
 */
import type { PickingInfo } from '@deck.gl/core';
import { HeatmapLayer } from '@deck.gl/aggregation-layers';
import { ScatterplotLayer } from '@deck.gl/layers';
import type { HazardSeverity } from '../../domain/constants';
import type { HazardWire } from '../../domain/hazard';
import type { Rgba } from './overlay-style';

/** part 2 §2 severities low, medium, high: yellow, orange, red. */
export const HAZARD_SEVERITY_COLORS: Readonly<Record<HazardSeverity, Rgba>> = {
  low: [251, 192, 45, 255],
  medium: [245, 124, 0, 255],
  high: [198, 40, 40, 255],
};
export const HAZARD_OUTLINE: Rgba = [255, 255, 255, 255];
export const HAZARD_RADIUS_PX = 7;
/** chosen: below this zoom the hazards show as a heatmap (a city's worth of dots overlaps). */
export const HAZARD_HEATMAP_BELOW_ZOOM = 12;
export const HAZARD_HEATMAP_RADIUS_PX = 35;
/** A heavier weight for a worse hazard. */
export const HAZARD_WEIGHT: Readonly<Record<HazardSeverity, number>> = { low: 1, medium: 2, high: 3 };

export function hazardCssColor(severity: HazardSeverity): string {
  const [r, g, b] = HAZARD_SEVERITY_COLORS[severity];
  return `rgb(${r}, ${g}, ${b})`;
}

export function hazardPointsLayer(hazards: readonly HazardWire[], onClick: (hazard: HazardWire) => void): ScatterplotLayer<HazardWire> {
  return new ScatterplotLayer<HazardWire>({
    id: 'hazards-points',
    data: hazards as HazardWire[],
    getPosition: (h) => [h.lng, h.lat],
    getFillColor: (h) => HAZARD_SEVERITY_COLORS[h.severity],
    getLineColor: HAZARD_OUTLINE,
    getRadius: HAZARD_RADIUS_PX,
    radiusUnits: 'pixels',
    stroked: true,
    lineWidthMinPixels: 2,
    pickable: true,
    onClick: (info: PickingInfo<HazardWire>) => {
      if (!info.object) return false;
      onClick(info.object);
      return true;
    },
  });
}

export function hazardHeatmapLayer(hazards: readonly HazardWire[]): HeatmapLayer<HazardWire> {
  return new HeatmapLayer<HazardWire>({
    id: 'hazards-heatmap',
    data: hazards as HazardWire[],
    getPosition: (h) => [h.lng, h.lat],
    getWeight: (h) => HAZARD_WEIGHT[h.severity],
    radiusPixels: HAZARD_HEATMAP_RADIUS_PX,
    aggregation: 'SUM',
    opacity: 0.7,
  });
}

/** Whether the hazards show as a heatmap at this zoom: below HAZARD_HEATMAP_BELOW_ZOOM. */
export const hazardsAsHeatmap = (zoom: number): boolean => zoom < HAZARD_HEATMAP_BELOW_ZOOM;

/** The heatmap, or a dot per hazard. */
export function hazardLayers(hazards: readonly HazardWire[], heatmap: boolean, onClick: (hazard: HazardWire) => void) {
  return heatmap ? [hazardHeatmapLayer(hazards)] : [hazardPointsLayer(hazards, onClick)];
}
