/**
 * The application bench (`npm run bench:app`, bench/README.md "Application bench"): the real product under
 * a set load. For each row it prepares a bench organization of N assets on a fresh embedded
 * database, starts the real server (`server/main.ts`, demo and simulator off, load shedding as
 * shipped), signs in to the built dashboard in Chromium, starts the load driver (bench/load) at one
 * message per asset per second (capped), reloads the page under that load, and reads:
 * - the first full map: from the reload to the frame that drew the last of the N assets;
 * - over a window after load: main-thread busy time and script time (Chrome DevTools Protocol
 *   `Performance.getMetrics`), long tasks (a `longtask` observer), the worker's batch durations and
 *   how far behind the stream the drawn positions are (the page's own measure, src/app/live/measures.ts);
 * - the JS heap of the page and of the live worker after a garbage collection, the server's RSS;
 * - the fair main-thread pipeline (bench/worker.ts `benchFairBaseline`) at the same assets and
 *   messages per second, so the ratio comes from the same run.
 * Times are printed and written to `bench/results/app.json`, never asserted.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { SECOND_MS } from '../src/domain/constants';
import type { LiveMeasureReport } from '../src/app/live/measures';
import { hashPassword } from '../server/auth/secrets';
import { openDatabase } from '../server/db/connection';
import { ensureReferenceData } from '../server/db/reference-data';
import { organizations, roles, runs, things, thingTypes, users } from '../server/db/schema';
import { CHROMIUM } from '../tests/support/chromium';
import { spawnServer, type SpawnedServer } from '../tests/support/spawn-server';
import { createScratchDatabase } from '../tests/support/test-db';
import { PRESSURE_DEFAULTS, ROOT_DIR } from '../server/config';
import { signIn, signInBeforeLoad } from '../e2e/sign-in';
import { runLoad, type LoadSummary } from './load/driver';
import { percentile } from './measure';
import { startCpuShare, type CpuShare } from './cpu-share';
import { launchArgs, profileTop, rendererOf, startCpuProfile, startTrace, type CpuProfile } from './map';
import { syntheticFleet } from './domain';
import { benchFairBaseline } from './worker';
import { thingWireSchema } from '../src/domain/asset';

export const APP_BENCH_ORG = 'Bench Fleet';
export const APP_BENCH_USER = 'bench.admin@lightbar.bench';
export const APP_BENCH_PASSWORD = 'Bench#Pass2026';
/** Where the bench fleet stands: greater Austin, as the demo's. */
const CENTER = { lat: 30.27, lng: -97.74 };
const SPREAD_DEG = 0.25;

export interface AppBenchOptions {
  sizes: readonly number[];
  /** Messages per second: one per asset, at most this. */
  rateCap: number;
  /** The measured window after the first full map and the settling time (s). */
  windowS: number;
  settleS: number;
  /** Run the fair main-thread pipeline for each row (its own CPU-bound minute). */
  fair: boolean;
  /** How long the first full map may take before the row is reported without it (s). */
  loadTimeoutS: number;
  /**
   * A Postgres server (an administrator's URL, e.g. postgres://postgres@127.0.0.1:5432/postgres):
   * each row gets a fresh database there, dropped after it, instead of the embedded PGlite.
   */
  databaseUrl?: string;
  /** With `databaseUrl`: NATS for the fan-out, and a second server process the load driver posts to (the dashboard watches the first). */
  natsUrl?: string;
  /** Called with the rows so far after each row (a failed row is logged and left out). */
  onRow?: (rows: readonly AppBenchRow[]) => void;
  /** Directory for screenshots of each row's dashboard (none when unset). */
  screenshots?: string;
  /**
   * Directory for a Chrome trace and a main-thread CPU profile over each row's window, and a CPU
   * profile of the page and the live worker from the reload under load to the load's end; the row
   * then says what ran inside each long task and the functions with the most self time.
   */
  profile?: string;
  /** Measure the first visit on a throttled link (firstVisit) in the first row; default on. */
  firstVisit?: boolean;
  log?: (line: string) => void;
}

export const APP_BENCH_DEFAULTS: AppBenchOptions = {
  sizes: [2_000, 10_000, 50_000, 100_000],
  rateCap: 20_000,
  windowS: 60,
  settleS: 5,
  fair: true,
  loadTimeoutS: 240,
};

