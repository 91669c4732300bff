/**
 * The load driver (`npm run load`, bench/README.md): posts exactly `rate` device messages a second
 * through POST /ingest, for `seconds`, to a server on this machine, as the fleet simulator's
 * devices send them (points and heartbeats), and reports what the server made of them.
 *
 * Setup goes through the HTTP calls an administrator makes: sign in (POST /user_token), read the
 * caller's organization and the organizations below it (GET /profile, GET /organization/{id}), list
 * their assets (GET /organization/things) and create an API key (POST /api_keys), revoked at the
 * end. The server has no call that creates assets: the driver reuses the ones its seed made.
 */
import { performance } from 'node:perf_hooks';
import { SECOND_MS } from '../../src/domain/constants';
import type { LatLng } from '../../src/domain/geometry';
import type { DeviceMessageInput } from '../../server/live/device-message';
import { INGEST_MAX_BATCH } from '../../server/live/device-message';
import { austinRoadNetwork, offsetMetres } from '../../server/region/geography';
import { createRandom, type Random } from '../../server/region/random';
import { BASE_FLEET, heartbeatMessage, pointMessage, reportRates } from '../../server/sim/simulator';
import { percentile } from '../measure';
import { isServerBusy } from '../../src/domain/errors';
import { BUSY_RETRIES, busyWaitMs } from '../../src/workers/live-api';

export const LOAD_LIMITS = { assets: 100_000, rate: 50_000, seconds: 600, inFlight: 64 } as const;
/** How long the requests still in flight at the end may take before they are abandoned (counted as failed). */
const DRAIN_MS = 30 * SECOND_MS;
/** How long after the last second the driver still sends what it fell behind by (a slow server); the rest is reported unsent. */
const CATCH_UP_MS = 10 * SECOND_MS;

export interface LoadOptions {
  /** The server's base URL; only a loopback host (127.0.0.0/8, localhost, ::1) is accepted. */
  url: string;
  assets: number;
  /** Messages a second (not requests). */
  rate: number;
  seconds: number;
  /** The bench organization's name: the caller's own or one below it; default: the caller's own and all below it. */
  org?: string;
  /** The administrator who signs in and creates the API key. */
  user: string;
  password: string;
  /** Requests in flight at most (default 4); messages due meanwhile go in the next request. */
  maxInFlight?: number;
  /** The scheduler's tick (default 50 ms): each tick sends what fell due since the last. */
  tickMs?: number;
  /** The clock the messages are stamped with (default Date.now); the pacing always uses real time. */
  clock?: () => number;
  seed?: number;
  /** Each second's figures, as they come. */
  onSecond?: (second: LoadSecond) => void;
  /** Every batch, as it is posted. */
  onBatch?: (messages: readonly DeviceMessageInput[]) => void;
  /** Ends the run early (the application bench stops it when its window is over); what was sent is reported. */
  signal?: AbortSignal;
}

/** One second of the run: messages sent in it, and what the requests answered in it said. */
export interface LoadSecond {
  second: number;
  sent: number;
  accepted: number;
  rejected: number;
  failed: number;
  /** Messages sent ÷ the line's real span (a timer that fires late makes a second a little longer). */
  ratePerS: number;
  /** Round trip of the requests answered in this second, measured by the driver (client-side). */
  p50Ms: number;
  p99Ms: number;
}

export interface LoadSummary {
  url: string;
  organizations: string[];
  assets: number;
  rate: number;
  seconds: number;
  /** rate × seconds. */
  planned: number;
  sent: number;
  /** Planned but not sent: the server answered too slowly for the driver to keep the pace. */
  unsent: number;
  accepted: number;
  /** Refused one by one in the ingest's answer. */
  rejected: number;
  /** In requests that failed as a whole (not 200/422, a network error, or still unanswered at the end). */
  failed: number;
  points: number;
  heartbeats: number;
  requests: number;
  elapsedS: number;
  /** sent ÷ the seconds from the start to the last request sent (at least `seconds`). */
  achievedRate: number;
  p50Ms: number;
  p99Ms: number;
  /** The first reason the server gave for a refusal or a failure, if any. */
  firstProblem: string | null;
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** The base URL without a trailing slash, or an error naming what is wrong with it. */
export function loopbackUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--url "${raw}" is not a URL`);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
  if (!loopback || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(
      `--url must be a loopback address (127.0.0.1, localhost or [::1]): the load driver sends to this machine only, not to ${url.host}`,
    );
  }
  return url.origin;
}

function wholeNumber(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${value}`);
}

