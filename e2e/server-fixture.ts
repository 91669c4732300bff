import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Everything the server printed so far (with LOG_LEVEL on, the log: mails included). */
  output(): string;
}

const ROOT = path.resolve(import.meta.dirname, '..');

/** Starts the real server (`server/main.ts`) on a free port with a temporary data directory. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer & { stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Lightbar is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The seeded demo (a small fleet) with the log on: the mailer logs every mail's text, so a spec
 * reads reset links from `output()` without touching the database.
 */
export const DEMO_ENV = { LIGHTBAR_DEMO: '1', SIM_ASSETS: '50', LOG_LEVEL: 'info', AUTH_RATE_LIMIT: '1000' };
export const DEMO_PASSWORD = 'Lightbar#2026';

/** A worker-scoped real server shared by the specs of one file. */
export const test = base.extend<object, { server: RunningServer; demoServer: RunningServer }>({
  server: [
    // Playwright reads the fixture's dependencies from this destructuring; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  demoServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer(DEMO_ENV);
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

export { expect } from '@playwright/test';
