/**
 * The ingest bench (`npm run bench:ingest`): the server's ingest measured on its own, with no
 * browser. For each row it makes a fresh database holding the bench organization's N assets (as
 * the application bench does, bench/app.ts), starts the real server (one process on PGlite; two on
 * Postgres + NATS, the load driver posting to the first and the dashboards watching the second, so
 * every delivered message crossed NATS), opens `dashboards` live sockets signed in as the bench
 * administrator, each subscribed to the organization's EventsChannel as the dashboard's worker
 * subscribes (part 1 §4), and runs the load driver (bench/load) at R messages a second for S seconds.
 *
 * Every second it records what the driver saw (sent, achieved msg/s, ingest round trip p50/p99),
 * each server process's RSS (/proc/<pid>/status) and the data frames each dashboard received. The
 * row's summary says whether ingest and memory hold up over the run: the RSS slope over the second
 * half (a least-squares fit, MiB per minute: "flat" is a slope near 0), and how much of what was
 * accepted reached each dashboard (a slow socket gets points coalesced or is dropped, part 1 §4).
 *
 * The dashboards run in a child process of their own, so their frames (up to R × dashboards a
 * second) never delay the driver's clock or its round-trip measure. They count frames without
 * parsing them (the dashboard's worker parses each with its schema; ten of those on this machine
 * would measure the bench, not the server). The server's event-loop lag is not read: it exposes
 * none (load shedding samples it inside the process only).
 *
 * Times are printed and written to bench/results/ingest.json (ingest-postgres.json on Postgres),
 * never asserted.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startCpuShare, type CpuShare } from './cpu-share';
import WebSocket from 'ws';
import { SECOND_MS, SOCKET_PROTOCOL, SOCKET_RECONNECT_ATTEMPTS } from '../src/domain/constants';
import { LIVE_BATCH_PROTOCOL } from '../src/domain/live-message';
import { eventsChannelIdentifier } from '../src/domain/live-message';
import { reconnectDelay } from '../src/workers/socket-client';
import { patiently, type LoadSecond, type LoadSummary } from './load/driver';
import type { BenchData } from './app';
import type { CpuProfile } from './map';
import type { SpawnedServer } from '../tests/support/spawn-server';
import { percentile } from './measure';

export interface IngestBenchRowSpec {
  assets: number;
  /** Messages per second asked of the load driver. */
  rate: number;
}

