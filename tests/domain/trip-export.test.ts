/** The shown runs as GPX 1.1 and GeoJSON (beyond the spec; part 2 §3 Trip runs and points). */
import { describe, expect, it } from 'vitest';
import type { Trip } from '../../src/domain/trip';
import { tripsToGeoJson, tripsToGpx } from '../../src/domain/trip-export';

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const trips: Trip[] = [
  {
    thingId: 'a',
    startTime: T0,
    endTime: T0 + 3_600_000,
    runs: [
      {
        runId: 'r1',
        runStart: T0,
        runEnd: T0 + 60_000,
        runDuration: 60,
        isActive: false,
        points: [
          { lat: 30.1, lng: -97.1, course: 0, speed: 20, timestamp: T0 },
          { lat: 30.2, lng: -97.2, course: 0, speed: 30, timestamp: T0 + 60_000 },
        ],
      },
      { runId: 'empty', runStart: T0, runEnd: null, runDuration: 0, isActive: true, points: [] },
    ],
  },
];
const names = new Map([['a', 'Patrol <1> & "2"']]);

describe('trip export', () => {
  it('GPX: one track per asset named and escaped, one segment per run with points and times', () => {
    const gpx = tripsToGpx(trips, names);
    expect(gpx).toContain('<gpx version="1.1" creator="Lightbar" xmlns="http://www.topografix.com/GPX/1/1">');
    expect(gpx).toContain('<name>Patrol &lt;1&gt; &amp; &quot;2&quot;</name>');
    expect(gpx.match(/<trkseg>/g)).toHaveLength(1);
    expect(gpx).toContain('<trkpt lat="30.1" lon="-97.1"><time>2026-01-05T08:00:00.000Z</time></trkpt>');
    expect(gpx).toContain('<trkpt lat="30.2" lon="-97.2"><time>2026-01-05T08:01:00.000Z</time></trkpt>');
  });

  it('GeoJSON: a LineString per run with [lng, lat] positions and the run as properties', () => {
    const collection = tripsToGeoJson(trips, names);
    expect(collection.features).toHaveLength(1);
    expect(collection.features[0]).toEqual({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [-97.1, 30.1],
          [-97.2, 30.2],
        ],
      },
      properties: {
        thing_id: 'a',
        name: 'Patrol <1> & "2"',
        run_id: 'r1',
        run_start: '2026-01-05T08:00:00.000Z',
        run_end: '2026-01-05T08:01:00.000Z',
        is_active: false,
        times: ['2026-01-05T08:00:00.000Z', '2026-01-05T08:01:00.000Z'],
        speeds: [20, 30],
      },
    });
  });
});
