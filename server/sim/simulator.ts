/**
 * The fleet simulator: makes the demo fleet move. It reads the assets the demo seed
 * stored, drives them on the generated Austin road network and posts what their devices would
 * report — points, heartbeats, light switches and hazards — through the same ingest path devices
 * use (`IngestEngine.ingest(batch, null)`), so runs, incidents, closures, R2R alerts, statuses and
 * the socket fan-out are all exercised downstream.
 *
 * What the fleet does (docs/api/simulator.md has the figures):
 * - most assets patrol, run errands or collect at believable speeds (each trip at 0.6–1.1 × the
 *   limits, slowing for turns), park now and then (still for more than 10 minutes: stationary) and
 *   return to their station or yard;
 * - incidents appear now and then at random intersections; 1–4 of the nearest available responders
 *   of one organization switch their lights on (R2R-enabled ones near each other alert each other),
 *   drive there by the fastest path and stay with their lights on (the ingest opens the location
 *   after 30 s); when the incident clears they switch the lights off (the location ends) and go back;
 * - maintenance vehicles, tow trucks and arrow boards stop to work with their lights on, the assets
 *   of automated closures at their closure (the ingest activates it), then leave;
 * - some assets go quiet for hours (their heartbeat ages into pending, then offline); those the seed
 *   left pending or offline stay quiet; out-of-service assets only send heartbeats;
 * - responders and road crews report hazards (type and severity) where they are.
 *
 * Everything is drawn from seeded random streams (one per asset, one for the fleet), so a seed and
 * the same database give the same run, tick for tick.
 */
import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import { distanceM, type LatLng } from '../../src/domain/geometry';
import {
  ASSET_TYPES,
  HOUR_MS,
  MINUTE_MS,
  R2R_ALERT_DISTANCE_M,
  R2R_CAPABLE_TYPES,
  SECOND_MS,
  STANDBY_WINDOW_MS,
  type AssetType,
  type HazardSeverity,
  type HazardType,
} from '../../src/domain/constants';
import { areas, areaTypes, closures, locations, things, thingTypes } from '../db/schema';
import type { ServerDeps } from '../deps';
import type { DeviceMessageInput } from '../live/device-message';
import type { IngestEngine, IngestResult } from '../live/ingest';
import { austinRoadNetwork, metresPerSecondToMph, nearestNode, offsetMetres, otherEnd, type RoadNetwork } from '../region/geography';
import { createRandom, type Random } from '../region/random';
import { RoadIndex } from '../region/road-index';
import { advance, planRoute, randomWalk, RouteTrees, type Route, type RouteRequest } from '../region/route';
import { DEFAULT_ZONE_FLIP_MS, ZoneFlipper } from './zone-flipper';

// ── options and rates ────────────────────────────────────────────────────────

export interface FleetSimulatorOptions {
  /** At most this many of the stored assets are simulated (`SIM_ASSETS`); 0 turns the simulator off. */
  assets: number;
  /** `SIM_SEED`: the same seed and database give the same run. */
  seed: number;
  /** The road network to drive on (default: the Austin network the demo seed placed the fleet on). */
  network?: RoadNetwork;
  /** Expected new incidents a minute (default: 1 per 1,000 simulated responders, at least 0.1). */
  incidentsPerMinute?: number;
  /** Expected hazard reports a minute (default: 0.5 per 1,000 simulated assets, at least 0.05). */
  hazardsPerMinute?: number;
  /** Expected assets going quiet a minute (default: 0.3 per 1,000 simulated assets). */
  quietPerMinute?: number;
  /**
   * Incidents started on the first tick (default 1): the first is set next to two R2R-enabled
   * responders of one organization that are within 500 m of each other, so it is reached within
   * a minute and its dispatch raises an R2R alert.
   */
  initialIncidents?: number;
  /** Assets of automated closures sent to work at them on the first tick (default 1). */
  initialClosureVisits?: number;
  /** How long an incident lasts after its first responder arrives, in seconds (default 240–900). */
  sceneSeconds?: readonly [number, number];
  /** How much longer the incidents the seed left active last, in seconds (default 180–1,200). */
  seededSceneSeconds?: readonly [number, number];
  /** How long work at an automated closure lasts, in seconds (default 600–3,600); a roadside work stop lasts half as long. */
  workSeconds?: readonly [number, number];
  /**
   * part 2 §2 Alerting zones: every this many ms one alerting zone of the simulated organizations
   * flips active/standby (`SIM_ZONE_FLIP_MS`; default DEFAULT_ZONE_FLIP_MS, 0 never). Runs from
   * `start()` to `stop()`, beside the ticks (zone-flipper.ts).
   */
  zoneFlipMs?: number;
}

/** How often an asset reports. */
export interface ReportRates {
  /** A moving asset, or one with its lights on, sends a point this often (seconds). */
  pointS: number;
  /** A still asset with its lights off sends a point this often (seconds). */
  stillPointS: number;
  /** Every reporting asset sends a heartbeat this often (seconds). */
  heartbeatS: number;
  /** Above 2,000 assets a point doubles as the heartbeat: none is sent after a recent point. */
  pointCountsAsHeartbeat: boolean;
}

/** The base rates hold up to 2,000 assets; beyond, intervals grow with the fleet so the message rate stays bounded. */
export const BASE_FLEET = 2_000;