/** Refuses options out of range before anything is sent. */
export function checkLoadOptions(options: Pick<LoadOptions, 'url' | 'assets' | 'rate' | 'seconds' | 'maxInFlight'>): void {
  loopbackUrl(options.url);
  wholeNumber('assets', options.assets, 1, LOAD_LIMITS.assets);
  wholeNumber('rate', options.rate, 1, LOAD_LIMITS.rate);
  wholeNumber('seconds', options.seconds, 1, LOAD_LIMITS.seconds);
  if (options.maxInFlight !== undefined) wholeNumber('in-flight', options.maxInFlight, 1, LOAD_LIMITS.inFlight);
}

// ── setup over HTTP ──────────────────────────────────────────────────────────

interface BenchAsset {
  haasId: string;
  position: LatLng;
  courseDeg: number;
  speedMps: number;
  accuracy: number;
  lastAt: number;
  count: number;
}

interface ThingPage {
  data: { haas_id: string; lat: number | null; lng: number | null; organization: { id: string; name: string } }[];
}

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  return (await response.json()) as T;
}

/**
 * The setup's calls wait out a busy server (502/503/504: load shedding answers 503 with
 * Retry-After) as the dashboard's live worker does, instead of failing the run.
 */
export async function patiently(send: () => Promise<Response>): Promise<Response> {
  let response = await send();
  for (let retry = 0; isServerBusy({ status: response.status }) && retry < BUSY_RETRIES; retry += 1) {
    await response.body?.cancel().catch(() => undefined);
    await sleep(busyWaitMs(response.headers.get('retry-after')));
    response = await send();
  }
  return response;
}

class Setup {
  private token = '';
  constructor(private readonly base: string) {}

  private call(method: string, path: string, body?: unknown): Promise<Response> {
    return patiently(() =>
      fetch(`${this.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  }

  async signIn(user: string, password: string): Promise<void> {
    const answer = await json<{ access_token: string }>(
      await patiently(() =>
        fetch(`${this.base}/user_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: user, password }),
        }),
      ),
      `sign-in of ${user}`,
    );
    this.token = answer.access_token;
  }

  /** The organizations the caller's API key reports for (its own and those below it), narrowed to `name`. */
  async organizations(name: string | undefined): Promise<Map<string, string>> {
    const profile = await json<{ organization_id: string }>(await this.call('GET', '/profile'), 'GET /profile');
    const own = await json<{ id: string; name: string; child_structure: { id: string; name: string }[] }>(
      await this.call('GET', `/organization/${profile.organization_id}`),
      'GET /organization/{id}',
    );
    const all = [own, ...own.child_structure];
    const chosen = name === undefined ? all : all.filter((org) => org.name === name);
    if (chosen.length === 0) {
      throw new Error(
        `No organization "${name}" at or below ${own.name}: an API key reports for its own organization and those below it (${all.map((o) => o.name).join(', ')})`,
      );
    }
    return new Map(chosen.map((org) => [org.id, org.name]));
  }

  async assets(orgs: Map<string, string>, count: number, random: Random): Promise<BenchAsset[]> {
    const found: BenchAsset[] = [];
    for (let page = 1; found.length < count; page += 1) {
      const answer = await json<ThingPage>(await this.call('GET', `/organization/things?page=${page}`), 'GET /organization/things');
      for (const thing of answer.data) {
        if (!orgs.has(thing.organization.id) || found.length >= count) continue;
        const position =
          thing.lat !== null && thing.lng !== null
            ? { lat: thing.lat, lng: thing.lng }
            : offsetMetres(austinRoadNetwork().center, random.range(-5e3, 5e3), random.range(-5e3, 5e3));
        found.push({
          haasId: thing.haas_id,
          position,
          courseDeg: random.range(0, 360),
          speedMps: random.range(8, 20),
          accuracy: random.range(3, 8),
          lastAt: 0,
          count: 0,
        });
      }
      if (answer.data.length === 0) break;
    }
    if (found.length < count) {
      throw new Error(
        `Only ${found.length} assets in ${[...orgs.values()].join(', ')}, ${count} asked for. The server creates assets only through its seed: start it with SIM_ASSETS=${count} or more on a fresh DATA_DIR, or ask for fewer.`,
      );
    }
    return found;
  }

  async createKey(): Promise<{ id: string; token: string }> {
    return json(await this.call('POST', '/api_keys', { description: 'load driver (npm run load)' }), 'POST /api_keys');
  }

  async revokeKey(id: string): Promise<void> {
    await this.call('DELETE', `/api_keys/${id}`);
  }
}

