/**
 * The offline basemap built in its own worker (src/map/basemap.worker.ts under
 * @vitest/web-worker): the bundled TopoJSON served over HTTP as the app serves it, the answer the
 * same as building it in place, a file that does not load refused with its address, and a worker
 * that cannot start replaced by building on this thread.
 */
import '@vitest/web-worker';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basemapFromTopology, buildBasemap, type BasemapData } from '../../src/map/basemap';

const files: Record<string, string> = {
  '/world.json': path.join(import.meta.dirname, '../../node_modules/world-atlas/countries-50m.json'),
  '/us.json': path.join(import.meta.dirname, '../../node_modules/us-atlas/counties-10m.json'),
};
let server: http.Server;
let base = '';
const served: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    served.push(request.url ?? '');
    const file = files[(request.url ?? '').split('?')[0]!];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const expected = basemapFromTopology(
  JSON.parse(fs.readFileSync(files['/world.json']!, 'utf8')) as Parameters<typeof basemapFromTopology>[0],
  JSON.parse(fs.readFileSync(files['/us.json']!, 'utf8')) as Parameters<typeof basemapFromTopology>[1],
);

function expectSameBasemap(actual: BasemapData) {
  expect(actual.land.polygons).toBe(expected.land.polygons);
  expect(actual.land.startIndices).toEqual(expected.land.startIndices);
  expect(actual.land.positions).toEqual(expected.land.positions);
  expect(actual.land.indices).toEqual(expected.land.indices);
  expect(actual.countries).toEqual(expected.countries);
  expect(actual.states).toEqual(expected.states);
  expect(actual.counties).toEqual(expected.counties);
}

describe('the offline basemap built in its worker', () => {
  it('answers the basemap built from the served files, the land mesh in typed arrays', async () => {
    const replies: unknown[] = [];
    const data = await buildBasemap({ world: `${base}/world.json`, us: `${base}/us.json` }, () => {
      const worker = new Worker(new URL('../../src/map/basemap.worker.ts', import.meta.url), { type: 'module' });
      // The reply the page's handler receives, noted on its way.
      let handler: ((event: MessageEvent<{ ok: boolean }>) => void) | null = null;
      Object.defineProperty(worker, 'onmessage', {
        get: () => handler,
        set: (set: (event: MessageEvent<{ ok: boolean }>) => void) => {
          handler = (event) => {
            replies.push(event.data.ok);
            set(event);
          };
        },
      });
      return worker;
    });
    // The worker itself answered (no fallback to this thread).
    expect(replies).toEqual([true]);
    expect(data.land.positions).toBeInstanceOf(Float64Array);
    expect(data.land.indices).toBeInstanceOf(Uint32Array);
    expectSameBasemap(data);
  });

  it('the default starts the real worker and gives the same basemap', async () => {
    expectSameBasemap(await buildBasemap({ world: `${base}/world.json`, us: `${base}/us.json` }));
  });

  it('a file that does not load rejects with its address and status', async () => {
    await expect(buildBasemap({ world: `${base}/world.json`, us: `${base}/missing.json` })).rejects.toThrow(
      `basemap ${base}/missing.json: HTTP 404`,
    );
  });

  it('a worker that cannot start, or whose script fails, leaves the page to build it', async () => {
    // Marked addresses: a request of an earlier test (the 404 case's world file, which the worker
    // may still be fetching when that test's promise has rejected) is not counted here.
    const urls = { world: `${base}/world.json?fallback`, us: `${base}/us.json?fallback` };
    expectSameBasemap(
      await buildBasemap(urls, () => {
        throw new Error('Workers are refused here');
      }),
    );
    expect(served.filter((url) => url.endsWith('?fallback')).sort()).toEqual(['/us.json?fallback', '/world.json?fallback']);
    // A script that fails to load: the worker reports an error event and never answers.
    class FailingWorker extends EventTarget {
      onmessage: ((event: MessageEvent) => void) | null = null;
      onerror: ((event: Event) => void) | null = null;
      terminated = false;
      postMessage() {
        queueMicrotask(() => this.onerror?.(new Event('error', { cancelable: true })));
      }
      terminate() {
        this.terminated = true;
      }
    }
    const failing = new FailingWorker();
    expectSameBasemap(await buildBasemap(urls, () => failing as unknown as Worker));
    expect(failing.terminated).toBe(true);
  });
});
