import { describe, expect, it } from 'vitest';
import { thingWireSchema, fromThingWire, type Asset } from '../../src/domain/asset';
import { ASSET_STATUS, computeAssetStatus, displayStatus } from '../../src/domain/asset-status';
import {
  compareAssets,
  createAssetFilter,
  defaultAssetFilter,
  defaultStatusFilter,
  matchesAssetFilter,
} from '../../src/domain/asset-filter';
import { fromAreaWire, stationsFrom } from '../../src/domain/area';
import { HOUR_MS, POINT_ACCURACY_MIN_M, POINT_ACCURACY_STATION_MIN_M, SECOND_MS, STALE_AFTER_MS } from '../../src/domain/constants';
import type { LiveMessageInput } from '../../src/domain/live-message';
import { liveMessageSchema } from '../../src/domain/live-message';
import { locationWireSchema } from '../../src/domain/location';
import { FLAG_AT_STATION, FLAG_LISTED, FLAG_STALE, STATUS_COUNT, decodeIcon, type LiveDiff } from '../../src/domain/live-diff';
import { LiveCore } from '../../src/workers/live-core';
import { AGE_BUCKETS, histogramCount, histogramPercentile } from '../../src/domain/live-timings';
import { STATION_GROUPS_BELOW_ZOOM } from '../../src/workers/cluster-index';
import { NOW, iso, parsedThing, stationArea, thing } from '../support/live-fixtures';

function coreWith(things: ReturnType<typeof parsedThing>[], now = NOW): LiveCore {
  const core = new LiveCore();
  core.loadThings(things, [], now);
  core.flush(now);
  return core;
}

function send(core: LiveCore, message: LiveMessageInput): void {
  core.enqueue(liveMessageSchema.parse(message));
}

const at = (core: LiveCore, id: string): Asset => {
  const asset = core.fleet.get(id);
  if (!asset) throw new Error(`no ${id}`);
  return asset;
};
const slotOf = (core: LiveCore, id: string) => core.fleet.slotOf.get(id) as number;

/** A deterministic mixed fleet: every status, equal names, missing heartbeats, out of service. */
function mixedFleet(count: number) {
  const ages = [0, 20 * 60_000, 3 * HOUR_MS, 9 * HOUR_MS, 100 * HOUR_MS, 50 * HOUR_MS];
  return Array.from({ length: count }, (_, i) =>
    parsedThing(i, {
      nickname: i % 7 === 0 ? 'Same Name' : i % 5 === 0 ? null : `Unit ${(i * 37) % 101}`,
      heartbeat_datetime: i % 11 === 0 ? null : iso(NOW - (ages[i % ages.length] ?? 0)),
      enroute: i % 4 === 0,
      street: i % 6 === 1 ? 'Congress Ave' : null,
      location_id: i % 29 === 0 ? 'loc-1' : null,
      in_service: i % 13 !== 0,
      thing_type: ['police', 'fire', 'tow', 'mystery'][i % 4],
      feed_subscriptions: i % 9 === 0 ? ['wzdx-1'] : [],
    }),
  );
}

describe('part1 §4 sorting and filtering in the worker', () => {
  it('the list order equals the domain sort (compareAssets) of the matching assets', () => {
    const wires = mixedFleet(600);
    const core = coreWith(wires);
    const filter = createAssetFilter(defaultAssetFilter(true));
    const expected = wires
      .map((wire) => fromThingWire(wire, NOW))
      .filter((asset): asset is Asset => asset !== null && matchesAssetFilter(asset, filter))
      .sort(compareAssets)
      .map((asset) => asset.id);
    const order = Array.from(core.order.order, (slot) => core.fleet.assets[slot]!.id);
    expect(order).toEqual(expected);
  });

  it('counts per display status (out of service apart) equal the domain over the fleet', () => {
    const wires = mixedFleet(300);
    const core = coreWith(wires);
    const expected = new Array<number>(STATUS_COUNT).fill(0);
    for (const wire of wires) {
      const asset = fromThingWire(wire, NOW)!;
      expected[displayStatus(computeAssetStatus(asset, NOW), asset.inService)]! += 1;
    }
    expect(Array.from(core.fleet.counts)).toEqual(expected);
    expect(core.fleet.total).toBe(300);
  });

  it.each([
    ['show offline off', { statuses: defaultStatusFilter(false) }],
    ['out of service added', { statuses: defaultStatusFilter(true), outOfService: true }],
    ['out of service alone', { statuses: [], outOfService: true }],
    ['feed added to pending', { statuses: [ASSET_STATUS.pending], feed: true }],
    ['search', { statuses: defaultStatusFilter(true), search: 'same name' }],
    ['type', { statuses: defaultStatusFilter(true), typeNames: ['fire'] }],
    ['pending only', { statuses: [ASSET_STATUS.pending] }],
  ])('filter: %s lists exactly the matching assets, in order', (_name, input) => {
    const wires = mixedFleet(200);
    const core = coreWith(wires);
    core.setFilter(input, NOW);
    const diff = core.flush(NOW)!;
    const filter = createAssetFilter(input);
    const expected = wires
      .map((wire) => fromThingWire(wire, NOW)!)
      .filter((asset) => matchesAssetFilter(asset, filter))
      .sort(compareAssets)
      .map((asset) => asset.id);
    expect(Array.from(diff.order!, (slot) => core.fleet.assets[slot]!.id)).toEqual(expected);
    expect(diff.listLength).toBe(expected.length);
    expect(diff.listCounts.reduce((a, b) => a + b, 0)).toBe(expected.length);
  });

  it('a batch of points that changes no status, listing or pending heartbeat sends no new order', () => {
    const core = coreWith([parsedThing(1), parsedThing(2)]);
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 30.3, lng: -97.7, accuracy: 5, timestamp: iso(NOW + 500) });
    const diff = core.flush(NOW + SECOND_MS)!;
    expect(diff.index.length).toBe(1);
    expect(diff.order).toBeNull();
  });
});