// ── the messages ─────────────────────────────────────────────────────────────

/**
 * Each asset reports as a moving device at the simulator's base rates: a point every `pointS`, a
 * heartbeat every `heartbeatS`, so one message in heartbeatS/pointS + 1 is a heartbeat. Assets start
 * the cycle at different places, so a short run still sends both kinds.
 */
const BASE_RATES = reportRates(BASE_FLEET);
const CYCLE = Math.round(BASE_RATES.heartbeatS / BASE_RATES.pointS) + 1;

class Fleet {
  private next = 0;
  constructor(
    private readonly assets: BenchAsset[],
    private readonly random: Random,
  ) {}

  /** The next `count` messages, the assets in turn; points move on at each asset's speed since its last message. */
  take(count: number, nowMs: number): DeviceMessageInput[] {
    const timestamp = new Date(nowMs).toISOString();
    const batch: DeviceMessageInput[] = [];
    for (let i = 0; i < count; i += 1) {
      const index = this.next;
      this.next = (this.next + 1) % this.assets.length;
      const asset = this.assets[index]!;
      const heartbeat = (asset.count + index) % CYCLE === CYCLE - 1;
      asset.count += 1;
      if (heartbeat) {
        batch.push(heartbeatMessage(asset.haasId, timestamp));
        continue;
      }
      const metres = asset.lastAt ? (asset.speedMps * Math.max(0, nowMs - asset.lastAt)) / SECOND_MS : 0;
      asset.lastAt = nowMs;
      // A gentle weave, so the track is not a straight line.
      asset.courseDeg = (asset.courseDeg + this.random.range(-15, 15) + 360) % 360;
      const radians = (asset.courseDeg * Math.PI) / 180;
      asset.position = offsetMetres(asset.position, metres * Math.cos(radians), metres * Math.sin(radians));
      const accuracy = asset.accuracy + this.random.range(-1, 1.5);
      batch.push(
        pointMessage(asset.haasId, timestamp, { position: asset.position, speedMps: asset.speedMps, course: asset.courseDeg, accuracy }),
      );
    }
    return batch;
  }
}

// ── the run ──────────────────────────────────────────────────────────────────

interface Tally {
  sent: number;
  accepted: number;
  rejected: number;
  failed: number;
  latencies: number[];
}

