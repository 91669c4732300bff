import { describe, expect, it } from 'vitest';
import type { AreaShape } from '../../src/domain/area-shape';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import { liveMessageSchema } from '../../src/domain/live-message';
import { countAssetsInAreas } from '../../src/workers/area-counts';
import { createFleetBuffers, FLAG_LISTED, FLAG_PRESENT } from '../../src/domain/live-diff';
import { LiveCore } from '../../src/workers/live-core';
import { createLiveEngine } from '../../src/workers/live-engine';
import { NOW, parsedThing } from '../support/live-fixtures';

/** 100 m about (30.3, -97.7). */
const STATION: AreaShape = { id: 'station', kind: 'circle', center: { lat: 30.3, lng: -97.7 }, radius: 100 };
/** A box 30.20–30.21 × -97.81–-97.80. */
const YARD: AreaShape = {
  id: 'yard',
  kind: 'polygon',
  ring: [
    { lat: 30.2, lng: -97.81 },
    { lat: 30.2, lng: -97.8 },
    { lat: 30.21, lng: -97.8 },
    { lat: 30.21, lng: -97.81 },
  ],
};

function coreWith(positions: [number, number][], overrides: (i: number) => Record<string, unknown> = () => ({})): LiveCore {
  const core = new LiveCore();
  core.loadThings(
    positions.map(([lat, lng], i) => parsedThing(i, { lat, lng, ...overrides(i) })),
    [],
    NOW,
  );
  core.flush(NOW);
  return core;
}

describe('part1 §2 Map "Area markers show asset counts": counted in the worker', () => {
  it('counts the assets inside each circle and polygon; an asset in two areas counts in both', () => {
    const core = coreWith([
      [30.3, -97.7], // station
      [30.3005, -97.7], // station (55 m north)
      [30.302, -97.7], // 220 m north: outside
      [30.205, -97.805], // yard
      [30.215, -97.805], // north of the yard
    ]);
    const overlap: AreaShape = { id: 'overlap', kind: 'circle', center: { lat: 30.3, lng: -97.7 }, radius: 300 };
    expect(core.areaCounts([STATION, YARD, overlap]).counts).toEqual({ station: 2, yard: 1, overlap: 3 });
  });

  it('an area with nobody inside answers 0, and no areas answer nothing', () => {
    const core = coreWith([[30.205, -97.805]]);
    expect(core.areaCounts([STATION]).counts).toEqual({ station: 0 });
    expect(core.areaCounts([]).counts).toEqual({});
  });

  it('counts only what the map draws: assets filtered out of the list are not counted', () => {
    const core = coreWith(
      [
        [30.3, -97.7],
        [30.3001, -97.7],
      ],
      (i) => ({ thing_type: i === 0 ? 'police' : 'fire' }),
    );
    expect(core.areaCounts([STATION]).counts).toEqual({ station: 2 });
    core.setFilter({ statuses: [ASSET_STATUS.standby], typeNames: ['police'] }, NOW);
    core.flush(NOW);
    expect(core.areaCounts([STATION]).counts).toEqual({ station: 1 });
  });

  it('follows the fleet: a move or a removal changes the count after the batch (a new version)', () => {
    const core = coreWith([
      [30.3, -97.7],
      [30.205, -97.805],
    ]);
    const first = core.areaCounts([STATION, YARD]);
    expect(first.counts).toEqual({ station: 1, yard: 1 });
    core.enqueue(
      liveMessageSchema.parse({
        type: 'point',
        thing_id: 'thing-00001',
        lat: 30.3002,
        lng: -97.7,
        speed: 0,
        timestamp: new Date(NOW + 1_000).toISOString(),
      }),
    );
    core.flush(NOW + 1_000);
    const second = core.areaCounts([STATION, YARD]);
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.counts).toEqual({ station: 2, yard: 0 });
    core.loadThings([], ['thing-00000'], NOW + 2_000);
    core.flush(NOW + 2_000);
    expect(core.areaCounts([STATION, YARD]).counts).toEqual({ station: 1, yard: 0 });
  });

  it('asking again with no change answers the same counts without counting again; other areas are counted', () => {
    const core = coreWith([[30.3, -97.7]]);
    const first = core.areaCounts([STATION]);
    expect(core.areaCounts([STATION])).toBe(first);
    expect(core.areaCounts([YARD]).counts).toEqual({ yard: 0 });
  });

  it('countAssetsInAreas reads only present and listed slots below the high-water mark', () => {
    const buffers = createFleetBuffers(4);
    const put = (slot: number, lat: number, lng: number, flags: number) => {
      buffers.lngLat[2 * slot] = lng;
      buffers.lngLat[2 * slot + 1] = lat;
      buffers.flags[slot] = flags;
    };
    put(0, 30.3, -97.7, FLAG_PRESENT | FLAG_LISTED);
    put(1, 30.3, -97.7, FLAG_PRESENT); // filtered out
    put(2, 30.3, -97.7, 0); // empty slot
    put(3, 30.3, -97.7, FLAG_PRESENT | FLAG_LISTED); // above the mark given
    expect(countAssetsInAreas([STATION], buffers, 3)).toEqual({ station: 1 });
    expect(countAssetsInAreas([STATION], buffers, 4)).toEqual({ station: 2 });
  });

  it('the worker API parses the areas it is sent (CONVENTIONS §5) and answers per area id', () => {
    const engine = createLiveEngine();
    expect(engine.areaCounts([STATION, YARD]).counts).toEqual({ station: 0, yard: 0 });
    expect(() => engine.areaCounts([{ id: 'bad', kind: 'circle', center: { lat: 30, lng: -97 }, radius: -5 }])).toThrow();
    expect(() => engine.areaCounts([{ id: 'bad', kind: 'polygon', ring: [{ lat: 30, lng: -97 }] }])).toThrow();
  });
});
