// The built app's files, compressed once at build time (docs/operations.md "Compression"): beside
// each text file of `dist/` over PRECOMPRESS_MIN_BYTES, a `.br` (brotli) and a `.gz` (gzip), kept
// only when smaller. The server sends them by the browser's Accept-Encoding (@fastify/static's
// preCompressed, server/http/spa.ts), so a first visit moves about a third of the bytes and the
// server compresses nothing per request. Source maps are left out: only developer tools read them.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export const PRECOMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|wasm|txt|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Brotli 9: within 10 % of 11's size at half its time (about 2 s for the whole app here). */
const BROTLI_QUALITY = 9;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Writes the `.br` and `.gz` of every compressible file under `dir`; answers the bytes before and after (brotli). */
/** @param {string} dir @returns {Promise<{ raw: number; compressed: number }>} */
export async function precompress(dir) {
  let raw = 0;
  let compressed = 0;
  await Promise.all(
    [...files(dir)]
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file) => {
        const body = fs.readFileSync(file);
        if (body.length < PRECOMPRESS_MIN_BYTES) return;
        const [br, gz] = await Promise.all([
          brotli(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
          gzip(body, { level: 9 }),
        ]);
        raw += body.length;
        compressed += Math.min(br.length, body.length);
        if (br.length < body.length) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < body.length) fs.writeFileSync(`${file}.gz`, gz);
      }),
  );
  return { raw, compressed };
}

/** The Vite plugin: compresses the build's output once it is written. */
/** @returns {import('vite').Plugin} */
export function precompressPlugin() {
  let outDir = 'dist';
  return {
    name: 'lightbar-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { raw, compressed } = await precompress(outDir);
      console.log(`precompressed ${(raw / 1e6).toFixed(2)} MB of text files to ${(compressed / 1e6).toFixed(2)} MB (brotli)`);
    },
  };
}
