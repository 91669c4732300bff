import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import {
  ALERTING_OFF_RESET_MS,
  INCIDENT_STOP_MS,
  R2R_ALERT_DISTANCE_M,
  R2R_CAPABLE_TYPES,
  STATION_RADIUS_DEFAULT_M,
  STATIONARY_AFTER_MS,
  METRES_PER_MILE,
  type AssetType,
} from '../../src/domain/constants';
import { distanceM, type LatLng } from '../../src/domain/geometry';
import type { LiveMessageInput as LiveMessage } from '../../src/domain/live-message';
import { incidentName } from '../../src/domain/location';
import {
  areas,
  areaTypes,
  closures,
  hazards,
  locations,
  locationThings,
  organizationRelationships,
  organizations,
  points,
  r2rAlerts,
  runs,
  thingRelationships,
  things,
  thingTypes,
} from '../db/schema';
import type { Db } from '../db/connection';
import type { ServerDeps } from '../deps';
import { toLocationWires } from '../core/location-wire';
import { loadThingWire } from '../core/thing-wire';
import { failureReason, insertRecords } from '../db/rows';
import { deviceMessageSchema, isNoFix, NO_FIX_REASON, type DeviceMessage } from './device-message';

/** Below this speed (mph) a vehicle counts as stopped. */
export const STOPPED_BELOW_MPH = 2;
/** A stopped alerting vehicle within this distance of an active location joins it; farther opens a new one. */
export const INCIDENT_JOIN_RADIUS_M = 150;
/** A vehicle on an incident that moves this far from it has left. */
export const INCIDENT_LEAVE_RADIUS_M = 200;
/** The same two responders alert each other at most once in this window. */
export const R2R_PAIR_COOLDOWN_MS = 5 * 60_000;
/** Messages stamped further than this in the future are rejected. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;
/**
 * Rows per statement of the once-a-second flush (asset states, trip points), each chunk one JSON
 * parameter: with a parameter per value, 13,000 asset states took 1.5-2 s of PGlite a second.
 */
const FLUSH_CHUNK = 2_000;
/**
 * The once-a-second flush writes at most this many asset states, those changed longest ago first;
 * the rest wait for the next second. A fleet of up to this many is stored every second; a larger
 * one moving all at once is stored in turn (100,000 assets: each every 20 s), so the flush's cost
 * stays bounded as the fleet grows. Sockets carry every change at once; the REST list of a large
 * organization is polled every 15 s (part 1 §7). Trip points are always written the next second.
 */
export const STATE_WRITES_PER_FLUSH = 5_000;
const AUDIENCE_REFRESH_MS = 30_000;
/**
 * A batch is applied in slices of about this long, the event loop served between them: a batch of
 * 10,000 messages takes hundreds of milliseconds to apply, and while it runs no page, API call or
 * socket frame is answered (on a busy machine the dashboard's own index.html waited seconds).
 */
export const APPLY_SLICE_MS = 10;
/** Messages between two looks at the clock. */
const SLICE_CHECK_EVERY = 32;
/**
 * Trip points held for the flush at most (about 25 s of a fleet of 20,000 whose fifth is on a run,
 * 1 point a second each). A database slower than the stream (Postgres on a busy machine: bench/README.md
 * "Server ingest") made them pile up without bound, and the process's memory with them; past this
 * POST /ingest refuses new batches whole until the flush has written them (`hasRoomFor`).
 */
export const PENDING_POINTS_MAX = 100_000;
/** Messages waiting in the ingest's queue at most (ten full batches): past it a batch is refused whole, as above. */
export const QUEUED_MESSAGES_MAX = 100_000;
/** Seconds a refused device is asked to wait (Retry-After) before sending the batch again. */
export const INGEST_RETRY_AFTER_S = 2;
export const INGEST_BUSY_MESSAGE = 'The server is still storing earlier messages. Send this batch again in a few seconds.';

/** The live state of one asset, as the ingest keeps it between messages. */
interface ThingState {
  id: string;
  organizationId: string;
  haasId: string;
  type: AssetType | string;
  isResponder: boolean;
  isR2REnabled: boolean;
  inService: boolean;
  lightsOn: boolean;
  lat: number | null;
  lng: number | null;
  speed: number;
  course: number | null;
  accuracy: number | null;
  heartbeatAt: Date | null;
  stillSince: Date | null;
  street: string | null;
  stationId: string | null;
  locationId: string | null;
  runId: string | null;
  runStartTime: Date | null;
  runPointsCount: number;
  dirty: boolean;
}

