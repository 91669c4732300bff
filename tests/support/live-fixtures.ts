/**
 * Fixtures of the live-engine tests: thing wires, a fake REST API answering the worker's calls
 * (paged and incremental things, the fleet snapshot, locations, closures, areas) and a real `ws` socket server
 * speaking the ActionCable protocol of server/live/cable.ts, controlled by the test.
 */
import { vi } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AreaWire } from '../../src/domain/area';
import { thingWireSchema, type ThingWireInput } from '../../src/domain/asset';
import type { ClosureWire } from '../../src/domain/closure';
import { SOCKET_PROTOCOL, THINGS_PAGE_SIZE } from '../../src/domain/constants';
import { LIVE_BATCH_PROTOCOL, clientCommandSchema, type LiveMessageInput } from '../../src/domain/live-message';
import { thingSnapshotFromWires } from '../../src/domain/thing-snapshot';
import type { LocationWireInput } from '../../src/domain/location';

export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
export const ORG = '00000000-0000-4000-8000-000000000001';
export const OTHER_ORG = '00000000-0000-4000-8000-000000000002';
export const TOKEN = 'token-abc';

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The component tests run the real live engine on real timers, and the fixtures' times sit around
 * NOW (`thing()` is heard at NOW). This sets the date to NOW and lets it run on at the real pace, so
 * what a test sees does not depend on the hour it runs (an asset heard at NOW is standby whether the
 * suite runs at noon or at 23:00). Left alone when the test already fakes the date itself.
 */
export function runClockFromNow(): void {
  if (vi.isFakeTimers()) return;
  vi.useFakeTimers({ now: NOW, toFake: ['Date'], shouldAdvanceTime: true });
}

/**
 * A positioned, in-service asset heard from at `NOW` (standby), near Austin. Its type's id follows
 * its type's name (`type-police`) unless the test gives one: the server's wires carry both.
 */
export function thing(i: number, overrides: Partial<ThingWireInput> = {}): ThingWireInput {
  const type = overrides.thing_type === undefined ? 'police' : overrides.thing_type;
  return {
    thing_type_id: type ? `type-${type}` : null,
    id: `thing-${String(i).padStart(5, '0')}`,
    haas_id: `ha-${String(i).padStart(5, '0')}`,
    nickname: `Unit ${i}`,
    heartbeat_datetime: iso(NOW),
    updated_at: iso(NOW),
    thing_type: 'police',
    lat: 30.2 + (i % 100) * 0.001,
    lng: -97.7 - Math.floor(i / 100) * 0.001,
    course: 90,
    speed: 0,
    organization: { id: ORG, name: 'Org' },
    ...overrides,
  };
}

export function parsedThing(i: number, overrides: Partial<ThingWireInput> = {}) {
  return thingWireSchema.parse(thing(i, overrides));
}

/** A station area (is_station_view) at a position, radius in miles (null: the 100 m default). */
export function stationArea(id: string, lat: number, lng: number, radiusMiles: number | null = null): AreaWire {
  return {
    id,
    organization_id: ORG,
    name: `Station ${id}`,
    lat,
    lng,
    point_geom: { lat, lon: lng },
    radius_dist: radiusMiles,
    ez_type: { id: 'type-station', db_name: 'station', display_name: 'Station', is_station_view: true },
  };
}

/** A drawn area (a polygon, type Other): Zilker Park, Austin. */
export const PARK_AREA: AreaWire = {
  id: 'park',
  organization_id: ORG,
  name: 'Zilker Park',
  area_geom: {
    type: 'Polygon',
    coordinates: [
      [
        [-97.78, 30.26],
        [-97.76, 30.26],
        [-97.76, 30.28],
        [-97.78, 30.28],
        [-97.78, 30.26],
      ],
    ],
  },
  ez_type: { id: 'type-other', db_name: 'other', display_name: 'Other', is_station_view: false },
};

/** An active incident at (30.31, -97.74) on N Lamar, started 10 minutes before `now`, one vehicle on scene for 5. */
export function crashOnLamar(now: number, onScene: { id: string; haas_id: string }): LocationWireInput {
  return {
    id: 'loc-1',
    display_name: 'Crash on Lamar',
    street: 'N Lamar Blvd',
    is_active: true,
    lat: 30.31,
    lng: -97.74,
    start_time: iso(now - 600_000),
    things_active: [{ ...onScene, start_time: iso(now - 300_000) }],
  };
}

