/**
 * part 1 §8, §9: loading a code chunk that has not arrived after CHUNK_LOAD_TIMEOUT_MS (120 s), or
 * that fails, raises a ChunkLoadError naming the reason; the router's crash page shows it.
 * Later sections load through `lazyRoute(() => import('...'))`.
 */
import { createElement, lazy, useState, type ComponentType } from 'react';
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

/** A lazy section page that can be fetched ahead of its first render. */
export type LazySection = ComponentType & { preload(): void };

/**
 * A section page in its own code chunk (part 1 §8, §9): the import goes through `loadChunk`, so a
 * chunk that fails or has not arrived after 120 s rejects with a ChunkLoadError naming the reason,
 * which React.lazy rethrows while rendering and the router's crash page shows. SectionPage holds
 * the Suspense fallback inside the drawer. `preload` fetches the chunk early (page load, beside
 * the profile): once it is in, the page renders at once, in the shell's first render, instead of
 * suspending behind the map's first frames.
 */
export function lazySection(load: () => Promise<ComponentType>): LazySection {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const fetchChunk = () =>
    (loading ??= loadChunk(load).then((Component) => {
      loaded = Component;
      return Component;
    }));
  const Lazy = lazy(() => fetchChunk().then((Component) => ({ default: Component })));
  // Chosen once per mount: switching from Lazy to the loaded page later would remount it (state lost).
  const Section = () => {
    const [Page] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(Page);
  };
  return Object.assign(Section, {
    preload() {
      // A failure shows when the section renders (through Lazy), not here.
      fetchChunk().catch(() => undefined);
    },
  });
}