describe('part1 §4 live updates: the effect of each message', () => {
  it('point: moves the asset, updates speed and course, and counts as a check-in', () => {
    const core = coreWith([parsedThing(1, { heartbeat_datetime: iso(NOW - 60_000) })]);
    send(core, {
      type: 'point',
      thing_id: 'thing-00001',
      lat: 30.5,
      lng: -97.5,
      speed: 33,
      course: 180,
      accuracy: 10,
      timestamp: iso(NOW),
    });
    const diff = core.flush(NOW)!;
    const asset = at(core, 'thing-00001');
    expect(asset.position).toEqual({ lat: 30.5, lng: -97.5 });
    expect(asset.speed).toBe(33);
    expect(asset.courseDirection).toBe('S');
    expect(asset.heartbeatTime).toBe(NOW);
    expect(Array.from(diff.lngLat)).toEqual([-97.5, 30.5]);
    expect(diff.heading[0]).toBe(180);
  });

  it('point: the street the server sets after 10 minutes still makes the asset stationary; moving clears it (standby)', () => {
    const core = coreWith([parsedThing(1, { heartbeat_datetime: iso(NOW - 60_000), enroute: false, street: null })]);
    expect(at(core, 'thing-00001').status).toBe(ASSET_STATUS.standby);
    send(core, {
      type: 'point',
      thing_id: 'thing-00001',
      lat: 30.5,
      lng: -97.5,
      speed: 0,
      accuracy: 5,
      timestamp: iso(NOW),
      street: 'Congress Ave',
    });
    core.flush(NOW);
    expect(at(core, 'thing-00001').status).toBe(ASSET_STATUS.stationary);
    send(core, {
      type: 'point',
      thing_id: 'thing-00001',
      lat: 30.51,
      lng: -97.5,
      speed: 30,
      accuracy: 5,
      timestamp: iso(NOW + 1000),
      street: null,
    });
    core.flush(NOW + 1000);
    expect(at(core, 'thing-00001').status).toBe(ASSET_STATUS.standby);
  });

  it.each([
    ['on the road, within the minimum', false, POINT_ACCURACY_MIN_M, true],
    ['on the road, beyond the minimum', false, POINT_ACCURACY_MIN_M + 1, false],
    ['at a station, within the looser minimum', true, POINT_ACCURACY_STATION_MIN_M, true],
    ['at a station, beyond it', true, POINT_ACCURACY_STATION_MIN_M + 1, false],
    ['with no accuracy', false, null, true],
  ])('point accuracy %s', (_name, atStation, accuracy, accepted) => {
    const core = coreWith([parsedThing(1, { lat: 30.2, lng: -97.7 })]);
    core.setStations(stationsFrom([fromAreaWire(stationArea('st-1', 30.2, -97.7))]), NOW);
    if (!atStation) core.setStations([], NOW);
    core.flush(NOW);
    expect(at(core, 'thing-00001').stationId).toBe(atStation ? 'st-1' : null);
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 30.2004, lng: -97.7, accuracy, speed: 3, timestamp: iso(NOW) });
    core.flush(NOW);
    const asset = at(core, 'thing-00001');
    expect(asset.position.lat).toBe(accepted ? 30.2004 : 30.2);
    expect(asset.speed).toBe(3);
  });

  it('point: a non-active asset leaves its station when it moves out, and joins the one it moves into', () => {
    const core = coreWith([parsedThing(1, { lat: 30.2, lng: -97.7 })]);
    core.setStations(stationsFrom([fromAreaWire(stationArea('st-1', 30.2, -97.7)), fromAreaWire(stationArea('st-2', 30.25, -97.7))]), NOW);
    core.flush(NOW);
    expect(at(core, 'thing-00001').stationId).toBe('st-1');
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 30.22, lng: -97.7, accuracy: 5, timestamp: iso(NOW) });
    let diff = core.flush(NOW)!;
    expect(at(core, 'thing-00001').stationId).toBeNull();
    expect(diff.flags[0]! & FLAG_AT_STATION).toBe(0);
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 30.2502, lng: -97.7, accuracy: 5, timestamp: iso(NOW) });
    diff = core.flush(NOW)!;
    expect(at(core, 'thing-00001').stationId).toBe('st-2');
    expect(diff.flags[0]! & FLAG_AT_STATION).toBe(FLAG_AT_STATION);
  });

  it('station check: stations from the areas, 100 m by default, only above active', () => {
    const core = coreWith([
      parsedThing(1, { lat: 30.2, lng: -97.7 }),
      parsedThing(2, { lat: 30.2008, lng: -97.7 }), // ~89 m
      parsedThing(3, { lat: 30.2012, lng: -97.7 }), // ~133 m
      parsedThing(4, { lat: 30.2, lng: -97.7, enroute: true }),
    ]);
    core.setStations(stationsFrom([fromAreaWire(stationArea('st-1', 30.2, -97.7))]), NOW);
    core.flush(NOW);
    expect(['thing-00001', 'thing-00002', 'thing-00003', 'thing-00004'].map((id) => at(core, id).stationId)).toEqual([
      'st-1',
      'st-1',
      null,
      null,
    ]);
    expect(at(core, 'thing-00004').status).toBe(ASSET_STATUS.active);
  });

  it('heartbeat: sets the active flag; inactive resets the run counters', () => {
    const core = coreWith([parsedThing(1)]);
    send(core, {
      type: 'heartbeat',
      thing_id: 'thing-00001',
      is_active: true,
      timestamp: iso(NOW + 1000),
      run_id: 'run-1',
      run_start_time: iso(NOW),
      run_points_count: 4,
    });
    let diff = core.flush(NOW + 1000)!;
    expect(at(core, 'thing-00001')).toMatchObject({
      enroute: true,
      status: ASSET_STATUS.active,
      runId: 'run-1',
      runPointsCount: 4,
      heartbeatTime: NOW + 1000,
    });
    expect(diff.status[0]).toBe(ASSET_STATUS.active);
    expect(decodeIcon(diff.icon[0]!)).toEqual({ typeIndex: 0, status: ASSET_STATUS.active, outOfService: false });
    send(core, { type: 'heartbeat', thing_id: 'thing-00001', is_active: false, timestamp: iso(NOW + 2000) });
    diff = core.flush(NOW + 2000)!;
    expect(at(core, 'thing-00001')).toMatchObject({
      enroute: false,
      status: ASSET_STATUS.standby,
      runId: null,
      runStartTime: null,
      runPointsCount: null,
    });
    expect(diff.order).not.toBeNull();
  });

  it('thing: replaces the attributes (a new name re-sorts); one without a position is removed', () => {
    const core = coreWith([parsedThing(1, { nickname: 'Bravo' }), parsedThing(2, { nickname: 'Charlie' })]);
    const names = () => Array.from(core.order.order, (slot) => core.fleet.assets[slot]!.primaryDisplayName);
    expect(names()).toEqual(['Bravo', 'Charlie']);
    send(core, { type: 'thing', thing: thing(2, { nickname: 'Alpha', in_service: false }) });
    let diff = core.flush(NOW)!;
    expect(names()).toEqual(['Alpha', 'Bravo']);
    expect(diff.status[0]).toBe(ASSET_STATUS.oos);
    expect(decodeIcon(diff.icon[0]!).outOfService).toBe(true);
    send(core, { type: 'thing', thing: thing(1, { lat: null }) });
    diff = core.flush(NOW)!;
    expect(Array.from(diff.removed)).toEqual([0]);
    expect(diff.total).toBe(1);
    expect(core.fleet.has('thing-00001')).toBe(false);
  });

  it('location: puts the asset on an incident (status location, station cleared) and off it', () => {
    const core = coreWith([parsedThing(1, { lat: 30.2, lng: -97.7 })]);
    core.setStations(stationsFrom([fromAreaWire(stationArea('st-1', 30.2, -97.7))]), NOW);
    core.flush(NOW);
    send(core, {
      type: 'location',
      thing_id: 'thing-00001',
      location_id: 'loc-9',
      timestamp: iso(NOW),
      location: { id: 'loc-9', is_active: true, lat: 30.2, lng: -97.7, start_time: iso(NOW), display_name: 'Crash on I-35' },
    });
    core.flush(NOW);
    expect(at(core, 'thing-00001')).toMatchObject({
      status: ASSET_STATUS.location,
      isOnIncident: true,
      locationId: 'loc-9',
      stationId: null,
    });
    expect(core.events.get('loc-9')?.displayName).toBe('Crash on I-35');
    send(core, { type: 'location', thing_id: 'thing-00001', location_id: null, timestamp: iso(NOW + 5000) });
    core.flush(NOW + 5000);
    expect(at(core, 'thing-00001')).toMatchObject({
      status: ASSET_STATUS.standby,
      isOnIncident: false,
      incidentEndTime: NOW + 5000,
      stationId: 'st-1',
    });
  });

  it('closure: an active closure sets the asset active; inactive releases it', () => {
    const core = coreWith([parsedThing(1, { heartbeat_datetime: iso(NOW - 9 * HOUR_MS) })]);
    expect(at(core, 'thing-00001').status).toBe(ASSET_STATUS.pending);
    send(core, {
      type: 'closure',
      thing_id: 'thing-00001',
      closure_id: 'cl-1',
      wzdx_id: 'wz-1',
      is_active: true,
      timestamp: iso(NOW - 9 * HOUR_MS),
    });
    core.flush(NOW);
    expect(at(core, 'thing-00001')).toMatchObject({ status: ASSET_STATUS.active, activeClosures: [{ id: 'cl-1', wzdxId: 'wz-1' }] });
    send(core, { type: 'closure', thing_id: 'thing-00001', closure_id: 'cl-1', is_active: false, timestamp: iso(NOW - 9 * HOUR_MS) });
    core.flush(NOW);
    expect(at(core, 'thing-00001')).toMatchObject({ status: ASSET_STATUS.pending, activeClosures: [] });
  });

  it('messages about unknown assets change nothing', () => {
    const core = coreWith([parsedThing(1)]);
    send(core, { type: 'point', thing_id: 'nobody', lat: 1, lng: 1, timestamp: iso(NOW) });
    expect(core.flush(NOW)).toBeNull();
  });

  it('a message queued before its asset left (its slot then held by another) never moves the other asset', () => {
    const core = coreWith([parsedThing(1, { lat: 30.1, lng: -97.1 }), parsedThing(2, { lat: 30.2, lng: -97.2 })]);
    const freed = slotOf(core, 'thing-00001');
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 35, lng: -90, accuracy: 5, timestamp: iso(NOW) });
    // Before the batch: a refresh removes thing 1 and loads thing 3, which takes the freed slot.
    core.loadThings([], ['thing-00001'], NOW);
    core.flush(NOW);
    core.loadThings([parsedThing(3, { lat: 30.3, lng: -97.3 })], [], NOW);
    expect(slotOf(core, 'thing-00003')).toBe(freed);
    send(core, { type: 'point', thing_id: 'thing-00002', lat: 30.25, lng: -97.25, accuracy: 5, timestamp: iso(NOW) });
    core.flush(NOW + SECOND_MS);
    expect(at(core, 'thing-00003').position).toEqual({ lat: 30.3, lng: -97.3 });
    expect(at(core, 'thing-00002').position).toEqual({ lat: 30.25, lng: -97.25 });
    expect(core.fleet.get('thing-00001')).toBeNull();
  });

  it('a message that arrived before its asset was loaded applies to it once the batch runs', () => {
    const core = coreWith([parsedThing(1)]);
    send(core, { type: 'point', thing_id: 'thing-00002', lat: 31, lng: -98, accuracy: 5, timestamp: iso(NOW) });
    core.loadThings([parsedThing(2, { lat: 30.2, lng: -97.2 })], [], NOW);
    core.flush(NOW);
    expect(at(core, 'thing-00002').position).toEqual({ lat: 31, lng: -98 });
  });
});

