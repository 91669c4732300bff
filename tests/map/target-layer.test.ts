/** The targeted asset's ring: its position read from the store's buffers by slot. */
import { describe, expect, it } from 'vitest';
import { slotPosition, targetLayer } from '../../src/map/layers/target-layer';
import { createFleetBuffers, FLAG_PRESENT } from '../../src/domain/live-diff';

describe('targeted asset ring', () => {
  it('reads the slot’s current position, none for an empty or unknown slot', () => {
    const buffers = createFleetBuffers(4);
    buffers.lngLat.set([-97.7, 30.2], 2);
    buffers.flags[1] = FLAG_PRESENT;
    expect(slotPosition(buffers, 1)).toEqual([-97.7, 30.2]);
    // It follows the asset: the next diff writes the buffers, the next read answers the new place.
    buffers.lngLat.set([-97.6, 30.3], 2);
    expect(slotPosition(buffers, 1)).toEqual([-97.6, 30.3]);
    expect(slotPosition(buffers, 0)).toBeNull();
    expect(slotPosition(buffers, -1)).toBeNull();
    expect(slotPosition(buffers, 9)).toBeNull();
  });

  it('draws one unfilled ring at the position', () => {
    const layer = targetLayer([-97.7, 30.2]);
    expect(layer.props.data).toEqual([{ position: [-97.7, 30.2] }]);
    expect(layer.props.filled).toBe(false);
    expect(layer.props.stroked).toBe(true);
  });
});
