/**
 * The assets layer's pure parts: the size class from the zoom (part 1 §2, §9:
 * small below 11, medium below 13, large), the uniforms the shader reads, and the attribute wiring —
 * every attribute filled from the live store's binary attributes, no accessor called. The drawing
 * itself runs in Chromium (e2e/map.spec.ts): jsdom has no WebGL.
 */
import { describe, expect, it } from 'vitest';
import { AttributeManager } from '@deck.gl/core';
import type { Device } from '@luma.gl/core';
import {
  createFleetBuffers,
  encodeDiff,
  growFleetBuffers,
  FLAG_LISTED,
  FLAG_PRESENT,
  iconIndex,
  ICON_STATUS_COUNT,
  type FleetBuffers,
} from '../../src/domain/live-diff';
import { applyDiffToStore, createLiveStore } from '../../src/app/live/store';
import { layerDataOf, type AssetsLayerData } from '../../src/map/layers/assets-layer-data';
import {
  ASSET_ATTRIBUTES,
  assetsAttributes,
  assetsDataDiff,
  assetsUniforms,
  changedRowRanges,
  GPU_NO_HEADING,
  PARTIAL_UPLOAD,
  QUAD_SCALE,
} from '../../src/map/layers/assets-layer';
import {
  ATLAS_CELL_PX,
  ATLAS_COLUMNS,
  ATLAS_HEIGHT,
  ATLAS_ROWS_PER_SIZE,
  ATLAS_WIDTH,
  ICON_PIXELS,
  iconCell,
} from '../../src/map/icon-atlas';

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

interface BufferRecord {
  id: string;
  byteLength: number;
  writes: number;
  /** Each upload: where it went and how many bytes. */
  uploads: { byteOffset: number; byteLength: number }[];
}

/** Just enough of a luma.gl device for the attribute manager to take external buffers. */
function fakeDevice(): { device: Device; buffers: BufferRecord[] } {
  const buffers: BufferRecord[] = [];
  const device = {
    type: 'webgl',
    limits: {},
    features: new Set<string>(),
    createBuffer(props: { id?: string; byteLength?: number; data?: ArrayBufferView }) {
      const record: BufferRecord = {
        id: props.id ?? '',
        byteLength: props.byteLength ?? props.data?.byteLength ?? 0,
        writes: props.data ? 1 : 0,
        uploads: [],
      };
      buffers.push(record);
      return {
        ...record,
        get byteLength() {
          return record.byteLength;
        },
        write(data: ArrayBufferView, byteOffset = 0) {
          record.writes += 1;
          record.uploads.push({ byteOffset, byteLength: data.byteLength });
        },
        destroy() {},
        delete() {},
      };
    },
  } as unknown as Device;
  return { device, buffers };
}

describe('assets layer attributes (binary attributes, no accessor per object)', () => {
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
    const values = (name: string, n: number) => Array.from(attributes[name]!.value as ArrayLike<number>).slice(0, n);
    expect(values('instanceIconIndex', 4)).toEqual(Array.from(fleet.icon));
    expect(values('instanceFlags', 4)).toEqual(Array.from(fleet.flags));
    // No heading (NaN) goes to the GPU as one the shader draws no tick for.
    expect(values('instanceHeading', 4)).toEqual([GPU_NO_HEADING, GPU_NO_HEADING, GPU_NO_HEADING, GPU_NO_HEADING]);
    // Positions are the store's lng, lat pairs (two per slot); float32 without fp64, as deck.gl's own layers.
    expect(values('instancePositions', 4)).toEqual([-97.7, 30.2, -97.6, 30.3].map(Math.fround));
  });

  it('keeps the positions in double precision with fp64 (the map’s lng/lat coordinates)', () => {
    const fleet = createFleetBuffers(2);
    fleet.lngLat.set([-97.712345678, 30.212345678, 1, 2]);
    const data = layerDataOf(fleet, 1);
    const manager = new AttributeManager(fakeDevice().device, { id: 'assets-fp64' });
    manager.addInstanced(assetsAttributes(true));
    manager.update({ data, numInstances: data.length, transitions: null, props: {}, buffers: data.attributes, context: {} });
    expect(Array.from(manager.getAttributes().instancePositions!.value as ArrayLike<number>).slice(0, 2)).toEqual([
      -97.712345678, 30.212345678,
    ]);
  });
});