describe('part1 §4 one clock: staleness and status windows', () => {
  it('an asset turns stale exactly STALE_AFTER_MS after its heartbeat, with no message', () => {
    const core = coreWith([parsedThing(1)]);
    const slot = slotOf(core, 'thing-00001');
    expect(core.fleet.buffers.flags[slot]! & FLAG_STALE).toBe(0);
    expect(core.fleet.clock.next()).toBe(NOW + STALE_AFTER_MS);
    expect(core.flush(NOW + STALE_AFTER_MS - 1)).toBeNull();
    const diff = core.flush(NOW + STALE_AFTER_MS)!;
    expect(Array.from(diff.index)).toEqual([slot]);
    expect(diff.flags[0]! & FLAG_STALE).toBe(FLAG_STALE);
    expect(at(core, 'thing-00001').isStale).toBe(true);
  });

  it('a standby asset becomes pending at 8 h and offline at 96 h of silence, re-sorted each time', () => {
    const core = coreWith([parsedThing(1)]);
    core.flush(NOW + STALE_AFTER_MS);
    expect(core.fleet.clock.next()).toBe(NOW + 8 * HOUR_MS);
    let diff = core.flush(NOW + 8 * HOUR_MS)!;
    expect(diff.status[0]).toBe(ASSET_STATUS.pending);
    expect(diff.order).not.toBeNull();
    diff = core.flush(NOW + 96 * HOUR_MS)!;
    expect(diff.status[0]).toBe(ASSET_STATUS.offline);
    expect(core.fleet.clock.next()).toBeNull();
  });

  it('a heartbeat moves the asset’s one deadline instead of adding one', () => {
    const core = coreWith([parsedThing(1), parsedThing(2)]);
    expect(core.fleet.clock.length).toBe(2);
    for (let i = 1; i <= 5; i += 1)
      send(core, { type: 'heartbeat', thing_id: 'thing-00001', is_active: false, timestamp: iso(NOW + i * 1000) });
    core.flush(NOW + 5000);
    expect(core.fleet.clock.length).toBe(2);
    expect(core.fleet.clock.get(slotOf(core, 'thing-00001'))).toBe(NOW + 5000 + STALE_AFTER_MS);
  });
});