export interface IngestBenchOptions {
  rows: readonly IngestBenchRowSpec[];
  /** How long the driver sends, per row (s). */
  seconds: number;
  /** Live sockets, all of the bench administrator (the server allows SOCKETS_PER_USER_MAX a user). */
  dashboards: number;
  /**
   * The dashboards offer LIVE_BATCH_PROTOCOL as the dashboard's worker does (a turn's messages of a
   * subscription in one frame); false: part 1 §4's pair alone, a frame per message (the figures of
   * the runs before the batches).
   */
  batched: boolean;
  /** A Postgres server (an administrator's URL): each row gets a fresh database there, dropped after it; absent: PGlite. */
  databaseUrl?: string;
  /** With `databaseUrl`: NATS for the fan-out, and two server processes (the driver posts to the first, the dashboards watch the second). */
  natsUrl?: string;
  /** The driver's requests in flight at most (the application bench's 8). */
  maxInFlight: number;
  /**
   * Directory for CPU profiles of each server process over the row (`node --cpu-prof`, written when
   * the process stops, in `ingest-<assets>-<process>/`); the row then says where each process's
   * main thread spent its time.
   */
  profile?: string;
  /** Called with the rows so far after each row (a failed row is logged and left out). */
  onRow?: (rows: readonly IngestBenchRow[]) => void;
  /** Each second's sample as it comes. */
  onSecond?: (spec: IngestBenchRowSpec, sample: IngestSample) => void;
  /** Ends the run (Ctrl-C): the row in progress is cleaned up and left out, the rows before it are returned. */
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export const INGEST_BENCH_DEFAULTS: IngestBenchOptions = {
  rows: [{ assets: 20_000, rate: 20_000 }],
  seconds: 300,
  dashboards: 10,
  batched: true,
  maxInFlight: 8,
};

/** One second of a row: the driver's line for it (messages sent, answered, its rate), and what the bench read. */
export interface IngestSample extends Pick<LoadSecond, 'second' | 'sent' | 'accepted' | 'rejected' | 'failed' | 'ratePerS'> {
  /** Round trip of the POST /ingest requests answered in this second, as the driver measured it (ms). */
  ingestP50Ms: number;
  ingestP99Ms: number;
  /** Each server process's resident memory (MiB), in process order. */
  rssMiB: number[];
  /** Live messages each dashboard received in this second (in frames or batches), per second of its own clock. */
  deliveredPerS: number[];
  /** The least of `deliveredPerS`. */
  deliveredMinPerS: number;
  /** Bytes of frames (payload) each dashboard received, per second. */
  bytesPerS: number[];
  /** Dashboard sockets that closed in this second (the server drops a socket whose send buffer is full). */
  socketCloses: number;
}

export interface RssSummary {
  /** After setup: the data, the servers, the dashboards subscribed and the driver signed in. */
  startMiB: number;
  endMiB: number;
  maxMiB: number;
  /** Least-squares slope over the second half of the run (MiB per minute); null with fewer than two samples there. */
  slopeMiBPerMin: number | null;
}

export interface IngestBenchRow {
  assets: number;
  engine: 'pglite' | 'postgres';
  processes: number;
  dashboards: number;
  /** Whether the dashboards took batches (LIVE_BATCH_PROTOCOL) or a frame per message. */
  batched: boolean;
  /** The cores each process used while the driver sent (the server's, the driver's, the dashboards', the machine's others); null when not read. */
  cpu: CpuShare | null;
  rate: number;
  seconds: number;
  /** The driver's summary: sent ÷ the seconds it sent for. */
  achievedRate: number;
  /** Mean of the per-second rates. */
  achievedMeanPerS: number;
  sent: number;
  accepted: number;
  /** Refused one by one in the ingest's answer. */
  rejected: number;
  /** In requests that failed as a whole (not 200/422, a network error, no answer in time); /ingest is exempt from load shedding. */
  failed: number;
  /** Planned but never sent: the server answered too slowly for the driver to keep the pace. */
  unsent: number;
  firstProblem: string | null;
  /** Percentiles of every request's round trip over the run (ms). */
  ingestP50Ms: number;
  ingestP99Ms: number;
  /** The 99th percentile of the per-second p99s (ms). */
  ingestP99OfSecondsMs: number;
  /** Per server process, in process order. */
  rss: RssSummary[];
  /** Each dashboard's messages ÷ the run's seconds, averaged over the dashboards. */
  deliveredMeanPerS: number;
  /** The least one-second count of any dashboard over the run. */
  deliveredMinPerS: number;
  /** Each dashboard's frames (the run and one second after it) ÷ messages accepted: below 1, points were coalesced or a socket dropped. */
  deliveredShareMin: number;
  deliveredBytesPerS: number;
  socketCloses: number;
  /** With `profile`: each server process's functions by self time over the row (ms), in process order. */
  profileTop?: { name: string; selfMs: number }[][];
  samples: IngestSample[];
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

/** The slope of the least-squares line through the points (y per x); null for fewer than two distinct x. */
export function leastSquaresSlope(points: readonly { x: number; y: number }[]): number | null {
  if (points.length < 2) return null;
  const mx = mean(points.map((p) => p.x));
  const my = mean(points.map((p) => p.y));
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

export function benchMachine(): { cores: number; cpuModel: string; node: string; memoryGiB: number } {
  return {
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'cpu',
    node: process.version,
    memoryGiB: round1(os.totalmem() / 1024 ** 3),
  };
}

// ── the dashboards' process ──────────────────────────────────────────────────

/** The argument that makes this module the dashboards' process (see `serveDashboards`). */
const DASHBOARDS_ROLE = '--lightbar-ingest-dashboards';

interface DashboardsStart {
  type: 'start';
  url: string;
  token: string;
  organizationId: string;
  count: number;
  batched: boolean;
}
type ToDashboards = DashboardsStart | { type: 'sample'; id: number };

interface DashboardCounts {
  /** The child's clock when counted (ms). */
  atMs: number;
  /** Live messages received (a frame each, or several in a batch). */
  frames: number[];
  bytes: number[];
  closes: number[];
}
type FromDashboards = { type: 'ready' } | { type: 'failed'; message: string } | ({ type: 'sample'; id: number } & DashboardCounts);

/**
 * Data frames are `{"identifier":…,"message":…}` or, batched, `{"identifier":…,"messages":[…]}`;
 * the rest (welcome, ping, confirmations) carry a `type`.
 */
const DATA_FRAME_PREFIX = Buffer.from('{"identifier":');
const BATCH_KEY = Buffer.from('"messages":[');
/**
 * Each message of a batch opens with its `type` (the server's messages are built type first). The
 * driver's device messages become points and heartbeats, which hold no nested object, so each
 * opening is one message.
 */
const MESSAGE_OPENING = Buffer.from('{"type":"');

/** The live messages in a data frame: one, or a batch's, counted without parsing. */
export function messagesInFrame(data: Buffer): number {
  const batch = data.indexOf(BATCH_KEY, DATA_FRAME_PREFIX.length);
  if (batch < 0) return 1;
  let count = 0;
  for (let at = data.indexOf(MESSAGE_OPENING, batch); at >= 0; at = data.indexOf(MESSAGE_OPENING, at + MESSAGE_OPENING.length)) count += 1;
  return count;
}

/**
 * `count` sockets to the server's /cable with the dashboard worker's handshake (socket-client.ts,
 * part 1 §4): the protocol pair `[actioncable-v1-json, token]`, `subscribe` to the organization's
 * EventsChannel on `welcome`, live once confirmed; a closed socket reconnects after the worker's
 * delays. Data frames are counted, not parsed.
 */
function serveDashboards(start: DashboardsStart, send: (message: FromDashboards) => void): { counts(): DashboardCounts } {
  const identifier = eventsChannelIdentifier(start.organizationId);
  const frames = new Array<number>(start.count).fill(0);
  const bytes = new Array<number>(start.count).fill(0);
  const closes = new Array<number>(start.count).fill(0);
  const confirmed = new Set<number>();
  let ready = false;
  let failed = false;
  const fail = (message: string) => {
    if (failed) return;
    failed = true;
    send({ type: 'failed', message });
  };
  const open = (index: number, attempt: number) => {
    const protocols = start.batched ? [SOCKET_PROTOCOL, start.token, LIVE_BATCH_PROTOCOL] : [SOCKET_PROTOCOL, start.token];
    const ws = new WebSocket(`${start.url.replace(/^http/, 'ws')}/cable`, protocols);
    let lastError = '';
    ws.on('message', (data) => {
      if (!Buffer.isBuffer(data)) return;
      bytes[index]! += data.length;
      if (data.compare(DATA_FRAME_PREFIX, 0, DATA_FRAME_PREFIX.length, 0, DATA_FRAME_PREFIX.length) === 0) {
        frames[index]! += messagesInFrame(data);
        return;
      }
      const frame = JSON.parse(data.toString()) as { type?: string; identifier?: string };
      if (frame.type === 'welcome') ws.send(JSON.stringify({ command: 'subscribe', identifier }));
      else if (frame.type === 'confirm_subscription' && frame.identifier === identifier) {
        attempt = 0;
        confirmed.add(index);
        if (!ready && confirmed.size === start.count) {
          ready = true;
          send({ type: 'ready' });
        }
      } else if (frame.type === 'reject_subscription') fail(`dashboard ${index}: the subscription was rejected`);
    });
    ws.on('error', (error) => (lastError = error.message)); // a close follows
    ws.on('close', (code, reason) => {
      // Before all are live a refusal is the setup's failure (a bad token, too many sockets).
      if (!ready) return fail(`dashboard ${index}: the socket closed before it was live (${code} ${reason.toString()} ${lastError})`);
      closes[index]! += 1;
      if (attempt < SOCKET_RECONNECT_ATTEMPTS) setTimeout(() => open(index, attempt + 1), reconnectDelay(attempt));
    });
  };
  for (let i = 0; i < start.count; i += 1) open(i, 0);
  return { counts: () => ({ atMs: performance.now(), frames: [...frames], bytes: [...bytes], closes: [...closes] }) };
}

// This module run as the dashboards' process (forked by `Dashboards.start`).
if (process.argv.includes(DASHBOARDS_ROLE) && process.send) {
  const reply = (message: FromDashboards) => process.send!(message);
  let dashboards: { counts(): DashboardCounts } | null = null;
  // The bench stops this process; a Ctrl-C at the terminal reaches it too and must not end it
  // before the bench has read its last counts. A bench that is gone takes it along.
  process.on('SIGINT', () => undefined);
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: ToDashboards) => {
    if (message.type === 'start') dashboards = serveDashboards(message, reply);
    else if (dashboards) reply({ type: 'sample', id: message.id, ...dashboards.counts() });
  });
}

/** The bench's handle on the dashboards' process. */
class Dashboards {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (counts: DashboardCounts) => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;

