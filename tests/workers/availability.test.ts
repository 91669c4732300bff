import { describe, expect, it } from 'vitest';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import { distanceM } from '../../src/domain/geometry';
import {
  AVAILABILITY_COLUMNS,
  AVAILABILITY_ROWS,
  AvailabilityIndex,
  availabilityGrid,
  availableUnitsIndex,
  clampBounds,
  isAvailableStatus,
  isCovered,
  listedPositions,
  rowLatitudes,
} from '../../src/workers/availability';
import { availabilityQuerySchema } from '../../src/workers/availability-protocol';
import { FLAG_LISTED, FLAG_PRESENT } from '../../src/domain/live-diff';
import { LiveCore } from '../../src/workers/live-core';
import { NOW, iso, parsedThing } from '../support/live-fixtures';

const LISTED = FLAG_PRESENT | FLAG_LISTED;

/** A tree over units given as [lng, lat, status, flags]. */
function treeOf(units: [number, number, number, number][]) {
  const lngLat = units.flatMap(([lng, lat]) => [lng, lat]);
  return availableUnitsIndex(
    units.length,
    units.map((u) => u[3]),
    units.map((u) => u[2]),
    lngLat,
  );
}

describe('availability view: the available units', () => {
  it.each([
    [ASSET_STATUS.location, false],
    [ASSET_STATUS.active, false],
    [ASSET_STATUS.standby, true],
    [ASSET_STATUS.stationary, true],
    [ASSET_STATUS.pending, false],
    [ASSET_STATUS.offline, false],
    [ASSET_STATUS.oos, false],
  ])('status %i available: %s', (status, available) => {
    expect(isAvailableStatus(status)).toBe(available);
  });

  it('indexes only listed standby or stationary units', () => {
    const tree = treeOf([
      [-97.7, 30.2, ASSET_STATUS.standby, LISTED],
      [-97.6, 30.2, ASSET_STATUS.stationary, LISTED],
      [-97.5, 30.2, ASSET_STATUS.active, LISTED],
      [-97.4, 30.2, ASSET_STATUS.standby, FLAG_PRESENT],
      [-97.3, 30.2, ASSET_STATUS.oos, LISTED],
      [0, 0, ASSET_STATUS.standby, 0],
    ]);
    expect(tree.all().map((p) => p.minX)).toEqual(expect.arrayContaining([-97.7, -97.6]));
    expect(tree.all()).toHaveLength(2);
  });
});

describe('availability view: the gaps grid', () => {
  it('a point is covered exactly when a unit lies within the radius (haversine)', () => {
    const tree = treeOf([[-97.7, 30.2, ASSET_STATUS.standby, LISTED]]);
    const unit = { lng: -97.7, lat: 30.2 };
    // Points east of the unit at growing distances; the answer must follow the true distance.
    for (const dLng of [0, 0.01, 0.02, 0.0299, 0.03, 0.031, 0.05]) {
      const p = { lng: -97.7 + dLng, lat: 30.2 };
      expect(isCovered(tree, p.lng, p.lat, 3_000)).toBe(distanceM(p, unit) <= 3_000);
    }
    // Diagonal (outside the inscribed square, inside the circle's box).
    const diagonal = { lng: -97.7 + 0.022, lat: 30.2 + 0.019 };
    expect(isCovered(tree, diagonal.lng, diagonal.lat, 3_000)).toBe(distanceM(diagonal, unit) <= 3_000);
  });

  it('rows are evenly spaced in Web Mercator y, north first', () => {
    const lats = rowLatitudes(-60, 60, 4);
    expect(lats[0]).toBeGreaterThan(lats[1]!);
    // Symmetric about the equator, and the outer rows stretched (Mercator): not evenly spaced in latitude.
    expect(lats[0]).toBeCloseTo(-lats[3]!, 9);
    expect(lats[1]).toBeCloseTo(-lats[2]!, 9);
    // Even steps in Mercator y are shorter steps in latitude towards the poles.
    expect(lats[0]! - lats[1]!).toBeLessThan(lats[1]! - lats[2]!);
  });

  it('clamps bounds to one Mercator world', () => {
    expect(clampBounds([-200, -89, 200, 89])).toEqual([-180, -85.0511, 180, 85.0511]);
    expect(clampBounds([-98, 30, -97, 31])).toEqual([-98, 30, -97, 31]);
  });

  it('marks the cells farther than the radius from every unit and answers the covered share', () => {
    // A unit in the west half of a small area; radius covers only cells near it.
    const tree = treeOf([[-97.9, 30.25, ASSET_STATUS.standby, LISTED]]);
    const answer = availabilityGrid(tree, { bbox: [-98, 30, -97, 30.5], radiusM: 5_000, columns: 20, rows: 10 }, 7);
    expect(answer.version).toBe(7);
    expect(answer.mask).toHaveLength(200);
    // Every cell: gap exactly when its centre is farther than the radius (checked independently).
    const lats = rowLatitudes(30, 30.5, 10);
    let covered = 0;
    for (let row = 0; row < 10; row += 1) {
      for (let column = 0; column < 20; column += 1) {
        const centre = { lng: -98 + ((column + 0.5) / 20) * 1, lat: lats[row]! };
        const inside = distanceM(centre, { lng: -97.9, lat: 30.25 }) <= 5_000;
        if (inside) covered += 1;
        expect(answer.mask[row * 20 + column], `cell ${row},${column}`).toBe(inside ? 0 : 1);
      }
    }
    expect(covered).toBeGreaterThan(0);
    expect(covered).toBeLessThan(200);
    expect(answer.coveredShare).toBeCloseTo(covered / 200, 12);
    expect(answer.units).toBe(1);
  });

  it('no unit: everything is a gap; units everywhere: nothing is', () => {
    const none = availabilityGrid(treeOf([]), { bbox: [-98, 30, -97, 31], radiusM: 3_000 });
    expect(none.columns * none.rows).toBe(AVAILABILITY_COLUMNS * AVAILABILITY_ROWS);
    expect(none.coveredShare).toBe(0);
    expect(none.mask.every((v) => v === 1)).toBe(true);
    const all = availabilityGrid(treeOf([[-97.5, 30.5, ASSET_STATUS.stationary, LISTED]]), {
      bbox: [-97.51, 30.49, -97.49, 30.51],
      radiusM: 10_000,
    });
    expect(all.coveredShare).toBe(1);
    expect(all.mask.every((v) => v === 0)).toBe(true);
  });

  it('the query schema refuses a radius outside the preference range', () => {
    expect(availabilityQuerySchema.safeParse({ bbox: [0, 0, 1, 1], radiusM: 0 }).success).toBe(false);
    expect(availabilityQuerySchema.safeParse({ bbox: [0, 0, 1, 1], radiusM: 200_000 }).success).toBe(false);
    expect(availabilityQuerySchema.safeParse({ bbox: [0, 0, 1, 1], radiusM: 3_000 }).success).toBe(true);
  });
});