describe('group view: clusters and station groups', () => {
  it('clusters the listed assets and groups those at stations when zoomed out', () => {
    const things = [
      ...Array.from({ length: 20 }, (_, i) => parsedThing(i, { lat: 30.2 + i * 0.00001, lng: -97.7 })), // at the station
      ...Array.from({ length: 10 }, (_, i) => parsedThing(100 + i, { lat: 31 + i * 0.00001, lng: -98 })), // a cluster elsewhere
      parsedThing(200, { lat: 32, lng: -99 }), // alone
    ];
    const core = coreWith(things);
    core.setStations(stationsFrom([fromAreaWire(stationArea('st-1', 30.2, -97.7))]), NOW);
    core.flush(NOW);
    const world: [number, number, number, number] = [-180, -85, 180, 85];
    const far = core.clusterAnswer({ bbox: world, zoom: 10, stationView: true });
    expect(Array.from(far.stations.count)).toEqual([20]);
    expect(far.stations.ids).toEqual(['st-1']);
    expect(Array.from(far.count).sort((a, b) => a - b)).toEqual([1, 10]);
    const single = Array.from(far.slot).find((slot) => slot >= 0);
    expect(core.fleet.assets[single!]!.id).toBe('thing-00200');

    const near = core.clusterAnswer({ bbox: world, zoom: STATION_GROUPS_BELOW_ZOOM, stationView: true });
    expect(near.stations.ids).toEqual([]);
    expect(Array.from(near.count).reduce((a, b) => a + b, 0)).toBe(31);

    const noStations = core.clusterAnswer({ bbox: world, zoom: 10, stationView: false });
    expect(noStations.stations.ids).toEqual([]);
    expect(Array.from(noStations.count).reduce((a, b) => a + b, 0)).toBe(31);
  });

  it('zoomed out, station markers that would overlap each other or a cluster merge into one cluster counting all their assets', () => {
    // Two stations 2.2 km apart (about 530 px at zoom 14, 33 px at zoom 10, in deck.gl's 512-px
    // world), 3 and 2 assets at them, and 4 assets away from any station 300 m from the first.
    const things = [
      ...Array.from({ length: 3 }, (_, i) => parsedThing(i, { lat: 30.2 + i * 0.00001, lng: -97.7 })),
      ...Array.from({ length: 2 }, (_, i) => parsedThing(10 + i, { lat: 30.22 + i * 0.00001, lng: -97.7 })),
      ...Array.from({ length: 4 }, (_, i) => parsedThing(20 + i, { lat: 30.2027 + i * 0.00001, lng: -97.7 })),
    ];
    const core = coreWith(things);
    core.setStations(stationsFrom([fromAreaWire(stationArea('st-1', 30.2, -97.7)), fromAreaWire(stationArea('st-2', 30.22, -97.7))]), NOW);
    core.flush(NOW);
    const world: [number, number, number, number] = [-180, -85, 180, 85];
    const far = core.clusterAnswer({ bbox: world, zoom: 10, stationView: true });
    expect(far.stations.ids).toEqual([]);
    expect(Array.from(far.count)).toEqual([9]);
    expect(Array.from(far.slot)).toEqual([-1]);
    // a click on it zooms to where it breaks apart
    const expansion = core.clusters.expansionZoom(far.clusterId[0]!);
    expect(expansion).toBeGreaterThan(10);
    expect(expansion).toBeLessThanOrEqual(14);

    const closer = core.clusterAnswer({ bbox: world, zoom: 14, stationView: true });
    expect([...closer.stations.ids].sort()).toEqual(['st-1', 'st-2']);
    expect(closer.stations.names.slice().sort()).toEqual(['Station st-1', 'Station st-2']);
    expect(Array.from(closer.stations.count).sort()).toEqual([2, 3]);
    expect(Array.from(closer.count)).toEqual([4]);
  });

  it('rebuilds only when something it shows changed', () => {
    const core = coreWith([parsedThing(1), parsedThing(2, { heartbeat_datetime: iso(NOW - 200 * HOUR_MS) })]);
    const query = { bbox: [-180, -85, 180, 85] as [number, number, number, number], zoom: 5, stationView: true };
    core.clusterAnswer(query);
    const builds = core.clusters.builds;
    core.clusterAnswer(query);
    expect(core.clusters.builds).toBe(builds);
    // a heartbeat that changes nothing drawn (standby stays standby, fresh): no rebuild
    send(core, { type: 'heartbeat', thing_id: 'thing-00001', is_active: false, timestamp: iso(NOW + 100) });
    const quiet = core.flush(NOW + 100);
    core.clusterAnswer(query);
    expect(core.clusters.builds).toBe(builds);
    expect(quiet?.clusterVersion ?? core.clusterVersion).toBe(core.clusterVersion);
    // a move does
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 30.9, lng: -97.7, accuracy: 1, timestamp: iso(NOW + 200) });
    core.flush(NOW + 200);
    const answer = core.clusterAnswer(query);
    expect(core.clusters.builds).toBe(builds + 1);
    expect(answer.version).toBe(core.clusterVersion);
  });
});

