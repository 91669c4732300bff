/**
 * The density view (part 1 §2: the density-view toggle, default off): a GPU
 * aggregation (deck.gl's HeatmapLayer) of the listed assets' positions, which the live worker hands
 * over as one transferred array (`bridge.listedPositions()`): binary attributes, no accessor per
 * asset and no loop over the fleet on the main thread.
 */
import { HeatmapLayer } from '@deck.gl/aggregation-layers';

/** chosen: the kernel's radius on screen, px (docs/decisions/spec.md "Values the spec does not give"). */
export const DENSITY_RADIUS_PX = 40;

/** A blue-to-red ramp that reads over the light basemap. */
export const DENSITY_COLOR_RANGE: [number, number, number][] = [
  [65, 182, 196],
  [127, 205, 187],
  [199, 233, 180],
  [254, 217, 118],
  [253, 141, 60],
  [227, 26, 28],
];

export interface DensityData {
  length: number;
  attributes: { getPosition: { value: Float64Array; size: 2 } };
}

/** The heatmap's binary data over [lng, lat, …] (pure). */
export function densityData(lngLat: Float64Array): DensityData {
  return { length: Math.floor(lngLat.length / 2), attributes: { getPosition: { value: lngLat, size: 2 } } };
}

export function densityLayer(lngLat: Float64Array): HeatmapLayer {
  return new HeatmapLayer({
    id: 'asset-density',
    // Binary: the attribute manager reads data.attributes (typed loosely by deck.gl's props).
    data: densityData(lngLat) as unknown as HeatmapLayer['props']['data'],
    getWeight: 1,
    radiusPixels: DENSITY_RADIUS_PX,
    colorRange: DENSITY_COLOR_RANGE,
    aggregation: 'SUM',
    opacity: 0.75,
    pickable: false,
  });
}