export interface AppBenchRow {
  assets: number;
  /** The database, and the server processes (two with NATS: the driver posts to one, the dashboard watches the other). */
  engine: 'pglite' | 'postgres';
  processes: number;
  /** Messages per second asked of the load driver, and what it achieved over the run. */
  rate: number;
  achievedRate: number;
  /** The ingest's round trip as the driver saw it over the run (ms). */
  ingestP50Ms: number;
  ingestP99Ms: number;
  /** Messages the server refused or failed (a server that sheds load answers 503). */
  notAccepted: number;
  /** From the reload (sign-in remembered) to the frame that drew the N-th asset; null: not within loadTimeoutS. */
  firstFullMapMs: number | null;
  /** The initial load's pages (part 1 §7), and how many had come when the full map came or the time was up. */
  pages: number;
  pagesLoaded: number;
  /** The first sign-in's full map, before the load driver started (from the page's navigation; the sign-in form included). */
  firstLoadUnloadedMs: number | null;
  /**
   * The first useful screen after a reload under the load (sign-in remembered): the Live list's first
   * asset row, and the Events panel's counts (a reload at /dashboard/events); null: not within loadTimeoutS.
   */
  firstListMs: number | null;
  firstEventsMs: number | null;
  windowS: number;
  /** Main-thread task time ÷ wall time over the window (%). */
  mainBusyPct: number;
  /** Main-thread JavaScript per second of the window (ms/s). */
  scriptMsPerS: number;
  taskMsPerS: number;
  longTasks: number;
  longestTaskMs: number;
  /** Long tasks from the reload to the end of the window (the initial load included). */
  longTasksSinceReload: number;
  batches: number;
  batchP50Ms: number;
  batchP95Ms: number;
  /** Age of the drawn positions: the message's timestamp to the frame that drew it (ms). */
  stalenessP50Ms: number | null;
  stalenessP99Ms: number | null;
  positionsDrawn: number;
  diffsPerS: number;
  /** JS heap after a garbage collection (MiB): the page, the live worker and both. */
  pageHeapMiB: number;
  workerHeapMiB: number | null;
  heapMiB: number;
  serverRssMiB: number;
  /** The fair main-thread pipeline at the same assets and rate: ms of main-thread work per second (p50, p95). */
  fairMsPerSP50: number | null;
  fairMsPerSP95: number | null;
  /**
   * fair p50 ÷ the dashboard's whole main-thread time per second. The fair pipeline's figure is its
   * data work alone (no drawing); the dashboard's includes drawing the map (GL calls, React), so a
   * ratio below 1 at small fleets says the drawing costs more than the data there.
   */
  fairRatio: number | null;
  renderer: string;
  /**
   * The reload under load, in the page's `performance.now()` ms: the document, each file and call
   * of the page and of the live worker (path, sent → first byte → done, KiB; Resource Timing) and
   * the loader's `lightbar:` marks. Where the first full map's time goes.
   */
  reloadTimeline?: string[];
  /** The API calls the page and the live worker began in the window, each path with its count (the socket is not a call). */
  windowCalls?: string[];
  /** With `profile`: each long task of the window and the longest events inside it. */
  insideLongTasks?: string[];
  /** With `profile`: the main thread's functions by self time over the window (ms). */
  profileTop?: { name: string; selfMs: number }[];
  /**
   * The cores each process (and the renderer's main thread and live worker) used from the reload
   * under load to the first full map, and over the window: where the machine's time went.
   */
  reloadCpu: CpuShare | null;
  windowCpu: CpuShare;
  /** With `profile`: the live worker's functions by self time from the reload under load to the load's end, its pages included (ms). */
  reloadWorkerTop?: { name: string; selfMs: number }[];
  /** With `profile`: the page's main-thread functions by self time over the same reload (ms). */
  reloadPageTop?: { name: string; selfMs: number }[];
  /** The first row only: a first visit on a cold cache over FIRST_VISIT_LINK, compressed and not (FirstVisit). */
  firstVisit?: FirstVisit[];
}

/**
 * The link a first visit is measured on: 10 Mbit/s down, 5 up, 40 ms round trip (a vehicle's
 * modem on a fair day), through DevTools' network conditions.
 */
export const FIRST_VISIT_LINK = { downMbit: 10, upMbit: 5, latencyMs: 40 };

/**
 * A signed-in user's first visit of the dashboard on a cold cache (no cached file), over
 * FIRST_VISIT_LINK: the bytes the page received until its first useful screen (the Live list's
 * first asset row; headers included: DevTools' encoded lengths of the page's requests, so the
 * app's files, the page's calls, not the live worker's) and the time from the navigation to it.
 * `compressed: false` asks every file with Accept-Encoding: identity, as a server that compresses
 * nothing would send it (the before of docs/operations.md "Compression").
 */