describe('selection and rows on request', () => {
  it('the selected asset rides on the diffs in which it changed; rows follow the list order', () => {
    const core = coreWith([parsedThing(1, { nickname: 'B' }), parsedThing(2, { nickname: 'A' })]);
    expect(core.select('thing-00001')?.primaryDisplayName).toBe('B');
    send(core, { type: 'point', thing_id: 'thing-00002', lat: 30.9, lng: -97.7, timestamp: iso(NOW) });
    expect(core.flush(NOW)!.selected).toBeUndefined();
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 30.9, lng: -97.7, speed: 12, timestamp: iso(NOW) });
    const diff: LiveDiff = core.flush(NOW)!;
    expect(diff.selected).toMatchObject({ id: 'thing-00001', speed: 12 });
    expect(diff.selected).not.toHaveProperty('searchText');
    expect(core.rows(0, 10).map((row) => row.primaryDisplayName)).toEqual(['A', 'B']);
    expect(core.fleet.buffers.flags[slotOf(core, 'thing-00001')]! & FLAG_LISTED).toBe(FLAG_LISTED);
  });

  it('a map pick answers the asset in its slot; the slot of an id; the bounds of the listed assets only', () => {
    const core = coreWith([
      parsedThing(1, { nickname: 'West', lat: 30.1, lng: -97.9 }),
      parsedThing(2, { nickname: 'East', lat: 30.4, lng: -97.5 }),
      parsedThing(3, { nickname: 'Far', lat: 40, lng: -80 }),
    ]);
    const slot = core.slotOf('thing-00002');
    expect(slot).toBeGreaterThanOrEqual(0);
    expect(core.assetAtSlot(slot)?.primaryDisplayName).toBe('East');
    expect(core.assetAtSlot(9999)).toBeNull();
    expect(core.slotOf('nobody')).toBe(-1);
    expect(core.listedBounds()).toEqual([-97.9, 30.1, -80, 40]);
    // An asset the filter hides does not stretch the fit.
    core.setFilter({ statuses: defaultStatusFilter(true), search: 'st' }, NOW);
    core.flush(NOW);
    expect(core.listedBounds()).toEqual([-97.9, 30.1, -97.5, 30.4]);
    core.setFilter({ statuses: [] }, NOW);
    core.flush(NOW);
    expect(core.listedBounds()).toBeNull();
  });

  it('thing wires parse at the boundary', () => {
    expect(() => thingWireSchema.parse({ id: 1 })).toThrow();
  });
});