/**
 * Whether a write failed because of the values of its rows (SQLSTATE class 22 "data exception",
 * e.g. a NUL in a text or a year Postgres cannot hold, or class 23 "integrity constraint
 * violation") rather than the database being unreachable. Only such a failure is blamed on a row:
 * a systemic one leaves the rows to the next flush. Drizzle wraps the driver's error as `cause`.
 */
export function isRowDataError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23]/.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Writes rows in one batched statement; when the database refuses the batch for a row's values,
 * writes them one by one so the good rows are kept and only the refused ones are returned. Any
 * other failure propagates (the caller retries the whole batch later).
 */
async function writeIsolatingRows<T>(
  rows: readonly T[],
  write: (rows: readonly T[]) => Promise<unknown>,
): Promise<{ row: T; reason: string }[]> {
  try {
    await write(rows);
    return [];
  } catch (error) {
    if (!isRowDataError(error)) throw error;
    if (rows.length === 1) return [{ row: rows[0]!, reason: failureReason(error) }];
  }
  const refused: { row: T; reason: string }[] = [];
  for (const row of rows) {
    try {
      await write([row]);
    } catch (error) {
      if (!isRowDataError(error)) throw error;
      refused.push({ row, reason: failureReason(error) });
    }
  }
  return refused;
}

/** The live state of an asset as stored. */
function toState(thing: typeof things.$inferSelect, type: string): ThingState {
  return {
    id: thing.id,
    organizationId: thing.organizationId,
    haasId: thing.haasId,
    type,
    isResponder: thing.isResponder,
    isR2REnabled: thing.isR2rEnabled,
    inService: thing.inService,
    lightsOn: thing.lightsOn,
    lat: thing.lat,
    lng: thing.lng,
    speed: thing.speed,
    course: thing.course,
    accuracy: thing.accuracy,
    heartbeatAt: thing.heartbeatAt,
    stillSince: thing.stillSince,
    street: thing.street,
    stationId: thing.stationId,
    locationId: thing.locationId,
    runId: thing.runId,
    runStartTime: thing.runStartTime,
    runPointsCount: thing.runPointsCount,
    dirty: false,
  };
}

interface Station extends LatLng {
  id: string;
  organizationId: string;
  radiusM: number;
}

export interface IngestResult {
  accepted: number;
  rejected: { index: number; reason: string }[];
}

export interface IngestOptions {
  /** The street name at a position, for the stationary rule (docs/decisions/spec.md "stationary after 10 min"). */
  streetAt?: (position: LatLng) => string | null;
  /** Where a position is for a new event's name (a street and its cross street); the street when absent. */
  placeAt?: (position: LatLng) => string | null;
}

/** A fallback street label where no road map is known: the rounded position. */
export const coordinateLabel = (p: LatLng): string => `Near ${p.lat.toFixed(4)}, ${p.lng.toFixed(4)}`;

/**
 * Device ingest: validates device messages, derives what the dashboard shows — heartbeat
 * time, enroute (lights on), runs with their points, incidents (a vehicle stopped with lights on for
 * more than 30 s opens or joins a location; the location ends when its last vehicle leaves),
 * automated closures following their asset's lights, alerting switched off turning back on after
 * 60 minutes, R2R alerts between alerting responders, stations and the stationary street — stores
 * what must last (high-volume rows in batches, once a second) and publishes live messages to every
 * organization that may see the asset.
 */
