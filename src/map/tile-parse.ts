/**
 * Parsing the vector basemap's tiles (docs/map.md "Basemap") off the page's main thread: one worker
 * of the app's own (`tile-parse.worker.ts`, emitted by Vite under /assets with the other chunks, so
 * the CSP's `worker-src 'self'` and a closed network both allow it; loaders.gl's own worker would
 * be fetched from a CDN) parses every tile with loaders.gl's MVTLoader and answers its features.
 * Where no worker starts (none in this environment, its script fails to load, or it errs), the page
 * parses the tiles itself, as before: the basemap draws either way.
 */
import { MVTLoader } from '@loaders.gl/mvt';

/** The MVT loader's options a tile is parsed with (the layer's, with the basemap's shape). */
export type TileParseOptions = Record<string, unknown>;

export interface TileParseRequest {
  id: number;
  bytes: ArrayBuffer;
  options: TileParseOptions;
}

export type TileParseReply = { id: number; ok: true; features: unknown } | { id: number; ok: false; error: string };

/** One tile's features, in the same thread (the worker's, or the page's without one). */
export function parseMvtTile(bytes: ArrayBuffer, options: TileParseOptions): Promise<unknown> {
  return MVTLoader.parse(bytes, options) as Promise<unknown>;
}

/** The tile worker, in its own chunk (Vite emits a separate file for this exact `new Worker(new URL(…))` form). */
function startTileWorker(): Worker {
  return new Worker(new URL('./tile-parse.worker.ts', import.meta.url), { type: 'module', name: 'lightbar-tiles' });
}

interface Pending {
  bytes: ArrayBuffer;
  options: TileParseOptions;
  resolve: (features: unknown) => void;
  reject: (error: Error) => void;
}

export class TileParser {
  private worker: Worker | null = null;
  /** No worker: it could not start or failed; the page parses. */
  private inPage: boolean;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly startWorker: (() => Worker) | null = typeof Worker === 'undefined' ? null : startTileWorker) {
    this.inPage = !startWorker;
  }

  /** Whether tiles are parsed off the page (a worker started and has not failed). */
  get offPage(): boolean {
    return !this.inPage;
  }

  parse(bytes: ArrayBuffer, options: TileParseOptions): Promise<unknown> {
    const worker = this.inPage ? null : this.started();
    if (!worker) return parseMvtTile(bytes, options);
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { bytes, options, resolve, reject });
      // The bytes are copied (not moved): the tile reader may keep them.
      worker.postMessage({ id, bytes, options } satisfies TileParseRequest);
    });
  }

  private started(): Worker | null {
    if (this.worker) return this.worker;
    try {
      const worker = this.startWorker!();
      worker.onmessage = (event: MessageEvent<TileParseReply>) => {
        const reply = event.data;
        const request = this.pending.get(reply.id);
        if (!request) return;
        this.pending.delete(reply.id);
        if (reply.ok) request.resolve(reply.features);
        else request.reject(new Error(reply.error));
      };
      worker.onerror = (event) => {
        event.preventDefault();
        this.fail();
      };
      this.worker = worker;
      return worker;
    } catch {
      this.inPage = true;
      return null;
    }
  }

  /** The worker is gone: the page parses from now on, the tiles it held first. */
  private fail(): void {
    this.worker?.terminate();
    this.worker = null;
    this.inPage = true;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const request of pending) parseMvtTile(request.bytes, request.options).then(request.resolve, request.reject);
  }
}

let shared: TileParser | null = null;

/** The page's tile parser: one worker for every basemap layer of the page, started at the first tile. */
export function tileParser(): TileParser {
  shared ??= new TileParser();
  return shared;
}
