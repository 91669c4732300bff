import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_STATUS_NAMES, computeAssetStatus, displayStatus, type AssetStatusName } from '../../src/domain/asset-status';
import { SECOND_MS, STANDBY_WINDOW_MS } from '../../src/domain/constants';
import { distanceM } from '../../src/domain/geometry';
import { closures, hazards, locations, r2rAlerts, things } from '../../server/db/schema';
import type { DeviceMessageInput } from '../../server/live/device-message';
import type { IngestEngine } from '../../server/live/ingest';
import { austinRoadNetwork, nodePosition, offsetMetres, shortestPath, streetByName } from '../../server/region/geography';
import { seedDemo } from '../../server/seed/demo';
import { RoadIndex } from '../../server/region/road-index';
import { advance, planRoute, RouteTrees, TURN_MPS } from '../../server/region/route';
import { FleetSimulator, reportRates, type FleetSimulatorOptions } from '../../server/sim/simulator';
import { createTestServer, type TestServer } from '../support/test-server';

/** The demo seed's fleet, the simulator's seed, and quick incidents so every outcome shows within two minutes. */
const DEMO = { assets: 300, seed: 7 };
const SIM: FleetSimulatorOptions = {
  assets: 300,
  seed: 11,
  initialIncidents: 1,
  initialClosureVisits: 1,
  hazardsPerMinute: 3,
  sceneSeconds: [40, 50],
};
const TICKS = 120;

type Point = Extract<DeviceMessageInput, { type: 'point' }>;

interface Outcome {
  statuses: Record<AssetStatusName, number>;
  incidentsOpened: number;
  incidentsClosed: number;
  closuresActivated: number;
  r2rAlerts: number;
  hazards: number;
  messages: number;
  rejected: number;
  /** A digest of every message posted, in order. */
  digest: string;
}

interface Scenario {
  server: TestServer;
  sim: FleetSimulator;
  batches: DeviceMessageInput[][];
  outcome: Outcome;
  startMs: number;
  /** haas ids the seed left pending or offline, and out of service, before the run. */
  quiet: Set<string>;
  outOfService: Set<string>;
  realMs: number;
}

const engineOf = (server: TestServer): IngestEngine => (server.app as unknown as { ingest: IngestEngine }).ingest;

