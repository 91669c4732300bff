import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';
import { buildServer } from '../../server/app';
import { readConfig } from '../../server/config';
import { spawnServer } from '../support/spawn-server';
import { precompress } from '../../scripts/precompress.mjs';

/** A built chunk of about 40 KB (repetitive, as code is). */
const BIG_CHUNK = Array.from({ length: 800 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n');

describe('server harness', () => {
  let app: FastifyInstance;
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-dist-'));

  beforeAll(async () => {
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Lightbar</title>');
    fs.mkdirSync(path.join(distDir, 'assets'));
    fs.writeFileSync(path.join(distDir, 'assets', 'app.js'), 'console.log(1)');
    // A chunk large enough to be compressed at build time, compressed by the build's own step.
    fs.writeFileSync(path.join(distDir, 'assets', 'chunk.js'), BIG_CHUNK);
    await precompress(distDir);
    app = await buildServer(readConfig({ ...NO_LOAD_SHEDDING, DIST_DIR: distDir, DATA_DIR: distDir }, '1.2.3'));
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('part1 §7 GET /version answers the package version', async () => {
    const response = await app.inject({ method: 'GET', url: '/version' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ version: '1.2.3' });
  });

  it.each(['/', '/welcome/signin', '/dashboard', '/dashboard/things/42/edit', '/dashboard/accounts-new/users'])(
    'client route %s gets the app',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Lightbar</title>');
    },
  );

  it('serves built assets', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(1)');
  });

  it.each([
    ['br, gzip', 'br', (bytes: Buffer) => zlib.brotliDecompressSync(bytes)],
    ['gzip, deflate', 'gzip', (bytes: Buffer) => zlib.gunzipSync(bytes)],
  ])('sends a built file compressed at build time when the browser accepts %s', async (accepts, encoding, decode) => {
    const response = await app.inject({ method: 'GET', url: '/assets/chunk.js', headers: { 'accept-encoding': accepts } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.length).toBeLessThan(BIG_CHUNK.length / 5);
    expect(decode(response.rawPayload).toString()).toBe(BIG_CHUNK);
  });

  it('sends a built file as it is to a client that accepts no compression', async () => {
    const plain = await app.inject({ method: 'GET', url: '/assets/chunk.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_CHUNK);
  });

  it('compresses an API answer over 1 KB for a client that accepts it, and not a small one', async () => {
    const document = await app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(document.statusCode).toBe(200);
    expect(document.headers['content-encoding']).toBe('gzip');
    const decoded = JSON.parse(zlib.gunzipSync(document.rawPayload).toString()) as { openapi: string };
    expect(decoded.openapi).toMatch(/^3\./);
    const version = await app.inject({ method: 'GET', url: '/version', headers: { 'accept-encoding': 'gzip' } });
    expect(version.headers['content-encoding']).toBeUndefined();
    expect(version.json()).toEqual({ version: '1.2.3' });
  });

  /** What Chromium sends when it navigates to an address. */
  const NAVIGATION_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

  it.each(['/no/such/page', '/dashboardx', '/welcomes'])(
    'part 1 §2 a browser opening the unknown address %s gets the app (its not-found page) with 404',
    async (url) => {
      const response = await app.inject({ method: 'GET', url, headers: { accept: NAVIGATION_ACCEPT } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Lightbar</title>');
    },
  );

  it.each(['application/json', '*/*', ''])('an unknown address asked for with Accept "%s" is a JSON 404', async (accept) => {
    const response = await app.inject({ method: 'GET', url: '/no/such/page', headers: accept ? { accept } : {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'Route GET /no/such/page not found' });
  });

  it.each([
    ['GET', '/no_such_call'],
    ['GET', '/assets/missing.js'],
    ['POST', '/dashboard'],
  ] as const)('%s %s is a JSON 404, never the app', async (method, url) => {
    const response = await app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('server configuration', () => {
  it('defaults to port 8080 and ./data', () => {
    const config = readConfig({}, '1.0.0');
    expect(config.port).toBe(8080);
    expect(config.dataDir.endsWith(`${path.sep}data`)).toBe(true);
  });

  it.each(['abc', '-1', '70000', '80.5'])('rejects PORT=%s with a clear error', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(`PORT must be an integer from 0 to 65535, got "${port}"`);
  });

  it.each([
    ['AUTH_RATE_LIMIT', 'abc', 'a whole number of requests a minute from 1'],
    ['AUTH_RATE_LIMIT', '0', 'a whole number of requests a minute from 1'],
    ['DATABASE_URL', 'not a url', 'a postgres:// or postgresql:// URL'],
    ['DATABASE_URL', 'mysql://db/lightbar', 'a postgres:// or postgresql:// URL'],
    ['NATS_URL', 'localhost:4222', 'a nats://, tls://, ws:// or wss:// URL, or several separated by commas'],
    ['SMTP_URL', 'mail.example.com', 'an smtp:// or smtps:// URL'],
    ['PUBLIC_URL', 'lightbar.example.com', 'an http or https URL'],
    ['LOG_LEVEL', 'verbose', 'one of fatal, error, warn, info, debug, trace, silent'],
    ['LIGHTBAR_DEMO', 'yes', '0 or 1'],
    ['SIM_ASSETS', '-5', 'a whole number'],
    ['SIM_ZONE_FLIP_MS', '1.5', 'a whole number of ms'],
    ['METRICS_TOKEN', 'short', 'at least 16 characters'],
    ['FILE_LINK_SECRET', 'change-me', 'at least 32 characters'],
    ['LIGHTBAR_ADMIN_EMAIL', 'chief', 'an e-mail address'],
    ['SHUTDOWN_DRAIN_MS', 'soon', 'a whole number of milliseconds from 0'],
  ])('refuses %s=%s, naming what it accepts', (name, value, rule) => {
    expect(() => readConfig({ [name]: value })).toThrow(`${name} must be ${rule}, got "${value}"`);
  });

  it('names every wrong variable at once, one line each', () => {
    expect(() => readConfig({ AUTH_RATE_LIMIT: 'abc', LOG_LEVEL: 'loud' })).toThrow(
      'AUTH_RATE_LIMIT must be a whole number of requests a minute from 1, got "abc"\nLOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  it('reads the operations variables', () => {
    const config = readConfig({
      DATABASE_URL: 'postgres://lightbar@db:5432/lightbar',
      NATS_URL: 'nats://nats-1:4222,nats://nats-2:4222',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: 'a-long-scrape-token',
      FILE_LINK_SECRET: 'a-shared-link-secret-of-32-chars-or-more',
      SHUTDOWN_DRAIN_MS: '5000',
      SIM_ASSETS: '0',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://lightbar@db:5432/lightbar',
      natsUrl: 'nats://nats-1:4222,nats://nats-2:4222',
      logLevel: 'warn',
      metricsToken: 'a-long-scrape-token',
      fileLinkSecret: 'a-shared-link-secret-of-32-chars-or-more',
      shutdownDrainMs: 5000,
      simAssets: 0,
      authRateLimit: 30,
    });
    expect(readConfig({})).toMatchObject({
      logLevel: 'info',
      metricsToken: undefined,
      fileLinkSecret: undefined,
      shutdownDrainMs: 0,
      demo: true,
    });
  });

  it('a wrong value stops the real server at start, naming it', async () => {
    const started = spawnServer({ PORT: '0', AUTH_RATE_LIMIT: 'abc', DATA_DIR: os.tmpdir() }, 60_000);
    await expect(started).rejects.toThrow(
      /server exited with 1:\nLightbar cannot start: the environment has a wrong value\.\nAUTH_RATE_LIMIT must be a whole number of requests a minute from 1, got "abc"/,
    );
  });
});