export function reportRates(assets: number): ReportRates {
  const scale = Math.max(1, assets / BASE_FLEET);
  return {
    // Whole seconds (the simulator ticks once a second), rounded up so the rate never exceeds the base.
    pointS: Math.min(20, Math.ceil(scale)),
    stillPointS: Math.min(120, Math.ceil(30 * scale)),
    heartbeatS: scale > 1 ? 20 : 10,
    pointCountsAsHeartbeat: scale > 1,
  };
}

export interface SimulatorStats {
  assets: number;
  ticks: number;
  /** Messages posted in all and in the last tick. */
  messages: number;
  lastBatch: number;
  /** Milliseconds the last tick took, ingest included. */
  lastTickMs: number;
  rejected: number;
  incidents: number;
  hazards: number;
  closureVisits: number;
  wentQuiet: number;
}

// ── the fleet's state ────────────────────────────────────────────────────────

type Mode = 'quiet' | 'oos' | 'parked' | 'driving' | 'on-scene' | 'working';
type Purpose = 'patrol' | 'respond' | 'run' | 'return' | 'to-work';

interface Place {
  id: string;
  position: LatLng;
}

interface ClosureSite {
  id: string;
  active: boolean;
  start: LatLng;
}

interface Incident {
  serial: number;
  position: LatLng;
  node: number | null;
  units: SimAsset[];
  durationMs: number;
  clearAt: number | null;
}

interface SimAsset {
  id: string;
  haasId: string;
  type: AssetType;
  organizationId: string;
  responder: boolean;
  r2r: boolean;
  accuracy: number;
  random: Random;
  /** Phase of the asset's slow speed drift (radians). */
  phase: number;
  position: LatLng;
  course: number;
  speedMps: number;
  lights: boolean;
  mode: Mode;
  /** When a parked, working or quiet spell ends (ms); Infinity: never. */
  until: number;
  route: Route | null;
  purpose: Purpose | null;
  factor: number;
  incident: Incident | null;
  /** The closure it works at (or drives to). */
  closure: ClosureSite | null;
  sites: ClosureSite[];
  home: Place | null;
  nextPointAt: number;
  nextHeartbeatAt: number;
  lastPointAt: number;
  forcePoint: boolean;
}

const RESPONDER_TYPES: ReadonlySet<string> = new Set(R2R_CAPABLE_TYPES);
const HAZARD_REPORTERS: ReadonlySet<string> = new Set<AssetType>(['police', 'fire', 'ambulance', 'maintenance', 'tow']);
const HAZARD_TYPE_WEIGHTS: Readonly<Record<HazardType, number>> = {
  pothole: 5,
  debris: 5,
  disabled_vehicle: 4,
  crash: 3,
  flooding: 1,
  ice: 1,
  animal: 2,
  other: 1,
};
const HAZARD_SEVERITY_WEIGHTS: Readonly<Record<HazardSeverity, number>> = { low: 5, medium: 3, high: 2 };
/** Units sent to an incident: 1–4, mostly one or two. */
const UNIT_COUNT_WEIGHTS = { '1': 35, '2': 35, '3': 20, '4': 10 } as const;
/** Vehicles at one scene line up this far apart, short of the intersection. */
const SCENE_SPACING_M = 14;
/** An asset this close to a place is there. */
const THERE_M = 40;
const round7 = (value: number): number => Math.round(value * 1e7) / 1e7;

/** Where a device is when it reports a point: metres per second and degrees clockwise from north, as the fleet moves. */
export interface DeviceFix {
  position: LatLng;
  speedMps: number;
  course: number;
  /** Metres. */
  accuracy: number;
}

/** The point a device sends, as devices send it: 7 decimals, mph to a tenth, whole degrees in [0, 360), accuracy to a tenth. */
export function pointMessage(haasId: string, timestamp: string, fix: DeviceFix): DeviceMessageInput {
  return {
    type: 'point',
    haas_id: haasId,
    timestamp,
    lat: round7(fix.position.lat),
    lng: round7(fix.position.lng),
    speed: Math.round(Math.min(250, metresPerSecondToMph(fix.speedMps)) * 10) / 10,
    course: Math.round(((fix.course % 360) + 360) % 360) % 360,
    accuracy: Math.round(fix.accuracy * 10) / 10,
  };
}

/** The heartbeat a device sends. */
export function heartbeatMessage(haasId: string, timestamp: string): DeviceMessageInput {
  return { type: 'heartbeat', haas_id: haasId, timestamp };
}

/** A report falls due on the tick that comes within this of its time (timer ticks jitter by a few ms). */
const DUE_SLACK_MS = 250;

type SimIngest = Pick<IngestEngine, 'ingest' | 'setStreetLookup'>;

// ── the simulator ────────────────────────────────────────────────────────────

