/**
 * The live engine's bench: one batch of 10,000 socket messages over 50,000 assets, run
 * through the worker's core (parse, effects, deadlines, list order, diff) and applied to the
 * main-thread store; the group view's index (built once, then brought up to date after every
 * batch); and, in the same run, two main-thread
 * pipelines without a worker, with the ratio of main-thread time to each: the straightforward one
 * this design replaces (an object per asset in a Valtio proxy, a timer per asset, the whole list
 * re-sorted and cloned per message) and a fair one (benchFairBaseline: batched once a second).
 *
 * Node only; the Chromium part (main-thread scripting time and long tasks with a deck.gl page)
 * is not measured here yet.
 */
import { performance } from 'node:perf_hooks';
import { proxy, snapshot } from 'valtio';
import { thingWireSchema, fromThingWire, type Asset } from '../src/domain/asset';
import { computeAssetStatus, isStale } from '../src/domain/asset-status';
import { compareAssets } from '../src/domain/asset-filter';
import { fromAreaWire, stationsFrom } from '../src/domain/area';
import { STALE_AFTER_MS } from '../src/domain/constants';
import { liveMessageSchema, type LiveMessageInput } from '../src/domain/live-message';
import { applyDiffToStore, createLiveStore } from '../src/app/live/store';
import { diffByteLength, diffTransferables, liveDiffSchema, type LiveDiff } from '../src/domain/live-diff';
import { LiveCore } from '../src/workers/live-core';
import { STATUS_COLORS } from '../src/map/icon-atlas';
import { syntheticFleet } from './domain';
import { type BenchResult } from './measure';

const ASSETS = 50_000;
const MESSAGES = 10_000;
const LARGE_ASSETS = 100_000;
const LARGE_MESSAGES = 20_000;
const BATCHES = 30;
const WARMUP = 5;
/** The baseline is measured on this many messages, then scaled to a batch (it would take minutes). */
const BASELINE_MESSAGES = 20;
const NOW = Date.UTC(2026, 10, 22, 12);

export interface WorkerBench {
  results: BenchResult[];
  figures: Record<string, number | string>;
}

function percentiles(name: string, times: number[]): BenchResult {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  const round = (value: number) => Math.round(value * 100) / 100;
  return { name, runs: times.length, p50Ms: round(at(50)), p95Ms: round(at(95)) };
}