  /** The dashboards' process (its CPU time is counted apart). */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.on('message', (message: FromDashboards) => {
      if (message.type !== 'sample') return;
      this.waiting.get(message.id)?.resolve(message);
      this.waiting.delete(message.id);
    });
    child.once('exit', (code, signal) => {
      for (const { reject } of this.waiting.values()) reject(new Error(`the dashboards' process ended (${code ?? signal})`));
      this.waiting.clear();
    });
  }

  /** Forks the process and resolves once every socket is subscribed. */
  static async start(start: Omit<DashboardsStart, 'type'>, timeoutMs = 60_000): Promise<Dashboards> {
    const child = fork(fileURLToPath(import.meta.url), [DASHBOARDS_ROLE], {
      cwd: path.join(import.meta.dirname, '..'),
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const dashboards = new Dashboards(child);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the dashboards were not live within ${timeoutMs / SECOND_MS} s`)), timeoutMs);
        const settle = (error?: Error) => {
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        };
        child.on('message', (message: FromDashboards) => {
          if (message.type === 'ready') settle();
          else if (message.type === 'failed') settle(new Error(message.message));
        });
        child.once('exit', (code, signal) => settle(new Error(`the dashboards' process ended (${code ?? signal}) before they were live`)));
        child.send({ type: 'start', ...start } satisfies ToDashboards);
      });
    } catch (error) {
      await dashboards.stop();
      throw error;
    }
    return dashboards;
  }

  /** Every dashboard's frames, bytes and closes so far. */
  counts(): Promise<DashboardCounts> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ type: 'sample', id } satisfies ToDashboards, (error) => {
        if (!error) return;
        this.waiting.delete(id);
        reject(error);
      });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}

