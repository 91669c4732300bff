/**
 * The unit-availability view (beyond the spec: docs/decisions/spec.md "Values the spec does not give"): the live worker's gaps grid
 * (src/workers/availability.ts) drawn as one small bitmap over the area it covers — gaps shaded,
 * covered cells clear. The grid's rows are evenly spaced on the screen (Web Mercator), as a
 * BitmapLayer maps an image over lng/lat bounds, so cell and pixel agree.
 */
import { BitmapLayer } from '@deck.gl/layers';

/** chosen: gaps in a translucent red (docs/decisions/spec.md "Values the spec does not give"). */
export const GAP_COLOR: readonly [number, number, number, number] = [183, 28, 28, 110];

/** RGBA pixels of a mask (1 = gap), row 0 = north (pure). */
export function availabilityPixels(mask: Uint8Array, color: readonly [number, number, number, number] = GAP_COLOR): Uint8ClampedArray {
  const pixels = new Uint8ClampedArray(mask.length * 4);
  for (let i = 0; i < mask.length; i += 1) {
    if (!mask[i]) continue;
    pixels[4 * i] = color[0];
    pixels[4 * i + 1] = color[1];
    pixels[4 * i + 2] = color[2];
    pixels[4 * i + 3] = color[3];
  }
  return pixels;
}

/** A distance as the legend writes it: '500 m', '3 km', '1.5 km'. */
export function distanceText(metres: number): string {
  if (metres < 1_000) return `${Math.round(metres)} m`;
  const km = Math.round(metres / 100) / 10;
  return `${km} km`;
}

/** The legend's text: 'Covered 87 % within 3 km' (the share rounded down, so 100 % means no gap). */
export function availabilityShareText(coveredShare: number, radiusM: number): string {
  const percent = Math.max(0, Math.min(100, Math.floor(coveredShare * 100 + 1e-9)));
  return `Covered ${percent} % within ${distanceText(radiusM)}`;
}

export interface AvailabilityImage {
  bounds: [number, number, number, number];
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

export function availabilityLayer(image: AvailabilityImage): BitmapLayer | null {
  if (typeof ImageData === 'undefined') return null;
  const data = new ImageData(new Uint8ClampedArray(image.pixels), image.width, image.height);
  return new BitmapLayer({
    id: 'asset-availability',
    bounds: image.bounds,
    image: data,
    pickable: false,
    // Cells stay cells (no blur between a gap and its neighbour).
    textureParameters: { minFilter: 'nearest', magFilter: 'nearest' },
  });
}
