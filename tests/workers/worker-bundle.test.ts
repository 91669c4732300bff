/**
 * Fails if the live worker's code ends up in the main bundle (CONVENTIONS §2, like Excalidraw's
 * workers.ts): `vite build` of the app and of the bridge into a temporary folder, then the chunks
 * are read. The worker's marker and its library (rbush) must be in the worker
 * chunk only; the chunk of the bridge (reached from an entry like the app's) must point at it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { LIVE_WORKER_MARKER } from '../../src/workers/live-engine';

const root = path.resolve(import.meta.dirname, '../..');
let outDir = '';
let chunks: { file: string; code: string }[] = [];

/** Strings only the worker's code holds: its marker and rbush's own property name. */
const WORKER_ONLY = [LIVE_WORKER_MARKER, '_chooseSplitAxis'];

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-bundle-'));
  await build({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      rollupOptions: { input: { index: path.join(root, 'index.html'), bridge: path.join(root, 'tests/workers/fixtures/bundle-entry.ts') } },
    },
  });
  const files = fs.readdirSync(path.join(outDir, 'assets')).filter((file) => file.endsWith('.js'));
  chunks = files.map((file) => ({ file, code: fs.readFileSync(path.join(outDir, 'assets', file), 'utf8') }));
}, 180_000);

afterAll(() => {
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

describe('the live worker is its own chunk', () => {
  it('emits a worker chunk holding the engine and its libraries', () => {
    const worker = chunks.filter((chunk) => chunk.code.includes(LIVE_WORKER_MARKER));
    expect(worker.map((chunk) => chunk.file)).toHaveLength(1);
    expect(worker[0]!.file).toMatch(/^live\.worker/);
    for (const text of WORKER_ONLY) expect(worker[0]!.code.includes(text), `the worker chunk holds ${text}`).toBe(true);
  });

  it('no other chunk (the app, the bridge, shared code) holds worker-only code', () => {
    const others = chunks.filter((chunk) => !chunk.file.startsWith('live.worker'));
    expect(others.length).toBeGreaterThan(0);
    for (const chunk of others) {
      // The drawing chunk (loaded on the first drawing only) carries rbush of its own, through
      // editable-layers' turf helpers; it must still hold none of the live worker's code.
      const own = chunk.file.startsWith('draw-runtime') ? WORKER_ONLY.filter((text) => text !== '_chooseSplitAxis') : WORKER_ONLY;
      for (const text of own) expect(chunk.code.includes(text), `${chunk.file} contains ${text}`).toBe(false);
    }
  });

  it('the bridge starts the worker from its own file', () => {
    const worker = chunks.find((chunk) => chunk.file.startsWith('live.worker'))!;
    // The bridge's code may sit in its entry chunk or in a chunk it shares with the app.
    const starters = chunks.filter((chunk) => !chunk.file.startsWith('live.worker') && chunk.code.includes(worker.file));
    expect(
      starters.map((chunk) => chunk.file),
      'a chunk of the app names the worker file',
    ).not.toHaveLength(0);
    for (const chunk of starters) expect(chunk.code.includes('new Worker('), `${chunk.file} starts a Worker`).toBe(true);
  });
});