// ── a row ────────────────────────────────────────────────────────────────────

/** Signs in as the bench administrator: the access token and the bench organization (the administrator's own). */
async function benchSession(url: string, user: string, password: string): Promise<{ token: string; organizationId: string }> {
  // A server loading a large fleet sheds its first calls (503 overloaded): waited out as the driver's setup does.
  const signIn = await patiently(() =>
    fetch(`${url}/user_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: user, password }),
    }),
  );
  if (!signIn.ok) throw new Error(`sign-in of ${user}: HTTP ${signIn.status} ${(await signIn.text()).slice(0, 200)}`);
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const profile = await patiently(() => fetch(`${url}/profile`, { headers: { authorization: `Bearer ${token}` } }));
  if (!profile.ok) throw new Error(`GET /profile: HTTP ${profile.status}`);
  const { organization_id: organizationId } = (await profile.json()) as { organization_id: string };
  return { token, organizationId };
}

const interrupted = () => new Error('interrupted');

async function benchRow(spec: IngestBenchRowSpec, options: IngestBenchOptions): Promise<IngestBenchRow> {
  // Loaded here, not at the top: the dashboards' process loads this module too and needs none of it.
  const { APP_BENCH_ORG, APP_BENCH_PASSWORD, APP_BENCH_USER, prepareData, rssOf, startBenchServers } = await import('./app');
  const { runLoad } = await import('./load/driver');
  const log = options.log ?? (() => undefined);
  const { assets, rate } = spec;
  const { seconds, signal } = options;
  const processes = options.databaseUrl && options.natsUrl ? 2 : 1;
  const servers: SpawnedServer[] = [];
  let data: BenchData | null = null;
  let dashboards: Dashboards | null = null;
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  signal?.addEventListener('abort', onAbort);
  let load: Promise<LoadSummary> | null = null;
  try {
    log(`${assets} assets: preparing the data`);
    data = await prepareData(assets, options.databaseUrl);
    if (abort.signal.aborted) throw interrupted();
    log(`${assets} assets: starting ${processes} server process${processes > 1 ? 'es' : ''}`);
    // A directory per process: with tsx, a process's loader thread writes a profile of its own beside the main thread's.
    const profileDir = (process: number) => path.join(options.profile!, `ingest-${assets}-${process + 1}`);
    const { profile } = options;
    const nodeArgs = (process: number) => (profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir(process)}`] : []);
    await startBenchServers(data, processes, options.natsUrl, servers, nodeArgs);
    if (abort.signal.aborted) throw interrupted();
    // The driver posts to the first process, the dashboards watch the last (with NATS, the other one).
    const ingestUrl = servers[0]!.url;
    const watchedUrl = servers.at(-1)!.url;
    const session = await benchSession(watchedUrl, APP_BENCH_USER, APP_BENCH_PASSWORD);
    dashboards = await Dashboards.start({ url: watchedUrl, ...session, count: options.dashboards, batched: options.batched });
    const live = dashboards;
    if (abort.signal.aborted) throw interrupted();

    log(`${assets} assets: ${options.dashboards} dashboards live, load driver at ${rate} msg/s for ${seconds} s`);
    const rssNow = () => servers.map((server) => rssOf(server.pid));
    let rssStart: number[] | null = null;
    let stopCpu: (() => CpuShare) | null = null;
    let baseline: Promise<DashboardCounts> | null = null;
    let previous: Promise<DashboardCounts> | null = null;
    const samples: IngestSample[] = [];
    const sampling: Promise<void>[] = [];
    const sampleSecond = (line: LoadSecond, before: Promise<DashboardCounts>) => {
      const rssMiB = rssNow();
      const now = live.counts();
      previous = now;
      sampling.push(
        Promise.all([before, now]).then(([a, b]) => {
          const spanS = Math.max(1e-3, (b.atMs - a.atMs) / SECOND_MS);
          const deliveredPerS = b.frames.map((frames, i) => Math.round((frames - a.frames[i]!) / spanS));
          const { p50Ms, p99Ms, ...counts } = line;
          const sample: IngestSample = {
            ...counts,
            ingestP50Ms: p50Ms,
            ingestP99Ms: p99Ms,
            rssMiB,
            deliveredPerS,
            deliveredMinPerS: Math.min(...deliveredPerS),
            bytesPerS: b.bytes.map((total, i) => Math.round((total - a.bytes[i]!) / spanS)),
            socketCloses: b.closes.reduce((sum, closes, i) => sum + closes - a.closes[i]!, 0),
          };
          samples.push(sample);
          options.onSecond?.(spec, sample);
        }),
      );
    };
    load = runLoad({
      url: ingestUrl,
      assets,
      rate,
      seconds,
      org: APP_BENCH_ORG,
      user: APP_BENCH_USER,
      password: APP_BENCH_PASSWORD,
      maxInFlight: options.maxInFlight,
      signal: abort.signal,
      // The first batch ends the driver's setup (its sign-in, the fleet's pages, a key): the run's start.
      onBatch: () => {
        if (baseline) return;
        stopCpu = startCpuShare(
          new Map<number, string>([
            ...servers.map((server, i): [number, string] => [server.pid, servers.length > 1 ? `server ${i + 1}` : 'server']),
            [process.pid, 'bench (load driver)'],
            [live.pid, 'dashboards (their process)'],
          ]),
        );
        rssStart = rssNow();
        baseline = previous = live.counts();
      },
      // The driver's last line (answers after the run's end) is no second of the run.
      onSecond: (line) => {
        if (line.second <= seconds && previous) sampleSecond(line, previous);
      },
    });
    const summary = await load;
    const cpu = stopCpu ? (stopCpu as () => CpuShare)() : null;
    load = null;
    await Promise.all(sampling);
    if (abort.signal.aborted) throw interrupted();
    if (!baseline || !previous) throw new Error('the load driver sent nothing');
    const [start, end] = await Promise.all([baseline, previous]);
    // Frames still on their way when the driver stopped count for the share that reached each dashboard.
    await new Promise((resolve) => setTimeout(resolve, SECOND_MS));
    const settled = await live.counts();
    const row = summarize({ spec, options, processes, summary, samples, rssStart: rssStart ?? rssNow(), start, end, settled, cpu });
    if (!profile) return row;
    // Node writes the profile as the process exits.
    for (const server of servers) await server.stop();
    const { profileTop } = await import('./map');
    row.profileTop = servers.map((_, process) => {
      // The main thread's profile is the one busy longest (the loader thread idles through the row).
      const busySamples = (profile: CpuProfile) => {
        const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
        return (profile.samples ?? []).filter((sample) => !idle.has(sample)).length;
      };
      const profiles = fs
        .readdirSync(profileDir(process))
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => JSON.parse(fs.readFileSync(path.join(profileDir(process), name), 'utf8')) as CpuProfile);
      const main = profiles.sort((a, b) => busySamples(b) - busySamples(a))[0];
      return main ? profileTop(main, 25) : [];
    });
    log(`${assets} assets: CPU profiles in ${profile}`);
    return row;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    abort.abort();
    await load?.catch(() => undefined);
    await dashboards?.stop().catch(() => undefined);
    for (const server of servers) await server.stop().catch(() => undefined);
    await data?.cleanup().catch((error: Error) => log(`${assets} assets: cleanup failed: ${error.message}`));
  }
}