export class IngestEngine {
  /** How long a slice of a batch may run before the event loop is served (tests set 0: at every look at the clock). */
  sliceMs = APPLY_SLICE_MS;
  private readonly byId = new Map<string, ThingState>();
  private readonly byHaasId = new Map<string, ThingState>();
  private stations: Station[] = [];
  private audience = new Map<string, string[]>();
  /** Organizations each shared asset is shared with (thing_relationships). */
  private shares = new Map<string, string[]>();
  private audienceLoadedAt = 0;
  private pendingPoints: (typeof points.$inferInsert)[] = [];
  private readonly r2rPairs = new Map<string, number>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Messages of the batches in the queue, not yet applied. */
  private queuedMessages = 0;
  /** Trip points of the flush that is writing them. */
  private writingPoints = 0;
  /** What the ingest may hold before POST /ingest refuses a batch (tests set small ones). */
  limits = { pendingPoints: PENDING_POINTS_MAX, queuedMessages: QUEUED_MESSAGES_MAX };
  /** Writes of live state (the flush, an asset written at once), one after another, apart from the ingest's queue. */
  private writes: Promise<unknown> = Promise.resolve();
  /** Whether the once-a-second flush is writing. */
  private writing = false;
  /** Assets changed since their last write, in the order they changed (an entry of an asset written meanwhile is passed over). */
  private changed: ThingState[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastFlushFailure: string | null = null;

  constructor(
    private readonly deps: ServerDeps,
    private options: IngestOptions = {},
  ) {
    // A relation or association changed: the audiences are read again before the next message.
    deps.events.on('access-changed', () => {
      this.audienceLoadedAt = 0;
    });
  }

  /** The simulator knows its road map: streets come from it. */
  setStreetLookup(streetAt: (position: LatLng) => string | null, placeAt?: (position: LatLng) => string | null): void {
    this.options = { ...this.options, streetAt, ...(placeAt ? { placeAt } : {}) };
  }

  /** Loads the fleet's state and starts the once-a-second flush. */
  async start(flushMs = 1_000): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => {
      // A flush still writing (a large fleet on a busy machine) is not queued behind: the next tick writes what changed meanwhile.
      if (this.writing) return;
      void this.writeState(STATE_WRITES_PER_FLUSH).then(
        () => (this.lastFlushFailure = null),
        (error: unknown) => {
          // A database that stays down fails every second: its reason is logged once, not once a second.
          const reason = failureReason(error);
          if (reason !== this.lastFlushFailure) console.error('ingest flush failed', reason);
          this.lastFlushFailure = reason;
        },
      );
    }, flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** (Re)reads every asset, the stations and the audiences. */
  async reload(): Promise<void> {
    const { db } = this.deps;
    const rows = await db
      .select({ thing: things, type: thingTypes.name })
      .from(things)
      .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
      .where(isNull(things.deletedAt));
    this.byId.clear();
    this.byHaasId.clear();
    this.changed = [];
    for (const { thing, type } of rows) {
      const state = toState(thing, type);
      this.byId.set(state.id, state);
      this.byHaasId.set(state.haasId, state);
    }
    const stationRows = await db
      .select({ id: areas.id, organizationId: areas.organizationId, lat: areas.lat, lng: areas.lng, radius: areas.radiusDist })
      .from(areas)
      .innerJoin(areaTypes, eq(areaTypes.id, areas.ezTypeId))
      .where(and(eq(areaTypes.isStationView, true), isNull(areas.deletedAt)));
    this.stations = stationRows
      .filter((row) => row.lat !== null && row.lng !== null)
      .map((row) => ({
        id: row.id,
        organizationId: row.organizationId,
        lat: row.lat!,
        lng: row.lng!,
        radiusM: row.radius ? row.radius * METRES_PER_MILE : STATION_RADIUS_DEFAULT_M,
      }));
    await this.loadAudiences();
    // Open sockets learn of assets that appeared (their visible sets are reloaded).
    this.deps.events.emit('assets-changed');
  }

  /**
   * Every organization that may see an organization's assets: itself, its ancestors, its managers
   * and accessors; and the organizations each shared asset is shared with. Built aside and swapped
   * in, so a message published meanwhile never sees a half-built map.
   */
  private async loadAudiences(): Promise<void> {
    const { db } = this.deps;
    const audience = await readOrganizationAudiences(db);
    const shareRows = await db
      .select({ thingId: thingRelationships.thingId, organizationId: thingRelationships.organizationId })
      .from(thingRelationships);
    const shares = new Map<string, string[]>();
    for (const row of shareRows) shares.set(row.thingId, [...(shares.get(row.thingId) ?? []), row.organizationId]);
    this.audience = audience;
    this.shares = shares;
    this.audienceLoadedAt = Date.now();
  }

  /** The organizations a message of the asset goes to: its organization's audience and its shares. */
  private audienceOf(thing: ThingState): string[] {
    const base = this.audience.get(thing.organizationId) ?? [thing.organizationId];
    const shared = this.shares.get(thing.id);
    return shared ? [...new Set([...base, ...shared])] : base;
  }

  /** Points and heartbeats: from the cached audiences, no query (they are read again every 30 s or on a change). */
  private publishFast(thing: ThingState, message: LiveMessage): void {
    for (const org of this.audienceOf(thing)) this.deps.bus.publish(org, message);
  }

  private async publish(thing: ThingState, message: LiveMessage): Promise<void> {
    if (Date.now() - this.audienceLoadedAt > AUDIENCE_REFRESH_MS) await this.loadAudiences();
    this.publishFast(thing, message);
  }

  /**
   * Validates and applies a batch. Good messages are kept while bad ones are rejected with a reason.
   * `organizationIds`: the organizations the posting API key may report for (null: any, the simulator).
   */
  ingest(raw: readonly unknown[], organizationIds: ReadonlySet<string> | null): Promise<IngestResult> {
    this.queuedMessages += raw.length;
    const run = this.queue
      .then(() => this.apply(raw, organizationIds))
      .then((result) => {
        this.counts.accepted += result.accepted;
        this.counts.rejected += result.rejected.length;
        return result;
      })
      .finally(() => (this.queuedMessages -= raw.length));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Whether a device's batch of `count` messages may be taken now: false while the ingest holds as
   * much as it may (`limits`: PENDING_POINTS_MAX trip points not yet written, or QUEUED_MESSAGES_MAX
   * messages in its queue). POST /ingest then refuses the batch whole (503, Retry-After) and the device sends
   * it again. A batch alone in the queue is always taken. The simulator's own ticks are not asked:
   * a refused tick would leave the simulated fleet and the ingest apart (a switch of lights lost).
   */
  hasRoomFor(count: number): boolean {
    const { pendingPoints, queuedMessages } = this.backlog();
    if (pendingPoints >= this.limits.pendingPoints) return false;
    return queuedMessages === 0 || queuedMessages + count <= this.limits.queuedMessages;
  }

  /**
   * Messages since start (GET /metrics): applied, refused one by one (a bad message), and refused
   * whole with their batch while the ingest was full (`hasRoomFor`, counted by POST /ingest).
   */
  readonly counts = { accepted: 0, rejected: 0, busy: 0 };

  /** What the ingest holds now: messages in its queue, and trip points not yet written (the flush's included). */
  backlog(): { queuedMessages: number; pendingPoints: number } {
    return { queuedMessages: this.queuedMessages, pendingPoints: this.pendingPoints.length + this.writingPoints };
  }

  private async apply(raw: readonly unknown[], organizationIds: ReadonlySet<string> | null): Promise<IngestResult> {
    const result: IngestResult = { accepted: 0, rejected: [] };
    if (Date.now() - this.audienceLoadedAt > AUDIENCE_REFRESH_MS) await this.loadAudiences();
    const now = this.deps.now();
    let sliceStart = performance.now();
    for (let index = 0; index < raw.length; index += 1) {
      if (index % SLICE_CHECK_EVERY === SLICE_CHECK_EVERY - 1 && performance.now() - sliceStart >= this.sliceMs) {
        await nextTurn();
        sliceStart = performance.now();
      }
      const parsed = deviceMessageSchema.safeParse(raw[index]);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        result.rejected.push({ index, reason: `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}` });
        continue;
      }
      const message = parsed.data;
      const thing = this.byHaasId.get(message.haas_id);
      if (!thing || (organizationIds && !organizationIds.has(thing.organizationId))) {
        result.rejected.push({ index, reason: `haas_id: no device ${message.haas_id} in this organization` });
        continue;
      }
      if (message.type === 'hazard' && isNoFix(message)) {
        result.rejected.push({ index, reason: NO_FIX_REASON });
        continue;
      }
      const at = new Date(message.timestamp);
      if (at.getTime() - now.getTime() > MAX_CLOCK_SKEW_MS) {
        result.rejected.push({ index, reason: 'timestamp: more than 5 minutes in the future' });
        continue;
      }
      const before = { ...thing };
      try {
        await this.applyOne(thing, message, at);
      } catch (error) {
        // A value the schema lets through but the database refuses fails this message alone: the
        // asset's state goes back to what it was before it (earlier messages, not yet flushed, stay).
        if (!isRowDataError(error)) throw error;
        console.error(`ingest: message ${index} of asset ${thing.id} was refused by the database: ${failureReason(error)}`);
        Object.assign(thing, { ...before, dirty: thing.dirty });
        result.rejected.push({ index, reason: 'message: refused by the database' });
        continue;
      }
      result.accepted += 1;
    }
    return result;
  }

  private async applyOne(thing: ThingState, message: DeviceMessage, at: Date): Promise<void> {
    // Any message shows the device is alive.
    if (!thing.heartbeatAt || at > thing.heartbeatAt) {
      thing.heartbeatAt = at;
      this.touch(thing);
    }
    switch (message.type) {
      case 'heartbeat':
        await this.alertingResetSweep(at);
        this.publishFast(thing, this.heartbeatMessage(thing, at));
        return;
      case 'lights':
        await this.lights(thing, message.on, at);
        return;
      case 'point':
        // 0°, 0° is what a device without a GPS fix sends: it is alive, but the asset keeps its
        // last position (no trip point, no jump to the Gulf of Guinea).
        if (isNoFix(message)) {
          await this.alertingResetSweep(at);
          this.publishFast(thing, this.heartbeatMessage(thing, at));
          return;
        }
        await this.point(thing, message, at);
        return;
      case 'attributes':
        await this.attributes(thing, message.attributes, at);
        return;
      case 'hazard':
        await this.deps.db.insert(hazards).values({
          organizationId: thing.organizationId,
          thingId: thing.id,
          hazardType: message.hazard_type,
          severity: message.severity,
          lat: message.lat,
          lng: message.lng,
          reportedAt: at,
        });
        return;
    }
  }

  private heartbeatMessage(thing: ThingState, at: Date): LiveMessage {
    return {
      type: 'heartbeat',
      thing_id: thing.id,
      is_active: thing.lightsOn,
      timestamp: at.toISOString(),
      run_id: thing.runId,
      run_start_time: thing.runStartTime?.toISOString() ?? null,
      run_points_count: thing.runPointsCount,
    };
  }

  /** Lights on: a run starts and the asset is enroute; off: the run ends, and an incident is left. */
  private async lights(thing: ThingState, on: boolean, at: Date): Promise<void> {
    if (thing.lightsOn === on) {
      this.publishFast(thing, this.heartbeatMessage(thing, at));
      return;
    }
    const { db } = this.deps;
    thing.lightsOn = on;
    this.touch(thing);
    if (on) {
      thing.runId = randomUUID();
      thing.runStartTime = at;
      thing.runPointsCount = 0;
      await db.insert(runs).values({ id: thing.runId, thingId: thing.id, runStart: at, isActive: true });
    } else {
      if (thing.runId) await db.update(runs).set({ runEnd: at, isActive: false }).where(eq(runs.id, thing.runId));
      thing.runId = null;
      thing.runStartTime = null;
      thing.runPointsCount = 0;
      if (thing.locationId) await this.leaveIncident(thing, at);
    }
    await this.followClosures(thing, on, at);
    await this.publish(thing, this.heartbeatMessage(thing, at));
    if (on) await this.checkR2R(thing, at);
  }

  /** Automated closures follow their asset's lights (part 2 §4). */
  private async followClosures(thing: ThingState, on: boolean, at: Date): Promise<void> {
    const changed = await this.deps.db
      .update(closures)
      .set(on ? { isActive: true, lastStartTime: at, updatedAt: at } : { isActive: false, updatedAt: at })
      .where(
        and(eq(closures.thingId, thing.id), eq(closures.closureType, 'automated'), eq(closures.isActive, !on), isNull(closures.deletedAt)),
      )
      .returning({ id: closures.id, externalId: closures.externalId, organizationId: closures.organizationId });
    for (const closure of changed) {
      await this.publish(thing, {
        type: 'closure',
        thing_id: thing.id,
        closure_id: closure.id,
        organization_id: closure.organizationId,
        wzdx_id: closure.externalId,
        is_active: on,
        timestamp: at.toISOString(),
      });
    }
  }

  private async point(thing: ThingState, message: Extract<DeviceMessage, { type: 'point' }>, at: Date): Promise<void> {
    const position = { lat: message.lat, lng: message.lng };
    thing.lat = message.lat;
    thing.lng = message.lng;
    thing.speed = message.speed;
    thing.course = message.course ?? thing.course;
    thing.accuracy = message.accuracy ?? null;
    this.touch(thing);

    const stopped = message.speed < STOPPED_BELOW_MPH;
    if (!stopped) {
      thing.stillSince = null;
      thing.street = null;
    } else {
      thing.stillSince ??= at;
      // docs/decisions/spec.md "stationary after 10 min": the street is set once the asset has been still that long.
      if (!thing.street && at.getTime() - thing.stillSince.getTime() >= STATIONARY_AFTER_MS) {
        thing.street = this.options.streetAt?.(position) ?? coordinateLabel(position);
      }
    }
    thing.stationId = this.stationAt(thing, position);

    if (thing.runId) {
      thing.runPointsCount += 1;
      this.pendingPoints.push({
        thingId: thing.id,
        runId: thing.runId,
        lat: message.lat,
        lng: message.lng,
        course: thing.course,
        speed: message.speed,
        accuracy: thing.accuracy,
        timestamp: at,
      });
    }

    this.publishFast(thing, {
      type: 'point',
      thing_id: thing.id,
      lat: message.lat,
      lng: message.lng,
      speed: message.speed,
      course: thing.course,
      accuracy: thing.accuracy,
      timestamp: at.toISOString(),
      station_id: thing.stationId,
      street: thing.street,
    });

    // Incidents: stopped with lights on for more than 30 s opens or joins a location.
    if (thing.locationId) {
      const location = await this.locationPosition(thing.locationId);
      if (!location || distanceM(location, position) > INCIDENT_LEAVE_RADIUS_M) await this.leaveIncident(thing, at);
    } else if (thing.lightsOn && stopped && thing.stillSince && at.getTime() - thing.stillSince.getTime() > INCIDENT_STOP_MS) {
      await this.joinIncident(thing, position, at);
    }
  }

  private stationAt(thing: ThingState, position: LatLng): string | null {
    for (const station of this.stations) {
      if (station.organizationId !== thing.organizationId) continue;
      if (distanceM(station, position) <= station.radiusM) return station.id;
    }
    return null;
  }

  private readonly locationCache = new Map<string, LatLng>();

  private async locationPosition(id: string): Promise<LatLng | null> {
    const cached = this.locationCache.get(id);
    if (cached) return cached;
    const [row] = await this.deps.db
      .select({ lat: locations.lat, lng: locations.lng, isActive: locations.isActive })
      .from(locations)
      .where(eq(locations.id, id));
    if (!row || !row.isActive) return null;
    this.locationCache.set(id, row);
    return row;
  }

  private async joinIncident(thing: ThingState, position: LatLng, at: Date): Promise<void> {
    const { db } = this.deps;
    const candidates = await db
      .select({ id: locations.id, lat: locations.lat, lng: locations.lng })
      .from(locations)
      .where(and(eq(locations.organizationId, thing.organizationId), eq(locations.isActive, true), isNull(locations.deletedAt)));
    let location = candidates.find((candidate) => distanceM(candidate, position) <= INCIDENT_JOIN_RADIUS_M);
    if (!location) {
      const street = this.options.streetAt?.(position) ?? coordinateLabel(position);
      const place = this.options.placeAt?.(position) ?? street;
      const [created] = await db
        .insert(locations)
        .values({
          organizationId: thing.organizationId,
          displayName: incidentName(thing.type, place),
          street,
          lat: position.lat,
          lng: position.lng,
          startTime: at,
          isActive: true,
          updatedAt: at,
        })
        .returning({ id: locations.id, lat: locations.lat, lng: locations.lng });
      location = created!;
    }
    await db
      .insert(locationThings)
      .values({ locationId: location.id, thingId: thing.id, startTime: at, isActive: true })
      .onConflictDoUpdate({ target: [locationThings.locationId, locationThings.thingId], set: { isActive: true, endTime: null } });
    await db.update(locations).set({ updatedAt: at }).where(eq(locations.id, location.id));
    thing.locationId = location.id;
    thing.stationId = null;
    this.touch(thing);
    await this.publishLocation(thing, location.id, at);
  }

  private async leaveIncident(thing: ThingState, at: Date): Promise<void> {
    const { db } = this.deps;
    const locationId = thing.locationId!;
    thing.locationId = null;
    this.touch(thing);
    await db
      .update(locationThings)
      .set({ isActive: false, endTime: at })
      .where(and(eq(locationThings.locationId, locationId), eq(locationThings.thingId, thing.id)));
    const [remaining] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(locationThings)
      .where(and(eq(locationThings.locationId, locationId), eq(locationThings.isActive, true)));
    // The location ends when its last vehicle leaves.
    if ((remaining?.count ?? 0) === 0) {
      await db.update(locations).set({ isActive: false, endTime: at, updatedAt: at }).where(eq(locations.id, locationId));
      this.locationCache.delete(locationId);
    } else {
      await db.update(locations).set({ updatedAt: at }).where(eq(locations.id, locationId));
    }
    await this.publishLocation(thing, null, at, locationId);
  }

  private async publishLocation(thing: ThingState, locationId: string | null, at: Date, previousId?: string): Promise<void> {
    const id = locationId ?? previousId;
    const rows = id ? await this.deps.db.select().from(locations).where(eq(locations.id, id)) : [];
    const [wire] = await toLocationWires(this.deps.db, rows, at);
    await this.publish(thing, {
      type: 'location',
      thing_id: thing.id,
      location_id: locationId,
      location: wire ?? null,
      timestamp: at.toISOString(),
    });
  }

  /** Two R2R-enabled responders alerting within R2R_ALERT_DISTANCE_M of each other alert each other. */
  private async checkR2R(thing: ThingState, at: Date): Promise<void> {
    if (!this.isR2RResponder(thing) || thing.lat === null || thing.lng === null) return;
    const here = { lat: thing.lat, lng: thing.lng };
    for (const other of this.byId.values()) {
      if (other === thing || !other.lightsOn || !this.isR2RResponder(other) || other.lat === null || other.lng === null) continue;
      const distance = distanceM(here, { lat: other.lat, lng: other.lng });
      if (distance > R2R_ALERT_DISTANCE_M) continue;
      const pair = [thing.id, other.id].sort().join(':');
      const last = this.r2rPairs.get(pair);
      if (last !== undefined && at.getTime() - last < R2R_PAIR_COOLDOWN_MS) continue;
      this.r2rPairs.set(pair, at.getTime());
      await this.deps.db.insert(r2rAlerts).values({
        organizationId: thing.organizationId,
        thingId: thing.id,
        otherThingId: other.id,
        distanceM: Math.round(distance),
        lat: thing.lat,
        lng: thing.lng,
        alertTime: at,
        delivered: true,
      });
    }
  }

  private isR2RResponder(thing: ThingState): boolean {
    return thing.isR2REnabled && thing.isResponder && thing.inService && (R2R_CAPABLE_TYPES as readonly string[]).includes(thing.type);
  }

  private async attributes(
    thing: ThingState,
    attributes: Extract<DeviceMessage, { type: 'attributes' }>['attributes'],
    at: Date,
  ): Promise<void> {
    const set: Partial<typeof things.$inferInsert> = { updatedAt: at };
    if (attributes.nickname !== undefined) set.nickname = attributes.nickname;
    if (attributes.in_service !== undefined) {
      set.inService = attributes.in_service;
      thing.inService = attributes.in_service;
    }
    if (attributes.device_type !== undefined) set.deviceType = attributes.device_type;
    await this.deps.db.update(things).set(set).where(eq(things.id, thing.id));
    await this.publishThing(thing, at);
  }

  private async publishThing(thing: ThingState, at: Date): Promise<void> {
    await this.serialWrite(() => this.flushThings([thing]));
    const wire = await loadThingWire(this.deps.db, thing.id, at);
    if (wire) await this.publish(thing, { type: 'thing', thing: wire });
  }

  private lastSweep = 0;

  /** Alerting switched off turns back on after 60 minutes (part 1 §4, part 2 §4). */
  private async alertingResetSweep(at: Date): Promise<void> {
    if (at.getTime() - this.lastSweep < 30_000) return;
    this.lastSweep = at.getTime();
    const turnedOn = await this.deps.db
      .update(things)
      .set({ isPubliclyAlerting: true, alertingOffAt: null, updatedAt: at })
      .where(and(eq(things.isPubliclyAlerting, false), lte(things.alertingOffAt, new Date(at.getTime() - ALERTING_OFF_RESET_MS))))
      .returning({ id: things.id });
    for (const { id } of turnedOn) {
      const thing = this.byId.get(id);
      if (thing) await this.publishThing(thing, at);
    }
  }

  /**
   * Writes the changed assets (at most `stateLimit`, those changed longest ago first) and the
   * collected points, one statement per chunk, after the messages queued so far were applied. The
   * writes do not hold the ingest's queue: messages go on being applied and published while they
   * run (on PGlite a flush of 20,000 assets takes seconds on a busy machine, and the stream stood
   * still meanwhile). The once-a-second flush passes STATE_WRITES_PER_FLUSH; a stop writes all.
   */
  flush(stateLimit = Infinity): Promise<void> {
    return this.queue.then(() => this.writeState(stateLimit));
  }

  private serialWrite<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work);
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Marks an asset's state for the next flush. */
  private touch(thing: ThingState): void {
    if (thing.dirty) return;
    thing.dirty = true;
    this.changed.push(thing);
  }

