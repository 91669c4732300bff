import { defineConfig } from '@playwright/test';
import { CHROMIUM, SOFTWARE_GL_ARGS } from './tests/support/chromium';

// The specs' servers check every answer against its route's response schema, as the Vitest
// suites' do (server/http/route-validation.ts): they inherit this.
process.env.LIGHTBAR_CHECK_RESPONSES = '1';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // The server bundle and the migrated database every spec's server starts from (docs/testing.md).
  globalSetup: './e2e/global-setup.ts',
  // Two workers on two cores (docs/testing.md): each runs whole spec files, one after another, with
  // its own servers (the worker-scoped fixtures) and its own browser; a spec's tests stay in order.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Each dashboard page draws the map in software WebGL here (SwiftShader): a frame can take a second.
  timeout: 180_000,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        ...SOFTWARE_GL_ARGS,
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
