import fs from 'node:fs';
import { test as base } from '@playwright/test';
import { spawnServer, templateDataDir } from '../tests/support/spawn-server';

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Everything the server printed so far (with LOG_LEVEL on, the log: mails included). */
  output(): string;
}

/**
 * How long a server may take to start: seeding the demo and tsx's first compile of the server take
 * 5–10 s on a quiet 2-core machine and over a minute on a busy one.
 */
export const SERVER_START_MS = 120_000;

/** Starts the real server (`server/main.ts`) on a free port with a temporary data directory. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer & { stop(): Promise<void> }> {
  const dataDir = templateDataDir('lightbar-e2e-');
  const server = await spawnServer({ PORT: '0', DATA_DIR: dataDir, ...env }, SERVER_START_MS);
  return {
    url: server.url,
    dataDir,
    output: server.output,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The seeded demo (a small fleet) with the log on: the mailer logs every mail's text, so a spec
 * reads reset links from `output()` without touching the database.
 */
export const DEMO_ENV = {
  LIGHTBAR_DEMO: '1',
  SIM_ASSETS: '50',
  LOG_LEVEL: 'info',
  AUTH_RATE_LIMIT: '1000',
  // The WZDx feeds spec serves its feed on 127.0.0.1.
  WZDX_FETCH_ALLOW_PRIVATE: '1',
};
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
    { scope: 'worker', timeout: SERVER_START_MS + 60_000 },
  ],
  demoServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer(DEMO_ENV);
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: SERVER_START_MS + 60_000 },
  ],
});

export { expect } from '@playwright/test';
