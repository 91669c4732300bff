/**
 * The production topology on this machine (docs/deployment.md): Debian's nginx, run on
 * deploy/nginx.conf (the template compose.yaml's proxy runs, filled with this test's addresses), in
 * front of two real server processes on one Postgres database and the machine's NATS, TRUST_PROXY
 * set to the proxy. Docker cannot run here; this stands in for `docker compose up`:
 * (a) Chromium signs in through the proxy and reaches the Live dashboard;
 * (b) the page's live socket upgrades through the proxy and carries a position posted to the other process;
 * (c) a device posts through the proxy;
 * (e) the per-client sign-in limit sees each client behind the proxy, not the proxy;
 * (d) the process holding the page's socket, and taking a device's stream through the proxy, is
 *     killed (SIGKILL) in the middle of that stream: the page stays signed in, its socket reconnects
 *     through the proxy to the other process and carries the positions posted after the kill; the
 *     positions acknowledged a flush or more before the kill are in the database. (Those of the
 *     last second may not be: POST /ingest answers once a position is in the process's memory and
 *     the once-a-second flush writes it; docs/operations.md "Stopping" says so. A stop, SIGTERM,
 *     loses none: tests/security/ops-graceful-stop.test.ts.)
 * Runs under `npm run test:pg` (Postgres and NATS); skipped, saying why, without them or without nginx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../server/config';
import { hashToken } from '../../server/auth/secrets';
import { openDatabase } from '../../server/db/connection';
import { apiKeys, users } from '../../server/db/schema';
import { CHROMIUM, SOFTWARE_GL_ARGS } from '../support/chromium';
import { FAULT_EMAIL, FAULT_PASSWORD, ingestPoint, seedFaultFleet, type FaultFleet } from '../support/fault-seed';
import { freePort, spawnServer, type SpawnedServer } from '../support/spawn-server';
import { createScratchDatabase } from '../support/test-db';
import { sleep, until, untilAsync } from '../support/until';
import { fillNginxTemplate } from '../deploy/nginx-template';

const NGINX = '/usr/sbin/nginx';
const adminUrl = process.env.TEST_DATABASE_URL;
const natsUrl = process.env.TEST_NATS_URL;
const skipReason =
  process.env.LIGHTBAR_TEST_ENGINE !== 'postgres'
    ? 'LIGHTBAR_TEST_ENGINE is not postgres (`npm run test:pg` runs it)'
    : !adminUrl || !natsUrl
      ? 'TEST_DATABASE_URL and TEST_NATS_URL are not both set'
      : !fs.existsSync(NGINX)
        ? `${NGINX} is missing (apt-get install nginx)`
        : !fs.existsSync(CHROMIUM)
          ? `${CHROMIUM} is missing`
          : null;

const START_TIMEOUT_MS = 60_000;
/** `vite build`, when dist/ is missing or older than the sources. */
const BUILD_TIMEOUT_MS = 180_000;
/** The page's first load, sign-in and the Live section's chunk, in software WebGL on a busy machine. */
const PAGE_TIMEOUT_MS = 45_000;
/** A live message from a post to its socket, through NATS and the proxy. */
const DELIVERY_MS = 10_000;
/** The page's socket back after its process died: closed at once, then its first retry after 1 s. */
const RECONNECT_MS = 20_000;
/** The sign-in limit the processes run with. */
const AUTH_RATE_LIMIT = 3;
/** Positions acknowledged before the kill, at least, and for how long the stream runs before it. */
const ACKED_BEFORE_KILL = 12;
const STREAM_BEFORE_KILL_MS = 3_000;
/** The ingest writes trip points once a second: what was acknowledged this long before the kill is written. */
const FLUSH_MARGIN_MS = 2_000;
const STREAM_EVERY_MS = 50;
/**
 * API keys of the fleet's organization: the proxy sends each key's posts to one process
 * (deploy/nginx.conf); none of 24 reaching a given one of two processes is a chance in 16 million.
 */
const STREAM_KEYS = Array.from({ length: 24 }, (_, i) => `lb_proxy_test_key_${String(i).padStart(6, '0')}`);