async function runScenario(): Promise<Scenario> {
  const server = await createTestServer();
  await seedDemo(server.deps, DEMO);
  const db = server.database.db;
  const ingest = engineOf(server);
  // The ingest loaded an empty fleet when the server was built: it learns the seeded one.
  await ingest.reload();
  const before = await db.select().from(things);
  const quiet = new Set(
    before.filter((t) => !t.heartbeatAt || server.clock.ms - t.heartbeatAt.getTime() >= STANDBY_WINDOW_MS).map((t) => t.haasId),
  );
  const outOfService = new Set(before.filter((t) => !t.inService && !quiet.has(t.haasId)).map((t) => t.haasId));
  // The real ingest, with every batch recorded on its way.
  const batches: DeviceMessageInput[][] = [];
  const recording = {
    ingest: (batch: readonly unknown[], orgs: ReadonlySet<string> | null) => {
      batches.push(batch as DeviceMessageInput[]);
      return ingest.ingest(batch, orgs);
    },
    setStreetLookup: (lookup: Parameters<IngestEngine['setStreetLookup']>[0]) => ingest.setStreetLookup(lookup),
  };
  const sim = await new FleetSimulator(server.deps, recording as unknown as IngestEngine, SIM).load();
  const startMs = server.clock.ms;
  const started = performance.now();
  for (let i = 0; i < TICKS; i++) {
    server.clock.advance(SECOND_MS);
    await sim.tick(server.clock.now());
  }
  const realMs = performance.now() - started;
  await ingest.flush();

  const nowMs = server.clock.ms;
  const thingRows = await db.select().from(things);
  const closureRows = await db.select().from(closures);
  const activeClosures = new Map<string, string[]>();
  for (const c of closureRows)
    if (c.closureType === 'automated' && c.isActive && c.thingId)
      activeClosures.set(c.thingId, [...(activeClosures.get(c.thingId) ?? []), c.id]);
  const statuses = Object.fromEntries(ASSET_STATUS_NAMES.map((name) => [name, 0])) as Record<AssetStatusName, number>;
  for (const t of thingRows) {
    const status = computeAssetStatus(
      {
        heartbeatTime: t.heartbeatAt?.getTime() ?? null,
        enroute: t.enroute,
        street: t.street,
        isOnIncident: t.locationId !== null,
        activeClosures: activeClosures.get(t.id) ?? [],
      },
      nowMs,
    );
    statuses[ASSET_STATUS_NAMES[displayStatus(status, t.inService)]] += 1;
  }
  const locationRows = (await db.select().from(locations)).filter((l) => l.startTime.getTime() > startMs);
  const since = (at: Date | null) => at !== null && at.getTime() > startMs;
  const outcome: Outcome = {
    statuses,
    incidentsOpened: locationRows.length,
    incidentsClosed: locationRows.filter((l) => !l.isActive && since(l.endTime)).length,
    closuresActivated: closureRows.filter((c) => c.closureType === 'automated' && since(c.lastStartTime)).length,
    r2rAlerts: (await db.select().from(r2rAlerts)).filter((r) => since(r.alertTime)).length,
    hazards: (await db.select().from(hazards)).filter((h) => since(h.reportedAt)).length,
    messages: sim.stats().messages,
    rejected: sim.stats().rejected,
    digest: createHash('sha256').update(JSON.stringify(batches)).digest('hex'),
  };
  return { server, sim, batches, outcome, startMs, quiet, outOfService, realMs };
}

let first: Scenario;

beforeAll(async () => {
  first = await runScenario();
}, 120_000);
afterAll(() => first?.server.close());

