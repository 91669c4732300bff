import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
  boundary(['server/**'], layers('app', 'map', 'features', 'workers')),
);

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