export interface FirstVisit {
  compressed: boolean;
  bytes: number;
  requests: number;
  firstScreenMs: number | null;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const mib = (bytes: number) => round1(bytes / 1_048_576);

export interface BenchData {
  /** The server's environment for it (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  /** Temporary data directories for the server processes (link secrets and the like). */
  dataDirs: string[];
  cleanup(): Promise<void>;
}

/**
 * One asset in this many starts on a run (lights on, enroute): the points the driver sends for it
 * are trip points, written by the ingest's flush as a real fleet's are.
 */
export const BENCH_ON_RUN_EVERY = 5;

/**
 * A fresh database holding the bench organization, its administrator and `assets` assets with
 * positions (one in BENCH_ON_RUN_EVERY on a run): PGlite in a temporary data directory, or a new database on the Postgres server of
 * `databaseUrl` (dropped by `cleanup`).
 */
export async function prepareData(assets: number, databaseUrl: string | undefined): Promise<BenchData> {
  const dataDirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-bench-app-')));
  let url: string | undefined;
  let dropDatabase = async () => undefined as void;
  if (databaseUrl) {
    const scratch = await createScratchDatabase(databaseUrl, 'lightbar_bench');
    url = scratch.url;
    dropDatabase = () => scratch.drop();
  }
  const database = await openDatabase(url ? { url } : { dataDir: dataDirs[0] });
  try {
    await ensureReferenceData(database.db);
    const [org] = await database.db.insert(organizations).values({ name: APP_BENCH_ORG, lat: CENTER.lat, lng: CENTER.lng }).returning();
    const [role] = await database.db.select().from(roles).where(eq(roles.name, 'ADMIN'));
    await database.db.insert(users).values({
      organizationId: org!.id,
      email: APP_BENCH_USER,
      firstname: 'Bench',
      lastname: 'Admin',
      roleId: role!.id,
      passwordHash: await hashPassword(APP_BENCH_PASSWORD),
      passwordChangedAt: new Date(),
      lastActivityAt: new Date(),
    });
    const types = await database.db.select().from(thingTypes);
    const heartbeatAt = new Date();
    // A repeatable spread: the golden angle around the centre, denser near it.
    for (let i = 0; i < assets; i += 1_000) {
      const onRun: (typeof runs.$inferInsert)[] = [];
      const chunk = Array.from({ length: Math.min(1_000, assets - i) }, (_, j) => {
        const n = i + j;
        const run = n % BENCH_ON_RUN_EVERY === 0 ? randomUUID() : null;
        const r = SPREAD_DEG * Math.sqrt((n + 0.5) / assets);
        const angle = n * 2.399963;
        return {
          organizationId: org!.id,
          haasId: `HA5-APP${String(n).padStart(6, '0')}`,
          nickname: `Unit ${n}`,
          thingTypeId: types[n % types.length]!.id,
          lat: CENTER.lat + r * Math.sin(angle),
          lng: CENTER.lng + r * Math.cos(angle),
          accuracy: 5,
          heartbeatAt,
          ...(run ? { lightsOn: true, enroute: true, runId: run, runStartTime: heartbeatAt } : {}),
        };
      });
      const inserted = await database.db.insert(things).values(chunk).returning({ id: things.id, runId: things.runId });
      for (const { id, runId } of inserted) if (runId) onRun.push({ id: runId, thingId: id, runStart: heartbeatAt, isActive: true });
      if (onRun.length > 0) await database.db.insert(runs).values(onRun);
    }
  } finally {
    await database.close();
  }
  return {
    env: url ? { DATABASE_URL: url } : { DATA_DIR: dataDirs[0]! },
    dataDirs,
    async cleanup() {
      await dropDatabase();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `processes` real servers on the bench data (demo and simulator off, load shedding as
 * shipped), pushing each into `servers` as it comes up, so the caller's cleanup stops those that
 * started even when a later one fails. Two processes share the database and fan out over NATS, each
 * with its own data directory (link secrets and the like).
 */
export async function startBenchServers(
  data: BenchData,
  processes: number,
  natsUrl: string | undefined,
  servers: SpawnedServer[],
  /** Node's flags for the i-th process (a bench's `--cpu-prof`). */
  nodeArgs: (process: number) => readonly string[] = () => [],
): Promise<SpawnedServer[]> {
  for (let i = 0; i < processes; i += 1) {
    const server = await spawnServer(
      {
        PORT: '0',
        ...data.env,
        ...(data.env.DATABASE_URL ? { DATA_DIR: data.dataDirs[i]! } : {}),
        ...(processes > 1 ? { NATS_URL: natsUrl } : {}),
        LIGHTBAR_DEMO: '0',
        // Load shedding as shipped (the test suites turn it off).
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: String(PRESSURE_DEFAULTS.maxEventLoopDelayMs),
        PRESSURE_MAX_EVENT_LOOP_UTILIZATION: String(PRESSURE_DEFAULTS.maxEventLoopUtilization),
      },
      180_000,
      nodeArgs(i),
    );
    servers.push(server);
  }
  return servers;
}

/** The server's resident memory (MiB) from /proc; 0 where there is none. */
export function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? round1(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

type Metrics = Record<string, number>;
async function metricsOf(cdp: CDPSession): Promise<Metrics> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/**
 * The live worker's DevTools session, reached through the page's (the worker is a target attached
 * to the page): `next()` answers the next live worker to start (`pause`: held before its first
 * line, so a profiler can start first; `call` then lets it run), or the one running when
 * auto-attach is set. Other workers are let go (the basemap's, src/map/basemap.ts, ends once it has
 * answered); so is a live worker held before `start` (a navigation) has committed: the page it
 * belongs to is going away.
 */
class WorkerTarget {
  private nextId = 1;
  private sessionId: string | null = null;
  /** Why calls fail from now on: the worker's session ended (the worker ended, or its page went). */
  private ended: string | null = null;
  private readonly pending = new Map<number, (reply: { result?: unknown; error?: { message: string } }) => void>();
  private waiting: ((sessionId: string) => void) | null = null;

  private constructor(
    private readonly cdp: CDPSession,
    private readonly pause: boolean,
    /** Whether a held live worker is the one wanted yet (false until `start` has run). */
    private taking: boolean,
  ) {
    cdp.on('Target.attachedToTarget', this.onAttached);
    cdp.on('Target.detachedFromTarget', this.onDetached);
    cdp.on('Target.receivedMessageFromTarget', this.onMessage);
  }

  private readonly onAttached = (event: AttachedToTarget): void => {
    if (event.targetInfo.type !== 'worker' || this.sessionId) return;
    const wanted =
      isLiveWorker(event.targetInfo) &&
      // Held at its start: a new worker, not the one already running, of the page `start` opened.
      (!this.pause || (event.waitingForDebugger && this.taking));
    if (!wanted) {
      if (event.waitingForDebugger) void this.send(event.sessionId, 'Runtime.runIfWaitingForDebugger');
      return;
    }
    this.sessionId = event.sessionId;
    this.waiting?.(event.sessionId);
    this.waiting = null;
  };

  private readonly onDetached = (event: { sessionId: string }): void => {
    if (event.sessionId !== this.sessionId) return;
    this.ended = 'the live worker ended (its DevTools session was detached)';
    for (const answer of [...this.pending.values()]) answer({ error: { message: this.ended } });
  };

  private readonly onMessage = (event: { sessionId: string; message: string }): void => {
    if (event.sessionId !== this.sessionId) return;
    const reply = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    if (reply.id !== undefined) this.pending.get(reply.id)?.(reply);
  };

  /**
   * Attaches to the page's workers (held at their start with `pause`) and waits for the next live
   * one; with `start`, one that starts after it has run (a live worker of the page before is let go).
   * Null when none came within `timeoutMs`; `start` failing rejects.
   */
  static async next(cdp: CDPSession, pause: boolean, timeoutMs: number, start?: () => Promise<unknown>): Promise<WorkerTarget | null> {
    const target = new WorkerTarget(cdp, pause, !start);
    const attached = new Promise<string>((resolve) => (target.waiting = resolve));
    try {
      await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: pause, flatten: false });
      if (start) {
        await start();
        target.taking = true;
      }
    } catch (error) {
      target.close();
      throw error;
    }
    if ((await withTimeout(attached, timeoutMs, 'no live worker').catch(() => null)) !== null) return target;
    target.close();
    return null;
  }

  call<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<T> {
    if (this.ended) return Promise.reject(new Error(`${method}: ${this.ended}`));
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      this.pending.set(id, (reply) => {
        this.pending.delete(id);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply.result as T);
      });
    });
    void this.send(this.sessionId!, method, params, id);
    return withTimeout(answer, timeoutMs, `${method}: no answer`);
  }

