/**
 * The group view's incremental index (part 1 §2 Map: grouped at stations when zoomed out, clusters
 * in the group view): after any sequence of moves, status changes, station visits, filter changes,
 * removals and new assets, the index kept up to date point by point answers exactly what an index
 * built from scratch over the same fleet answers, for both views, at every zoom and viewport.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromAreaWire, stationsFrom } from '../../src/domain/area';
import { defaultStatusFilter } from '../../src/domain/asset-filter';
import { HOUR_MS } from '../../src/domain/constants';
import type { ClusterAnswer } from '../../src/domain/cluster-answer';
import { liveMessageSchema, type LiveMessageInput } from '../../src/domain/live-message';
import { CLUSTER_MAX_ZOOM, ClusterIndex, STATION_GROUPS_BELOW_ZOOM } from '../../src/workers/cluster-index';
import { STATUS_COUNT } from '../../src/domain/live-diff';
import { LiveCore } from '../../src/workers/live-core';
import type { ClusterQuery } from '../../src/workers/live-protocol';
import { NOW, iso, parsedThing, stationArea } from '../support/live-fixtures';

const STATIONS: [string, number, number][] = [
  ['st-1', 30.2, -97.7],
  ['st-2', 30.22, -97.7],
  ['st-3', 30.5, -97.4],
];

/** Places near the stations, between them, a few metres apart and far away. */
const PLACES: [number, number][] = [
  ...STATIONS.map(([, lat, lng]) => [lat, lng] as [number, number]),
  [30.2001, -97.7001],
  [30.2027, -97.7],
  [30.21, -97.69],
  [30.35, -97.55],
  [31, -98],
  [-33.9, 151.2],
  [64.1, -21.9],
  [0, 179.99],
  [0, -179.99],
];

const QUERIES: ClusterQuery[] = [];
for (const zoom of [0, 3, 8, 10, 12, 14, 15, 16, 17, 19])
  for (const stationView of [true, false]) {
    QUERIES.push({ bbox: [-180, -85, 180, 85], zoom, stationView });
    QUERIES.push({ bbox: [-97.8, 30.15, -97.6, 30.3], zoom: zoom + 0.5, stationView });
  }
QUERIES.push({ bbox: [170, -10, -170, 10], zoom: 6, stationView: false }); // across the antimeridian

const op = fc.oneof(
  fc.record({
    kind: fc.constant('move' as const),
    asset: fc.nat(39),
    place: fc.nat(PLACES.length - 1),
    jitter: fc.integer({ min: -50, max: 50 }),
  }),
  fc.record({
    kind: fc.constant('heartbeat' as const),
    asset: fc.nat(39),
    active: fc.boolean(),
    hoursAgo: fc.constantFrom(0, 3, 9, 100, 200),
  }),
  fc.record({ kind: fc.constant('incident' as const), asset: fc.nat(39), on: fc.boolean() }),
  fc.record({ kind: fc.constant('remove' as const), asset: fc.nat(39) }),
  fc.record({ kind: fc.constant('add' as const), asset: fc.nat(39), place: fc.nat(PLACES.length - 1) }),
  fc.record({ kind: fc.constant('filter' as const), hideOffline: fc.boolean() }),
);

const idOf = (i: number) => `thing-${String(i).padStart(5, '0')}`;

function send(core: LiveCore, message: LiveMessageInput): void {
  core.enqueue(liveMessageSchema.parse(message));
}

function plain(answer: ClusterAnswer) {
  return {
    lngLat: Array.from(answer.lngLat),
    count: Array.from(answer.count),
    slot: Array.from(answer.slot),
    clusterId: Array.from(answer.clusterId),
    topStatus: Array.from(answer.topStatus),
    mix: Array.from(answer.mix),
    stations: {
      ...answer.stations,
      lngLat: Array.from(answer.stations.lngLat),
      count: Array.from(answer.stations.count),
      topStatus: Array.from(answer.stations.topStatus),
      mix: Array.from(answer.stations.mix),
    },
  };
}

function fleetCore(): LiveCore {
  const core = new LiveCore();
  core.setStations(stationsFrom(STATIONS.map(([id, lat, lng]) => fromAreaWire(stationArea(id, lat, lng)))), NOW);
  const things = Array.from({ length: 40 }, (_, i) => {
    const [lat, lng] = PLACES[i % PLACES.length]!;
    // every status: fresh, pending, offline, out of service
    const hoursAgo = [0, 9, 100, 200][i % 4]!;
    return parsedThing(i, { lat: lat + i * 0.00001, lng, heartbeat_datetime: iso(NOW - hoursAgo * HOUR_MS), in_service: i % 5 !== 0 });
  });
  core.loadThings(things, [], NOW);
  core.flush(NOW);
  return core;
}