  private writeState(limit: number): Promise<void> {
    return this.serialWrite(async () => {
      this.writing = true;
      const started = performance.now();
      try {
        // An asset written meanwhile (publishThing) is clean: its entry is passed over.
        const dirty = this.changed.splice(0, limit).filter((thing) => thing.dirty);
        const batch = this.pendingPoints;
        this.pendingPoints = [];
        this.writingPoints = batch.length;
        let written = 0;
        try {
          await this.flushThings(dirty);
          for (; written < batch.length; written += FLUSH_CHUNK) {
            const refused = await writeIsolatingRows(batch.slice(written, written + FLUSH_CHUNK), (rows) =>
              insertRecords(this.deps.db, points, rows, FLUSH_CHUNK),
            );
            for (const { row, reason } of refused)
              console.error(`ingest: a point of asset ${row.thingId} was refused by the database and dropped: ${reason}`);
          }
        } catch (error) {
          // The database unreachable (not a row it refused): the points not written wait for the
          // next flush, ahead of those taken meanwhile; while they are held POST /ingest may refuse.
          this.pendingPoints = batch.slice(written).concat(this.pendingPoints);
          throw error;
        }
      } finally {
        this.writing = false;
        this.writingPoints = 0;
        this.deps.metrics.flushSeconds.observe((performance.now() - started) / 1000);
      }
    });
  }