  /** Stops listening (the session itself stays until auto-attach is turned off). */
  close(): void {
    this.cdp.off('Target.attachedToTarget', this.onAttached);
    this.cdp.off('Target.detachedFromTarget', this.onDetached);
    this.cdp.off('Target.receivedMessageFromTarget', this.onMessage);
  }

  private send(sessionId: string, method: string, params: Record<string, unknown> = {}, id = this.nextId++): Promise<unknown> {
    return this.cdp
      .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
      .catch((error: Error) => this.pending.get(id)?.({ error: { message: error.message } }));
  }
}

interface AttachedToTarget {
  sessionId: string;
  targetInfo: { type: string; title: string; url: string };
  waitingForDebugger: boolean;
}

/** The live worker (src/app/live/bridge.ts): named 'lightbar-live', its chunk named after live.worker.ts. */
function isLiveWorker(info: { title: string; url: string }): boolean {
  return info.title === 'lightbar-live' || /\blive\.worker\b/.test(info.url);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(
    () => clearTimeout(timer),
  );
}

/** The live worker's JS heap after a collection; null when it cannot be reached. */
async function workerHeapBytes(cdp: CDPSession): Promise<number | null> {
  try {
    const worker = await WorkerTarget.next(cdp, false, 5_000);
    if (!worker) return null;
    try {
      await worker.call('HeapProfiler.collectGarbage', {}, 10_000);
      const usage = await worker.call<{ usedSize?: number }>('Runtime.getHeapUsage', {}, 10_000);
      return usage.usedSize ?? null;
    } finally {
      worker.close();
    }
  } catch {
    return null;
  }
}

/**
 * With `profile`: a CPU profile of the live worker the next page load starts, from its first line
 * (held until the profiler runs); the returned stop writes it to `file` and answers its top
 * functions. Null when no worker came.
 */
async function profileNextWorker(
  cdp: CDPSession,
  file: string,
  start: () => Promise<unknown>,
): Promise<(() => Promise<CpuProfile>) | null> {
  // `start` failing fails the bench; no live worker within the minute leaves the reload unprofiled.
  const worker = await WorkerTarget.next(cdp, true, 60_000, start);
  if (!worker) return null;
  await worker.call('Profiler.enable');
  await worker.call('Profiler.setSamplingInterval', { interval: 500 });
  await worker.call('Profiler.start');
  await worker.call('Runtime.runIfWaitingForDebugger');
  return async () => {
    const { profile } = await worker.call<{ profile: CpuProfile }>('Profiler.stop').finally(() => worker.close());
    await cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: false });
    fs.writeFileSync(file, JSON.stringify(profile));
    return profile;
  };
}

/** "server 0.9, Chromium GPU process 0.4, … (1.9 of 2 cores)". */
function cpuShareLine(share: CpuShare): string {
  const groups = Object.entries(share.coresByGroup)
    .filter(([, cores]) => cores >= 0.01)
    .map(([group, cores]) => `${group} ${cores}`);
  return `${groups.join(', ')} (${share.busyCores} of ${share.cores} cores)`;
}

/** What a realm's performance timeline holds: its time origin, its calls and files, its marks. */
interface Timeline {
  origin: number;
  calls: { name: string; start: number; firstByte: number; end: number; bytes: number }[];
  marks: { name: string; at: number }[];
  /** The page's navigation: its document's response end and DOMContentLoaded end (null in a worker). */
  navigation: { responseEnd: number; domContentLoaded: number } | null;
}