interface Dated {
  updatedAt: number;
  deletedAt?: number;
}

/** The REST calls of the worker, answered from arrays the test controls. */
export class FakeApi {
  things = new Map<string, ThingWireInput & Dated>();
  locations = new Map<string, LocationWireInput & Dated>();
  closures = new Map<string, ClosureWire & Dated>();
  areas: AreaWire[] = [];
  /** GET /organization/{id}: the records (id, name, child_structure) the test sets; others answer 404. */
  organizations = new Map<string, { id: string; name: string; child_structure: { id: string; name: string; parent_id: string }[] }>();
  /** Every URL asked for, in order. */
  calls: string[] = [];
  /** Tokens of the calls. */
  tokens: string[] = [];
  /** Answer 401 to everything. */
  unauthorized = false;
  /** Answer GET /organization/things/snapshot (as the server does); false: 404, as a server without it. */
  snapshot = true;
  /** The snapshot carries its assets' details (as the server does); false: as a server without them. */
  snapshotDetails = true;
  /** The snapshot reads `since` (as the server does); false: as a server that ignores it (the whole fleet, no deleted_ids). */
  snapshotSince = true;
  /** Server time: `server_timestamp` of answers. */
  clock = () => Date.now();
  private last = 0;

  /** The server's clock, strictly increasing even while a test holds Date still. */
  now(): number {
    this.last = Math.max(this.clock(), this.last + 1);
    return this.last;
  }

  setThings(list: ThingWireInput[], at = this.now()): void {
    for (const wire of list) this.things.set(wire.id, { ...wire, updatedAt: at });
  }

  deleteThing(id: string, at = this.now()): void {
    const wire = this.things.get(id);
    if (wire) wire.deletedAt = at;
  }

  setLocation(wire: LocationWireInput, at = this.now()): void {
    this.locations.set(wire.id, { ...wire, updatedAt: at });
  }

  setClosure(wire: ClosureWire, at = this.now()): void {
    this.closures.set(wire.id, { ...wire, updatedAt: at });
  }

  callsTo(path: string): URL[] {
    return this.calls.map((url) => new URL(url)).filter((url) => url.pathname === path);
  }

  fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    this.calls.push(url.href);
    const auth = new Headers(init?.headers).get('authorization') ?? '';
    this.tokens.push(auth.replace(/^Bearer /, ''));
    if (this.unauthorized) return json({ error: 'unauthorized' }, 401);
    const snapshot = url.pathname === '/organization/things/snapshot';
    // The snapshot's incremental time is `since`, the lists' `last_updated_timestamp`.
    const sinceText = snapshot
      ? this.snapshotSince
        ? url.searchParams.get('since')
        : null
      : url.searchParams.get('last_updated_timestamp');
    const since = sinceText ? Date.parse(sinceText) : null;
    const now = iso(this.now());
    const changed = <T extends Dated>(rows: Iterable<T>) =>
      [...rows].filter((row) => !row.deletedAt && (since === null || row.updatedAt > since));
    const deleted = <T extends Dated & { id: string }>(rows: Iterable<T>) =>
      since === null ? [] : [...rows].filter((row) => row.deletedAt && row.deletedAt > since).map((row) => row.id);
    const strip = <T extends Dated>({ updatedAt: _u, deletedAt: _d, ...rest }: T) => rest;
    switch (url.pathname) {
      case '/organization/things': {
        const page = Number(url.searchParams.get('page') ?? 1);
        const perPage = Number(url.searchParams.get('per_page') ?? THINGS_PAGE_SIZE);
        const rows = changed(this.things.values()).sort((a, b) => (a.id < b.id ? -1 : 1));
        return json({
          data: rows.slice((page - 1) * perPage, page * perPage).map(strip),
          meta: { page, per_page: perPage, total: rows.length, server_timestamp: now, deleted_ids: deleted(this.things.values()) },
        });
      }
      case '/organization/things/snapshot': {
        if (!this.snapshot) return json({ error: 'not_found' }, 404);
        // The server's encoding (server/core/thing-wire.ts), from the wires the pages answer.
        const wires = changed(this.things.values()).map((row) => thingWireSchema.parse(strip(row)));
        const answer = thingSnapshotFromWires(wires, now, this.snapshotDetails);
        if (since !== null) answer.meta.deleted_ids = deleted(this.things.values());
        return json(answer);
      }
      case '/locations':
        return json({
          data: changed(this.locations.values()).map(strip),
          meta: { server_timestamp: now, deleted_ids: deleted(this.locations.values()) },
        });
      case '/organization/closure':
        return json({
          data: changed(this.closures.values()).map(strip),
          meta: { server_timestamp: now, deleted_ids: deleted(this.closures.values()) },
        });
      case '/organization/exclusion_zone':
        return json(this.areas);
      default: {
        const record = url.pathname.startsWith('/organization/')
          ? this.organizations.get(url.pathname.slice('/organization/'.length))
          : undefined;
        return record ? json(record) : json({ error: 'not_found' }, 404);
      }
    }
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export interface CableConnection {
  ws: WebSocket;
  protocols: string[];
  subscriptions: string[];
}

/**
 * A real socket server speaking the ActionCable JSON of server/live/cable.ts: it sends welcome,
 * confirms subscriptions (or rejects those the test says), and lets the test send messages and
 * pings or drop connections. Pings are never sent on their own: the test decides.
 */
export class FakeCable {
  readonly connections: CableConnection[] = [];
  /** Connection attempts (including refused ones), with the time they arrived (Date.now()). */
  readonly attempts: number[] = [];
  /** Refuse handshakes (the client sees the socket fail). */
  refuse = false;
  /** While set, subscriptions are confirmed only once it settles (a server slow to confirm). */
  confirmAfter: Promise<void> | null = null;
  private server!: WebSocketServer;
  url = '';

