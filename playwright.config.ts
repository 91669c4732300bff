import { defineConfig } from '@playwright/test';

// Debian's Chromium: browser downloads do not work on this machine (README "Design decisions").
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
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
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
