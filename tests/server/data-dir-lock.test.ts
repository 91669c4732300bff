/**
 * One server per embedded database (docs/decisions/design.md): a second process on the same
 * DATA_DIR refuses to start with a message saying why, instead of writing PGlite's files beside
 * the first one; a lock left by a process that is gone is taken over.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../server/config';
import { DataDirInUseError, openDatabase } from '../../server/db/connection';
import { LOCK_FILE, lockDataDir } from '../../server/db/data-dir-lock';
import { serverArgs, spawnServer, templateDataDir, type SpawnedServer } from '../support/spawn-server';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const inUse = (dir: string, pid: number) =>
  `Another Lightbar server (process ${pid}) is using the embedded database in ${dir}. Stop it, or start this one with DATA_DIR set to another folder (or DATABASE_URL to a Postgres server).`;

describe('lockDataDir', () => {
  it('writes the holder’s process id; a second holder is refused while the first lives; the release frees the folder', () => {
    const dir = tempDir();
    const release = lockDataDir(dir, 1111, () => true);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe('1111');
    expect(() => lockDataDir(dir, 2222, () => true)).toThrow(new DataDirInUseError(dir, 1111));
    expect(() => lockDataDir(dir, 2222, () => true)).toThrow(inUse(dir, 1111));
    release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const second = lockDataDir(dir, 2222, () => true);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe('2222');
    // An old release never frees a folder another process holds now.
    release();
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe('2222');
    second();
  });

  it('a lock with this process’s own id that it does not hold is stale (a restart reused the id): taken over', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), '5555');
    const release = lockDataDir(dir, 5555, () => true);
    expect(() => lockDataDir(dir, 5555, () => true)).toThrow(inUse(dir, 5555));
    release();
  });

  it('takes over a lock left by a process that is gone (a crash, kill -9)', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), '3333');
    const release = lockDataDir(dir, 4444, (pid) => pid !== 3333);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe('4444');
    release();
  });
});

describe('openDatabase on PGlite in a folder', () => {
  it('a second open of the same folder is refused until the first is closed', async () => {
    const dir = tempDir();
    const first = await openDatabase({ dataDir: dir });
    // The first line is the holder's id; the lines after it identify that process (its start time).
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(inUse(dir, process.pid));
    await first.close();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  }, 60_000);
});

describe('two server processes on one DATA_DIR', () => {
  let server: SpawnedServer | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
  });

  it('the second exits with status 1 and says which process holds the database', async () => {
    // The run's migrated database: the lock is the subject here, not creating a cluster.
    const dir = templateDataDir('lightbar-lock-');
    dirs.push(dir);
    server = await spawnServer({ PORT: '0', DATA_DIR: dir, LIGHTBAR_DEMO: '0', SIM_ASSETS: '0' }, 120_000);
    const holder = Number(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').split('\n')[0]);
    const second = spawn(process.execPath, serverArgs(), {
      cwd: ROOT_DIR,
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: dir, LIGHTBAR_DEMO: '0', SIM_ASSETS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(inUse(dir, holder));
    expect(output).not.toContain('Lightbar is running at');
    // The first server still answers.
    expect((await fetch(`${server.url}/version`)).status).toBe(200);
  }, 180_000);
});
