/**
 * The vector basemap's tiles parsed off the page's main thread (src/map/tile-parse.ts): the real
 * worker (src/map/tile-parse.worker.ts under @vitest/web-worker) answers a demo tile's features as
 * parsing on the page does, several tiles at once each to its own request, and a worker that cannot
 * start or fails leaves the page to parse them (the pending ones included).
 */
import '@vitest/web-worker';
import { describe, expect, it } from 'vitest';
import type { Feature, Geometry } from 'geojson';
import { createDemoTileSource } from '../../server/region/demo-tiles';
import { CITY } from '../../server/region/geography';
import { parseMvtTile, TileParser } from '../../src/map/tile-parse';

type TileFeature = Feature<Geometry, Record<string, unknown>>;

const demo = createDemoTileSource();

function demoTile(z: number, dx = 0): { bytes: ArrayBuffer; options: Record<string, unknown> } {
  const n = 2 ** z;
  const rad = (CITY.center.lat * Math.PI) / 180;
  const x = Math.floor(((CITY.center.lng + 180) / 360) * n) + dx;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  const bytes = demo.tile(z, x, y)!;
  return {
    bytes: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    options: { mvt: { shape: 'geojson', coordinates: 'wgs84', tileIndex: { x, y, z }, layerProperty: 'layerName' } },
  };
}

const workerStarter = (started: Worker[]) => () => {
  const worker = new Worker(new URL('../../src/map/tile-parse.worker.ts', import.meta.url), { type: 'module' });
  started.push(worker);
  return worker;
};

describe('the vector tiles parsed in their worker', () => {
  it("answers each tile's features as the page parses them, several tiles at once, in one worker", async () => {
    const tiles = [demoTile(10), demoTile(10, 1), demoTile(12)];
    const onPage = (await Promise.all(tiles.map((tile) => parseMvtTile(tile.bytes, tile.options)))) as TileFeature[][];
    expect(onPage[0]!.length).toBeGreaterThan(10);
    const started: Worker[] = [];
    const parser = new TileParser(workerStarter(started));
    const inWorker = (await Promise.all(tiles.map((tile) => parser.parse(tile.bytes, tile.options)))) as TileFeature[][];
    expect(parser.offPage).toBe(true);
    expect(started).toHaveLength(1);
    expect(inWorker).toEqual(onPage);
    // The tile's bytes were copied, not moved: the reader may keep them.
    expect(tiles[0]!.bytes.byteLength).toBeGreaterThan(0);
    started[0]!.terminate();
  });

  it('a worker that cannot start leaves the page to parse', async () => {
    const tile = demoTile(14);
    const parser = new TileParser(() => {
      throw new Error('Workers are refused here');
    });
    expect(await parser.parse(tile.bytes, tile.options)).toEqual(await parseMvtTile(tile.bytes, tile.options));
    expect(parser.offPage).toBe(false);
  });

  it('a worker whose script fails: the tiles it held and the next ones are parsed on the page', async () => {
    class FailingWorker extends EventTarget {
      onmessage: ((event: MessageEvent) => void) | null = null;
      onerror: ((event: Event) => void) | null = null;
      terminated = false;
      posted = 0;
      postMessage() {
        this.posted += 1;
        queueMicrotask(() => this.onerror?.(new Event('error', { cancelable: true })));
      }
      terminate() {
        this.terminated = true;
      }
    }
    const failing = new FailingWorker();
    const parser = new TileParser(() => failing as unknown as Worker);
    const [first, second] = [demoTile(14), demoTile(13)];
    const expected = await Promise.all([parseMvtTile(first.bytes, first.options), parseMvtTile(second.bytes, second.options)]);
    expect(await Promise.all([parser.parse(first.bytes, first.options), parser.parse(second.bytes, second.options)])).toEqual(expected);
    expect(failing.terminated).toBe(true);
    expect(parser.offPage).toBe(false);
    expect(await parser.parse(first.bytes, first.options)).toEqual(expected[0]);
    expect(failing.posted).toBe(2);
  });
});