  /**
   * Writes the changed assets, one statement per chunk, each with the asset's state as it is when
   * its statement is built. An asset is marked clean before its write, so a message applied while
   * the write runs marks it again and the next flush writes it; a write that fails for a reason
   * other than its rows marks the rest again. An asset whose row the database refuses (see
   * isRowDataError) is isolated: the others are written, its state goes back to the stored row, and
   * it is logged once — it can never block the next flush.
   */
  private async flushThings(dirty: readonly ThingState[]): Promise<void> {
    for (const thing of dirty) thing.dirty = false;
    for (let i = 0; i < dirty.length; i += FLUSH_CHUNK) {
      const chunk = dirty.slice(i, i + FLUSH_CHUNK);
      let refused: { row: ThingState; reason: string }[];
      try {
        refused = await writeIsolatingRows(chunk, (rows) => this.writeThings(rows));
      } catch (error) {
        for (const thing of dirty.slice(i)) this.touch(thing);
        throw error;
      }
      for (const { row, reason } of refused) {
        console.error(`ingest: the state of asset ${row.id} was refused by the database and reset to the stored row: ${reason}`);
        await this.restoreThing(row.id);
      }
    }
  }

  /** Puts an asset's live state back to its stored row (dropping the change the database refused). */
  private async restoreThing(id: string): Promise<void> {
    const [stored] = await this.deps.db
      .select({ thing: things, type: thingTypes.name })
      .from(things)
      .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
      .where(eq(things.id, id));
    const current = this.byId.get(id);
    if (!stored || !current) return;
    Object.assign(current, { ...toState(stored.thing, stored.type), dirty: current.dirty });
  }

