/** part 2 §2 Hazards report on the map: a dot per hazard, a heatmap when zoomed out. */
import { describe, expect, it } from 'vitest';
import { HAZARD_HEATMAP_BELOW_ZOOM, hazardLayers, hazardsAsHeatmap } from '../../../src/map/layers/hazards-layer';

describe('hazards layer', () => {
  it('shows the heatmap below the threshold zoom and the dots from it up', () => {
    expect(hazardsAsHeatmap(HAZARD_HEATMAP_BELOW_ZOOM - 0.01)).toBe(true);
    expect(hazardsAsHeatmap(HAZARD_HEATMAP_BELOW_ZOOM)).toBe(false);
    expect(hazardLayers([], true, () => undefined).map((layer) => layer.id)).toEqual(['hazards-heatmap']);
    expect(hazardLayers([], false, () => undefined).map((layer) => layer.id)).toEqual(['hazards-points']);
  });
});