describe('the group view index, kept up to date point by point', () => {
  it('answers what an index built from scratch answers, after any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 }), (batches) => {
        const core = fleetCore();
        // both grids built before the changes, so every later answer comes from updates
        for (const query of QUERIES) core.clusterAnswer(query);
        let now = NOW;
        for (const batch of batches) {
          now += 60_000;
          for (const change of batch) {
            const id = idOf('asset' in change ? change.asset : 0);
            if (change.kind === 'move') {
              const [lat, lng] = PLACES[change.place]!;
              send(core, { type: 'point', thing_id: id, lat: lat + change.jitter * 0.00001, lng, accuracy: 1, timestamp: iso(now) });
            } else if (change.kind === 'heartbeat')
              send(core, { type: 'heartbeat', thing_id: id, is_active: change.active, timestamp: iso(now - change.hoursAgo * HOUR_MS) });
            else if (change.kind === 'incident')
              send(core, { type: 'location', thing_id: id, location_id: change.on ? 'loc-1' : null, timestamp: iso(now) });
            else if (change.kind === 'remove') core.loadThings([], [id], now);
            else if (change.kind === 'add') {
              const [lat, lng] = PLACES[change.place]!;
              core.loadThings([parsedThing(change.asset, { lat, lng, heartbeat_datetime: iso(now) })], [], now);
            } else core.setFilter({ statuses: defaultStatusFilter(!change.hideOffline) }, now);
          }
          core.flush(now);
          const fresh = new ClusterIndex();
          fresh.ensure(core.fleet, core.clusterVersion);
          for (const query of QUERIES) {
            const kept = core.clusterAnswer(query);
            const built = fresh.query(query);
            expect(plain(kept), JSON.stringify(query)).toEqual(plain(built));
            for (const id of kept.clusterId) if (id >= 0) expect(core.clusters.expansionZoom(id)).toBe(fresh.expansionZoom(id));
          }
        }
      }),
      { numRuns: 100, seed: 19 },
    );
  });

  it('after an organization switch, answers only the new fleet, as a fresh index does', () => {
    const core = fleetCore();
    for (const query of QUERIES) core.clusterAnswer(query);
    core.reset();
    core.loadThings(
      Array.from({ length: 7 }, (_, i) => parsedThing(100 + i, { lat: 45 + i * 0.01, lng: 7 })),
      [],
      NOW,
    );
    core.flush(NOW);
    const fresh = new ClusterIndex();
    fresh.ensure(core.fleet, core.clusterVersion);
    for (const query of QUERIES) expect(plain(core.clusterAnswer(query)), JSON.stringify(query)).toEqual(plain(fresh.query(query)));
    const all = core.clusterAnswer({ bbox: [-180, -85, 180, 85], zoom: CLUSTER_MAX_ZOOM + 1, stationView: false });
    expect(Array.from(all.slot).map((slot) => core.fleet.assets[slot]!.id)).toEqual(Array.from({ length: 7 }, (_, i) => idOf(100 + i)));
  });

  it('moves only the points that changed', () => {
    const core = fleetCore();
    core.clusterAnswer(QUERIES[0]!);
    send(core, { type: 'point', thing_id: idOf(5), lat: 30.3, lng: -97.6, accuracy: 1, timestamp: iso(NOW + 1000) });
    send(core, { type: 'point', thing_id: idOf(6), lat: 30.31, lng: -97.6, accuracy: 1, timestamp: iso(NOW + 1000) });
    core.flush(NOW + 1000);
    core.clusterAnswer(QUERIES[0]!);
    expect(core.clusters.lastMoved).toBe(2);
  });
});