/** Runs in the page and in the worker: plain JavaScript text, as FIRST_SCREEN_SCRIPT (why there). */
const READ_TIMELINE = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    origin: performance.timeOrigin,
    calls: performance.getEntriesByType('resource').map((r) => ({ name: r.name, start: r.startTime, firstByte: r.responseStart, end: r.responseEnd, bytes: r.encodedBodySize })),
    marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })),
    navigation: nav ? { responseEnd: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd } : null,
  };
})()`;

/**
 * The reload's calls and files (Resource Timing of the page and of the live worker), the page's
 * navigation and the loader's `lightbar:` marks, in the page's `performance.now()` ms (the
 * worker's clock starts later: its time origin is moved onto the page's), in the order they began.
 */
/** A realm's timeline ('page', or the live 'worker'), with the shift of its clock onto the page's. */
interface Realm {
  timeline: Timeline;
  where: 'page' | 'worker';
  shift: number;
}

/** The page's timeline and the live worker's (left out when it cannot be read), both on the page's clock. */
async function readTimelines(page: Page): Promise<{ own: Timeline; realms: Realm[] }> {
  const own = (await page.evaluate(READ_TIMELINE)) as Timeline;
  let live: Timeline | null = null;
  for (const worker of page.workers()) {
    const seen = (await worker.evaluate(READ_TIMELINE).catch(() => null)) as Timeline | null;
    if (seen?.marks.some((m) => m.name.startsWith('lightbar:'))) live = seen;
  }
  const realms: Realm[] = [{ timeline: own, where: 'page', shift: 0 }];
  if (live) realms.push({ timeline: live, where: 'worker', shift: live.origin - own.origin });
  return { own, realms };
}

/** The app's own files and the map's tiles (each logged as one entry); null for an API call. */
const fileKind = (url: URL): 'files' | 'tiles' | null =>
  url.pathname.startsWith('/assets/') ? 'files' : /\.(png|mvt|pbf)$/.test(url.pathname) ? 'tiles' : null;

/** A call's path as the timelines name it: its page of the fleet, and ` since` for an incremental one. */
function callName(where: string, url: URL): string {
  const pageNo = url.searchParams.get('page');
  const incremental = url.searchParams.has('last_updated_timestamp') ? ' since' : '';
  return `${where} ${url.pathname}${pageNo ? ` p${pageNo}×${url.searchParams.get('per_page')}` : ''}${incremental}`;
}

/**
 * The API calls the page and the live worker began at or after `fromMs` (the page's clock), each
 * path with how many times (its pages apart): what the dashboard asked of the server in the window.
 */
async function callsSince(page: Page, fromMs: number): Promise<string[]> {
  const { realms } = await readTimelines(page);
  const counts = new Map<string, number>();
  for (const { timeline, where, shift } of realms) {
    for (const c of timeline.calls) {
      const url = new URL(c.name);
      if (c.start + shift < fromMs || fileKind(url)) continue;
      const name = callName(where, url).replace(/ p\d+×/, ' p×');
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return [...counts].map(([name, count]) => `${name} ×${count}`);
}

async function reloadTimeline(page: Page): Promise<string[]> {
  const { own, realms } = await readTimelines(page);
  const entries: { at: number; text: string }[] = [];
  if (own.navigation) {
    entries.push({ at: own.navigation.responseEnd, text: `document ${Math.round(own.navigation.responseEnd)}` });
    entries.push({ at: own.navigation.domContentLoaded, text: `DOMContentLoaded ${Math.round(own.navigation.domContentLoaded)}` });
  }
  for (const { timeline, where, shift } of realms) {
    const ms = (t: number) => Math.round(t + shift);
    // The app's files and the map's tiles as one entry each: how many, when the last was done.
    const files = new Map<string, { count: number; done: number }>();
    for (const c of timeline.calls) {
      const url = new URL(c.name);
      const kind = fileKind(url);
      if (kind) {
        const seen = files.get(kind) ?? { count: 0, done: 0 };
        files.set(kind, { count: seen.count + 1, done: Math.max(seen.done, c.end + shift) });
        continue;
      }
      const what = callName(where, url);
      entries.push({
        at: c.start + shift,
        text: `${what} ${ms(c.start)}→${ms(c.firstByte)}→${ms(c.end)} (${Math.round(c.bytes / 1024)} KiB)`,
      });
    }
    for (const [kind, { count, done }] of files) entries.push({ at: done, text: `${where} ${count} ${kind} done ${Math.round(done)}` });
    for (const m of timeline.marks.filter((mark) => mark.name.startsWith('lightbar:'))) {
      entries.push({ at: m.at + shift, text: `${m.name.slice('lightbar:'.length)} ${ms(m.at)}` });
    }
  }
  return entries.sort((a, b) => a.at - b.at).map((entry) => entry.text);
}

async function readMeasures(page: Page): Promise<LiveMeasureReport> {
  return page.evaluate(async () => {
    const measure = window.lightbarMeasure;
    if (!measure) throw new Error('the dashboard exposes no window.lightbarMeasure');
    return measure.read();
  });
}

/** Waits until the page holds and has drawn all `assets` (phase live): that report, or the last one read when the time is up. */
async function waitForFullMap(
  page: Page,
  assets: number,
  timeoutMs: number,
  /** Called once, at the first reading that found every asset drawn (the load may go on). */
  onDrawn?: () => void,
): Promise<{ full: LiveMeasureReport | null; last: LiveMeasureReport | null }> {
  const deadline = Date.now() + timeoutMs;
  let last: LiveMeasureReport | null = null;
  while (Date.now() < deadline) {
    const report = await readMeasures(page).catch(() => null);
    last = report ?? last;
    if (report && report.total >= assets && report.totalDrawnAt !== null) {
      onDrawn?.();
      onDrawn = undefined;
    }
    if (report && report.phase === 'live' && report.total >= assets && report.totalDrawnAt !== null) return { full: report, last };
    await page.waitForTimeout(250);
  }
  return { full: null, last };
}

/** When a page load's first useful screen came (its `performance.now()`, ms): the Live list's first row, the Events panel's counts. */
interface FirstScreen {
  listMs: number | null;
  eventsMs: number | null;
}

/**
 * Runs in each page load before the app: its long tasks, and when its first useful screen came (the
 * Live list's first asset row, the Events panel's counts), checked once a frame until the one this
 * load waits for came (two queries a frame, nothing per asset). Plain JavaScript text: a function would be sent as its source,
 * and the bench's TypeScript runner adds helper calls (`__name`) to it that the page lacks.
 */
const FIRST_SCREEN_SCRIPT = `(() => {
  const longTasks = [];
  window.longTasks = longTasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  const seen = { listMs: null, eventsMs: null };
  window.firstScreen = seen;
  const wanted = location.pathname.endsWith('/events') ? 'eventsMs' : 'listMs';
  function look() {
    if (seen.listMs === null && document.querySelector('.things-list [data-asset-id]')) seen.listMs = performance.now();
    const counts = document.querySelector('[data-testid="event-counts"]');
    if (seen.eventsMs === null && counts && /^Active Events \\d+/.test(counts.textContent || '')) seen.eventsMs = performance.now();
    // Each reload waits for one of the two (the Events panel at /dashboard/events, the Live list
    // elsewhere): once it came the loop ends, so it adds no work to the measured window.
    if (seen[wanted] === null) requestAnimationFrame(look);
  }
  requestAnimationFrame(look);
})();`;

async function waitForFirstScreen(page: Page, part: keyof FirstScreen, timeoutMs: number): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const at = await page
      .evaluate((key) => (window as unknown as { firstScreen?: FirstScreen }).firstScreen?.[key] ?? null, part)
      .catch(() => null);
    if (at !== null) return Math.round(at);
    if (Date.now() >= deadline) return null;
    await page.waitForTimeout(100);
  }
}

async function firstVisit(browser: Browser, url: string, compressed: boolean, timeoutMs: number): Promise<FirstVisit> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: FIRST_VISIT_LINK.latencyMs,
      downloadThroughput: (FIRST_VISIT_LINK.downMbit * 1_000_000) / 8,
      uploadThroughput: (FIRST_VISIT_LINK.upMbit * 1_000_000) / 8,
    });
    if (!compressed) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    let bytes = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      bytes += event.encodedDataLength;
      requests += 1;
    });
    await signInBeforeLoad(page, url, APP_BENCH_USER, APP_BENCH_PASSWORD);
    await page.addInitScript({ content: FIRST_SCREEN_SCRIPT });
    await page.goto(`${url}/dashboard`, { waitUntil: 'commit', timeout: timeoutMs });
    const firstScreenMs = await waitForFirstScreen(page, 'listMs', timeoutMs);
    return { compressed, bytes, requests, firstScreenMs };
  } finally {
    await context.close();
  }
}

/** One line per first visit (bench:app's output). */
export function firstVisitLine(visit: FirstVisit): string {
  const link = `${FIRST_VISIT_LINK.downMbit} Mbit/s, ${FIRST_VISIT_LINK.latencyMs} ms`;
  const screen = visit.firstScreenMs === null ? 'no first screen' : `first screen ${visit.firstScreenMs} ms`;
  return `first visit, cold cache, ${link}, ${visit.compressed ? 'compressed' : 'uncompressed'}: ${round1(visit.bytes / 1_000_000)} MB in ${visit.requests} requests, ${screen}`;
}

async function benchRow(browser: Browser, assets: number, options: AppBenchOptions, measureFirstVisit = false): Promise<AppBenchRow> {
  const log = options.log ?? (() => undefined);
  const rate = Math.min(assets, options.rateCap);
  log(`${assets} assets: preparing the data`);
  const data = await prepareData(assets, options.databaseUrl);
  const servers: SpawnedServer[] = [];
  const processes = options.databaseUrl && options.natsUrl ? 2 : 1;
  const abort = new AbortController();
  let load: Promise<LoadSummary> | null = null;
  try {
    await startBenchServers(data, processes, options.natsUrl, servers);
    const url = servers[0]!.url;
    const visits: FirstVisit[] = [];
    if (measureFirstVisit) {
      for (const compressed of [false, true]) {
        visits.push(await firstVisit(browser, url, compressed, options.loadTimeoutS * SECOND_MS));
        log(`${assets} assets: ${firstVisitLine(visits.at(-1)!)}`);
      }
    }
    // With two processes the devices' messages reach the dashboard's server over NATS.
    const ingestUrl = servers.at(-1)!.url;
    const rss = () => servers.reduce((sum, server) => sum + rssOf(server.pid), 0);
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url, { timeout: options.loadTimeoutS * SECOND_MS });
    await signIn(page, APP_BENCH_USER, APP_BENCH_PASSWORD);
    log(`${assets} assets: signed in, first load`);
    const unloaded = await waitForFullMap(page, assets, options.loadTimeoutS * SECOND_MS);
    const firstLoadMs = unloaded.full?.totalDrawnAt ?? null;
    if (!unloaded.full) throw new Error(`the dashboard did not hold ${assets} assets within ${options.loadTimeoutS} s (first sign-in)`);
    const renderer = await rendererOf(page);

    log(`${assets} assets: load driver at ${rate} msg/s`);
    let rssMax = 0;
    let sending: () => void = () => undefined;
    const firstSecond = new Promise<void>((resolve) => (sending = resolve));
    load = runLoad({
      url: ingestUrl,
      assets,
      rate,
      seconds: 600,
      org: APP_BENCH_ORG,
      user: APP_BENCH_USER,
      password: APP_BENCH_PASSWORD,
      maxInFlight: 8,
      signal: abort.signal,
      onSecond: () => {
        sending();
        rssMax = Math.max(rssMax, rss());
      },
    });
    // The driver's setup (sign-in, the fleet's pages, a key), then a few seconds at the rate.
    await Promise.race([firstSecond, load]);
    await page.waitForTimeout(3_000);

    // Reloads with the sign-in remembered, under the load, each recording its long tasks and first useful screen.
    await page.addInitScript({ content: FIRST_SCREEN_SCRIPT });
    // The Events panel first (a reload at /dashboard/events), then the Live list and the full map.
    await page.goto(`${url}/dashboard/events`, { waitUntil: 'commit', timeout: options.loadTimeoutS * SECOND_MS });
    const firstEventsMs = await waitForFirstScreen(page, 'eventsMs', options.loadTimeoutS * SECOND_MS);
    log(`${assets} assets: events panel ${firstEventsMs ?? '–'} ms after a reload under load`);
    const named = new Map<number, string>([
      ...servers.map((server): [number, string] => [server.pid, 'server']),
      [process.pid, 'bench (load driver, Playwright)'],
    ]);
    let reloadCpu: CpuShare | null = null;
    const stopReloadCpu = startCpuShare(named);
    const reload = () => page.goto(`${url}/dashboard/things`, { waitUntil: 'commit', timeout: options.loadTimeoutS * SECOND_MS });
    const stopReloadProfile = options.profile
      ? await startCpuProfile(cdp, 500, path.join(options.profile, `app-${assets}-reload-page.cpuprofile`))
      : null;
    const stopWorkerProfile = options.profile
      ? await profileNextWorker(cdp, path.join(options.profile, `app-${assets}-reload-worker.cpuprofile`), reload)
      : (await reload(), null);
    // Under load the app's files may take long to come: the page's own measure says when the map is full.
    log(`${assets} assets: reloaded under load`);
    const { full, last } = await waitForFullMap(page, assets, options.loadTimeoutS * SECOND_MS, () => (reloadCpu = stopReloadCpu()));
    const firstListMs = await waitForFirstScreen(page, 'listMs', SECOND_MS);
    const timeline = await reloadTimeline(page);
    log(
      `${assets} assets: the reload's calls and marks (page ms): ${timeline.join('; ')}; full map drawn ${full ? Math.round(full.totalDrawnAt!) : '–'}`,
    );
    if (!full) {
      const shot = path.join(os.tmpdir(), `lightbar-bench-app-${assets}-not-loaded.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      log(
        `${assets} assets: no full map ${options.loadTimeoutS} s after the reload (screenshot ${shot}; last reading ${JSON.stringify(
          await readMeasures(page)
            .then((r) => ({ ...r, batchMs: r.batchMs.length }))
            .catch((e: Error) => e.message),
        )})`,
      );
    }
    const firstFullMapMs = full ? Math.round(full.totalDrawnAt!) : null;
    const reloadWorkerTop = stopWorkerProfile ? profileTop(await stopWorkerProfile(), 25) : undefined;
    const reloadPageTop = stopReloadProfile ? profileTop(await stopReloadProfile(), 25) : undefined;
    if (reloadWorkerTop)
      log(`${assets} assets: the worker's functions by self time, from the reload to the load's end: ${JSON.stringify(reloadWorkerTop)}`);
    if (reloadPageTop)
      log(`${assets} assets: the page's functions by self time, from the reload to the load's end: ${JSON.stringify(reloadPageTop)}`);
    await page.waitForTimeout(options.settleS * SECOND_MS);

    log(`${assets} assets: measuring ${options.windowS} s`);
    await page.evaluate(async () => window.lightbarMeasure!.start());
    const windowFromMs = await page.evaluate(() => performance.now());
    const longTasksBefore = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.length);
    const stopTrace = options.profile ? await startTrace(browser, page, path.join(options.profile, `app-${assets}.trace.json`)) : null;
    const stopProfile = options.profile ? await startCpuProfile(cdp, 500, path.join(options.profile, `app-${assets}.cpuprofile`)) : null;
    const before = await metricsOf(cdp);
    const stopWindowCpu = startCpuShare(named);
    await page.waitForTimeout(options.windowS * SECOND_MS);
    const after = await metricsOf(cdp);
    const windowCpu = stopWindowCpu();
    log(`${assets} assets: cores used in the window: ${cpuShareLine(windowCpu)}`);
    if (reloadCpu) log(`${assets} assets: cores used from the reload to the full map: ${cpuShareLine(reloadCpu)}`);
    let profiled: Pick<AppBenchRow, 'insideLongTasks' | 'profileTop'> = {};
    if (stopTrace && stopProfile) {
      const profile = await stopProfile();
      profiled = { insideLongTasks: await stopTrace(), profileTop: profileTop(profile, 20) };
    }
    const report = await readMeasures(page);
    const windowCalls = await callsSince(page, windowFromMs).catch((error: Error) => [`not read: ${error.message}`]);
    log(
      `${assets} assets: the window's calls: ${windowCalls.join('; ') || 'none'}; ${report.diffs} diffs, ${report.batchMs.length} batches`,
    );
    const allLongTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const windowLongTasks = allLongTasks.slice(longTasksBefore);
    rssMax = Math.max(rssMax, rss());
    abort.abort();
    const summary = await load;
    load = null;
    await page.evaluate(async () => window.lightbarMeasure!.stop());
    if (options.screenshots) await page.screenshot({ path: path.join(options.screenshots, `app-${assets}.png`) });

    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const pageHeap = ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    const workerHeap = await workerHeapBytes(cdp);
    await page.close();

    const windowS = after.Timestamp! - before.Timestamp! || options.windowS;
    const taskMsPerS = ((after.TaskDuration! - before.TaskDuration!) * 1000) / windowS;
    const batches = [...report.batchMs].sort((a, b) => a - b);
    let fairP50: number | null = null;
    let fairP95: number | null = null;
    if (options.fair) {
      log(`${assets} assets: the fair main-thread pipeline at ${rate} msg/s`);
      const wires = syntheticFleet(assets, Date.UTC(2026, 10, 22, 12)).map((wire) => thingWireSchema.parse(wire));
      const fair = benchFairBaseline(wires, 12, rate);
      fairP50 = fair.totalP50;
      fairP95 = fair.totalP95;
    }
    return {
      assets,
      engine: options.databaseUrl ? 'postgres' : 'pglite',
      processes,
      rate,
      achievedRate: summary.achievedRate,
      ingestP50Ms: summary.p50Ms,
      ingestP99Ms: summary.p99Ms,
      notAccepted: summary.sent - summary.accepted,
      firstFullMapMs,
      pages: full?.pages.total ?? last?.pages.total ?? 0,
      pagesLoaded: full?.pages.loaded ?? last?.pages.loaded ?? 0,
      firstLoadUnloadedMs: firstLoadMs === null ? null : Math.round(firstLoadMs),
      firstListMs,
      firstEventsMs,
      windowS: round1(windowS),
      mainBusyPct: round1(taskMsPerS / 10),
      scriptMsPerS: round1(((after.ScriptDuration! - before.ScriptDuration!) * 1000) / windowS),
      taskMsPerS: round1(taskMsPerS),
      longTasks: windowLongTasks.length,
      longestTaskMs: round1(Math.max(0, ...windowLongTasks)),
      longTasksSinceReload: allLongTasks.length,
      batches: batches.length,
      batchP50Ms: round1(percentile(batches, 50)),
      batchP95Ms: round1(percentile(batches, 95)),
      stalenessP50Ms: report.staleness?.p50 ?? null,
      stalenessP99Ms: report.staleness?.p99 ?? null,
      positionsDrawn: report.staleness?.positions ?? 0,
      diffsPerS: round1(report.diffs / windowS),
      pageHeapMiB: mib(pageHeap),
      workerHeapMiB: workerHeap === null ? null : mib(workerHeap),
      heapMiB: mib(pageHeap + (workerHeap ?? 0)),
      serverRssMiB: rssMax,
      fairMsPerSP50: fairP50,
      fairMsPerSP95: fairP95,
      // No ratio for a page that never held the fleet: its main thread had nothing to do.
      fairRatio: fairP50 === null || taskMsPerS === 0 || !full ? null : Number((fairP50 / taskMsPerS).toPrecision(2)),
      renderer,
      reloadTimeline: timeline,
      windowCalls,
      ...profiled,
      reloadWorkerTop,
      reloadPageTop,
      reloadCpu,
      windowCpu,
      ...(visits.length > 0 ? { firstVisit: visits } : {}),
    };
  } finally {
    abort.abort();
    await load?.catch(() => undefined);
    for (const server of servers) await server.stop();
    await data.cleanup();
  }
}