describe('fleet simulator: two simulated minutes of the demo fleet (seed 7, 300 assets)', () => {
  it('shows assets in each of the seven statuses, and opens and closes an incident, activates a closure, raises an R2R alert and a hazard', () => {
    const { outcome, realMs } = first;
    for (const name of ASSET_STATUS_NAMES) expect(outcome.statuses[name], name).toBeGreaterThan(0);
    expect(Object.values(outcome.statuses).reduce((a, b) => a + b, 0)).toBe(330); // 300 + Capital Metro's 30
    expect(outcome.incidentsOpened).toBeGreaterThanOrEqual(1);
    expect(outcome.incidentsClosed).toBeGreaterThanOrEqual(1);
    expect(outcome.closuresActivated).toBeGreaterThanOrEqual(1);
    expect(outcome.r2rAlerts).toBeGreaterThanOrEqual(1);
    expect(outcome.hazards).toBeGreaterThanOrEqual(1);
    expect(outcome.rejected).toBe(0);
    console.log(`simulator: ${TICKS} ticks in ${Math.round(realMs)} ms; outcome`, { ...outcome, digest: outcome.digest.slice(0, 12) });
  });

  it('posts through the ingest like devices: points once a second while moving, heartbeats every 10 s, believable speeds', () => {
    const { batches, quiet, outOfService } = first;
    expect(batches).toHaveLength(TICKS);
    const all = batches.flat();
    const points = all.filter((m): m is Point => m.type === 'point');
    // 300 assets: far below the 2,500 messages a second the base rates allow at 2,000.
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThan(400);
    expect(Math.max(...points.map((p) => p.speed ?? 0))).toBeLessThanOrEqual(65 * 1.1 * 1.05);
    // Per asset: at most one point a tick, and a moving asset reports every second.
    const byAsset = new Map<string, DeviceMessageInput[]>();
    for (const m of all) byAsset.set(m.haas_id, [...(byAsset.get(m.haas_id) ?? []), m]);
    for (const batch of batches) {
      const ids = batch.filter((m) => m.type === 'point').map((m) => m.haas_id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    let movers = 0;
    for (const messages of byAsset.values()) {
      const pts = messages.filter((m): m is Point => m.type === 'point');
      const beats = messages.filter((m) => m.type === 'heartbeat').map((m) => Date.parse(m.timestamp));
      for (let i = 1; i < beats.length; i++) expect(beats[i]! - beats[i - 1]!).toBe(10 * SECOND_MS);
      for (let i = 1; i < pts.length; i++) {
        const a = pts[i - 1]!;
        const b = pts[i]!;
        if ((a.speed ?? 0) > 5 && (b.speed ?? 0) > 5) {
          expect(Date.parse(b.timestamp) - Date.parse(a.timestamp)).toBe(SECOND_MS);
          // The distance covered matches the speeds reported (m/s ≈ mph / 2.237).
          expect(distanceM(a, b)).toBeLessThan((Math.max(a.speed ?? 0, b.speed ?? 0) / 2.236_9) * 1.05 + 1);
          movers += 1;
        }
      }
    }
    expect(movers).toBeGreaterThan(1_000);
    // The seed's pending and offline assets stay quiet; out-of-service ones only send heartbeats.
    for (const haasId of quiet) expect(byAsset.get(haasId), haasId).toBeUndefined();
    expect(outOfService.size).toBeGreaterThan(0);
    for (const haasId of outOfService) expect((byAsset.get(haasId) ?? []).every((m) => m.type === 'heartbeat')).toBe(true);
    // Lights, hazards of the catalogue, all through the same message schema devices use.
    expect(all.some((m) => m.type === 'lights' && m.on)).toBe(true);
    expect(all.some((m) => m.type === 'lights' && !m.on)).toBe(true);
    expect(all.filter((m) => m.type === 'hazard').length).toBe(first.outcome.hazards);
  });

  it('names new locations and stationary streets by the nearest street of the network', async () => {
    const network = austinRoadNetwork();
    const names = new Set(network.streets.map((s) => s.name));
    const created = (await first.server.database.db.select().from(locations)).filter((l) => l.startTime.getTime() > first.startMs);
    expect(created.length).toBeGreaterThan(0);
    for (const location of created) expect(names.has(location.street ?? ''), location.street ?? 'null').toBe(true);
    const stationary = (await first.server.database.db.select().from(things)).filter(
      (t) => t.street !== null && t.stillSince !== null && t.stillSince.getTime() > first.startMs - 11 * 60_000,
    );
    for (const thing of stationary) expect(thing.street!.startsWith('Near ') || names.has(thing.street!)).toBe(true);
  });

  it('gives the same outcome counts, and the same messages, for the same seed', async () => {
    const second = await runScenario();
    try {
      expect(second.outcome).toEqual(first.outcome);
    } finally {
      await second.server.close();
    }
  }, 120_000);
});

describe('fleet simulator: rates, switches and clock', () => {
  it('keeps the message rate bounded as the fleet grows', () => {
    expect(reportRates(300)).toEqual({ pointS: 1, stillPointS: 30, heartbeatS: 10, pointCountsAsHeartbeat: false });
    expect(reportRates(2_000)).toEqual({ pointS: 1, stillPointS: 30, heartbeatS: 10, pointCountsAsHeartbeat: false });
    expect(reportRates(10_000)).toEqual({ pointS: 5, stillPointS: 120, heartbeatS: 20, pointCountsAsHeartbeat: true });
    expect(reportRates(50_000)).toEqual({ pointS: 20, stillPointS: 120, heartbeatS: 20, pointCountsAsHeartbeat: true });
    // Worst case (every asset moving): one point per asset per point interval.
    for (const n of [2_000, 2_001, 2_999, 5_000, 10_000, 40_000, 50_000])
      expect(n / reportRates(n).pointS + (reportRates(n).pointCountsAsHeartbeat ? 0 : n / reportRates(n).heartbeatS)).toBeLessThanOrEqual(
        2_500,
      );
  });

  it('does nothing with SIM_ASSETS=0, and ticks on the server clock between start() and stop()', async () => {
    const posted: unknown[][] = [];
    const fake = {
      ingest: async (batch: readonly unknown[]) => (posted.push([...batch]), { accepted: batch.length, rejected: [] }),
      setStreetLookup: () => undefined,
    };
    const off = await new FleetSimulator(first.server.deps, fake as unknown as IngestEngine, { assets: 0, seed: 1 }).load();
    await off.tick(first.server.clock.now());
    off.start(5);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await off.stop();
    expect(posted).toHaveLength(0);
    expect(off.stats().ticks).toBe(0);

    const on = await new FleetSimulator(first.server.deps, fake as unknown as IngestEngine, { assets: 20, seed: 1 }).load();
    expect(on.stats().assets).toBe(20);
    on.start(5);
    await expect.poll(() => on.stats().ticks, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    await on.stop();
    const ticks = on.stats().ticks;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(on.stats().ticks).toBe(ticks);
    // Every message carries the server clock's time.
    const stamps = new Set(posted.flat().map((m) => (m as { timestamp: string }).timestamp));
    expect([...stamps].every((s) => s === first.server.clock.now().toISOString())).toBe(true);
  });
});

describe('fleet simulator: assets going quiet', () => {
  it('some assets stop reporting for hours (their heartbeat then ages into pending and offline)', async () => {
    const posted: DeviceMessageInput[][] = [];
    const fake = {
      ingest: async (batch: readonly unknown[]) => (posted.push(batch as DeviceMessageInput[]), { accepted: batch.length, rejected: [] }),
      setStreetLookup: () => undefined,
    };
    // Ten a minute instead of one every few minutes, on the fleet the first scenario left.
    const sim = await new FleetSimulator(first.server.deps, fake as unknown as IngestEngine, {
      assets: 300,
      seed: 3,
      quietPerMinute: 10,
      initialIncidents: 0,
      initialClosureVisits: 0,
    }).load();
    const start = first.server.clock.ms;
    for (let i = 1; i <= 60; i++) await sim.tick(new Date(start + i * SECOND_MS));
    expect(sim.stats().wentQuiet).toBeGreaterThanOrEqual(5);
    // Every reporting asset is heard from within any 10 s (its heartbeat); the quiet ones no longer are.
    const senders = (from: number, to: number) =>
      new Set(
        posted
          .slice(from, to)
          .flat()
          .map((m) => m.haas_id),
      );
    const early = senders(0, 10);
    const late = senders(50, 60);
    const gone = [...early].filter((id) => !late.has(id));
    // (One gone quiet before its first report in the early window is not counted there.)
    expect(gone.length).toBeGreaterThanOrEqual(4);
    expect(gone.length).toBeLessThanOrEqual(sim.stats().wentQuiet);
    for (const id of late) expect(early.has(id)).toBe(true);
  });
});

describe('fleet simulator: roads and motion', () => {
  const network = austinRoadNetwork();
  const index = new RoadIndex(network);
  const trees = new RouteTrees(network);

  it('finds the nearest street within 60 m, else none', () => {
    const congress = streetByName(network, 'Congress Ave');
    const a = congress.path[5]!;
    const b = congress.path[6]!;
    const mid = { lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 };
    expect(index.streetAt(offsetMetres(mid, 0, 30))).toBe('Congress Ave');
    expect(index.streetAt(offsetMetres(mid, 0, 200))).toBeNull();
    expect(index.nearestEdge(offsetMetres(mid, 0, 30)).distanceM).toBeCloseTo(30, 0);
  });

  it("names a place by its street and the nearest cross street ('Oltorf St & Congress Ave'), the street alone mid-block, nothing off the roads", () => {
    const congress = streetByName(network, 'Congress Ave');
    const corner = congress.path[5]!;
    const streets = index.placeAt(offsetMetres(corner, 0, 20))!.split(' & ');
    expect(streets).toHaveLength(2);
    expect(streets).toContain('Congress Ave');
    expect(new Set(streets).size).toBe(2);
    // Mid-block (the demo's blocks are 800 m): no cross street within 250 m.
    const next = congress.path[6]!;
    const midBlock = { lat: (corner.lat + next.lat) / 2, lng: (corner.lng + next.lng) / 2 };
    expect(index.placeAt(midBlock)).toBe('Congress Ave');
    expect(index.placeAt(offsetMetres(midBlock, 0, 500))).toBeNull();
  });

  it('routes by the fastest path, as shortestPath does', () => {
    const pairs = [
      [network.gridNode(0, 0), network.gridNode(20, 20)],
      [network.gridNode(3, 17), network.gridNode(12, 2)],
      [network.gridNode(10, 10), network.gridNode(10, 11)],
    ] as const;
    const seconds = (path: readonly number[]) => {
      let total = 0;
      for (let i = 1; i < path.length; i++) {
        const edge = network.edges.find(
          (e) => (e.from === path[i - 1] && e.to === path[i]) || (e.to === path[i - 1] && e.from === path[i]),
        )!;
        total += edge.lengthM / ((edge.speedLimitMph * 1609.344) / 3600);
      }
      return total;
    };
    for (const [from, to] of pairs) {
      const path = trees.path(from, to);
      expect(path[0]).toBe(from);
      expect(path.at(-1)).toBe(to);
      expect(seconds(path)).toBeCloseTo(seconds(shortestPath(network, from, to)), 6);
    }
  });

  it('a vehicle already at its goal (a route with no leg) stays where it is, never at 0°, 0°', () => {
    const at = nodePosition(network, network.gridNode(9, 7));
    const route = planRoute(network, index, trees, { from: at, course: 45, to: network.gridNode(9, 7) });
    expect(route.legs).toEqual([]);
    const motion = advance(route, 0, 1, 0.9);
    expect(motion).toMatchObject({ position: at, course: 45, speedMps: 0, arrived: true });
  });

  it('drives at the pace asked, slows to about 10 mph through a right-angle turn and stops at the end', () => {
    const start = nodePosition(network, network.gridNode(9, 7));
    const from = offsetMetres(start, 0, 5);
    // East along 7th St (a local street, 30 mph) for a block, then north on Lavaca St.
    const route = planRoute(network, index, trees, { from, course: 90, to: { path: [network.gridNode(9, 8), network.gridNode(10, 8)] } });
    expect(route.legs.map((leg) => leg.street)).toEqual(['7th St', 'Lavaca St']);
    let speed = 0;
    const speeds: number[] = [];
    for (let t = 0; t < 600; t++) {
      const motion = advance(route, speed, 1, 0.9);
      speed = motion.speedMps;
      speeds.push(speed);
      if (motion.arrived) break;
    }
    expect(speeds.at(-1)).toBe(0);
    const limit = (30 * 1609.344) / 3600;
    expect(Math.max(...speeds)).toBeLessThanOrEqual(limit * 0.9 + 1e-9);
    expect(Math.max(...speeds)).toBeGreaterThan(limit * 0.85);
    // Somewhere in the middle it slowed for the turn, then picked up again.
    const middle = speeds.slice(10, -10);
    expect(Math.min(...middle)).toBeLessThanOrEqual(TURN_MPS + 1);
    expect(Math.min(...middle)).toBeGreaterThanOrEqual(TURN_MPS - 1e-9);
    // Never faster than 2 m/s² more a second.
    for (let i = 1; i < speeds.length; i++) expect(speeds[i]! - speeds[i - 1]!).toBeLessThanOrEqual(2 + 1e-9);
  });
});
