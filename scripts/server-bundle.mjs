// The server as one ES module (esbuild): the entry `npm start` runs (server/main.ts) with its
// own sources bundled and every package left to node_modules. The test suites and the
// end-to-end specs spawn real server processes from it (tests/support/spawn-server.ts): loading
// one prebuilt file instead of compiling and loading some 300 TypeScript modules through tsx in
// every process (docs/testing.md).
//
// Each module keeps its own address: `import.meta.url` in a source file is replaced by that
// file's URL, so ROOT_DIR, the migrations, the WZDx schemas and the database thread's script
// resolve exactly as they do under tsx.
//
// `node scripts/server-bundle.mjs [out]` builds it (default .tmp/server-bundle/main.mjs) and prints its path.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_SERVER_BUNDLE = path.join(root, '.tmp', 'server-bundle', 'main.mjs');

/** Replaces `import.meta.url` in the project's own sources by the source file's URL. */
const ownUrlPlugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const ext = path.extname(args.path).slice(1);
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: ext === 'mts' ? 'ts' : ext === 'mjs' ? 'js' : ext,
      };
    });
  },
};

/**
 * Builds the bundle at `out` (written to a temporary name and renamed, so a process reading the
 * path never sees half a file) and resolves with `out`.
 */
export async function buildServerBundle(out = DEFAULT_SERVER_BUNDLE) {
  const { build } = await import('esbuild');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const temporary = `${out}.${process.pid}.tmp.mjs`;
  await build({
    entryPoints: [path.join(root, 'server', 'main.ts')],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: [ownUrlPlugin],
  });
  fs.renameSync(temporary, out);
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildServerBundle(process.argv[2] ? path.resolve(process.argv[2]) : undefined));
}