/** Debian's nginx on deploy/nginx.conf, in the foreground, with a temp folder as its prefix. */
class Proxy {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-proxy-'));
  private child: ChildProcess | null = null;
  private log = '';
  constructor(readonly port: number) {
    // nginx's workers drop root: they must reach the temp folders under the prefix.
    fs.chmodSync(this.dir, 0o755);
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  /** nginx's error log and the end of its access log. */
  output(): string {
    const access = fs.readFileSync(path.join(this.dir, 'access.log'), 'utf8');
    return `${this.log}\n${access.slice(-20_000)}`;
  }
  async start(upstreams: [string, string]): Promise<void> {
    const conf = path.join(this.dir, 'nginx.conf');
    fs.writeFileSync(
      conf,
      fillNginxTemplate({
        LIGHTBAR_PROXY_PORT: `127.0.0.1:${this.port}`,
        LIGHTBAR_UPSTREAM_1: upstreams[0],
        LIGHTBAR_UPSTREAM_2: upstreams[1],
      }),
    );
    // The access log goes to /dev/stdout, which nginx opens anew: a file here (a pipe of Node's is a socket, which cannot be opened).
    const accessLog = fs.openSync(path.join(this.dir, 'access.log'), 'a');
    const child = spawn(NGINX, ['-p', `${this.dir}/`, '-c', conf, '-e', 'stderr', '-g', `daemon off; pid ${this.dir}/nginx.pid;`], {
      stdio: ['ignore', accessLog, 'pipe'],
    });
    fs.closeSync(accessLog);
    this.child = child;
    child.stderr!.on('data', (chunk: Buffer) => (this.log = (this.log + chunk.toString()).slice(-50_000)));
    await untilAsync(
      async () => {
        if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${this.output()}`);
        return fetch(`${this.url}/health`).then(
          (answer) => answer.status === 200,
          () => false,
        );
      },
      'nginx to answer /health',
      10_000,
      50,
    );
  }
  /** SIGTERM: nginx's fast stop (its workers exit with it); then the temp folder goes. */
  async remove(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The page's live sockets, as Chromium reports them (the live worker's socket included), and the positions each carried. */
interface PageSocket {
  url: string;
  subscribed: boolean;
  closed: boolean;
  lats: Set<number>;
}

function watchSockets(page: Page): PageSocket[] {
  const sockets: PageSocket[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith('/cable')) return;
    const socket: PageSocket = { url: ws.url(), subscribed: false, closed: false, lats: new Set() };
    sockets.push(socket);
    ws.on('framereceived', ({ payload }) => {
      let frame: { type?: string; message?: unknown; messages?: unknown[] };
      try {
        frame = JSON.parse(payload.toString()) as typeof frame;
      } catch {
        return;
      }
      if (frame.type === 'confirm_subscription') socket.subscribed = true;
      for (const message of [frame.message, ...(frame.messages ?? [])]) {
        const point = message as { type?: string; lat?: number } | undefined;
        if (point?.type === 'point' && typeof point.lat === 'number') socket.lats.add(point.lat);
      }
    });
    ws.on('close', () => (socket.closed = true));
  });
  return sockets;
}

/** Open live sockets on one process (its /metrics, read directly, never through the proxy). */
async function cableConnections(server: SpawnedServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^lightbar_cable_connections (\d+)/m.exec(text)?.[1] ?? NaN);
}

/** The newest modification time under `dir`, ms. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The built app the processes serve: dist/ when it is newer than the sources (as `npm start` judges
 * it), else a fresh `vite build` into `scratchDir` (a fresh checkout has no dist/: `npm run test:pg`
 * runs before the end-to-end phase builds it).
 */
async function builtApp(scratchDir: string): Promise<string> {
  const dist = path.join(ROOT_DIR, 'dist');
  const index = path.join(dist, 'index.html');
  const sources = Math.max(newestMtime(path.join(ROOT_DIR, 'src')), fs.statSync(path.join(ROOT_DIR, 'index.html')).mtimeMs);
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= sources) return dist;
  const out = path.join(scratchDir, 'dist');
  const vite = path.join(ROOT_DIR, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(process.execPath, [vite, 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`vite build failed (${code}):\n${output}`);
  return out;
}

/** A distinct latitude per position, exact in JSON and in the database. */
const latOf = (n: number) => Number((30.3 + n / 10_000).toFixed(4));

describe.skipIf(skipReason !== null)(`two server processes behind nginx${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let scratch: { url: string; drop(): Promise<void> };
  let fleet: FaultFleet;
  const servers: SpawnedServer[] = [];
  const dataDirs: string[] = [];
  let proxy: Proxy;
  let browser: Browser | undefined;
  let page: Page;
  let sockets: PageSocket[] = [];
  let nextLat = 0;

  let buildDir = '';

  beforeAll(
    async () => {
      buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-proxy-app-'));
      const distDir = await builtApp(buildDir);
      scratch = await createScratchDatabase(adminUrl!, 'lightbar_proxy');
      const seeding = await openDatabase({ url: scratch.url });
      fleet = await seedFaultFleet(seeding.db, 1);
      const [user] = await seeding.db.select().from(users).where(eq(users.email, FAULT_EMAIL));
      await seeding.db.insert(apiKeys).values(
        STREAM_KEYS.map((key) => ({
          userId: user!.id,
          organizationId: fleet.organizationId,
          description: 'proxy topology',
          tokenHash: hashToken(key),
          tokenPrefix: key.slice(0, 6),
        })),
      );
      await seeding.close();
      const start = () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-proxy-proc-'));
        dataDirs.push(dir);
        return spawnServer(
          {
            PORT: '0',
            DATABASE_URL: scratch.url,
            NATS_URL: natsUrl,
            LIGHTBAR_DEMO: '0',
            SIM_ASSETS: '0',
            DATA_DIR: dir,
            DIST_DIR: distDir,
            TRUST_PROXY: '127.0.0.1',
            AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT),
          },
          START_TIMEOUT_MS,
        );
      };
      servers.push(...(await Promise.all([start(), start()])));
      proxy = new Proxy(await freePort());
      await proxy.start([new URL(servers[0]!.url).host, new URL(servers[1]!.url).host]);
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: SOFTWARE_GL_ARGS });
      page = await browser.newPage();
      sockets = watchSockets(page);
    },
    BUILD_TIMEOUT_MS + START_TIMEOUT_MS + 30_000,
  );

  afterAll(async () => {
    await browser?.close();
    await proxy?.remove();
    await Promise.all(servers.map((server) => server.kill()));
    await scratch?.drop();
    for (const dir of [...dataDirs, buildDir].filter(Boolean)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (base: string, lat: number) => ingestPoint(base, fleet.things[0]!.haasId, lat);

  /** One device message of the fleet's asset, posted with `key`. */
  async function ingest(base: string, key: string, message: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    const answer = await fetch(`${base}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ messages: [{ haas_id: fleet.things[0]!.haasId, timestamp: new Date().toISOString(), ...message }] }),
    });
    return { status: answer.status, body: await answer.json().catch(() => null) };
  }

  /** Device messages a process accepted so far (its /metrics). */
  async function accepted(server: SpawnedServer): Promise<number> {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/^lightbar_ingest_messages_total\{result="accepted"\} (\d+)/m.exec(text)?.[1] ?? NaN);
  }

  /** An API key whose posts the proxy sends to `server` (a heartbeat through the proxy, counted there). */
  async function keyOn(server: SpawnedServer): Promise<string> {
    for (const key of STREAM_KEYS) {
      const count = await accepted(server);
      expect((await ingest(proxy.url, key, { type: 'heartbeat' })).status).toBe(200);
      if ((await accepted(server)) > count) return key;
    }
    throw new Error(`none of ${STREAM_KEYS.length} API keys reached ${server.url} through the proxy`);
  }
  const liveSocket = () => sockets.findLast((socket) => !socket.closed && socket.subscribed);

  /** The process holding the page's one socket, read from both processes' metrics. */
  async function socketHolder(): Promise<SpawnedServer> {
    let holder: SpawnedServer | undefined;
    await untilAsync(
      async () => {
        const counts = await Promise.all(servers.map(cableConnections));
        holder = counts[0] === 1 && counts[1] === 0 ? servers[0] : counts[0] === 0 && counts[1] === 1 ? servers[1] : undefined;
        return holder !== undefined;
      },
      'one live socket on one process',
      DELIVERY_MS,
      100,
    );
    return holder!;
  }

  it(
    'a browser signs in through the proxy and reaches Live; its socket upgrades through the proxy and carries positions',
    async () => {
      // (a) The sign-in form, as a user fills it, served and answered through the proxy.
      await page.goto(proxy.url);
      await page.getByLabel('Email').fill(FAULT_EMAIL, { timeout: PAGE_TIMEOUT_MS });
      await page.getByLabel('Password', { exact: true }).fill(FAULT_PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(/\/dashboard\/things$/, { timeout: PAGE_TIMEOUT_MS });
      await page.getByRole('heading', { level: 1, name: 'Live' }).waitFor({ timeout: PAGE_TIMEOUT_MS });

      // (b) The live worker's socket went through the proxy and was upgraded and subscribed.
      await until(() => liveSocket() !== undefined, 'the page socket subscribed', PAGE_TIMEOUT_MS, 50);
      expect(liveSocket()!.url).toBe(`${proxy.url.replace('http', 'ws')}/cable`);
      const holder = await socketHolder();
      const other = servers.find((server) => server !== holder)!;
      // A position posted to the other process reaches the page through NATS and the proxied socket.
      const fannedOut = latOf(nextLat++);
      expect((await post(other.url, fannedOut)).status).toBe(200);
      await until(() => liveSocket()?.lats.has(fannedOut) === true, 'a position from the other process on the page', DELIVERY_MS, 50);

      // (c) A device posts through the proxy.
      const proxied = latOf(nextLat++);
      const answer = await post(proxy.url, proxied);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ accepted: 1 });
      await until(() => liveSocket()?.lats.has(proxied) === true, 'a position posted through the proxy on the page', DELIVERY_MS, 50);
    },
    PAGE_TIMEOUT_MS * 2,
  );

  it('the per-client sign-in limit sees each client behind the proxy', async () => {
    // The proxy appends the address it saw to what the client sent; the servers trust the proxy's
    // address only, so the client's own entry counts: two clients here, both connecting from 127.0.0.1.
    const attempt = async (client: string, email: string) =>
      (
        await fetch(`${proxy.url}/user_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: email, password: 'not-the-password' }),
        })
      ).status;
    const first: number[] = [];
    for (let n = 0; n <= AUTH_RATE_LIMIT; n += 1) first.push(await attempt('198.51.100.7', 'nobody-7@example.com'));
    // A wrong password is 400 invalid_grant; the limit's refusal 429.
    expect(first).toEqual([...Array<number>(AUTH_RATE_LIMIT).fill(400), 429]);
    expect(await attempt('198.51.100.8', 'nobody-8@example.com')).toBe(400);
  });

  /** What the kill left: the positions acknowledged before it, and when it came. */
  let ackedBeforeKill: { lat: number; at: number }[] = [];
  let killedAt = Infinity;

  it(
    'a process killed in the middle of a stream: the page stays signed in and its socket reconnects through the proxy to the other',
    async () => {
      const holder = await socketHolder();
      const survivor = servers.find((server) => server !== holder)!;
      const before = liveSocket()!;
      // The device streams through the proxy to the process that holds the page's socket: the proxy
      // sends each API key to one process (deploy/nginx.conf), so pick a key it sends there.
      const key = await keyOn(holder);
      const lights = await ingest(proxy.url, key, { type: 'lights', on: true });
      expect(lights.status).toBe(200);
      const acked: { lat: number; at: number }[] = [];
      let killed: Promise<void> | null = null;
      let streaming = true;
      const stream = (async () => {
        while (streaming) {
          const lat = latOf(nextLat++);
          const answer = await ingest(proxy.url, key, { type: 'point', lat, lng: -97.74, speed: 20 }).catch(() => null);
          if (answer?.status === 200 && (answer.body as { accepted?: number } | null)?.accepted === 1) acked.push({ lat, at: Date.now() });
          // SIGKILL right after an acknowledgement: the kill lands in the middle of the stream.
          if (!killed && acked.length >= ACKED_BEFORE_KILL && Date.now() - acked[0]!.at >= STREAM_BEFORE_KILL_MS) {
            killedAt = Date.now();
            ackedBeforeKill = [...acked];
            killed = holder.kill();
          }
          await sleep(STREAM_EVERY_MS);
        }
      })();
      try {
        await until(() => killed !== null, 'positions acknowledged before the kill', STREAM_BEFORE_KILL_MS + DELIVERY_MS, 20);
        await killed;

        // The page's socket closed with its process, and a new one subscribed through the proxy, on the survivor.
        await until(() => before.closed, 'the page socket closed with its process', DELIVERY_MS, 50);
        await until(() => liveSocket() !== undefined && liveSocket() !== before, 'the page socket back', RECONNECT_MS, 50);
        const after = liveSocket()!;
        expect(after.url).toBe(`${proxy.url.replace('http', 'ws')}/cable`);
        expect(await cableConnections(survivor)).toBe(1);
        // A position acknowledged after the kill (the proxy sent the key's posts to the survivor) reaches the new socket.
        await until(
          () => acked.some((entry) => entry.at > killedAt && after.lats.has(entry.lat)),
          'a position posted after the kill on the page',
          RECONNECT_MS,
          50,
        );

        // Still signed in: the Live section, no sign-in form.
        expect(page.url()).toMatch(/\/dashboard\/things$/);
        expect(await page.getByRole('heading', { level: 1, name: 'Live' }).isVisible()).toBe(true);
        expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
      } finally {
        streaming = false;
        await stream;
      }
    },
    RECONNECT_MS * 3,
  );

  /** The stored positions among `lats`, read once the survivor had time to flush. */
  async function unstored(lats: number[]): Promise<number[]> {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      let missing = lats;
      await untilAsync(
        async () => {
          const stored = new Set((await client.query<{ lat: number }>('SELECT lat FROM points')).rows.map((row) => row.lat));
          missing = lats.filter((lat) => !stored.has(lat));
          return missing.length === 0;
        },
        'the acknowledged positions stored',
        3_000,
        200,
      ).catch(() => undefined);
      return missing;
    } finally {
      await client.end();
    }
  }

  it('every position acknowledged a flush or more before the kill is in the database', async () => {
    const older = ackedBeforeKill.filter((entry) => entry.at < killedAt - FLUSH_MARGIN_MS).map((entry) => entry.lat);
    expect(older.length).toBeGreaterThan(0);
    expect(await unstored(older), `of ${older.length} acknowledged ${FLUSH_MARGIN_MS} ms or more before the kill`).toEqual([]);
  });
});