describe('the list order over many batches (merge of the moved slots)', () => {
  it('stays equal to the domain sort while statuses, heartbeats, names and listings change', () => {
    const wires = mixedFleet(400);
    const core = coreWith(wires);
    let seed = 7;
    const random = () => (seed = (seed * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
    let now = NOW;
    for (let batch = 0; batch < 30; batch += 1) {
      now += 7 * 60_000;
      for (let i = 0; i < 25; i += 1) {
        const id = wires[Math.floor(random() * wires.length)]!.id;
        const r = random();
        if (r < 0.4)
          send(core, {
            type: 'heartbeat',
            thing_id: id,
            is_active: random() < 0.5,
            timestamp: iso(now - Math.floor(random() * 100 * HOUR_MS)),
          });
        else if (r < 0.6) send(core, { type: 'location', thing_id: id, location_id: random() < 0.5 ? 'loc-2' : null, timestamp: iso(now) });
        else if (r < 0.7 && batch % 5 === 0)
          send(core, {
            type: 'thing',
            thing: thing(Number(id.slice(6)), { nickname: `Renamed ${Math.floor(random() * 50)}`, heartbeat_datetime: iso(now) }),
          });
        else send(core, { type: 'point', thing_id: id, lat: 30 + random(), lng: -97, timestamp: iso(now) });
      }
      if (batch === 15) core.setFilter({ statuses: defaultStatusFilter(false) }, now);
      core.flush(now);
      const filter = core.fleet.filter;
      const expected = core.fleet.assets
        .filter((asset): asset is Asset => asset !== null && matchesAssetFilter(asset, filter))
        .sort(compareAssets)
        .map((asset) => asset.id);
      expect(Array.from(core.order.order, (slot) => core.fleet.assets[slot]!.id)).toEqual(expected);
    }
    expect(core.order.merges).toBeGreaterThan(5);
  });
});

describe('a thing read from the database while newer socket facts are held', () => {
  it('keeps the newer heartbeat, position and alerting; takes the attributes', () => {
    const core = coreWith([parsedThing(1, { heartbeat_datetime: iso(NOW - 5000) })]);
    send(core, { type: 'point', thing_id: 'thing-00001', lat: 30.9, lng: -97.1, accuracy: 3, timestamp: iso(NOW) });
    send(core, { type: 'heartbeat', thing_id: 'thing-00001', is_active: true, timestamp: iso(NOW) });
    core.flush(NOW);
    send(core, { type: 'thing', thing: thing(1, { nickname: 'Renamed', heartbeat_datetime: iso(NOW - 5000) }) });
    core.flush(NOW);
    expect(at(core, 'thing-00001')).toMatchObject({
      primaryDisplayName: 'Renamed',
      heartbeatTime: NOW,
      enroute: true,
      position: { lat: 30.9, lng: -97.1 },
      status: ASSET_STATUS.active,
    });
    send(core, { type: 'thing', thing: thing(1, { nickname: 'Newer', heartbeat_datetime: iso(NOW + 1000), lat: 30.1, enroute: false }) });
    core.flush(NOW + 1000);
    expect(at(core, 'thing-00001')).toMatchObject({ heartbeatTime: NOW + 1000, enroute: false, position: { lat: 30.1 } });
  });

  it('keeps the incident a newer location message put the asset on; a wire that checked in later says which it is on', () => {
    const core = coreWith([parsedThing(1, { heartbeat_datetime: iso(NOW - 5000) })]);
    send(core, { type: 'location', thing_id: 'thing-00001', location_id: 'loc-1', timestamp: iso(NOW) });
    core.flush(NOW);
    // The page read before the ingest stored the asset's row: off any incident, an older heartbeat.
    core.loadThings([parsedThing(1, { heartbeat_datetime: iso(NOW - 4000), location_id: null })], [], NOW);
    core.flush(NOW);
    expect(at(core, 'thing-00001')).toMatchObject({ isOnIncident: true, locationId: 'loc-1', incidentStartTime: NOW });
    expect(core.fleet.counts[ASSET_STATUS.location]).toBe(1);
    core.loadThings([parsedThing(1, { heartbeat_datetime: iso(NOW + 2000), location_id: null })], [], NOW + 2000);
    core.flush(NOW + 2000);
    expect(at(core, 'thing-00001')).toMatchObject({ isOnIncident: false, locationId: null });
  });
});

describe('location messages about assets not held yet, while a first load reads the fleet', () => {
  const joined = (n: number, locationId: string | null, time: number): LiveMessageInput => ({
    type: 'location',
    thing_id: parsedThing(n).id,
    location_id: locationId,
    timestamp: iso(time),
    location: locationId ? { id: locationId, is_active: true, lat: 30.2, lng: -97.7, start_time: iso(time) } : null,
  });

  it('are kept and applied in the first batch that holds their asset, before the messages after them', () => {
    const core = coreWith([parsedThing(1)]);
    core.holdEarlyMessages(true);
    send(core, joined(2, 'loc-1', NOW));
    send(core, { type: 'point', thing_id: 'thing-00002', lat: 30.9, lng: -97.1, accuracy: 3, timestamp: iso(NOW) });
    core.flush(NOW);
    // The event itself is cached at once; the point about an asset not held is not kept.
    expect(core.events.get('loc-1')).not.toBeNull();
    expect(core.heldEarly).toBe(1);
    core.loadThings([parsedThing(2, { heartbeat_datetime: iso(NOW - 4000) })], [], NOW + 500);
    send(core, joined(2, null, NOW + 600));
    core.flush(NOW + 1000);
    // Joined, then left: in arrival order.
    expect(at(core, 'thing-00002')).toMatchObject({
      isOnIncident: false,
      locationId: null,
      incidentStartTime: NOW,
      incidentEndTime: NOW + 600,
    });
    expect(core.heldEarly).toBe(0);
  });

  it('put the asset on its incident when no later message took it off', () => {
    const core = coreWith([parsedThing(1)]);
    core.holdEarlyMessages(true);
    send(core, joined(3, 'loc-2', NOW));
    core.flush(NOW);
    core.loadThings([parsedThing(3, { heartbeat_datetime: iso(NOW - 4000) })], [], NOW + 500);
    core.flush(NOW + 1000);
    expect(at(core, 'thing-00003')).toMatchObject({ isOnIncident: true, locationId: 'loc-2', status: ASSET_STATUS.location });
  });

  it('are not kept when not holding, and ending the hold drops those whose asset never came', () => {
    const core = coreWith([parsedThing(1)]);
    send(core, joined(2, 'loc-1', NOW));
    core.flush(NOW);
    expect(core.heldEarly).toBe(0);
    core.holdEarlyMessages(true);
    send(core, joined(4, 'loc-3', NOW));
    core.flush(NOW);
    expect(core.heldEarly).toBe(1);
    core.holdEarlyMessages(false);
    expect(core.heldEarly).toBe(0);
    core.loadThings([parsedThing(4, { heartbeat_datetime: iso(NOW - 4000) })], [], NOW + 500);
    core.flush(NOW + 1000);
    expect(at(core, 'thing-00004').isOnIncident).toBe(false);
  });
});

describe('events cache (part1 §4, §9)', () => {
  it('keeps the 500 newest, sorted; display choices and search filter the view', () => {
    const core = new LiveCore();
    const events = Array.from({ length: 520 }, (_, i) => ({
      id: `loc-${i}`,
      is_active: i < 3,
      lat: 30,
      lng: -97,
      street: i === 7 ? 'Congress Ave' : 'Lamar Blvd',
      start_time: iso(NOW - (i + 1) * 3_600_000),
      end_time: i < 3 ? null : iso(NOW - i * 3_600_000),
    }));
    core.loadEvents(
      events.map((e) => locationWireSchema.parse(e)),
      [],
    );
    expect(core.events.size).toBe(500);
    expect(core.events.get('loc-519')).toBeNull();
    const all = core.events.view(NOW, { display: 'all', search: '' });
    expect(all.events.slice(0, 4).map((e) => e.id)).toEqual(['loc-0', 'loc-1', 'loc-2', 'loc-3']);
    expect(all.counts).toEqual({ active: 3, recent: 497 });
    expect(core.events.view(NOW, { display: 'active', search: '' }).counts).toEqual({ active: 3, recent: 0 });
    // 24 hrs: inactive events that ended within the last day (loc-3 … loc-24)
    expect(core.events.view(NOW, { display: '24h', search: '' }).counts).toEqual({ active: 3, recent: 22 });
    expect(core.events.view(NOW, { display: 'all', search: 'congress' }).events.map((e) => e.id)).toEqual(['loc-7']);
    core.loadEvents([], ['loc-7']);
    expect(core.events.get('loc-7')).toBeNull();
  });
});

describe('the freshness measure (README "Application bench")', () => {
  const point = (id: string, timestamp: number, accuracy = 5): LiveMessageInput => ({
    type: 'point',
    thing_id: id,
    lat: 30.3 + (timestamp - NOW) / 1e6,
    lng: -97.7,
    accuracy,
    timestamp: iso(timestamp),
  });

  it('off (as users have it): diffs carry no ages', () => {
    const core = coreWith([parsedThing(1)]);
    send(core, point('thing-00001', NOW + 200));
    expect(core.flush(NOW + SECOND_MS)!.ages).toBeUndefined();
  });

  it('on: a diff carries the ages at the batch of the positions that moved an asset, and only those', () => {
    const core = coreWith([parsedThing(1), parsedThing(2), parsedThing(3)]);
    core.measureAges(true);
    send(core, point('thing-00001', NOW + 200));
    send(core, point('thing-00002', NOW + 900));
    // Too inaccurate to move the asset; a heartbeat moves nothing.
    send(core, point('thing-00003', NOW + 900, POINT_ACCURACY_MIN_M + 50));
    send(core, { type: 'heartbeat', thing_id: 'thing-00003', is_active: false, timestamp: iso(NOW + 900) });
    const diff = core.flush(NOW + SECOND_MS)!;
    expect(diff.ages).toHaveLength(AGE_BUCKETS);
    expect(histogramCount(diff.ages!)).toBe(2);
    // Ages 800 and 100 ms: the median is the younger one, the 99th the older one (within a bucket).
    expect(histogramPercentile(diff.ages!, 50)).toBeGreaterThanOrEqual(100);
    expect(histogramPercentile(diff.ages!, 50)).toBeLessThan(200);
    expect(histogramPercentile(diff.ages!, 99)).toBeGreaterThanOrEqual(800);
    expect(histogramPercentile(diff.ages!, 99)).toBeLessThan(900);
    // The next batch counts only its own positions.
    send(core, point('thing-00001', NOW + 1_500));
    expect(histogramCount(core.flush(NOW + 2 * SECOND_MS)!.ages!)).toBe(1);
    // A batch whose positions changed nothing sends no diff, and they are not counted in the next.
    send(core, point('thing-00001', NOW + 1_500));
    expect(core.flush(NOW + 2 * SECOND_MS)).toBeNull();
    send(core, point('thing-00002', NOW + 2_000));
    expect(histogramCount(core.flush(NOW + 2 * SECOND_MS)!.ages!)).toBe(1);
    core.measureAges(false);
    send(core, point('thing-00001', NOW + 2_500));
    expect(core.flush(NOW + 3 * SECOND_MS)!.ages).toBeUndefined();
  });
});

describe('the list order while pages of assets come, go and are renamed (names ranked incrementally)', () => {
  it('stays equal to the domain sort, and the names are ranked in full only once', () => {
    const core = new LiveCore();
    let seed = 11;
    const random = () => (seed = (seed * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
    const names = ['Engine 7', 'engine 12', 'Ladder 3', 'Medic 10', 'medic 9', 'Tow 1', 'Same', 'Ärzte 2', 'arrow board'];
    const held: number[] = [];
    let next = 0;
    let now = NOW;
    for (let page = 0; page < 40; page += 1) {
      now += 61_000;
      // Some held assets are deleted (their slots reused by the page), others renamed on it.
      const deleted = Array.from(
        { length: page > 0 && page % 3 === 0 ? 8 : 0 },
        () => held.splice(Math.floor(random() * held.length), 1)[0]!,
      );
      const renamed = held.length === 0 ? [] : Array.from({ length: 5 }, () => held[Math.floor(random() * held.length)]!);
      const things = Array.from({ length: 60 }, () => {
        const n = next++;
        held.push(n);
        return parsedThing(n, {
          nickname: random() < 0.1 ? null : `${names[Math.floor(random() * names.length)]} ${Math.floor(random() * 30)}`,
          heartbeat_datetime: random() < 0.1 ? null : iso(now - Math.floor(random() * 10 * HOUR_MS)),
          enroute: random() < 0.3,
        });
      });
      for (const n of renamed)
        things.push(parsedThing(n, { nickname: `${names[Math.floor(random() * names.length)]} ${Math.floor(random() * 30)}` }));
      core.loadThings(
        things,
        deleted.map((n) => parsedThing(n).id),
        now,
      );
      core.flush(now);
      const expected = core.fleet.assets
        .filter((asset): asset is Asset => asset !== null && matchesAssetFilter(asset, core.fleet.filter))
        .sort(compareAssets)
        .map((asset) => asset.id);
      expect(Array.from(core.order.order, (slot) => core.fleet.assets[slot]!.id)).toEqual(expected);
    }
    expect(core.fleet.total).toBe(held.length);
    expect(core.order.fullRanks).toBe(1);
    expect(core.order.partialRanks).toBe(39);
  });
});