const emptyTally = (): Tally => ({ sent: 0, accepted: 0, rejected: 0, failed: 0, latencies: [] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runLoad(options: LoadOptions): Promise<LoadSummary> {
  checkLoadOptions(options);
  const base = loopbackUrl(options.url);
  const { rate, seconds } = options;
  const maxInFlight = options.maxInFlight ?? 4;
  const tickMs = options.tickMs ?? 50;
  const clock = options.clock ?? Date.now;
  const random = createRandom(options.seed ?? 2026).fork('load');

  const setup = new Setup(base);
  await setup.signIn(options.user, options.password);
  const orgs = await setup.organizations(options.org);
  const fleet = new Fleet(await setup.assets(orgs, options.assets, random), random);
  const key = await setup.createKey();

  const planned = rate * seconds;
  const total = emptyTally();
  let second = emptyTally();
  let points = 0;
  let heartbeats = 0;
  let requests = 0;
  let firstProblem: string | null = null;
  const inFlight = new Set<Promise<void>>();
  /** One per request in flight (a signal shared by thousands of requests collects a listener from each). */
  const controllers = new Set<AbortController>();

  const post = async (messages: DeviceMessageInput[]): Promise<void> => {
    const started = performance.now();
    const controller = new AbortController();
    controllers.add(controller);
    let accepted = 0;
    let rejected = 0;
    try {
      const response = await fetch(`${base}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.token },
        body: JSON.stringify({ messages }),
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.status !== 200 && response.status !== 422) throw new Error(`HTTP ${response.status} ${text.slice(0, 200)}`);
      const answer = JSON.parse(text) as { accepted: number; rejected: { reason: string }[] };
      accepted = answer.accepted;
      rejected = answer.rejected.length;
      firstProblem ??= answer.rejected[0]?.reason ?? null;
    } catch (error) {
      firstProblem ??= `POST /ingest failed: ${(error as Error).message}`;
    } finally {
      controllers.delete(controller);
    }
    const failed = messages.length - accepted - rejected;
    const latency = performance.now() - started;
    for (const tally of [total, second]) {
      tally.accepted += accepted;
      tally.rejected += rejected;
      tally.failed += failed;
      tally.latencies.push(latency);
    }
  };

  let lineStartedAt = 0;
  const report = (index: number) => {
    const latencies = second.latencies.sort((a, b) => a - b);
    const now = performance.now();
    options.onSecond?.({
      second: index,
      sent: second.sent,
      accepted: second.accepted,
      rejected: second.rejected,
      failed: second.failed,
      ratePerS: Math.round((second.sent * SECOND_MS) / Math.max(1, now - lineStartedAt)),
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
    });
    second = emptyTally();
    lineStartedAt = now;
  };

  const start = performance.now();
  lineStartedAt = start;
  let reported = 0;
  let lastSendMs = 0;
  /** Sends what is due up to `target` messages in all, in one request, when one more may be in flight. */
  const sendUpTo = (target: number, elapsedMs: number) => {
    if (target <= total.sent || inFlight.size >= maxInFlight) return;
    const messages = fleet.take(Math.min(target - total.sent, INGEST_MAX_BATCH), clock());
    for (const message of messages) {
      if (message.type === 'point') points += 1;
      else heartbeats += 1;
    }
    total.sent += messages.length;
    second.sent += messages.length;
    requests += 1;
    lastSendMs = elapsedMs;
    options.onBatch?.(messages);
    const request = post(messages).finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  try {
    // Exactly rate × seconds, spread evenly, never more: by time t, floor(rate × t) messages are due.
    for (;;) {
      const elapsedMs = performance.now() - start;
      while (reported < Math.min(seconds, Math.floor(elapsedMs / SECOND_MS))) {
        // What fell due within the second that ended goes before its line, so a server that keeps
        // up shows `rate` sent in each second however late the timer fired.
        sendUpTo(Math.min(planned, rate * (reported + 1)), elapsedMs);
        report(++reported);
      }
      if (total.sent >= planned || elapsedMs > seconds * SECOND_MS + CATCH_UP_MS || options.signal?.aborted) break;
      sendUpTo(Math.min(planned, Math.floor((rate * elapsedMs) / SECOND_MS)), elapsedMs);
      await sleep(tickMs);
    }
    const drain = setTimeout(() => {
      for (const controller of controllers) controller.abort();
    }, DRAIN_MS);
    await Promise.all(inFlight);
    clearTimeout(drain);
  } finally {
    await setup.revokeKey(key.id).catch(() => undefined);
  }
  const elapsedS = (performance.now() - start) / SECOND_MS;
  while (reported < seconds && !options.signal?.aborted) report(++reported);
  // Answers that came after the last second (requests still in flight then).
  if (second.latencies.length > 0) report(++reported);
  const latencies = total.latencies.sort((a, b) => a - b);
  return {
    url: base,
    organizations: [...orgs.values()],
    assets: options.assets,
    rate,
    seconds,
    planned,
    sent: total.sent,
    unsent: planned - total.sent,
    accepted: total.accepted,
    rejected: total.rejected,
    failed: total.failed,
    points,
    heartbeats,
    requests,
    elapsedS: Math.round(elapsedS * 100) / 100,
    achievedRate: Math.round(total.sent / Math.max(lastSendMs / SECOND_MS, options.signal?.aborted ? 1 : seconds)),
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
    firstProblem,
  };
}