export class FleetSimulator {
  private readonly network: RoadNetwork;
  private readonly index: RoadIndex;
  private readonly trees: RouteTrees;
  private readonly fleetRandom: Random;
  private readonly options: Required<
    Omit<FleetSimulatorOptions, 'network' | 'incidentsPerMinute' | 'hazardsPerMinute' | 'quietPerMinute'>
  > &
    Pick<FleetSimulatorOptions, 'incidentsPerMinute' | 'hazardsPerMinute' | 'quietPerMinute'>;
  private fleet: SimAsset[] = [];
  private incidents: Incident[] = [];
  private incidentSerial = 0;
  private responders = 0;
  private rates: ReportRates = reportRates(0);
  private lastTickMs: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private zoneFlipper: ZoneFlipper | null = null;
  private running: Promise<void> | null = null;
  private loaded = false;
  private readonly counters: SimulatorStats = {
    assets: 0,
    ticks: 0,
    messages: 0,
    lastBatch: 0,
    lastTickMs: 0,
    rejected: 0,
    incidents: 0,
    hazards: 0,
    closureVisits: 0,
    wentQuiet: 0,
  };

  constructor(
    private readonly deps: ServerDeps,
    private readonly ingest: SimIngest,
    opts: FleetSimulatorOptions,
  ) {
    this.network = opts.network ?? austinRoadNetwork();
    this.index = new RoadIndex(this.network);
    this.trees = new RouteTrees(this.network);
    this.fleetRandom = createRandom(opts.seed >>> 0).fork('fleet');
    this.options = {
      assets: Math.max(0, Math.floor(opts.assets)),
      seed: opts.seed >>> 0,
      incidentsPerMinute: opts.incidentsPerMinute,
      hazardsPerMinute: opts.hazardsPerMinute,
      quietPerMinute: opts.quietPerMinute,
      initialIncidents: opts.initialIncidents ?? 1,
      initialClosureVisits: opts.initialClosureVisits ?? 1,
      sceneSeconds: opts.sceneSeconds ?? [240, 900],
      seededSceneSeconds: opts.seededSceneSeconds ?? [180, 1_200],
      workSeconds: opts.workSeconds ?? [600, 3_600],
      zoneFlipMs: opts.zoneFlipMs ?? DEFAULT_ZONE_FLIP_MS,
    };
    // The ingest names stationary streets by the nearest street within 60 m, and new events by
    // their kind and place (the street and its nearest cross street).
    this.ingest.setStreetLookup(
      (position) => this.index.streetAt(position, 60),
      (position) => this.index.placeAt(position, 60),
    );
  }

  /** The report rates in use (they depend on how many assets were loaded). */
  get reportRates(): ReportRates {
    return { ...this.rates };
  }

  stats(): SimulatorStats {
    return { ...this.counters, assets: this.fleet.length };
  }

