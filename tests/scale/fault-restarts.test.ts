/**
 * Scale-out (ARCHITECTURE "Embedded default and scale-out") survives its servers restarting: two
 * server processes on one Postgres database with NATS_URL; NATS restarts, then Postgres stops and
 * starts. While the database is away an answer is a clear 503 (not a hang, not a crash); afterwards
 * writes succeed and a device message posted to process A reaches a socket on process B.
 *
 * The Postgres and NATS here are PRIVATE to this file (a cluster in a temp folder, a nats-server on
 * a free port): the machine's shared servers are used by other suites and must never be restarted.
 * Runs under `npm run test:pg` (tests/scale), where the Postgres binaries and nats-server exist.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventsChannelIdentifier, serverFrameSchema, type LiveMessage } from '../../src/domain/live-message';
import { openDatabase } from '../../server/db/connection';
import { ingestPoint, seedFaultFleet, signInFault, type FaultFleet } from '../support/fault-seed';
import { freePort, spawnServer, type SpawnedServer } from '../support/spawn-server';
import { until, untilAsync } from '../support/until';

const NATS_SERVER = '/usr/sbin/nats-server';
const PG_ROOT = '/usr/lib/postgresql';
const pgBin = fs.existsSync(PG_ROOT)
  ? fs
      .readdirSync(PG_ROOT)
      .sort((a, b) => Number(b) - Number(a))
      .map((version) => path.join(PG_ROOT, version, 'bin'))
      .find((dir) => fs.existsSync(path.join(dir, 'pg_ctl')))
  : undefined;
const enabled = process.env.LIGHTBAR_TEST_ENGINE === 'postgres' && fs.existsSync(NATS_SERVER) && pgBin !== undefined;
/** Postgres refuses to run as root: as root, its commands run as the `postgres` user. */
const asPostgres = process.getuid?.() === 0;

const START_TIMEOUT_MS = 120_000;
/** Bound on one answer while the database is away: long enough for a connect to fail, short of a hang. */
const ANSWER_BOUND_MS = 20_000;
/** Bound for the processes to be back on a restarted NATS (its client waits 2 s between tries). */
const RECOVER_MS = 30_000;