  /** One statement: the chunk's states as one JSON parameter, read as rows of `things`. */
  private async writeThings(chunk: readonly ThingState[]): Promise<void> {
    const now = this.deps.now();
    const records = chunk.map((t) => ({
      id: t.id,
      lat: t.lat,
      lng: t.lng,
      speed: t.speed,
      course: t.course,
      accuracy: t.accuracy,
      heartbeat_at: t.heartbeatAt,
      lights_on: t.lightsOn,
      still_since: t.stillSince,
      street: t.street,
      station_id: t.stationId,
      location_id: t.locationId,
      run_id: t.runId,
      run_start_time: t.runStartTime,
      run_points_count: t.runPointsCount,
    }));
    await this.deps.db.execute(sql`
      update ${things} set
        lat = v.lat, lng = v.lng, speed = v.speed, course = v.course, accuracy = v.accuracy,
        heartbeat_at = v.heartbeat_at, lights_on = v.lights_on, enroute = v.lights_on, still_since = v.still_since,
        street = v.street, station_id = v.station_id, location_id = v.location_id, run_id = v.run_id,
        run_start_time = v.run_start_time, run_points_count = v.run_points_count, updated_at = ${now.toISOString()}::timestamptz
      from json_populate_recordset(null::${things}, ${JSON.stringify(records)}::json) as v
      where ${things.id} = v.id`);
  }