/** The row's figures from the driver's summary, the seconds and the dashboards' counts at the start, the end and a second after it. */
function summarize(row: {
  spec: IngestBenchRowSpec;
  options: IngestBenchOptions;
  processes: number;
  summary: LoadSummary;
  samples: IngestSample[];
  rssStart: number[];
  start: DashboardCounts;
  end: DashboardCounts;
  settled: DashboardCounts;
  cpu: CpuShare | null;
}): IngestBenchRow {
  const { spec, options, summary, samples, start, end, settled, cpu } = row;
  samples.sort((a, b) => a.second - b.second);
  const secondHalf = samples.filter((sample) => sample.second > options.seconds / 2);
  const rss = row.rssStart.map((startMiB, process): RssSummary => {
    const series = samples.map((sample) => sample.rssMiB[process]!);
    const slope = leastSquaresSlope(secondHalf.map((sample) => ({ x: sample.second / 60, y: sample.rssMiB[process]! })));
    return {
      startMiB,
      endMiB: series.at(-1) ?? startMiB,
      maxMiB: Math.max(startMiB, ...series),
      slopeMiBPerMin: slope === null ? null : Math.round(slope * 100) / 100,
    };
  });
  const runS = Math.max(1e-3, (end.atMs - start.atMs) / SECOND_MS);
  const perDashboard = end.frames.map((frames, i) => (frames - start.frames[i]!) / runS);
  const shares = settled.frames.map((frames, i) => (frames - start.frames[i]!) / Math.max(1, summary.accepted));
  return {
    assets: spec.assets,
    engine: options.databaseUrl ? 'postgres' : 'pglite',
    processes: row.processes,
    dashboards: options.dashboards,
    batched: options.batched,
    cpu,
    rate: spec.rate,
    seconds: options.seconds,
    achievedRate: summary.achievedRate,
    achievedMeanPerS: Math.round(mean(samples.map((sample) => sample.ratePerS))),
    sent: summary.sent,
    accepted: summary.accepted,
    rejected: summary.rejected,
    failed: summary.failed,
    unsent: summary.unsent,
    firstProblem: summary.firstProblem,
    ingestP50Ms: summary.p50Ms,
    ingestP99Ms: summary.p99Ms,
    ingestP99OfSecondsMs: percentile(
      samples.map((sample) => sample.ingestP99Ms).sort((a, b) => a - b),
      99,
    ),
    rss,
    deliveredMeanPerS: Math.round(mean(perDashboard)),
    deliveredMinPerS: samples.length === 0 ? 0 : Math.min(...samples.map((sample) => sample.deliveredMinPerS)),
    deliveredShareMin: Math.round(Math.min(...shares) * 1000) / 1000,
    deliveredBytesPerS: Math.round(mean(end.bytes.map((bytes, i) => (bytes - start.bytes[i]!) / runS))),
    socketCloses: end.closes.reduce((sum, closes, i) => sum + closes - start.closes[i]!, 0),
    samples,
  };
}