  /**
   * Reads up to `assets` of the stored assets (every type, in proportion), their automated
   * closures, the active incidents they are on and their organizations' stations and yards. The
   * ingest must know the same fleet (`ingest.reload()` after seeding), or it rejects the messages.
   */
  async load(): Promise<this> {
    this.fleet = [];
    this.incidents = [];
    this.responders = 0;
    this.lastTickMs = null;
    this.loaded = true;
    if (this.options.assets === 0) return this;
    const { db } = this.deps;
    const nowMs = this.deps.now().getTime();

    const rows = (
      await db
        .select({
          thing: {
            id: things.id,
            haasId: things.haasId,
            organizationId: things.organizationId,
            isResponder: things.isResponder,
            isR2rEnabled: things.isR2rEnabled,
            inService: things.inService,
            lightsOn: things.lightsOn,
            lat: things.lat,
            lng: things.lng,
            accuracy: things.accuracy,
            course: things.course,
            speed: things.speed,
            street: things.street,
            stationId: things.stationId,
            locationId: things.locationId,
            heartbeatAt: things.heartbeatAt,
          },
          type: thingTypes.name,
        })
        .from(things)
        .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
        .where(isNull(things.deletedAt))
    )
      .filter((row): row is typeof row & { type: AssetType } => (ASSET_TYPES as readonly string[]).includes(row.type))
      .sort((a, b) =>
        a.type === b.type ? compare(a.thing.haasId, b.thing.haasId) : ASSET_TYPES.indexOf(a.type) - ASSET_TYPES.indexOf(b.type),
      );
    // Evenly spread over the types when there are more assets than wanted.
    const picked =
      rows.length <= this.options.assets
        ? rows
        : Array.from({ length: this.options.assets }, (_, i) => rows[Math.floor((i * rows.length) / this.options.assets)]!);
    this.rates = reportRates(picked.length);

    const placeRows = await db
      .select({ id: areas.id, organizationId: areas.organizationId, lat: areas.lat, lng: areas.lng })
      .from(areas)
      .innerJoin(areaTypes, eq(areaTypes.id, areas.ezTypeId))
      .where(
        and(
          isNull(areas.deletedAt),
          isNotNull(areas.lat),
          isNotNull(areas.lng),
          or(eq(areaTypes.isStationView, true), eq(areaTypes.dbName, 'work_yard')),
        ),
      );
    const places = new Map<string, Place[]>();
    for (const row of placeRows.sort((a, b) => compare(a.id, b.id))) {
      const list = places.get(row.organizationId) ?? [];
      list.push({ id: row.id, position: { lat: row.lat!, lng: row.lng! } });
      places.set(row.organizationId, list);
    }
    const closureRows = await db
      .select({
        id: closures.id,
        thingId: closures.thingId,
        isActive: closures.isActive,
        userRoute: closures.userRoute,
        geocodedRoute: closures.geocodedRoute,
      })
      .from(closures)
      .where(and(eq(closures.closureType, 'automated'), isNotNull(closures.thingId), isNull(closures.deletedAt)));
    const sites = new Map<string, ClosureSite[]>();
    for (const row of closureRows.sort((a, b) => compare(a.id, b.id))) {
      const start = firstPoint(row.userRoute) ?? firstPoint(row.geocodedRoute);
      if (!start || !row.thingId) continue;
      sites.set(row.thingId, [...(sites.get(row.thingId) ?? []), { id: row.id, active: row.isActive, start }]);
    }
    const locationRows = await db
      .select({ id: locations.id, lat: locations.lat, lng: locations.lng })
      .from(locations)
      .where(and(eq(locations.isActive, true), isNull(locations.deletedAt)));
    const seededIncidents = new Map<string, Incident>();

    const root = createRandom(this.options.seed);
    for (const { thing, type } of picked) {
      const random = root.fork(`asset:${thing.haasId}`);
      const position = thing.lat !== null && thing.lng !== null ? { lat: thing.lat, lng: thing.lng } : randomPlace(this.network, random);
      const ownPlaces = places.get(thing.organizationId) ?? [];
      const home = ownPlaces.find((p) => p.id === thing.stationId) ?? nearestPlace(ownPlaces, position);
      const asset: SimAsset = {
        id: thing.id,
        haasId: thing.haasId,
        type,
        organizationId: thing.organizationId,
        responder: RESPONDER_TYPES.has(type) && thing.isResponder,
        r2r: thing.isR2rEnabled,
        accuracy: thing.accuracy ?? random.range(3, 10),
        random,
        phase: random.range(0, 2 * Math.PI),
        position,
        course: thing.course ?? 0,
        speedMps: (thing.speed ?? 0) / 2.236_936,
        lights: thing.lightsOn,
        mode: 'parked',
        until: nowMs,
        route: null,
        purpose: null,
        factor: 1,
        incident: null,
        closure: null,
        sites: sites.get(thing.id) ?? [],
        home,
        nextPointAt: nowMs,
        nextHeartbeatAt: nowMs + random.next() * this.rates.heartbeatS * SECOND_MS,
        lastPointAt: -Infinity,
        forcePoint: false,
      };
      const heartbeatAge = thing.heartbeatAt ? nowMs - thing.heartbeatAt.getTime() : Infinity;
      const activeSite = asset.sites.find((site) => site.active);
      if (heartbeatAge >= STANDBY_WINDOW_MS) {
        // Pending or offline in the seed: stays quiet.
        Object.assign(asset, { mode: 'quiet', until: Infinity, speedMps: 0 });
      } else if (!thing.inService) {
        Object.assign(asset, { mode: 'oos', speedMps: 0 });
      } else if (thing.locationId) {
        const row = locationRows.find((l) => l.id === thing.locationId);
        let incident = seededIncidents.get(thing.locationId);
        if (!incident) {
          const [min, max] = this.options.seededSceneSeconds;
          incident = {
            serial: ++this.incidentSerial,
            position: row ?? position,
            node: null,
            units: [],
            durationMs: 0,
            clearAt: nowMs + this.fleetRandom.range(min, max) * SECOND_MS,
          };
          seededIncidents.set(thing.locationId, incident);
          this.incidents.push(incident);
        }
        incident.units.push(asset);
        Object.assign(asset, { mode: 'on-scene', incident, purpose: 'respond', speedMps: 0, until: Infinity });
      } else if (thing.lightsOn && activeSite) {
        Object.assign(asset, { mode: 'working', closure: activeSite, speedMps: 0, until: nowMs + this.workMs(random) });
      } else if (thing.lightsOn) {
        // Enroute in the seed: on a run with its lights on, somewhere a few kilometres away.
        this.startRun(asset, null);
      } else if (thing.street) {
        // Stationary: parked for a while yet.
        this.park(asset, nowMs, 2 * MINUTE_MS, 40 * MINUTE_MS);
      } else if (thing.stationId) {
        this.park(asset, nowMs, 5 * MINUTE_MS, 60 * MINUTE_MS);
      } else {
        // Standby: about to move off, or parked a little longer.
        if (random.chance(0.5)) this.park(asset, nowMs, 0, 30 * SECOND_MS);
        else this.park(asset, nowMs, 30 * SECOND_MS, 8 * MINUTE_MS);
      }
      asset.forcePoint = false;
      // Spread the first reports over one interval, so not every asset reports on the same tick.
      const firstEvery = asset.mode === 'driving' || asset.lights ? this.rates.pointS : this.rates.stillPointS;
      asset.nextPointAt = nowMs + random.next() * firstEvery * SECOND_MS;
      this.fleet.push(asset);
    }
    this.responders = this.fleet.filter((a) => a.responder).length;
    return this;
  }