describe('the group view answers', () => {
  const world: [number, number, number, number] = [-180, -85, 180, 85];

  function coreAt(points: [number, number][]): LiveCore {
    const core = new LiveCore();
    core.loadThings(
      points.map(([lat, lng], i) => parsedThing(i, { lat, lng })),
      [],
      NOW,
    );
    core.flush(NOW);
    return core;
  }

  it('two assets a few pixels apart either side of a cell edge are one cluster, at its weighted centre', () => {
    // 0° longitude is an edge of the grid at every zoom; 1e-5° is about 0.1 px at zoom 10.
    const core = coreAt([
      [10, -0.00001],
      [10, 0.00001],
      [10, 0.00002],
    ]);
    const answer = core.clusterAnswer({ bbox: world, zoom: 10, stationView: false });
    expect(Array.from(answer.count)).toEqual([3]);
    expect(Array.from(answer.slot)).toEqual([-1]);
    expect(answer.lngLat[0]).toBeCloseTo(0.0000067, 5);
    expect(answer.lngLat[1]).toBeCloseTo(10, 5);
  });

  it('a cluster breaks apart at its expansion zoom; past the last clustering zoom every asset is alone', () => {
    // 0.0015° of longitude apart: 35 px at zoom 14 (one marker), 70 px at zoom 15 (two).
    const core = coreAt([
      [30.2, -97.7],
      [30.2, -97.6985],
    ]);
    const far = core.clusterAnswer({ bbox: world, zoom: 11, stationView: false });
    expect(Array.from(far.count)).toEqual([2]);
    const zoom = core.clusters.expansionZoom(far.clusterId[0]!);
    expect(zoom).toBe(15);
    expect(Array.from(core.clusterAnswer({ bbox: world, zoom: zoom - 1, stationView: false }).count)).toEqual([2]);
    const apart = core.clusterAnswer({ bbox: world, zoom, stationView: false });
    expect(Array.from(apart.count)).toEqual([1, 1]);
    expect(Array.from(apart.slot).sort()).toEqual([0, 1]);

    const crowd = coreAt(Array.from({ length: 5 }, () => [30.2, -97.7] as [number, number]));
    const atMax = crowd.clusterAnswer({ bbox: world, zoom: CLUSTER_MAX_ZOOM, stationView: false });
    expect(Array.from(atMax.count)).toEqual([5]);
    expect(crowd.clusters.expansionZoom(atMax.clusterId[0]!)).toBe(CLUSTER_MAX_ZOOM + 1);
    const alone = crowd.clusterAnswer({ bbox: world, zoom: CLUSTER_MAX_ZOOM + 1, stationView: false });
    expect(Array.from(alone.count)).toEqual([1, 1, 1, 1, 1]);
  });

  it('the most urgent status inside a cluster is its top; a viewport across the antimeridian sees both sides', () => {
    const core = new LiveCore();
    core.loadThings(
      [
        parsedThing(1, { lat: 0, lng: 179.9, heartbeat_datetime: iso(NOW - 100 * HOUR_MS) }),
        parsedThing(2, { lat: 0.001, lng: 179.9, heartbeat_datetime: iso(NOW) }),
        parsedThing(3, { lat: 0, lng: -179.9, heartbeat_datetime: iso(NOW) }),
        parsedThing(4, { lat: 0, lng: 0, heartbeat_datetime: iso(NOW) }),
      ],
      [],
      NOW,
    );
    core.flush(NOW);
    const answer = core.clusterAnswer({ bbox: [179, -1, -179, 1], zoom: 8, stationView: false });
    expect(Array.from(answer.count).sort()).toEqual([1, 2]);
    const cluster = Array.from(answer.count).indexOf(2);
    const statuses = [1, 2].map((i) => core.fleet.buffers.status[core.slotOf(idOf(i))]!);
    expect(answer.topStatus[cluster]).toBe(Math.min(...statuses));
    expect(Math.min(...statuses)).toBeLessThan(Math.max(...statuses));
    // The mix counts each of its assets at its status (a single asset: 1 at its own).
    const mixOf = (i: number) => Array.from(answer.mix.subarray(i * STATUS_COUNT, (i + 1) * STATUS_COUNT));
    const expected = Array.from({ length: STATUS_COUNT }, (_, status) => statuses.filter((s) => s === status).length);
    expect(mixOf(cluster)).toEqual(expected);
    expect(mixOf(1 - cluster).reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('every marker’s mix sums to its count, stations and merged stations included, and a station’s mix follows its assets', () => {
    const core = fleetCore();
    for (const [zoom, stationView] of [
      [4, true],
      [10, true],
      [10, false],
      [16, false],
    ] as const) {
      const answer = core.clusterAnswer({ bbox: world, zoom, stationView });
      answer.count.forEach((count, i) => {
        const mix = answer.mix.subarray(i * STATUS_COUNT, (i + 1) * STATUS_COUNT);
        expect(mix.reduce((a, b) => a + b, 0)).toBe(count);
        expect(mix.findIndex((n) => n > 0)).toBe(answer.topStatus[i]);
      });
      answer.stations.count.forEach((count, i) => {
        expect(answer.stations.mix.subarray(i * STATUS_COUNT, (i + 1) * STATUS_COUNT).reduce((a, b) => a + b, 0)).toBe(count);
      });
    }
  });

  it('station groups: a station alone is a station marker with its count; a station next to free assets merges into their cluster', () => {
    const core = new LiveCore();
    core.setStations(stationsFrom([fromAreaWire(stationArea('st-1', 30.2, -97.7))]), NOW);
    core.loadThings(
      [
        ...Array.from({ length: 3 }, (_, i) => parsedThing(i, { lat: 30.2, lng: -97.7, heartbeat_datetime: iso(NOW - 3 * HOUR_MS) })),
        parsedThing(9, { lat: 31, lng: -98 }),
      ],
      [],
      NOW,
    );
    core.flush(NOW);
    const answer = core.clusterAnswer({ bbox: world, zoom: 10, stationView: true });
    expect(answer.stations.ids).toEqual(['st-1']);
    expect(Array.from(answer.stations.count)).toEqual([3]);
    expect(Array.from(answer.count)).toEqual([1]);
    expect(core.clusterAnswer({ bbox: world, zoom: STATION_GROUPS_BELOW_ZOOM, stationView: true }).stations.ids).toEqual([]);
    // one free asset moves 300 m from the station (outside it): a cluster of 4 in place of the station marker
    core.enqueue(
      liveMessageSchema.parse({ type: 'point', thing_id: idOf(9), lat: 30.2027, lng: -97.7, accuracy: 1, timestamp: iso(NOW + 1000) }),
    );
    core.flush(NOW + 1000);
    const merged = core.clusterAnswer({ bbox: world, zoom: 10, stationView: true });
    expect(merged.stations.ids).toEqual([]);
    expect(Array.from(merged.count)).toEqual([4]);
  });
});
