/** part 2 §7 coverage on the map: one pale band of every road the chosen assets drove in the range. */
import { describe, expect, it } from 'vitest';
import type { Trip } from '../../../src/domain/trip';
import { COVERAGE_COLOR, COVERAGE_WIDTH_PX, coverageLayer, tripTracks } from '../../../src/map/layers/trips-layer';

const point = (lat: number, timestamp: number) => ({ lat, lng: -97, course: 0, speed: 30, timestamp });
const run = (runId: string, points: ReturnType<typeof point>[]) => ({
  runId,
  runStart: 0,
  runEnd: null,
  runDuration: 0,
  isActive: true,
  points,
});

describe('coverage layer', () => {
  it('draws every run of every asset with two points or more, in one colour and width', () => {
    const trips = [
      { thingId: 'a', startTime: 0, endTime: 1, runs: [run('r1', [point(30, 0), point(30.01, 1)]), run('r2', [point(31, 2)])] },
      { thingId: 'b', startTime: 0, endTime: 1, runs: [run('r3', [point(32, 0), point(32.01, 1), point(32.02, 2)])] },
    ] as unknown as Trip[];
    const layer = coverageLayer(tripTracks(trips, 0));
    expect(layer.id).toBe('trips-coverage');
    const data = layer.props.data as { runId: string; thingId: string }[];
    expect(data.map((t) => t.runId)).toEqual(['r1', 'r3']);
    expect(layer.props.getColor).toEqual(COVERAGE_COLOR);
    expect(layer.props.getWidth).toBe(COVERAGE_WIDTH_PX);
  });

  it('draws nothing when no asset drove', () => {
    expect(coverageLayer([]).props.data).toEqual([]);
  });
});