export async function runIngestBench(partial: Partial<IngestBenchOptions> = {}): Promise<IngestBenchRow[]> {
  const options = { ...INGEST_BENCH_DEFAULTS, ...partial };
  await checkIngestBenchOptions(options);
  const rows: IngestBenchRow[] = [];
  for (const spec of options.rows) {
    if (options.signal?.aborted) break;
    try {
      rows.push(await benchRow(spec, options));
    } catch (error) {
      if (options.signal?.aborted) break;
      options.log?.(`${spec.assets} assets at ${spec.rate} msg/s: the row failed: ${(error as Error).message.split('\n')[0]}`);
    }
    options.onRow?.(rows);
  }
  return rows;
}

/** Refuses options the server or the driver would refuse mid-run, before anything starts. */
export async function checkIngestBenchOptions(options: IngestBenchOptions): Promise<void> {
  const { checkLoadOptions } = await import('./load/driver');
  const { SOCKETS_PER_USER_MAX } = await import('../server/live/cable');
  if (options.rows.length === 0) throw new Error('no rows: give --assets and --rate');
  for (const spec of options.rows) {
    checkLoadOptions({
      url: 'http://127.0.0.1',
      assets: spec.assets,
      rate: spec.rate,
      seconds: options.seconds,
      maxInFlight: options.maxInFlight,
    });
  }
  // One user's sockets are capped (OWASP API4, server/live/cable.ts): all dashboards are the bench administrator's.
  if (!Number.isInteger(options.dashboards) || options.dashboards < 1 || options.dashboards > SOCKETS_PER_USER_MAX)
    throw new Error(`--dashboards must be a whole number from 1 to ${SOCKETS_PER_USER_MAX}, got ${options.dashboards}`);
  // PGlite is one process's database: two processes need Postgres.
  if (options.natsUrl && !options.databaseUrl)
    throw new Error('--nats-url needs --database-url (two server processes share a Postgres database)');
}

