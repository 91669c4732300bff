/**
 * The data folder's lock never keeps the server down (docs/decisions/design.md: one server per
 * embedded database): every clean stop removes it — a signal while starting, a repeated signal
 * while stopping — and a lock naming a live process that is not a Lightbar server on this folder
 * (its id reused by another program) is taken over. A second real server is still refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../server/config';
import { LOCK_FILE } from '../../server/db/data-dir-lock';
import { serverArgs, spawnServer, templateDataDir, type SpawnedServer } from '../support/spawn-server';
import { sleep, until } from '../support/until';

const SERVER_ENV = { PORT: '0', LIGHTBAR_DEMO: '0', SIM_ASSETS: '0' };
const START_TIMEOUT_MS = 120_000;
/** The terminal's Ctrl-C and the `npm start` wrapper's forwarded one arrive a moment apart. */
const SECOND_SIGNAL_AFTER_MS = 30;

const dirs: string[] = [];
const children: ChildProcess[] = [];
const servers: SpawnedServer[] = [];
/** An empty folder: the server creates its cluster there (the first start's path, migrations included). */
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-ops-lock-'));
  dirs.push(dir);
  return dir;
}
/** A folder holding the run's migrated database: the tests about the lock alone skip creating a cluster. */
function migratedDir(): string {
  const dir = templateDataDir('lightbar-ops-lock-');
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const lockPath = (dir: string) => path.join(dir, LOCK_FILE);

/** The server process without the harness, to signal it at chosen moments. */
function startRaw(dir: string): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
} {
  const child = spawn(process.execPath, serverArgs(), {
    cwd: ROOT_DIR,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dir, ...SERVER_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

describe('a stopped server leaves no lock behind', () => {
  it('SIGTERM after start, three times in a row on one folder: the lock is gone after each stop', async () => {
    const dir = tempDir();
    for (let round = 0; round < 3; round += 1) {
      const server = await spawnServer({ ...SERVER_ENV, DATA_DIR: dir }, START_TIMEOUT_MS);
      expect(fs.existsSync(lockPath(dir))).toBe(true);
      await server.stop();
      expect(fs.existsSync(lockPath(dir))).toBe(false);
    }
  }, 400_000);

  it('a signal while it is still starting (migrations) stops it and removes the lock', async () => {
    const dir = tempDir();
    const raw = startRaw(dir);
    await until(() => fs.existsSync(lockPath(dir)), 'the lock file', START_TIMEOUT_MS);
    raw.child.kill('SIGTERM');
    const { signal } = await raw.exited;
    expect(signal).toBeNull();
    expect(raw.output()).not.toContain('Lightbar is running at');
    expect(fs.existsSync(lockPath(dir))).toBe(false);
  }, 180_000);

  it('a second signal while stopping (Ctrl-C reaches both npm start and the server) still removes the lock', async () => {
    const dir = migratedDir();
    const raw = startRaw(dir);
    await until(() => raw.output().includes('Lightbar is running at'), 'the server to start', START_TIMEOUT_MS);
    raw.child.kill('SIGINT');
    await sleep(SECOND_SIGNAL_AFTER_MS);
    raw.child.kill('SIGINT');
    const { signal } = await raw.exited;
    expect(signal).toBeNull();
    expect(fs.existsSync(lockPath(dir))).toBe(false);
  }, 180_000);
});

describe('a lock whose process is not a Lightbar server on this folder is taken over', () => {
  function sleeper(): ChildProcess {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(child);
    return child;
  }

  it('a lock (the process id alone) naming a live `sleep` process: the server starts and holds the folder', async () => {
    const dir = migratedDir();
    const other = sleeper();
    fs.writeFileSync(lockPath(dir), String(other.pid));
    const server = await spawnServer({ ...SERVER_ENV, DATA_DIR: dir }, START_TIMEOUT_MS);
    servers.push(server);
    expect((await fetch(`${server.url}/version`)).status).toBe(200);
    expect(fs.readFileSync(lockPath(dir), 'utf8').split('\n')[0]).not.toBe(String(other.pid));
    expect(other.exitCode).toBeNull();
  }, 180_000);

  it('a lock recorded by a server whose process id now belongs to `sleep`: the server starts', async () => {
    const dir = migratedDir();
    const first = await spawnServer({ ...SERVER_ENV, DATA_DIR: dir }, START_TIMEOUT_MS);
    servers.push(first);
    const recorded = fs.readFileSync(lockPath(dir), 'utf8');
    await first.stop();
    const other = sleeper();
    // The same record, as a crash would have left it, but its process id is now another program's.
    const [, ...rest] = recorded.split('\n');
    fs.writeFileSync(lockPath(dir), [String(other.pid), ...rest].join('\n'));
    const second = await spawnServer({ ...SERVER_ENV, DATA_DIR: dir }, START_TIMEOUT_MS);
    servers.push(second);
    expect((await fetch(`${second.url}/version`)).status).toBe(200);
  }, 300_000);

  it('a second real server on the same folder is still refused with the clear message', async () => {
    const dir = migratedDir();
    const first = await spawnServer({ ...SERVER_ENV, DATA_DIR: dir }, START_TIMEOUT_MS);
    servers.push(first);
    const holder = Number(fs.readFileSync(lockPath(dir), 'utf8').split('\n')[0]);
    const raw = startRaw(dir);
    const { code } = await raw.exited;
    expect(code).toBe(1);
    expect(raw.output()).toContain(
      `Another Lightbar server (process ${holder}) is using the embedded database in ${dir}. Stop it, or start this one with DATA_DIR set to another folder (or DATABASE_URL to a Postgres server).`,
    );
    expect((await fetch(`${first.url}/version`)).status).toBe(200);
    // The refused server removed nothing: the first still holds the folder.
    expect(Number(fs.readFileSync(lockPath(dir), 'utf8').split('\n')[0])).toBe(holder);
  }, 240_000);
});
