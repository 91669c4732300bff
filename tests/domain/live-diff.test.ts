/**
 * The diff format (src/domain/live-diff.ts) both ways: encoded from the worker's buffers, sent through
 * a structured clone that transfers its buffers (what postMessage does), applied to the main
 * thread's buffers; the two sides then hold the same values, and the worker's copy survives.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ASSET_TYPES } from '../../src/domain/constants';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import {
  applyDiff,
  createFleetBuffers,
  decodeIcon,
  diffByteLength,
  diffTransferables,
  encodeDiff,
  FLAG_LISTED,
  FLAG_PRESENT,
  growFleetBuffers,
  ICON_COUNT,
  ICON_UNKNOWN_TYPE,
  iconIndex,
  iconTypeIndex,
  liveDiffSchema,
  STATUS_COUNT,
  type FleetBuffers,
  type LiveDiff,
} from '../../src/domain/live-diff';

function send(diff: LiveDiff): LiveDiff {
  return structuredClone(diff, { transfer: diffTransferables(diff) });
}

function meta(version: number, order: number[] | null = null) {
  return {
    version,
    time: 1000 * version,
    reset: false,
    counts: [1, 2, 3, 4, 5, 6, 7],
    listCounts: [1, 0, 0, 0, 0, 0, 0],
    total: 28,
    listLength: 1,
    order,
    clusterVersion: version,
  };
}

function write(
  buffers: FleetBuffers,
  slot: number,
  values: { lng: number; lat: number; status: number; icon: number; heading: number; flags: number },
) {
  buffers.lngLat[2 * slot] = values.lng;
  buffers.lngLat[2 * slot + 1] = values.lat;
  buffers.status[slot] = values.status;
  buffers.icon[slot] = values.icon;
  buffers.heading[slot] = values.heading;
  buffers.flags[slot] = values.flags;
}

function sameSlots(a: FleetBuffers, b: FleetBuffers, slots: Iterable<number>) {
  for (const slot of slots) {
    expect([b.lngLat[2 * slot], b.lngLat[2 * slot + 1], b.status[slot], b.icon[slot], b.heading[slot], b.flags[slot]]).toEqual([
      a.lngLat[2 * slot],
      a.lngLat[2 * slot + 1],
      a.status[slot],
      a.icon[slot],
      a.heading[slot],
      a.flags[slot],
    ]);
  }
}

describe('diff format round trip', () => {
  it('encode → transfer → apply gives the receiver the sender’s values; the sender keeps its own', () => {
    const worker = createFleetBuffers(8);
    write(worker, 2, {
      lng: -97.7431,
      lat: 30.2672,
      status: ASSET_STATUS.active,
      icon: iconIndex(0, ASSET_STATUS.active, true),
      heading: 270,
      flags: FLAG_PRESENT | FLAG_LISTED,
    });
    write(worker, 5, {
      lng: -97.1,
      lat: 30.1,
      status: ASSET_STATUS.oos,
      icon: iconIndex(3, ASSET_STATUS.standby, false),
      heading: Number.NaN,
      flags: FLAG_PRESENT,
    });
    const diff = encodeDiff(worker, [2, 5], [], meta(1, [2]));
    const received = send(diff);
    // the sent arrays are detached, the worker's buffers are not
    expect(diff.index.length).toBe(0);
    expect(worker.lngLat[4]).toBe(-97.7431);
    expect(liveDiffSchema.safeParse(received).success).toBe(true);
    const main = applyDiff(createFleetBuffers(0), received);
    expect(main.capacity).toBe(8);
    sameSlots(worker, main, [0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Array.from(received.order!)).toEqual([2]);
    expect(Array.from(received.counts)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(received.clusterVersion).toBe(1);
  });

  it('removed slots are emptied before the changes of the same diff are written', () => {
    const main = createFleetBuffers(4);
    write(main, 1, { lng: 1, lat: 1, status: 2, icon: 2, heading: 10, flags: FLAG_PRESENT | FLAG_LISTED });
    const worker = createFleetBuffers(4);
    write(worker, 3, { lng: 2, lat: 2, status: 1, icon: 1, heading: 20, flags: FLAG_PRESENT });
    const after = applyDiff(main, send(encodeDiff(worker, [3], [1], meta(2))));
    expect(after.flags[1]).toBe(0);
    expect(Number.isNaN(after.heading[1])).toBe(true);
    expect(after.flags[3]).toBe(FLAG_PRESENT);
  });

  it('a reset diff gives fresh buffers; a grown capacity keeps what was there', () => {
    const main = createFleetBuffers(2);
    write(main, 0, { lng: 5, lat: 5, status: 0, icon: 0, heading: 0, flags: FLAG_PRESENT });
    const bigger = growFleetBuffers(main, 4);
    expect(bigger.lngLat[0]).toBe(5);
    const reset = applyDiff(main, send({ ...encodeDiff(createFleetBuffers(2), [], [], meta(3)), reset: true }));
    expect(reset).not.toBe(main);
    expect(reset.flags[0]).toBe(0);
  });

  it('any set of slot values survives the trip (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { minLength: 0, maxLength: 64 }),
        fc.array(
          fc.tuple(
            fc.double({ min: -180, max: 180, noNaN: true }),
            fc.double({ min: -90, max: 90, noNaN: true }),
            fc.integer({ min: 0, max: 6 }),
            fc.integer({ min: 0, max: ICON_COUNT - 1 }),
            fc.float({ noNaN: true }),
            fc.integer({ min: 0, max: 15 }),
          ),
          { minLength: 64, maxLength: 64 },
        ),
        (slots, values) => {
          const worker = createFleetBuffers(64);
          slots.forEach((slot) => {
            const [lng, lat, status, icon, heading, flags] = values[slot]!;
            write(worker, slot, { lng, lat, status, icon, heading, flags });
          });
          const main = applyDiff(createFleetBuffers(16), send(encodeDiff(worker, slots, [], meta(1))));
          sameSlots(worker, main, slots);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('carries about 27 bytes per changed asset', () => {
    const worker = createFleetBuffers(1000);
    const slots = Array.from({ length: 1000 }, (_, i) => i);
    const diff = encodeDiff(worker, slots, [], meta(1));
    const perAsset = (diffByteLength(diff) - 2 * STATUS_COUNT * 4) / 1000;
    expect(perAsset).toBe(4 + 16 + 1 + 1 + 4 + 1);
  });

  it('the schema refuses arrays that are not parallel or slots outside the capacity', () => {
    const diff = encodeDiff(createFleetBuffers(4), [1], [], meta(1));
    expect(liveDiffSchema.safeParse({ ...diff, status: new Uint8Array(2) }).success).toBe(false);
    expect(liveDiffSchema.safeParse({ ...diff, index: new Int32Array([9]) }).success).toBe(false);
    expect(liveDiffSchema.safeParse({ ...diff, lngLat: [0, 0] }).success).toBe(false);
  });
});

describe('icon index: type × status, out of service marked', () => {
  it.each(ASSET_TYPES.map((type, index) => [type, index] as const))('%s is column %i', (type, index) => {
    expect(iconTypeIndex(type)).toBe(index);
  });

  it('unknown and missing types share the last column; every (type, status, service) decodes back', () => {
    expect(iconTypeIndex('hovercraft')).toBe(ICON_UNKNOWN_TYPE);
    expect(iconTypeIndex(null)).toBe(ICON_UNKNOWN_TYPE);
    const seen = new Set<number>();
    for (let typeIndex = 0; typeIndex <= ICON_UNKNOWN_TYPE; typeIndex += 1) {
      for (let status = 0; status <= ASSET_STATUS.offline; status += 1) {
        for (const inService of [true, false]) {
          const icon = iconIndex(typeIndex, status as 0, inService);
          expect(decodeIcon(icon)).toEqual({ typeIndex, status, outOfService: !inService });
          seen.add(icon);
        }
      }
    }
    expect(seen.size).toBe(ICON_COUNT);
    expect(Math.max(...seen)).toBe(ICON_COUNT - 1);
  });
});
