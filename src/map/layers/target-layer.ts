/**
 * The targeted asset's ring (part 1 §2 "Clicking a row targets the asset"): a
 * ring at the asset's position, read from the live store's buffers on each diff (O(1): the slot is
 * asked of the worker once per target), so it follows the asset as it moves.
 */
import { ScatterplotLayer } from '@deck.gl/layers';
import { FLAG_PRESENT, type FleetBuffers } from '../../domain/live-diff';

/** chosen: the ring's radius and width, px; its colour is the app's --focus (docs/decisions/spec.md "Values the spec does not give"). */
export const TARGET_RING_RADIUS_PX = 24;
export const TARGET_RING_WIDTH_PX = 4;
export const TARGET_RING_COLOR: [number, number, number, number] = [255, 179, 0, 255];

/** The position of a slot, null when the slot is empty or out of range (pure). */
export function slotPosition(buffers: FleetBuffers, slot: number): [number, number] | null {
  if (slot < 0 || slot >= buffers.capacity || !((buffers.flags[slot] as number) & FLAG_PRESENT)) return null;
  return [buffers.lngLat[2 * slot] as number, buffers.lngLat[2 * slot + 1] as number];
}

export function targetLayer(position: [number, number]): ScatterplotLayer<{ position: [number, number] }> {
  return new ScatterplotLayer<{ position: [number, number] }>({
    id: 'asset-target',
    data: [{ position }],
    radiusUnits: 'pixels',
    lineWidthUnits: 'pixels',
    stroked: true,
    filled: false,
    getPosition: (d) => d.position,
    getRadius: TARGET_RING_RADIUS_PX,
    getLineColor: TARGET_RING_COLOR,
    getLineWidth: TARGET_RING_WIDTH_PX,
    pickable: false,
  });
}
