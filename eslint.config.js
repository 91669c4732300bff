import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** What no server file imports: the browser's layers. */
const SERVER = layers('app', 'map', 'features', 'workers');
/** The server's layers above core/ and region/. */
const ABOVE_CORE = ['http', 'live', 'jobs', 'seed', 'sim', 'auth', 'mail', 'integrations', 'wzdx', 'tiles'];

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The domain is shared by the browser, the worker and the server: no DOM, no Node.
    files: ['src/domain/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'react', 'react-dom'],
              message: 'The domain runs in the browser, the worker and the server alike.',
            },
            ...layers('app', 'map', 'features', 'workers', 'server'),
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'navigator', 'process', 'Buffer'],
    },
  },
  // The layers of docs/architecture.md, made mechanical: what each folder may import.
  boundary(['src/workers/**'], layers('app', 'map', 'features', 'server')),
  boundary(['src/map/**'], layers('app', 'features', 'workers', 'server')),
  boundary(['src/app/**'], layers('features', 'server'), ['src/app/router.tsx']),
  boundary(['src/app/router.tsx'], layers('server')),
  boundary(
    ['src/features/**'],
    [
      ...layers('workers', 'server'),
      {
        // A relative import that climbs out of the feature's folder into a sibling one.
        regex: '^\\.\\./(?!\\.\\.)[^/]+/',
        message: 'Features never import each other: move what two features share to src/app/ui, src/map or src/domain.',
      },
    ],
  ),
  boundary(['server/**'], SERVER),
  // The server's own layers, top down: main.ts and app.ts, http/ (routes), live/ jobs/ seed/ sim/,
  // auth/ mail/ integrations/ wzdx/ tiles/, core/ and region/, db/. A folder imports only the layers
  // below it. Each config repeats SERVER: ESLint keeps only the last matching config's patterns.
  boundary(['server/app.ts'], [...SERVER, ...serverEntries('main')]),
  boundary(['server/http/**'], [...SERVER, ...serverEntries('app', 'main')]),
  boundary(
    ['server/deps.ts', 'server/config.ts', 'server/files.ts'],
    [...SERVER, ...serverEntries('app', 'main'), ...serverLayers('http')],
  ),
  boundary(['server/live/**'], [...SERVER, ...serverEntries('app', 'main'), ...serverLayers('http', 'jobs', 'seed', 'sim')]),
  boundary(['server/jobs/**'], [...SERVER, ...serverEntries('app', 'main'), ...serverLayers('http', 'live', 'seed', 'sim')]),
  boundary(['server/seed/**'], [...SERVER, ...serverEntries('app', 'main'), ...serverLayers('http', 'live', 'jobs', 'sim')]),
  // The simulator posts through the ingest engine, as a device would: sim/ may import live/.
  boundary(['server/sim/**'], [...SERVER, ...serverEntries('app', 'main'), ...serverLayers('http', 'jobs', 'seed')]),
  boundary(
    ['server/auth/**', 'server/mail/**', 'server/integrations/**', 'server/wzdx/**', 'server/tiles/**'],
    [...SERVER, ...serverEntries('app', 'main'), ...serverLayers('http', 'live', 'jobs', 'seed', 'sim')],
  ),
  boundary(['server/core/**'], [...SERVER, ...serverEntries('app', 'main'), ...serverLayers(...ABOVE_CORE, 'region')]),
  boundary(['server/region/**'], [...SERVER, ...serverEntries('app', 'main'), ...serverLayers(...ABOVE_CORE, 'core', 'db')]),
  boundary(['server/db/**'], [...SERVER, ...serverEntries('app', 'main'), ...serverLayers(...ABOVE_CORE, 'core', 'region')]),
);

/** Import patterns naming the server's folders `names` (server/<name>/), as a file under server/ writes them. */
function serverLayers(...names) {
  return names.map((name) => ({
    regex: `^(\\.{1,2}/)+(server/)?${name}(/|$)`,
    message: `This layer may not import server/${name} (docs/architecture.md, "Layers").`,
  }));
}

/** Import patterns naming the server's entry files `names` (server/app.ts, server/main.ts). */
function serverEntries(...names) {
  return names.map((name) => ({
    regex: `^(\\.{1,2}/)+(server/)?${name}(\\.[jt]s)?$`,
    message: `Nothing below server/${name}.ts imports it (docs/architecture.md, "Layers").`,
  }));
}

/** Import patterns naming the folders `names` (src/<name>, or the server). */
function layers(...names) {
  return names.map((name) => ({
    regex: name === 'server' ? '(^|/)server/' : `(^|/)(src/)?${name}/`,
    message: `This layer may not import src/${name === 'server' ? '../server' : name} (docs/architecture.md, "Layers").`,
  }));
}

function boundary(files, patterns, ignores = []) {
  return { files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}