describe('assets layer uploads only the rows a diff changed', () => {
  it('merges nearby changed slots into few ranges, in any order', () => {
    expect(changedRowRanges([], 1000)).toEqual([]);
    expect(changedRowRanges([7], 1000)).toEqual([{ startRow: 7, endRow: 8 }]);
    const limits = { maxGap: 4, maxRanges: 8, maxShare: 0.5 };
    expect(changedRowRanges([30, 3, 5, 10, 31, 5], 1000, limits)).toEqual([
      { startRow: 3, endRow: 11 },
      { startRow: 30, endRow: 32 },
    ]);
  });

  it('uploads everything when most rows changed, and bounds too many ranges by one', () => {
    const limits = { maxGap: 0, maxRanges: 3, maxShare: 0.5 };
    expect(changedRowRanges([0, 2, 4, 6, 8, 10], 30, limits)).toEqual([{ startRow: 0, endRow: 11 }]);
    expect(changedRowRanges([0, 2, 4, 6, 8, 19], 30, limits)).toBeNull();
    expect(
      changedRowRanges(
        Array.from({ length: 11 }, (_, i) => i),
        20,
        limits,
      ),
    ).toBeNull();
    // A slot outside the rows: no ranges can be trusted.
    expect(changedRowRanges([3, 25], 20, limits)).toBeNull();
    expect(PARTIAL_UPLOAD.maxShare).toBeLessThanOrEqual(1);
  });

  it('the store hands the layer each diff’s changed and removed slots; none after its buffers grew or were reset', () => {
    const store = createLiveStore();
    const worker = createFleetBuffers(16);
    const meta = (version: number, reset = false) => ({
      version,
      time: version,
      reset,
      counts: [0, 0, 0, 0, 0, 0, 0],
      listCounts: [0, 0, 0, 0, 0, 0, 0],
      total: 0,
      listLength: 0,
      order: null,
      clusterVersion: 0,
    });
    applyDiffToStore(store, encodeDiff(worker, [3, 9], [], meta(1)));
    expect(store.data.changed).toBeNull(); // the store's buffers grew to the worker's 16 slots
    applyDiffToStore(store, encodeDiff(worker, [3, 9], [], meta(2)));
    expect(Array.from(store.data.changed ?? [])).toEqual([3, 9]);
    applyDiffToStore(store, encodeDiff(worker, [4], [9], meta(3)));
    expect(Array.from(store.data.changed ?? [])).toEqual([4, 9]);
    const grown = growFleetBuffers(worker, worker.capacity * 2);
    applyDiffToStore(store, encodeDiff(grown, [worker.capacity + 1], [], meta(4)));
    expect(store.data.changed).toBeNull();
    applyDiffToStore(store, encodeDiff(grown, [1], [], meta(5)));
    expect(Array.from(store.data.changed ?? [])).toEqual([1]);
    applyDiffToStore(store, encodeDiff(grown, [1], [], meta(6, true)));
    expect(store.data.changed).toBeNull();
  });

  it('a diff over the same buffers, right after the previous one, gives its ranges; anything else, everything', () => {
    const fleet = createFleetBuffers(1024);
    const v1 = layerDataOf(fleet, 1);
    const v2 = layerDataOf(fleet, 2, Int32Array.from([5, 900]));
    expect(assetsDataDiff(v2, v1)).toEqual([
      { startRow: 5, endRow: 6 },
      { startRow: 900, endRow: 901 },
    ]);
    expect(assetsDataDiff(v2, null)).toBeNull(); // first data
    expect(assetsDataDiff(v1, v2)).toBeNull(); // changed slots unknown
    expect(assetsDataDiff(layerDataOf(fleet, 3, Int32Array.from([5])), v1)).toBeNull(); // version 2 was skipped
    const grown = growFleetBuffers(fleet, 2048);
    expect(assetsDataDiff(layerDataOf(grown, 2, Int32Array.from([5])), v1)).toBeNull(); // new arrays
  });

  it('the attribute manager re-uploads only the changed rows, and everything after a gap', () => {
    const fleet: FleetBuffers = createFleetBuffers(1024);
    const { device, buffers } = fakeDevice();
    const manager = new AttributeManager(device, { id: 'assets-partial' });
    manager.addInstanced(assetsAttributes(false));
    // What Layer.updateState does with the answer of _dataDiff.
    const update = (data: AssetsLayerData, previous: AssetsLayerData | null) => {
      const ranges = assetsDataDiff(data, previous);
      if (ranges) for (const range of ranges) manager.invalidateAll(range);
      else manager.invalidateAll();
      manager.update({ data, numInstances: data.length, transitions: null, props: {}, buffers: data.attributes, context: {} });
    };
    const uploadsOf = (id: string) => buffers.filter((b) => b.id === id).flatMap((b) => b.uploads);
    const v1 = layerDataOf(fleet, 1);
    update(v1, null);
    const fullBytes = uploadsOf('instanceIconIndex').reduce((sum, u) => sum + u.byteLength, 0);
    expect(fullBytes).toBeGreaterThanOrEqual(1024);

    // The store writes slot 700 and hands the next version with it as changed.
    fleet.icon[700] = 9;
    fleet.lngLat[1400] = -97.5;
    fleet.lngLat[1401] = 30.5;
    for (const b of buffers) b.uploads = [];
    const v2 = layerDataOf(fleet, 2, Int32Array.from([700]));
    update(v2, v1);
    expect(uploadsOf('instanceIconIndex')).toEqual([{ byteOffset: 700, byteLength: 1 }]);
    expect(uploadsOf('instanceFlags')).toEqual([{ byteOffset: 700, byteLength: 1 }]);
    expect(uploadsOf('instanceHeading')).toEqual([{ byteOffset: 700 * 4, byteLength: 4 }]);
    // fp64 off: positions are two float32 per slot.
    expect(uploadsOf('instancePositions')).toEqual([{ byteOffset: 700 * 8, byteLength: 8 }]);
    const attributes = manager.getAttributes();
    expect(attributes.instanceIconIndex!.value![700]).toBe(9);
    expect(Array.from(attributes.instancePositions!.value as ArrayLike<number>).slice(1400, 1402)).toEqual([
      Math.fround(-97.5),
      Math.fround(30.5),
    ]);

    // A skipped version: the rows of version 3 are unknown here, everything goes up again.
    fleet.icon[10] = 4;
    for (const b of buffers) b.uploads = [];
    update(layerDataOf(fleet, 4, Int32Array.from([11])), v2);
    expect(uploadsOf('instanceIconIndex').reduce((sum, u) => sum + u.byteLength, 0)).toBe(fullBytes);
    expect(attributes.instanceIconIndex!.value![10]).toBe(4);
  });
});
