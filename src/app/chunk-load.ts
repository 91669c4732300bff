/**
 * part 1 §8, §9: loading a code chunk that has not arrived after CHUNK_LOAD_TIMEOUT_MS (120 s), or
 * that fails, raises a ChunkLoadError naming the reason; the router's crash page shows it.
 * Later sections load through `lazyRoute(() => import('...'))`.
 */
import { CHUNK_LOAD_TIMEOUT_MS } from '../domain/constants';
import { ChunkLoadError } from '../domain/errors';

export function loadChunk<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`timed out after ${timeoutMs / 1000} s`)), timeoutMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error instanceof Error ? error.message : String(error)));
      },
    );
  });
}