describe('availability and density in the live worker core', () => {
  function core() {
    const c = new LiveCore();
    c.loadThings(
      [
        // standby (recent heartbeat, not enroute, no street)
        parsedThing(1, { lat: 30.2, lng: -97.7 }),
        // active (enroute): not available
        parsedThing(2, { lat: 30.4, lng: -97.4, enroute: true }),
        // out of service: not available
        parsedThing(3, { lat: 30.4, lng: -97.9, in_service: false }),
        // offline (no heartbeat)
        parsedThing(4, { lat: 30.1, lng: -97.3, heartbeat_datetime: null }),
      ],
      [],
      NOW,
    );
    c.flush(NOW);
    return c;
  }

  it('answers the gaps around the listed available units only, and rebuilds its index only when the fleet changed', () => {
    const c = core();
    const answer = c.availabilityAnswer({ bbox: [-98, 30, -97.2, 30.5], radiusM: 3_000, columns: 40, rows: 25 });
    expect(answer.units).toBe(1);
    const only = availabilityGrid(treeOf([[-97.7, 30.2, ASSET_STATUS.standby, LISTED]]), {
      bbox: [-98, 30, -97.2, 30.5],
      radiusM: 3_000,
      columns: 40,
      rows: 25,
    });
    expect(Array.from(answer.mask)).toEqual(Array.from(only.mask));
    expect(answer.coveredShare).toBeGreaterThan(0);
    expect(answer.coveredShare).toBeLessThan(1);
    // Asked again with no change: the same index.
    c.availabilityAnswer({ bbox: [-98, 30, -97.2, 30.5], radiusM: 5_000 });
    // The active unit stops (heartbeat, not enroute): it becomes available after the batch.
    c.loadThings(
      [parsedThing(2, { lat: 30.4, lng: -97.4, enroute: false, heartbeat_datetime: iso(NOW + 1_000), updated_at: iso(NOW + 1_000) })],
      [],
      NOW + 1_000,
    );
    c.flush(NOW + 1_000);
    expect(c.availabilityAnswer({ bbox: [-98, 30, -97.2, 30.5], radiusM: 3_000 }).units).toBe(2);
  });

  it('rebuilds the unit index once per fleet version', () => {
    const index = new AvailabilityIndex();
    const fleet = {
      highWater: 1,
      buffers: { flags: new Uint8Array([LISTED]), status: new Uint8Array([ASSET_STATUS.standby]), lngLat: new Float64Array([-97.7, 30.2]) },
    };
    index.query(fleet, 1, { bbox: [-98, 30, -97, 31], radiusM: 1_000, columns: 2, rows: 2 });
    index.query(fleet, 1, { bbox: [-98, 30, -97, 31], radiusM: 2_000, columns: 2, rows: 2 });
    expect(index.builds).toBe(1);
    index.query(fleet, 2, { bbox: [-98, 30, -97, 31], radiusM: 2_000, columns: 2, rows: 2 });
    expect(index.builds).toBe(2);
  });

  it('the density view reads the listed positions in list order', () => {
    const c = core();
    const positions = c.listedPositions();
    const order = Array.from(c.order.order);
    expect(positions).toHaveLength(order.length * 2);
    const { lngLat } = c.fleet.buffers;
    order.forEach((slot, i) => {
      expect(positions[2 * i]).toBe(lngLat[2 * slot]);
      expect(positions[2 * i + 1]).toBe(lngLat[2 * slot + 1]);
    });
    expect(Array.from(listedPositions(new Int32Array([1, 0]), new Float64Array([1, 2, 3, 4])))).toEqual([3, 4, 1, 2]);
  });
});
