import type { Plugin } from 'vite';

/** The minimum size of a file compressed at build time. */
export const PRECOMPRESS_MIN_BYTES: number;
/** Writes the `.br` and `.gz` of every compressible file under `dir`; answers the bytes before and after (brotli). */
export function precompress(dir: string): Promise<{ raw: number; compressed: number }>;
/** The Vite plugin: compresses the build's output once it is written. */
export function precompressPlugin(): Plugin;
