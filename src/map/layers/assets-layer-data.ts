import type { FleetBuffers } from '../../domain/live-diff';

/**
 * What deck.gl receives: binary attributes over the store's buffers, one instance per slot
 * (empty and unlisted slots carry flags the assets layer filters on). A new object per diff.
 */
export interface AssetsLayerData {
  /** Slots (instances). */
  length: number;
  /** The diff version it shows. */
  version: number;
  /**
   * The slots this version changed since the previous one (the diff's changed and removed slots):
   * the assets layer uploads only their rows. Null or absent: everything may have changed.
   */
  changed?: Int32Array | null;
  attributes: {
    getPosition: { value: Float64Array; size: 2 };
    getIconIndex: { value: Uint8Array; size: 1 };
    getStatus: { value: Uint8Array; size: 1 };
    getHeading: { value: Float32Array; size: 1 };
    getFlags: { value: Uint8Array; size: 1 };
  };
}

export function layerDataOf(buffers: FleetBuffers, version: number, changed: Int32Array | null = null): AssetsLayerData {
  return {
    length: buffers.capacity,
    version,
    changed,
    attributes: {
      getPosition: { value: buffers.lngLat, size: 2 },
      getIconIndex: { value: buffers.icon, size: 1 },
      getStatus: { value: buffers.status, size: 1 },
      getHeading: { value: buffers.heading, size: 1 },
      getFlags: { value: buffers.flags, size: 1 },
    },
  };
}
