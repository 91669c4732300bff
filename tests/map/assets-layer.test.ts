/**
 * The assets layer's pure parts (issue 7 "The map"): the size class from the zoom (part 1 §2, §9:
 * small below 11, medium below 13, large), the uniforms the shader reads, and the attribute wiring —
 * every attribute filled from the live store's binary attributes, no accessor called. The drawing
 * itself runs in Chromium (e2e/map.spec.ts): jsdom has no WebGL.
 */
import { describe, expect, it } from 'vitest';
import { AttributeManager } from '@deck.gl/core';
import type { Device } from '@luma.gl/core';
import { createFleetBuffers, FLAG_LISTED, FLAG_PRESENT, iconIndex, ICON_STATUS_COUNT } from '../../src/workers/diff';
import { layerDataOf } from '../../src/app/live/store';
import { ASSET_ATTRIBUTES, assetsAttributes, assetsUniforms, QUAD_SCALE } from '../../src/map/layers/assets-layer';
import { ATLAS_CELL_PX, ATLAS_COLUMNS, ATLAS_HEIGHT, ATLAS_ROWS_PER_SIZE, ATLAS_WIDTH, ICON_PIXELS, iconCell } from '../../src/map/icon-atlas';

describe('part1 §2 Map: icon size by zoom', () => {
  it.each([
    [3, 'small'],
    [10.99, 'small'],
    [11, 'medium'],
    [12.99, 'medium'],
    [13, 'large'],
    [20, 'large'],
  ] as const)('zoom %s draws the %s icons', (zoom, size) => {
    const uniforms = assetsUniforms(zoom);
    expect(uniforms.iconPixels).toBe(ICON_PIXELS[size]);
    expect(uniforms.sizeIndex).toBe(['small', 'medium', 'large'].indexOf(size));
    expect(uniforms.quadPixels).toBeCloseTo(ICON_PIXELS[size] * QUAD_SCALE);
  });

  it('a fixed size overrides the zoom', () => {
    expect(assetsUniforms(3, 'large').iconPixels).toBe(ICON_PIXELS.large);
  });

  it('the uniforms let the shader find the same cell as iconCell', () => {
    // The vertex shader's arithmetic, written out: column, row, inset.
    for (const zoom of [5, 12, 15]) {
      const u = assetsUniforms(zoom);
      const size = (['small', 'medium', 'large'] as const)[u.sizeIndex]!;
      for (let index = 0; index < 2 * 8 * ICON_STATUS_COUNT; index += 1) {
        const column = index % u.columns;
        const row = Math.floor(index / u.columns) + u.sizeIndex * u.rowsPerSize;
        const inset = (u.cellTexels - u.frameTexels) / 2;
        const cell = iconCell(index, size);
        expect([column * u.cellTexels + inset, row * u.cellTexels + inset]).toEqual([cell.frameX, cell.frameY]);
      }
      expect(u.textureSize).toEqual([ATLAS_WIDTH, ATLAS_HEIGHT]);
      expect(u.columns).toBe(ATLAS_COLUMNS);
      expect(u.rowsPerSize).toBe(ATLAS_ROWS_PER_SIZE);
      expect(u.cellTexels).toBe(ATLAS_CELL_PX);
      expect(u.visibleFlags).toBe(FLAG_PRESENT | FLAG_LISTED);
    }
  });
});

/** Just enough of a luma.gl device for the attribute manager to take external buffers. */
function fakeDevice(): { device: Device; buffers: { byteLength: number; writes: number }[] } {
  const buffers: { byteLength: number; writes: number }[] = [];
  const device = {
    type: 'webgl',
    limits: {},
    features: new Set<string>(),
    createBuffer(props: { byteLength?: number; data?: ArrayBufferView }) {
      const record = { byteLength: props.byteLength ?? props.data?.byteLength ?? 0, writes: props.data ? 1 : 0 };
      buffers.push(record);
      return {
        ...record,
        get byteLength() {
          return record.byteLength;
        },
        write() {
          record.writes += 1;
        },
        destroy() {},
        delete() {},
      };
    },
  } as unknown as Device;
  return { device, buffers };
}

describe('assets layer attributes (issue 5: binary attributes, no accessor per object)', () => {
  it('names the store attributes', () => {
    const data = layerDataOf(createFleetBuffers(3), 1);
    for (const accessor of Object.values(ASSET_ATTRIBUTES)) expect(data.attributes).toHaveProperty(accessor);
  });

  it('fills every attribute from the store buffers without calling an accessor', () => {
    const fleet = createFleetBuffers(4);
    fleet.lngLat.set([-97.7, 30.2, -97.6, 30.3, 0, 0, 10, 20]);
    fleet.icon.set([iconIndex(0, 2, true), iconIndex(1, 1, false), 0, 5]);
    fleet.flags.set([FLAG_PRESENT | FLAG_LISTED, FLAG_PRESENT, 0, FLAG_PRESENT | FLAG_LISTED]);
    const data = layerDataOf(fleet, 7);
    const { device } = fakeDevice();
    const manager = new AttributeManager(device, { id: 'assets-test' });
    manager.addInstanced(assetsAttributes(false));
    let calls = 0;
    const never = () => {
      calls += 1;
      return 0;
    };
    manager.update({
      data,
      numInstances: data.length,
      transitions: null,
      props: { getPosition: never, getIconIndex: never, getHeading: never, getFlags: never },
      buffers: data.attributes,
      context: {},
    });
    expect(calls).toBe(0);
    const attributes = manager.getAttributes();
    expect(Object.keys(attributes).sort()).toEqual(['instanceFlags', 'instanceHeading', 'instanceIconIndex', 'instancePositions']);
    expect(attributes.instanceIconIndex!.value).toBe(fleet.icon);
    expect(attributes.instanceFlags!.value).toBe(fleet.flags);
    expect(attributes.instanceHeading!.value).toBe(fleet.heading);
    // Positions are the store's lng, lat pairs (two per slot).
    expect(Array.from(attributes.instancePositions!.value as ArrayLike<number>).slice(0, 4)).toEqual([-97.7, 30.2, -97.6, 30.3]);
  });
});