/** A repeatable stream: 70 % points, 25 % heartbeats (some switching alerting), 5 % incidents and closures. */
export function messageStream(seed: number, assets = ASSETS, messages = MESSAGES) {
  let state = seed >>> 0;
  const random = () => (state = (state * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
  return (batch: number): LiveMessageInput[] => {
    const at = NOW + (batch + 1) * 1000;
    const out: LiveMessageInput[] = [];
    for (let i = 0; i < messages; i += 1) {
      const thingId = `thing-${Math.floor(random() * assets)}`;
      const timestamp = new Date(at - 1000 + (i * 1000) / messages).toISOString();
      const r = random();
      if (r < 0.7) {
        out.push({
          type: 'point',
          thing_id: thingId,
          lat: 30.2 + random() * 0.2,
          lng: -97.8 + random() * 0.2,
          speed: random() * 40,
          course: random() * 360,
          accuracy: random() * 60,
          timestamp,
        });
      } else if (r < 0.95) {
        out.push({ type: 'heartbeat', thing_id: thingId, is_active: random() < 0.3, timestamp });
      } else if (r < 0.98) {
        out.push({
          type: 'location',
          thing_id: thingId,
          location_id: random() < 0.5 ? `loc-${Math.floor(random() * 50)}` : null,
          timestamp,
        });
      } else {
        out.push({
          type: 'closure',
          thing_id: thingId,
          closure_id: `closure-${Math.floor(random() * 20)}`,
          is_active: random() < 0.5,
          timestamp,
        });
      }
    }
    return out;
  };
}

export function benchStations() {
  const areas = Array.from({ length: 200 }, (_, i) =>
    fromAreaWire({
      id: `station-${i}`,
      organization_id: 'org',
      name: `Station ${i}`,
      lat: 30.2 + (i % 20) * 0.01,
      lng: -97.8 + Math.floor(i / 20) * 0.02,
      point_geom: { lat: 30.2 + (i % 20) * 0.01, lon: -97.8 + Math.floor(i / 20) * 0.02 },
      ez_type: { id: 't', db_name: 'station', display_name: 'Station', is_station_view: true },
    }),
  );
  return stationsFrom(areas);
}

/** The bbox of a 1,920 × 1,080-px map (deck.gl's 512-px world) centred on a point at a zoom: what the map asks the group view for. */
function screenBbox(lng: number, lat: number, zoom: number): [number, number, number, number] {
  const degreesPerPx = 360 / (512 * 2 ** zoom);
  const halfLng = (1920 / 2) * degreesPerPx;
  const halfLat = (1080 / 2) * degreesPerPx * Math.cos((lat * Math.PI) / 180);
  return [lng - halfLng, lat - halfLat, lng + halfLng, lat + halfLat];
}

/** The design: the worker's core per batch, the main thread's diff application per batch. */
export function benchEngine(wires: ReturnType<typeof thingWireSchema.parse>[], batches = BATCHES, messages = MESSAGES) {
  const core = new LiveCore();
  core.setStations(benchStations(), NOW);
  core.loadThings(wires, [], NOW);
  core.flush(NOW);
  const store = createLiveStore();
  const next = messageStream(11, wires.length, messages);
  const parse: number[] = [];
  const worker: number[] = [];
  /** CPU time of the process over each batch: less sensitive than wall time to a machine shared with other work. */
  const workerCpu: number[] = [];
  const main: number[] = [];
  const bytes: number[] = [];
  const slotBytes: number[] = [];
  const changed: number[] = [];
  let orders = 0;
  // The group view as a zoomed-out dashboard with station groups asks for it: built once from
  // scratch, then brought up to date after every batch (only the points that changed move).
  const groupQuery = { bbox: [-98, 30, -97.5, 30.5] as [number, number, number, number], zoom: 10, stationView: true };
  const tBuild = performance.now();
  core.clusterAnswer(groupQuery);
  const groupBuild = performance.now() - tBuild;
  const groupUpdate: number[] = [];
  const batchAndGroup: number[] = [];
  const groupMoved: number[] = [];
  for (let batch = 0; batch < WARMUP + batches; batch += 1) {
    // What the socket client does as frames arrive (spread over the second in the worker).
    const frames = next(batch).map((message) => JSON.stringify({ identifier: 'x', message }));
    const t0 = performance.now();
    // As the engine's socket handler: each frame parsed and queued (its asset's slot looked up) on arrival.
    for (const frame of frames) {
      const parsed = liveMessageSchema.safeParse((JSON.parse(frame) as { message: unknown }).message);
      if (parsed.success) core.enqueue(parsed.data);
    }
    const cpu = process.cpuUsage();
    const t1 = performance.now();
    const diff = core.flush(NOW + (batch + 1) * 1000)!;
    const t2 = performance.now();
    const cpuSpent = process.cpuUsage(cpu);
    const sent = structuredClone(diff, { transfer: diffTransferables(diff) });
    const t3 = performance.now();
    applyDiffToStore(store, liveDiffSchema.parse(sent) as LiveDiff);
    const t4 = performance.now();
    core.clusterAnswer(groupQuery);
    const t5 = performance.now();
    if (batch < WARMUP) continue;
    groupUpdate.push(t5 - t4);
    batchAndGroup.push(t2 - t1 + (t5 - t4));
    groupMoved.push(core.clusters.lastMoved);
    parse.push(t1 - t0);
    worker.push(t2 - t1);
    workerCpu.push((cpuSpent.user + cpuSpent.system) / 1000);
    main.push(t4 - t3);
    const total = diffByteLength(sent);
    bytes.push(total / sent.index.length);
    slotBytes.push(
      (total - (sent.order ? sent.order.byteLength : 0) - sent.counts.byteLength - sent.listCounts.byteLength - sent.removed.byteLength) /
        sent.index.length,
    );
    changed.push(sent.index.length);
    if (sent.order) orders += 1;
  }
  core.clusters.query({ bbox: [-98, 30, -97.5, 30.5], zoom: 15, stationView: true }); // the other grid, built before timing
  const query: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const t = performance.now();
    core.clusters.query({ bbox: screenBbox(-97.75, 30.25, 10 + (i % 6)), zoom: 10 + (i % 6), stationView: true });
    query.push(performance.now() - t);
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const cpu = percentiles('', workerCpu);
  return {
    results: [
      percentiles(`worker: parse ${messages} socket frames (zod)`, parse),
      percentiles(`worker: batch of ${messages} messages over ${wires.length} assets (effects, clock, order, diff)`, worker),
      percentiles(`main thread: apply one diff to the store`, main),
      percentiles(`worker: group view update after a batch (the moved points) and its answer`, groupUpdate),
      percentiles(`worker: batch plus group view update`, batchAndGroup),
      percentiles(`worker: clusters for a 1,920 × 1,080-px viewport, zoom 10 to 15`, query),
    ],
    figures: {
      batchCpuP50Ms: cpu.p50Ms,
      batchCpuP95Ms: cpu.p95Ms,
      changedPerBatch: Math.round(mean(changed)),
      diffBytesPerChangedAsset: Math.round(mean(slotBytes) * 10) / 10,
      diffBytesPerChangedAssetWithOrder: Math.round(mean(bytes) * 10) / 10,
      batchesWithNewOrder: `${orders} of ${batches}`,
      orderMerges: core.order.merges,
      groupViewBuildMs: Math.round(groupBuild * 10) / 10,
      groupViewMovedPerBatch: Math.round(mean(groupMoved)),
      orderFullSorts: core.order.fullSorts,
    },
    mainP50: percentiles('', main).p50Ms,
    mainP95: percentiles('', main).p95Ms,
  };
}

interface BaselineAsset extends Asset {
  stale: boolean;
}

/**
 * The straightforward pipeline on the main thread: parse each frame, mutate the asset's object
 * in a Valtio proxy, reset its own stale timer, and rebuild the list from a snapshot (every asset
 * cloned with its status, the whole list sorted) into the store, per message.
 */
function benchBaseline(wires: ReturnType<typeof thingWireSchema.parse>[]) {
  const assets: Record<string, BaselineAsset> = {};
  for (const wire of wires) {
    const asset = fromThingWire(wire, NOW);
    if (asset) assets[asset.id] = { ...asset, stale: isStale(asset.heartbeatTime, NOW) };
  }
  const state = proxy<{ assets: Record<string, BaselineAsset>; order: string[] }>({ assets, order: [] });
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const armStale = (id: string) => {
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.set(
      id,
      setTimeout(() => {
        const asset = state.assets[id];
        if (asset) asset.stale = true;
      }, STALE_AFTER_MS),
    );
  };
  for (const id of Object.keys(assets)) armStale(id);
  const frames = messageStream(11)(0)
    .slice(0, BASELINE_MESSAGES)
    .map((message) => JSON.stringify({ identifier: 'x', message }));
  const now = NOW + 1000;
  const times: number[] = [];
  for (const frame of frames) {
    const t = performance.now();
    const message = liveMessageSchema.parse((JSON.parse(frame) as { message: unknown }).message);
    const asset = message.type === 'thing' ? undefined : state.assets[message.thing_id];
    if (asset && message.type === 'point') {
      asset.position = { lat: message.lat, lng: message.lng };
      asset.speed = message.speed ?? asset.speed;
      asset.heartbeatTime = Date.parse(message.timestamp);
    } else if (asset && message.type === 'heartbeat') {
      asset.enroute = message.is_active;
      asset.heartbeatTime = Date.parse(message.timestamp);
    }
    if (asset) armStale(asset.id);
    // What a component does with useSnapshot: clone every asset with its status, sort, keep the order.
    const list = Object.values(snapshot(state).assets).map((a) => ({ ...a, status: computeAssetStatus(a, now) }));
    list.sort(compareAssets);
    state.order = list.map((a) => a.id);
    times.push(performance.now() - t);
  }
  for (const timer of timers.values()) clearTimeout(timer);
  const perMessage = times.reduce((a, b) => a + b, 0) / times.length;
  return { perMessage, sample: times.length };
}

/**
 * The fair main-thread pipeline: what a careful React developer writes without a worker. Frames are
 * parsed as they arrive (JSON and zod, on the main thread: there is no other) and queued; once a
 * second the queue is applied to plain objects in a Map (a changed asset becomes a new object, as
 * React state wants), the changed assets' status is recomputed, one sweep over the fleet finds the
 * assets gone stale (one interval, no timer per asset), the list is sorted once, and the map
 * layer's data is rebuilt once: what a ScatterplotLayer does when its data changes (every asset's
 * position and colour read through accessors into typed arrays). Location and closure messages
 * are left out (the design applies their effects): the baseline is, if anything, favoured.
 */
export function benchFairBaseline(wires: ReturnType<typeof thingWireSchema.parse>[], batches = BATCHES, messages = MESSAGES) {
  const fleet = new Map<string, Asset>();
  for (const wire of wires) {
    const asset = fromThingWire(wire, NOW);
    if (asset) fleet.set(asset.id, asset);
  }
  const stale = new Set([...fleet.values()].filter((asset) => isStale(asset.heartbeatTime, NOW)).map((asset) => asset.id));
  const next = messageStream(11, wires.length, messages);
  const parse: number[] = [];
  const apply: number[] = [];
  const layer: number[] = [];
  const total: number[] = [];
  let positions = new Float32Array(0);
  let colors = new Uint8Array(0);
  for (let batch = 0; batch < WARMUP + batches; batch += 1) {
    const frames = next(batch).map((message) => JSON.stringify({ identifier: 'x', message }));
    const now = NOW + (batch + 1) * 1000;
    const t0 = performance.now();
    const queue: LiveMessageInput[] = [];
    for (const frame of frames) {
      const parsed = liveMessageSchema.safeParse((JSON.parse(frame) as { message: unknown }).message);
      if (parsed.success) queue.push(parsed.data as LiveMessageInput);
    }
    const t1 = performance.now();
    const changed = new Set<string>();
    for (const message of queue) {
      if (message.type !== 'point' && message.type !== 'heartbeat') continue;
      const asset = fleet.get(message.thing_id);
      if (!asset) continue;
      const heartbeatTime = Date.parse(message.timestamp);
      fleet.set(
        asset.id,
        message.type === 'point'
          ? { ...asset, position: { lat: message.lat, lng: message.lng }, speed: message.speed ?? asset.speed, heartbeatTime }
          : { ...asset, enroute: message.is_active, heartbeatTime },
      );
      changed.add(asset.id);
    }
    // The stale sweep: assets whose heartbeat crossed the limit since the last second.
    for (const asset of fleet.values()) {
      const isNowStale = isStale(asset.heartbeatTime, now);
      if (isNowStale !== stale.has(asset.id)) {
        if (isNowStale) stale.add(asset.id);
        else stale.delete(asset.id);
        changed.add(asset.id);
      }
    }
    for (const id of changed) {
      const asset = fleet.get(id)!;
      fleet.set(id, { ...asset, status: computeAssetStatus(asset, now) });
    }
    const list = [...fleet.values()].sort(compareAssets);
    const t2 = performance.now();
    // The layer's data changed: deck.gl reads every asset again through its accessors.
    if (positions.length !== list.length * 2) {
      positions = new Float32Array(list.length * 2);
      colors = new Uint8Array(list.length * 4);
    }
    const getPosition = (asset: Asset) => [asset.position?.lng ?? 0, asset.position?.lat ?? 0] as const;
    const getColor = (asset: Asset) => STATUS_COLORS[asset.status] ?? STATUS_COLORS[STATUS_COLORS.length - 1]!;
    list.forEach((asset, i) => {
      const [lng, lat] = getPosition(asset);
      positions[i * 2] = lng;
      positions[i * 2 + 1] = lat;
      const [r, g, b] = getColor(asset);
      colors[i * 4] = r;
      colors[i * 4 + 1] = g;
      colors[i * 4 + 2] = b;
      colors[i * 4 + 3] = 255;
    });
    const t3 = performance.now();
    if (batch < WARMUP) continue;
    parse.push(t1 - t0);
    apply.push(t2 - t1);
    layer.push(t3 - t2);
    total.push(t3 - t0);
  }
  return {
    results: [
      percentiles(`fair baseline main thread: parse ${messages} socket frames (zod)`, parse),
      percentiles(`fair baseline main thread: apply, stale sweep, status, one sort of ${wires.length}`, apply),
      percentiles(`fair baseline main thread: the layer's data rebuilt (${wires.length} positions and colours)`, layer),
      percentiles(`fair baseline main thread: the whole second's work`, total),
    ],
    totalP50: percentiles('', total).p50Ms,
    totalP95: percentiles('', total).p95Ms,
  };
}

/** The bench's fleet of 50,000 thing wires, parsed. */
export function benchWires() {
  return syntheticFleet(ASSETS, NOW).map((wire) => thingWireSchema.parse(wire));
}

export function benchWorker(): WorkerBench {
  const wires = benchWires();
  const engine = benchEngine(wires);
  const fair = benchFairBaseline(wires);
  const baseline = benchBaseline(wires);
  // The 100,000-asset target: 20,000 messages a second into the same engine (bench/README.md "Live worker").
  const large = benchEngine(
    syntheticFleet(LARGE_ASSETS, NOW).map((wire) => thingWireSchema.parse(wire)),
    12,
    LARGE_MESSAGES,
  );
  const baselineBatchMs = baseline.perMessage * MESSAGES;
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    results: [
      ...engine.results,
      {
        name: `baseline main thread: ${MESSAGES} messages (Valtio object per asset, timer per asset, list re-sorted per message; ${baseline.sample} measured, scaled)`,
        runs: baseline.sample,
        p50Ms: Math.round(baselineBatchMs),
        p95Ms: Math.round(baselineBatchMs),
      },
      ...fair.results,
      ...large.results,
    ],
    figures: {
      ...engine.figures,
      baselineMsPerMessage: round(baseline.perMessage),
      mainThreadRatioP50: Math.round(baselineBatchMs / Math.max(engine.mainP50, 0.01)),
      mainThreadRatioP95: Math.round(baselineBatchMs / Math.max(engine.mainP95, 0.01)),
      // What the worker design buys over good ordinary code: main-thread time per second, fair baseline / design.
      fairMainThreadRatioP50: Math.round(fair.totalP50 / Math.max(engine.mainP50, 0.01)),
      fairMainThreadRatioP95: Math.round(fair.totalP95 / Math.max(engine.mainP95, 0.01)),
      ...Object.fromEntries(Object.entries(large.figures).map(([key, value]) => [`large.${key}`, value])),
    },
  };
}
