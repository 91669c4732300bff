import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from '../../server/config';
import { NO_LOAD_SHEDDING } from './load-shedding';

export interface SpawnedServer {
  url: string;
  /** The server's process id. */
  pid: number;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM and wait for the process to exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash, an out-of-memory kill): no shutdown hook runs; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts a new server process with the same environment and port (the same DATA_DIR); the old one must be gone. */
  restart(startTimeoutMs?: number): Promise<SpawnedServer>;
}

/** The run's migrated data directory (set by the global setups: migratedDataDirTemplate, tests/support/test-run.ts). */
export const DATA_DIR_TEMPLATE_ENV = 'LIGHTBAR_TEST_PGLITE_DATADIR';

/**
 * A new temporary DATA_DIR whose embedded database is a copy of the run's migrated one, so a
 * spawned server opens an existing database instead of creating its cluster (several seconds of
 * CPU). Without a global setup (one file run by hand outside Vitest or Playwright) it is empty.
 * Creating the cluster on an empty folder is what tests/security/ops-data-dir-lock.test.ts and
 * tests/server/data-dir-lock.test.ts exercise, on folders of their own.
 */
export function templateDataDir(prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = process.env[DATA_DIR_TEMPLATE_ENV];
  if (template) fs.cpSync(path.join(template, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}

/**
 * How a test starts the real server process: the bundle of `server/main.ts` that the test run's
 * global setup built (LIGHTBAR_SERVER_BUNDLE, scripts/server-bundle.mjs), else the sources
 * through tsx as `npm start` runs them. `nodeArgs` are Node's own flags before the script.
 */
export function serverArgs(nodeArgs: readonly string[] = []): string[] {
  const bundle = process.env.LIGHTBAR_SERVER_BUNDLE;
  return bundle ? [...nodeArgs, bundle] : [...nodeArgs, '--import', 'tsx', path.join(ROOT_DIR, 'server', 'main.ts')];
}

/**
 * Starts the real server process (`server/main.ts`, as `npm start` runs it) with `env` over the
 * current environment, and resolves with its address once it prints "Lightbar is running at".
 * Shared by the end-to-end fixture and the multi-process suite.
 */
export async function spawnServer(
  env: Record<string, string | undefined>,
  startTimeoutMs = 60_000,
  /** Node's own flags before the script (a bench's `--cpu-prof`). */
  nodeArgs: readonly string[] = [],
): Promise<SpawnedServer> {
  const child = spawn(process.execPath, serverArgs(nodeArgs), {
    cwd: ROOT_DIR,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...NO_LOAD_SHEDDING, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${startTimeoutMs / 1000} s:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Lightbar is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await gone;
  };
  return {
    url,
    pid: child.pid!,
    output: () => output,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    async restart(timeoutMs = startTimeoutMs) {
      await gone;
      return spawnServer({ ...env, PORT: new URL(url).port }, timeoutMs, nodeArgs);
    },
  };
}

/** A port nothing listens on now, on 127.0.0.1 (for a process or a proxy the test starts itself). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
