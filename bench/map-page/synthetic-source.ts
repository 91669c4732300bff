/**
 * A synthetic live server for the map bench page, inside the worker: a fake fetch answering the
 * REST calls the engine makes (things pages of a generated fleet, empty events, closures and
 * areas) and a fake ActionCable socket (welcome, confirm, a ping every 3 s) that streams point
 * messages at `rate` per second, spread over ten ticks a second. The engine, the batcher, the diff
 * and the bridge are the real ones; only the network is replaced.
 */
import type { SocketLike } from '../../src/workers/socket-client';
import { eventsChannelIdentifier } from '../../src/domain/live-message';
import { ASSET_TYPES } from '../../src/domain/constants';

export interface SyntheticOptions {
  assets: number;
  /** Point messages per second (one per asset per second: rate = assets). */
  rate: number;
  organizationId: string;
  /** Centre and spread of the fleet (degrees). */
  center: [number, number];
  spread: number;
  /** Moves thing-0 east by this many degrees every second (the e2e's moving asset); 0: still. */
  moverStep?: number;
  /** How many steps the mover makes (then it stands still); default: no end. */
  moverSteps?: number;
}

const PING_MS = 3_000;
const TICKS_PER_SECOND = 10;

/** Deterministic numbers (the e2e reads positions back from the store, not from here). */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => (state = (state * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
}

export function syntheticThings(options: SyntheticOptions, now: number) {
  const random = generator(7);
  const [lng0, lat0] = options.center;
  return Array.from({ length: options.assets }, (_, i) => ({
    id: `thing-${i}`,
    haas_id: `HA5-${String(i).padStart(6, '0')}`,
    nickname: `Unit ${i}`,
    // Fresh heartbeats: the fleet is online (standby, active when enroute).
    heartbeat_datetime: new Date(now - 5_000 - random() * 60_000).toISOString(),
    thing_type: ASSET_TYPES[i % ASSET_TYPES.length],
    enroute: random() < 0.3,
    in_service: true,
    street: null,
    location_id: null,
    lat: lat0 + (random() - 0.5) * options.spread,
    lng: lng0 + (random() - 0.5) * options.spread,
    course: Math.floor(random() * 360),
    speed: 10,
  }));
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

export function syntheticFetch(options: SyntheticOptions, now: () => number) {
  let things: ReturnType<typeof syntheticThings> | null = null;
  return async (input: string): Promise<Response> => {
    const url = new URL(input);
    const stamp = new Date(now()).toISOString();
    if (url.pathname === '/organization/things') {
      // An incremental call (after subscribing) answers nothing new: the socket carries the changes.
      if (url.searchParams.has('last_updated_timestamp')) {
        return json({ data: [], meta: { page: 1, per_page: 500, total: 0, server_timestamp: stamp, deleted_ids: [] } });
      }
      things ??= syntheticThings(options, now());
      const page = Number(url.searchParams.get('page') ?? '1');
      const perPage = Number(url.searchParams.get('per_page') ?? '500');
      const data = things.slice((page - 1) * perPage, page * perPage);
      return json({ data, meta: { page, per_page: perPage, total: things.length, server_timestamp: stamp, deleted_ids: [] } });
    }
    if (url.pathname === '/organization/exclusion_zone') return json([]);
    return json({ data: [], meta: { server_timestamp: stamp, deleted_ids: [] } });
  };
}

/** Point messages delivered to the engine so far (the bench reads the achieved rate). */
export const streamed = { messages: 0 };

/** The fake socket: the ActionCable handshake, pings, and the point stream once subscribed. */
export function syntheticSocket(options: SyntheticOptions): (url: string, protocols: string[]) => SocketLike {
  const identifier = eventsChannelIdentifier(options.organizationId);
  return () => {
    const timers: ReturnType<typeof setInterval>[] = [];
    let cursor = 0;
    let moved = 0;
    const positions = syntheticThings(options, Date.now()).map((thing) => [thing.lng, thing.lat] as [number, number]);
    const random = generator(11);
    const socket: SocketLike = {
      readyState: 0,
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
      send(data: string) {
        const command = JSON.parse(data) as { command?: string };
        if (command.command !== 'subscribe') return;
        deliver({ type: 'confirm_subscription', identifier });
        const step = options.moverStep ?? 0;
        if (step !== 0 && positions.length > 0) {
          timers.push(
            setInterval(() => {
              if (moved >= (options.moverSteps ?? Infinity)) return;
              moved += 1;
              const position = positions[0]!;
              position[0] += step;
              streamed.messages += 1;
              deliver({
                identifier,
                message: {
                  type: 'point',
                  thing_id: 'thing-0',
                  lat: position[1],
                  lng: position[0],
                  speed: 12,
                  course: 90,
                  accuracy: 5,
                  timestamp: new Date().toISOString(),
                },
              });
            }, 1000),
          );
        }
        if (options.rate <= 0 || positions.length === 0) return;
        const perTick = Math.max(1, Math.round(options.rate / TICKS_PER_SECOND));
        timers.push(
          setInterval(() => {
            const timestamp = new Date().toISOString();
            for (let k = 0; k < perTick; k += 1) {
              const i = cursor;
              cursor = (cursor + 1) % positions.length;
              const position = positions[i]!;
              position[0] += (random() - 0.5) * 0.0004;
              position[1] += (random() - 0.5) * 0.0004;
              streamed.messages += 1;
              deliver({
                identifier,
                message: {
                  type: 'point',
                  thing_id: `thing-${i}`,
                  lat: position[1],
                  lng: position[0],
                  speed: 12,
                  course: Math.floor(random() * 360),
                  accuracy: 5,
                  timestamp,
                },
              });
            }
          }, 1000 / TICKS_PER_SECOND),
        );
      },
      close() {
        for (const timer of timers) clearInterval(timer);
        (socket as { readyState: number }).readyState = 3;
        socket.onclose?.({ code: 1000 });
      },
    };
    function deliver(frame: unknown): void {
      socket.onmessage?.({ data: JSON.stringify(frame) });
    }
    setTimeout(() => {
      (socket as { readyState: number }).readyState = 1;
      socket.onopen?.({});
      deliver({ type: 'welcome' });
      timers.push(setInterval(() => deliver({ type: 'ping', message: Math.floor(Date.now() / 1000) }), PING_MS));
    }, 0);
    return socket;
  };
}