  /** For tests and the simulator: the state the ingest holds for a device. */
  stateOf(haasId: string): Readonly<ThingState> | undefined {
    return this.byHaasId.get(haasId);
  }
}

/**
 * Every organization that may see an organization's records, per organization: itself, its
 * ancestors, its managers and accessors (the audience a live message is published to), read from
 * the organizations and their relations.
 */
export async function readOrganizationAudiences(db: Db): Promise<Map<string, string[]>> {
  const orgs = await db.select({ id: organizations.id, parentId: organizations.parentId }).from(organizations);
  const relations = await db
    .select({
      organizationId: organizationRelationships.organizationId,
      relatedOrganizationId: organizationRelationships.relatedOrganizationId,
    })
    .from(organizationRelationships);
  const parent = new Map(orgs.map((org) => [org.id, org.parentId]));
  const related = new Map<string, string[]>();
  for (const relation of relations) {
    const list = related.get(relation.organizationId) ?? [];
    list.push(relation.relatedOrganizationId);
    related.set(relation.organizationId, list);
  }
  const audience = new Map<string, string[]>();
  for (const org of orgs) {
    const set = new Set<string>([org.id, ...(related.get(org.id) ?? [])]);
    for (let up = parent.get(org.id), guard = 0; up && guard < 16; up = parent.get(up), guard += 1) set.add(up);
    audience.set(org.id, [...set]);
  }
  return audience;
}