export async function runAppBench(partial: Partial<AppBenchOptions> = {}): Promise<AppBenchRow[]> {
  const options = { ...APP_BENCH_DEFAULTS, ...partial };
  if (!fs.existsSync(path.join(ROOT_DIR, 'dist', 'index.html')))
    throw new Error('No built dashboard in dist/: run `npm run build` first (npm run bench:app does).');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: launchArgs() });
  const rows: AppBenchRow[] = [];
  try {
    for (const assets of options.sizes) {
      try {
        rows.push(await benchRow(browser, assets, options, rows.length === 0 && options.firstVisit !== false));
      } catch (error) {
        options.log?.(`${assets} assets: the row failed: ${(error as Error).message.split('\n')[0]}`);
      }
      options.onRow?.(rows);
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/**
 * The first useful screen's target after a reload (bench/README.md "Application bench"): the Live list and the
 * Events panel within 1.5 s up to 2,000 assets, within 3 s above (the target names 50,000).
 */
export function firstScreenTargetMs(assets: number): number {
  return assets <= 2_000 ? 1_500 : 3_000;
}

/** The targets of 100,000 assets at 20,000 messages/s and of the first useful screen (bench/README.md "Application bench"): what a row misses. */
export function missedTargets(row: AppBenchRow): string[] {
  const missed: string[] = [];
  const screen = firstScreenTargetMs(row.assets);
  if (row.firstListMs === null || row.firstListMs > screen)
    missed.push(`Live list ${row.firstListMs ?? '–'} ms after a reload (≤ ${screen})`);
  if (row.firstEventsMs === null || row.firstEventsMs > screen)
    missed.push(`Events panel ${row.firstEventsMs ?? '–'} ms after a reload (≤ ${screen})`);
  if (row.mainBusyPct > 10) missed.push(`main thread ${row.mainBusyPct} % busy (≤ 10 %)`);
  if (row.longTasks > 0) missed.push(`${row.longTasks} long tasks after load (none)`);
  if (row.batchP95Ms > 250) missed.push(`worker batch p95 ${row.batchP95Ms} ms (≤ 250)`);
  if (row.stalenessP99Ms === null || row.stalenessP99Ms > 1_500) missed.push(`map staleness p99 ${row.stalenessP99Ms ?? '–'} ms (≤ 1,500)`);
  if (row.firstFullMapMs === null || row.firstFullMapMs > 5_000) missed.push(`first full map ${row.firstFullMapMs ?? '–'} ms (≤ 5,000)`);
  if (row.heapMiB > 200) missed.push(`heap ${row.heapMiB} MiB (≤ 200)`);
  return missed;
}

export function appBenchTable(rows: readonly AppBenchRow[]): string {
  const head =
    '| assets | database, processes | msg/s asked | achieved | ingest p99 ms | first full map ms: sign-in, no load / reload under load | Live list / Events panel ms after a reload | main thread busy % | long tasks (longest ms) | worker batch p50 / p95 ms | map staleness p50 / p99 ms | heap MiB (page + worker) | server RSS MiB | fair pipeline ms/s | ratio |\n' +
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const lines = rows.map(
    (r) =>
      `| ${r.assets} | ${r.engine === 'postgres' ? 'Postgres + NATS' : 'PGlite'}, ${r.processes} | ${r.rate} | ${r.achievedRate} | ${r.ingestP99Ms} | ${r.firstLoadUnloadedMs ?? '–'} / ${r.firstFullMapMs ?? `– (${r.pagesLoaded} of ${r.pages} pages)`} | ${r.firstListMs ?? '–'} / ${r.firstEventsMs ?? '–'} | ${r.mainBusyPct} | ${r.longTasks} (${r.longestTaskMs}) | ${r.batchP50Ms} / ${r.batchP95Ms} | ${r.stalenessP50Ms ?? '–'} / ${r.stalenessP99Ms ?? '–'} | ${r.heapMiB} (${r.pageHeapMiB} + ${r.workerHeapMiB ?? '–'}) | ${r.serverRssMiB} | ${r.fairMsPerSP50 ?? '–'} | ${r.fairRatio === null ? '–' : `${r.fairRatio} : 1`} |`,
  );
  return [head, ...lines].join('\n');
}