  async listen(): Promise<string> {
    this.server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      handleProtocols: (protocols) => (protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
      verifyClient: (_info, done) => {
        this.attempts.push(Date.now());
        if (this.refuse) done(false, 401);
        else done(true);
      },
    });
    await new Promise<void>((resolve) => this.server.once('listening', () => resolve()));
    const address = this.server.address();
    if (typeof address === 'string' || !address) throw new Error('no port');
    this.url = `ws://127.0.0.1:${address.port}/cable`;
    this.server.on('connection', (ws, request) => {
      const protocols = String(request.headers['sec-websocket-protocol'] ?? '')
        .split(',')
        .map((p) => p.trim());
      const connection: CableConnection = { ws, protocols, subscriptions: [] };
      this.connections.push(connection);
      ws.on('message', (data) => {
        const command = clientCommandSchema.safeParse(JSON.parse(String(data)));
        if (!command.success || command.data.command !== 'subscribe') return;
        const { identifier } = command.data;
        const confirm = () => {
          connection.subscriptions.push(identifier);
          ws.send(JSON.stringify({ type: 'confirm_subscription', identifier }));
        };
        if (this.confirmAfter) void this.confirmAfter.then(confirm);
        else confirm();
      });
      ws.send(JSON.stringify({ type: 'welcome' }));
    });
    return this.url;
  }

  get open(): CableConnection[] {
    return this.connections.filter((c) => c.ws.readyState === c.ws.OPEN);
  }

  get subscribed(): CableConnection[] {
    return this.open.filter((c) => c.subscriptions.length > 0);
  }

  /**
   * Sends messages on every open subscription, as the server does: one batch frame to a client that
   * offered LIVE_BATCH_PROTOCOL, a frame each to one that did not.
   */
  send(...messages: LiveMessageInput[]): void {
    for (const connection of this.subscribed) {
      for (const identifier of connection.subscriptions) {
        if (connection.protocols.includes(LIVE_BATCH_PROTOCOL)) connection.ws.send(JSON.stringify({ identifier, messages }));
        else for (const message of messages) connection.ws.send(JSON.stringify({ identifier, message }));
      }
    }
  }

  ping(): void {
    for (const connection of this.open) connection.ws.send(JSON.stringify({ type: 'ping', message: Math.floor(Date.now() / 1000) }));
  }

  /** Drops every connection (the client sees a close). */
  dropAll(): void {
    for (const connection of this.open) connection.ws.terminate();
  }

  async close(): Promise<void> {
    for (const connection of this.connections) connection.ws.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