const list = (values: readonly (number | null)[]) => values.map((value) => value ?? '–').join('; ');

/** The cores the server processes used together, from a row's CPU share. */
function serverCores(cpu: CpuShare | null): string {
  if (!cpu) return '–';
  const cores = Object.entries(cpu.coresByGroup).reduce((sum, [group, used]) => (group.startsWith('server') ? sum + used : sum), 0);
  return String(Math.round(cores * 100) / 100);
}

export function ingestBenchTable(rows: readonly IngestBenchRow[]): string {
  const head =
    '| assets | database, processes | dashboards | msg/s asked | achieved | ingest p50 / p99 ms | delivered per dashboard msg/s | RSS start → end (max) MiB | RSS slope MiB/min | shed | cores: server / machine busy |\n' +
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const lines = rows.map(
    (r) =>
      `| ${r.assets} | ${r.engine === 'postgres' ? 'Postgres + NATS' : 'PGlite'}, ${r.processes} | ${r.dashboards} (${r.batched ? 'batches' : 'a frame each'}) | ${r.rate} | ${r.achievedRate} | ${r.ingestP50Ms} / ${r.ingestP99Ms} | ${r.deliveredMeanPerS} (min ${r.deliveredMinPerS}) | ${r.rss.map((p) => `${p.startMiB} → ${p.endMiB} (${p.maxMiB})`).join('; ')} | ${list(r.rss.map((p) => p.slopeMiBPerMin))} | ${r.failed + r.rejected} | ${serverCores(r.cpu)} / ${r.cpu?.busyCores ?? '–'} |`,
  );
  return [head, ...lines].join('\n');
}