function pgCommand(tool: string, args: string[]): void {
  const command = path.join(pgBin!, tool);
  const result = asPostgres
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

/** A private Postgres cluster: trust auth, on 127.0.0.1 only, no fsync (a throw-away test cluster). */
class PrivatePostgres {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-fault-pg-'));
  constructor(readonly port: number) {}
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}`;
  }
  init(): void {
    if (asPostgres)
      fs.chownSync(
        this.dir,
        Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
        Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
      );
    pgCommand('initdb', ['-D', path.join(this.dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }
  start(): void {
    pgCommand('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }
  stop(): void {
    pgCommand('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }
  remove(): void {
    try {
      this.stop();
    } catch {
      // not running
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A private nats-server on a fixed port, restartable. */
class PrivateNats {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}
  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(this.port)], { stdio: 'ignore' });
    this.child = child;
    await untilAsync(
      () =>
        new Promise<boolean>((resolve) => {
          const probe = net.connect(this.port, '127.0.0.1', () => resolve(probe.end() !== undefined)).on('error', () => resolve(false));
        }),
      'nats-server to listen',
      10_000,
      50,
    );
  }
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
}

describe.runIf(enabled)('two server processes survive restarts of NATS and of Postgres', () => {
  let postgres: PrivatePostgres;
  let nats: PrivateNats;
  let a: SpawnedServer;
  let b: SpawnedServer;
  let fleet: FaultFleet;
  let token = '';
  const dataDirs: string[] = [];

  beforeAll(async () => {
    postgres = new PrivatePostgres(await freePort());
    nats = new PrivateNats(await freePort());
    postgres.init();
    postgres.start();
    await nats.start();
    const admin = new pg.Client({ connectionString: `${postgres.url}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE lightbar');
    await admin.end();
    const databaseUrl = `${postgres.url}/lightbar`;
    const seeding = await openDatabase({ url: databaseUrl });
    fleet = await seedFaultFleet(seeding.db, 1);
    await seeding.close();
    const start = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-fault-proc-'));
      dataDirs.push(dir);
      return spawnServer(
        { PORT: '0', DATABASE_URL: databaseUrl, NATS_URL: nats.url, LIGHTBAR_DEMO: '0', SIM_ASSETS: '0', DATA_DIR: dir },
        START_TIMEOUT_MS,
      );
    };
    [a, b] = await Promise.all([start(), start()]);
    token = await signInFault(a.url);
  }, START_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((proc) => proc.kill()));
    await nats?.stop();
    postgres?.remove();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function socketOn(proc: SpawnedServer) {
    const messages: LiveMessage[] = [];
    const ws = new WebSocket(`${proc.url.replace('http', 'ws')}/cable`, ['actioncable-v1-json', token]);
    let confirmed!: () => void;
    const ready = new Promise<void>((resolve) => (confirmed = resolve));
    ws.on('message', (data) => {
      const frame = serverFrameSchema.parse(JSON.parse(data.toString()));
      if ('type' in frame && frame.type === 'confirm_subscription') confirmed();
      if ('message' in frame && typeof frame.message === 'object') messages.push(frame.message);
    });
    ws.on('open', () => ws.send(JSON.stringify({ command: 'subscribe', identifier: eventsChannelIdentifier(fleet.organizationId) })));
    await ready;
    return { ws, messages, has: (lat: number) => messages.some((m) => m.type === 'point' && m.lat === lat) };
  }

  /** Posts positions to A until one reaches B's socket (the processes reconnect on their own schedule), bounded. */
  async function untilFanOut(client: { has(lat: number): boolean }, base: number): Promise<void> {
    const deadline = Date.now() + RECOVER_MS;
    for (let n = 1; ; n += 1) {
      const lat = base + n / 10_000;
      expect((await ingestPoint(a.url, fleet.things[0]!.haasId, lat)).status).toBe(200);
      const seen = await until(() => client.has(lat), 'fan-out', 1_000, 20).catch(() => false);
      if (seen) return;
      if (Date.now() > deadline) throw new Error(`no position posted to A reached B's socket in ${RECOVER_MS / 1000} s`);
    }
  }

  async function editNickname(
    proc: SpawnedServer,
    nickname: string,
  ): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
    const id = fleet.things[0]!.id;
    const answer = await fetch(`${proc.url}/things/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ id, in_service: true, is_publicly_alerting: true, nickname }),
      signal: AbortSignal.timeout(ANSWER_BOUND_MS),
    });
    return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: await answer.json() };
  }

  /** The status of a socket handshake that is refused (the upgrade never happens). */
  function refusedHandshake(proc: SpawnedServer): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${proc.url.replace('http', 'ws')}/cable`, ['actioncable-v1-json', token]);
      ws.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => reject(new Error('the socket opened while the database was down')));
      ws.on('error', () => undefined);
    });
  }

  it(
    'after NATS restarts, a device message posted to process A reaches a socket on process B',
    async () => {
      const client = await socketOn(b);
      await untilFanOut(client, 30.1);
      await nats.stop();
      await nats.start();
      // Both processes reconnect to NATS and B subscribes again: a position posted to A reaches B's socket.
      await untilFanOut(client, 30.2);
      const fresh = await socketOn(b);
      await untilFanOut(fresh, 30.3);
      expect((await editNickname(a, 'After NATS')).status).toBe(200);
      client.ws.close();
      fresh.ws.close();
    },
    RECOVER_MS * 3 + 30_000,
  );

  it(
    'while Postgres is down the API answers 503 (no hang, no crash); after it is back, writes succeed and messages fan out',
    async () => {
      const client = await socketOn(b);
      postgres.stop();
      try {
        for (const proc of [a, b]) {
          const edit = await editNickname(proc, 'While down');
          expect(edit).toEqual({
            status: 503,
            retryAfter: '5',
            body: { error: 'database_unavailable', message: 'The database is unavailable. Please try again in a moment.' },
          });
        }
        // A socket cannot be authenticated either: the handshake is refused with 503 and the client tries again later.
        expect(await refusedHandshake(b)).toBe(503);
        const ingest = await ingestPoint(a.url, fleet.things[0]!.haasId, 30.4);
        expect(ingest).toEqual({
          status: 503,
          body: { error: 'database_unavailable', message: 'The database is unavailable. Please try again in a moment.' },
        });
      } finally {
        postgres.start();
      }
      // Both processes lived through it and their pools connect again: the first write after answers 200.
      expect((await editNickname(a, 'After Postgres A')).status).toBe(200);
      expect((await editNickname(b, 'After Postgres B')).status).toBe(200);
      await untilFanOut(client, 30.5);
      const fresh = await socketOn(b);
      await untilFanOut(fresh, 30.6);
      client.ws.close();
      fresh.ws.close();
    },
    ANSWER_BOUND_MS * 3 + RECOVER_MS * 2 + 30_000,
  );
});