  /**
   * Advances every asset by the time since the last tick (1 s on the first) and posts one batch of
   * device messages through the ingest.
   */
  async tick(now: Date): Promise<void> {
    if (!this.loaded) throw new Error('FleetSimulator.load() must run before tick()');
    const started = performance.now();
    const nowMs = now.getTime();
    const first = this.lastTickMs === null;
    const seconds = first ? 1 : Math.min(60, Math.max(0, (nowMs - (this.lastTickMs as number)) / SECOND_MS));
    this.lastTickMs = nowMs;
    if (this.fleet.length === 0) return;
    const timestamp = now.toISOString();
    const batch: DeviceMessageInput[] = [];
    const lights = (asset: SimAsset, on: boolean): void => {
      if (asset.lights === on) return;
      asset.lights = on;
      asset.forcePoint = true;
      batch.push({ type: 'lights', haas_id: asset.haasId, on, timestamp });
    };
    const ctx: TickContext = { nowMs, lights };

    if (first) {
      for (let i = 0; i < this.options.initialIncidents; i++) this.startIncident(ctx, true);
      const visitors = this.fleetRandom.shuffle(
        this.fleet.filter((a) => this.idle(a) && a.sites.length > 0 && !a.sites.some((s) => s.active)),
      );
      for (const asset of visitors.slice(0, this.options.initialClosureVisits)) this.startWork(ctx, asset);
    }
    const minutes = seconds / 60;
    for (let n = poisson(this.fleetRandom, this.incidentRate() * minutes); n > 0; n--) this.startIncident(ctx, false);
    for (let n = poisson(this.fleetRandom, this.hazardRate() * minutes); n > 0; n--) this.reportHazard(batch, timestamp);
    for (let n = poisson(this.fleetRandom, this.quietRate() * minutes); n > 0; n--) this.goQuiet(nowMs);

    // Incidents clear: those on scene switch their lights off and pack up; those on the way turn back.
    for (const incident of this.incidents) {
      if (incident.clearAt === null || incident.clearAt > nowMs) continue;
      for (const unit of incident.units) {
        if (unit.incident !== incident) continue;
        unit.incident = null;
        lights(unit, false);
        if (unit.mode === 'on-scene') this.park(unit, nowMs, 15 * SECOND_MS, 90 * SECOND_MS);
        else this.returnHome(unit); // stood down on the way
      }
      incident.units = [];
    }
    this.incidents = this.incidents.filter((incident) => incident.units.length > 0);

    for (const asset of this.fleet) this.step(ctx, asset, seconds, batch, timestamp);

    if (batch.length > 0) {
      const result: IngestResult = await this.ingest.ingest(batch, null);
      if (result.rejected.length > 0 && this.counters.rejected === 0) {
        const [firstRejected] = result.rejected;
        console.warn(
          `fleet simulator: the ingest rejected ${result.rejected.length} messages (${firstRejected?.reason ?? ''}); was it reloaded after the seed?`,
        );
      }
      this.counters.rejected += result.rejected.length;
    }
    this.counters.ticks += 1;
    this.counters.messages += batch.length;
    this.counters.lastBatch = batch.length;
    this.counters.lastTickMs = performance.now() - started;
  }

