import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';
import { buildServer } from '../../server/app';
import { readConfig } from '../../server/config';

describe('server harness', () => {
  let app: FastifyInstance;
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-dist-'));

  beforeAll(async () => {
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Lightbar</title>');
    fs.mkdirSync(path.join(distDir, 'assets'));
    fs.writeFileSync(path.join(distDir, 'assets', 'app.js'), 'console.log(1)');
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
});