  /** Ticks every `intervalMs` on the server's clock (`deps.now()`); a tick still running is never overlapped. */
  start(intervalMs = 1_000): void {
    if (this.timer || this.options.assets === 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick(this.deps.now())
        .catch((error: unknown) => console.error('fleet simulator tick failed', error))
        .finally(() => {
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
    this.zoneFlipper = this.createZoneFlipper();
    this.zoneFlipper.start(this.options.zoneFlipMs);
  }

  /** part 2 §2 Alerting zones: the flipper of the simulated organizations' zones (those of the loaded fleet). */
  createZoneFlipper(): ZoneFlipper {
    return new ZoneFlipper(this.deps, [...new Set(this.fleet.map((asset) => asset.organizationId))]);
  }

  /** Stops ticking (and flipping zones) and waits for a tick in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.zoneFlipper?.stop();
    this.zoneFlipper = null;
    await this.running;
  }

  // ── rates ──

  private incidentRate(): number {
    return this.options.incidentsPerMinute ?? Math.max(0.1, this.responders / 1_000);
  }

  private hazardRate(): number {
    return this.options.hazardsPerMinute ?? Math.max(0.05, (0.5 * this.fleet.length) / 1_000);
  }

  private quietRate(): number {
    return this.options.quietPerMinute ?? (0.3 * this.fleet.length) / 1_000;
  }

  private workMs(random: Random): number {
    const [min, max] = this.options.workSeconds;
    return random.range(min, max) * SECOND_MS;
  }

  // ── one asset, one tick ──

  private step(ctx: TickContext, asset: SimAsset, seconds: number, batch: DeviceMessageInput[], timestamp: string): void {
    const { nowMs } = ctx;
    switch (asset.mode) {
      case 'quiet':
        if (nowMs < asset.until) return;
        // Back on the air where it went quiet.
        this.park(asset, nowMs, 0, 10 * MINUTE_MS);
        break;
      case 'oos':
        if (nowMs + DUE_SLACK_MS >= asset.nextHeartbeatAt) {
          batch.push(heartbeatMessage(asset.haasId, timestamp));
          asset.nextHeartbeatAt = nowMs + this.rates.heartbeatS * SECOND_MS;
        }
        return;
      case 'parked':
        if (nowMs >= asset.until) this.decide(ctx, asset);
        break;
      case 'working':
        if (nowMs >= asset.until) {
          ctx.lights(asset, false);
          if (asset.closure) asset.closure.active = false;
          asset.closure = null;
          this.park(asset, nowMs, MINUTE_MS, 10 * MINUTE_MS);
        }
        break;
      case 'on-scene':
      case 'driving':
        break;
    }
    if (asset.mode === 'driving' && asset.route) {
      // Drivers do not hold one speed exactly: a slow drift of ±4% around the trip's pace.
      const pace = asset.factor * (1 + 0.04 * Math.sin(nowMs / 9_000 + asset.phase));
      const motion = advance(asset.route, asset.speedMps, seconds, pace);
      asset.position = motion.position;
      asset.course = motion.course;
      asset.speedMps = motion.speedMps;
      if (motion.arrived) this.arrive(ctx, asset);
    }

    const moving = asset.speedMps > 0.05;
    if (asset.forcePoint || nowMs + DUE_SLACK_MS >= asset.nextPointAt) {
      // A vehicle that just switched its lights on is about to move: a still point now would read as an incident.
      const aboutToMove = asset.mode === 'driving' && asset.lights && metresPerSecondToMph(asset.speedMps) < 2;
      if (!aboutToMove) {
        const accuracy = asset.accuracy + asset.random.range(-1, 1.5);
        batch.push(
          pointMessage(asset.haasId, timestamp, { position: asset.position, speedMps: asset.speedMps, course: asset.course, accuracy }),
        );
        asset.lastPointAt = nowMs;
        asset.forcePoint = false;
      }
      asset.nextPointAt = nowMs + (moving || asset.lights ? this.rates.pointS : this.rates.stillPointS) * SECOND_MS;
    }
    if (nowMs + DUE_SLACK_MS >= asset.nextHeartbeatAt) {
      const recentPoint = nowMs - asset.lastPointAt < this.rates.heartbeatS * SECOND_MS;
      if (!(this.rates.pointCountsAsHeartbeat && recentPoint)) batch.push(heartbeatMessage(asset.haasId, timestamp));
      asset.nextHeartbeatAt = nowMs + this.rates.heartbeatS * SECOND_MS;
    }
  }

  /** At the end of a route. */
  private arrive(ctx: TickContext, asset: SimAsset): void {
    const { nowMs } = ctx;
    asset.route = null;
    asset.speedMps = 0;
    asset.forcePoint = true;
    switch (asset.purpose) {
      case 'respond': {
        const incident = asset.incident;
        if (!incident) {
          this.park(asset, nowMs, 15 * SECOND_MS, MINUTE_MS);
          return;
        }
        asset.mode = 'on-scene';
        asset.until = Infinity;
        incident.clearAt ??= nowMs + incident.durationMs;
        return;
      }
      case 'run':
        ctx.lights(asset, false);
        this.park(asset, nowMs, MINUTE_MS, 10 * MINUTE_MS);
        return;
      case 'to-work':
        asset.mode = 'working';
        // A closure lasts its full span; a roadside stop half as long.
        asset.until = nowMs + this.workMs(asset.random) * (asset.closure ? 1 : 0.5);
        ctx.lights(asset, true);
        if (asset.closure) asset.closure.active = true;
        return;
      case 'return':
        // Back at the station or yard: a long wait (still for more than 10 minutes: stationary).
        if (asset.type === 'police') this.park(asset, nowMs, 3 * MINUTE_MS, 30 * MINUTE_MS);
        else this.park(asset, nowMs, 10 * MINUTE_MS, 90 * MINUTE_MS);
        return;
      case 'patrol':
      case null:
        if (asset.type === 'waste') this.park(asset, nowMs, 20 * SECOND_MS, 3 * MINUTE_MS);
        else if (asset.random.chance(0.7)) this.park(asset, nowMs, 20 * SECOND_MS, 3 * MINUTE_MS);
        else this.park(asset, nowMs, 3 * MINUTE_MS, 15 * MINUTE_MS);
        return;
    }
  }

  /** What an idle asset does next, by its type. */
  private decide(ctx: TickContext, asset: SimAsset): void {
    const { nowMs } = ctx;
    const random = asset.random;
    const away = asset.home !== null && distanceM(asset.home.position, asset.position) > 150;
    switch (asset.type) {
      case 'police': {
        const roll = random.next();
        if (roll < 0.55) this.patrol(asset, random.int(4, 10));
        else if (roll < 0.8) this.park(asset, nowMs, 2 * MINUTE_MS, 12 * MINUTE_MS);
        else if (roll < 0.95 && away) this.returnHome(asset);
        else this.startRun(asset, ctx);
        return;
      }
      case 'fire':
      case 'ambulance': {
        if (away && random.chance(0.75)) return this.returnHome(asset);
        const roll = random.next();
        if (roll < 0.55) this.park(asset, nowMs, 10 * MINUTE_MS, 60 * MINUTE_MS);
        else if (roll < 0.85) this.patrol(asset, random.int(3, 8));
        else this.startRun(asset, ctx);
        return;
      }
      case 'maintenance':
      case 'tow': {
        const roll = random.next();
        // An asset of automated closures works at them; the others stop by the road now and then.
        if (asset.sites.length > 0 && roll < 0.3) return this.startWork(ctx, asset);
        if (roll < 0.5) this.patrol(asset, random.int(3, 9));
        else if (roll < 0.65) this.startWork(ctx, asset);
        else if (away && roll < 0.8) this.returnHome(asset);
        else this.park(asset, nowMs, 3 * MINUTE_MS, 25 * MINUTE_MS);
        return;
      }
      case 'waste':
        if (random.chance(0.7)) {
          this.patrol(asset, random.int(2, 5), random.range(0.6, 0.75));
        } else if (away) {
          this.returnHome(asset);
        } else {
          this.park(asset, nowMs, 10 * MINUTE_MS, 45 * MINUTE_MS);
        }
        return;
      case 'arrow_board': {
        if (asset.sites.length > 0 && random.chance(0.35)) return this.startWork(ctx, asset);
        const roll = random.next();
        if (roll < 0.1) this.startWork(ctx, asset);
        else if (roll < 0.25) this.patrol(asset, random.int(2, 4));
        else this.park(asset, nowMs, 20 * MINUTE_MS, 120 * MINUTE_MS);
        return;
      }
    }
  }

  // ── activities ──

  private park(asset: SimAsset, nowMs: number, minMs: number, maxMs: number): void {
    if (asset.mode === 'driving' || asset.speedMps > 0) asset.forcePoint = true;
    asset.mode = 'parked';
    asset.route = null;
    asset.purpose = null;
    asset.speedMps = 0;
    asset.until = nowMs + asset.random.range(minMs, maxMs);
  }

  private drive(asset: SimAsset, request: Omit<RouteRequest, 'from' | 'course'>, purpose: Purpose, factor: number): void {
    const route = planRoute(this.network, this.index, this.trees, {
      ...request,
      from: asset.position,
      course: asset.speedMps > 0 || asset.mode === 'driving' ? asset.course : null,
    });
    asset.mode = 'driving';
    asset.route = route;
    asset.purpose = purpose;
    asset.factor = factor;
    asset.until = Infinity;
    asset.forcePoint = true;
  }

  /** A random walk of some blocks, lights off. */
  private patrol(asset: SimAsset, blocks: number, factor = asset.random.range(0.6, 1.1)): void {
    const hit = this.index.nearestEdge(asset.position);
    const edge = hit.edge;
    let start: number;
    let previous: number | null = null;
    if (hit.distanceM > 15) {
      start = hit.t < 0.5 ? edge.from : edge.to;
    } else {
      // Carry on the way it faces.
      const forward = Math.abs(((asset.course - edge.course + 540) % 360) - 180) < 90;
      start = forward ? edge.to : edge.from;
      previous = otherEnd(edge, start);
    }
    this.drive(asset, { to: { path: randomWalk(this.network, asset.random, start, blocks, previous) } }, 'patrol', factor);
  }

  /** Back to its station or yard, lights off. */
  private returnHome(asset: SimAsset): void {
    if (!asset.home) return this.patrol(asset, asset.random.int(3, 6));
    const spot = offsetMetres(asset.home.position, asset.random.range(-25, 25), asset.random.range(-25, 25));
    this.drive(asset, { to: nearestNode(this.network, asset.home.position), finalSpot: spot }, 'return', asset.random.range(0.7, 1.05));
  }

  /** A run with the lights on to somewhere 2–6 km away (a call handled elsewhere, a transport). */
  private startRun(asset: SimAsset, ctx: TickContext | null): void {
    const random = asset.random;
    let target = this.randomGridNode(random);
    for (let tries = 0; tries < 10; tries++) {
      const d = distanceM(asset.position, this.network.nodes[target]!);
      if (d >= 2_000 && d <= 6_000) break;
      target = this.randomGridNode(random);
    }
    // At load the lights are already on (the ingest knows); later the switch is reported.
    if (ctx) ctx.lights(asset, true);
    this.drive(asset, { to: target }, 'run', random.range(0.9, 1.1));
  }

  /** A work stop with the lights on: at its automated closure when it has one, else a few blocks on. */
  private startWork(ctx: TickContext, asset: SimAsset): void {
    const random = asset.random;
    const site = asset.sites.length > 0 ? random.pick(asset.sites) : null;
    asset.closure = site;
    if (site) {
      this.counters.closureVisits += 1;
      if (distanceM(site.start, asset.position) <= THERE_M) {
        asset.mode = 'driving';
        asset.purpose = 'to-work';
        asset.route = null;
        return this.arrive(ctx, asset);
      }
      this.drive(asset, { to: nearestNode(this.network, site.start) }, 'to-work', random.range(0.6, 0.95));
      return;
    }
    const hit = this.index.nearestEdge(asset.position);
    const start = hit.t < 0.5 ? hit.edge.from : hit.edge.to;
    const walk = randomWalk(this.network, random, start, random.int(1, 3));
    this.drive(asset, { to: { path: walk }, stopShortM: random.range(20, 120) }, 'to-work', random.range(0.6, 0.95));
  }

  // ── fleet events ──

  private idle(asset: SimAsset): boolean {
    return (
      (asset.mode === 'parked' || (asset.mode === 'driving' && asset.purpose === 'patrol')) &&
      !asset.lights &&
      asset.incident === null &&
      asset.closure === null
    );
  }

  private available(asset: SimAsset): boolean {
    return asset.responder && this.idle(asset);
  }

  /**
   * An incident at an intersection: 1–4 of the nearest available responders of one organization
   * switch their lights on and drive there. A kick-off incident is set next to two R2R-enabled
   * responders within 500 m of each other, dispatched first.
   */
  private startIncident(ctx: TickContext, kickoff: boolean): void {
    const random = this.fleetRandom;
    const pool = this.fleet.filter((a) => this.available(a));
    if (pool.length === 0) return;
    let first: SimAsset[] = [];
    let node: number;
    if (kickoff) {
      const r2r = random.shuffle(pool.filter((a) => a.r2r));
      for (const a of r2r) {
        const partner = r2r.find(
          (b) => b !== a && b.organizationId === a.organizationId && distanceM(a.position, b.position) <= R2R_ALERT_DISTANCE_M * 0.8,
        );
        if (partner) {
          first = [a, partner];
          break;
        }
      }
    }
    if (first.length > 0) {
      node = nearestNode(this.network, first[0]!.position);
    } else {
      node = this.randomGridNode(random);
    }
    const position = this.network.nodes[node]!;
    const organizationId = first[0]?.organizationId ?? nearest(pool, position, 1)[0]!.organizationId;
    const wanted = Math.max(first.length, Number(random.weighted(UNIT_COUNT_WEIGHTS)));
    const others = nearest(
      pool.filter((a) => a.organizationId === organizationId && !first.includes(a)),
      position,
      wanted - first.length,
    );
    const units = [...first, ...others];
    const [min, max] = this.options.sceneSeconds;
    const incident: Incident = {
      serial: ++this.incidentSerial,
      position,
      node,
      units,
      durationMs: random.range(min, max) * SECOND_MS,
      clearAt: null,
    };
    this.incidents.push(incident);
    this.counters.incidents += 1;
    units.forEach((unit, slot) => {
      unit.incident = incident;
      ctx.lights(unit, true);
      this.drive(unit, { to: node, stopShortM: 6 + slot * SCENE_SPACING_M }, 'respond', unit.random.range(0.95, 1.1));
    });
  }

  private reportHazard(batch: DeviceMessageInput[], timestamp: string): void {
    const reporters = this.fleet.filter((a) => HAZARD_REPORTERS.has(a.type) && a.mode !== 'quiet' && a.mode !== 'oos');
    if (reporters.length === 0) return;
    const reporter = this.fleetRandom.pick(reporters);
    this.counters.hazards += 1;
    batch.push({
      type: 'hazard',
      haas_id: reporter.haasId,
      timestamp,
      hazard_type: this.fleetRandom.weighted(HAZARD_TYPE_WEIGHTS),
      severity: this.fleetRandom.weighted(HAZARD_SEVERITY_WEIGHTS),
      lat: round7(reporter.position.lat),
      lng: round7(reporter.position.lng),
    });
  }

  /** A device goes off the air for hours: its heartbeat ages (past 8 h it is pending, past 96 h offline). */
  private goQuiet(nowMs: number): void {
    const candidates = this.fleet.filter((a) => this.idle(a));
    if (candidates.length === 0) return;
    const asset = this.fleetRandom.pick(candidates);
    const hours = this.fleetRandom.chance(0.7) ? this.fleetRandom.range(1, 12) : this.fleetRandom.range(12, 120);
    Object.assign(asset, { mode: 'quiet', until: nowMs + hours * HOUR_MS, route: null, purpose: null, speedMps: 0 });
    this.counters.wentQuiet += 1;
  }

  private randomGridNode(random: Random): number {
    return this.network.gridNode(random.int(0, this.network.gridSize - 1), random.int(0, this.network.gridSize - 1));
  }
}

interface TickContext {
  nowMs: number;
  /** Switches an asset's lights, queueing the message. */
  lights(asset: SimAsset, on: boolean): void;
}

// ── helpers ──────────────────────────────────────────────────────────────────

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function nearest<T extends { position: LatLng }>(items: readonly T[], p: LatLng, count: number): T[] {
  if (count <= 0) return [];
  return items
    .map((item) => ({ item, d: distanceM(item.position, p) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, count)
    .map((entry) => entry.item);
}

function nearestPlace(places: readonly Place[], p: LatLng): Place | null {
  return nearest(places, p, 1)[0] ?? null;
}

function randomPlace(network: RoadNetwork, random: Random): LatLng {
  const node = network.nodes[network.gridNode(random.int(0, network.gridSize - 1), random.int(0, network.gridSize - 1))]!;
  return { lat: node.lat, lng: node.lng };
}

/** The first point of a stored route (a list of {lat, lng}). */
function firstPoint(route: unknown): LatLng | null {
  if (!Array.isArray(route)) return null;
  const p: unknown = route[0];
  if (typeof p !== 'object' || p === null) return null;
  const { lat, lng } = p as { lat?: unknown; lng?: unknown };
  return typeof lat === 'number' && typeof lng === 'number' ? { lat, lng } : null;
}

/** A Poisson-distributed count with mean `lambda` (Knuth; the means here are small). */
function poisson(random: Random, lambda: number): number {
  if (lambda <= 0) return 0;
  const limit = Math.exp(-lambda);
  let count = 0;
  let product = random.next();
  while (product > limit) {
    count += 1;
    product *= random.next();
  }
  return count;
}
