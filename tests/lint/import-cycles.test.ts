/**
 * No import circles in src/ or server/ (docs/architecture.md "Layers"): every import and
 * `export … from` of every .ts/.tsx file, type-only ones and dynamic `import('…')` included, is an
 * arrow from one file to another; a strongly connected component of two or more files (or a file
 * importing itself) is a circle, and each one fails the test with its files named. What two files
 * of a circle share moves to a module of its own that both import.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src', 'server'];
const SOURCE = /\.tsx?$/;

/** `import … from '…'`, `export … from '…'` (type-only too), `import '…'` and `import('…')`. */
const STATIC_IMPORT = /^[ \t]*(?:import|export)\s+(?:type\s+)?[\w$*{},\s]*?\s*from\s*['"]([^'"]+)['"]/gm;
const BARE_IMPORT = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module specifiers a source text names. */
function importSpecifiers(source: string): string[] {
  return [STATIC_IMPORT, BARE_IMPORT, DYNAMIC_IMPORT].flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));
}

/** The file of `files` a relative specifier names from `from`, or null (a package, a stylesheet). */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = path.posix.join(path.posix.dirname(from), specifier.replace(/\.js$/, ''));
  const candidates = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`];
  return candidates.find((candidate) => SOURCE.test(candidate) && files.has(candidate)) ?? null;
}

/** Tarjan's strongly connected components of size two or more, or one file importing itself; each sorted. */
function findCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(file);
    return SOURCE.test(entry.name) ? [file] : [];
  });
}

/** Every file of src/ and server/ with the files it imports. */
function importGraph(): Map<string, string[]> {
  const files = ROOTS.flatMap(sourceFiles);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(fs.readFileSync(file, 'utf8'))
      .map((specifier) => resolveImport(file, specifier, known))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

describe('import circles (docs/architecture.md "Layers")', () => {
  it('reads static, type-only, re-exported, bare and dynamic imports', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      'import {\n  c,\n  type D,\n} from "./c.js";',
      "export { e } from './e';",
      "export * as f from './f';",
      "import './g.css';",
      "const h = () => import('./h');",
      ' * import { notCode } from "./comment-text-is-not-an-import-at-line-start";',
      "export const i = 'from';",
    ].join('\n');
    expect(importSpecifiers(source).sort()).toEqual(['../b', './a', './c.js', './e', './f', './g.css', './h']);
    const files = new Set(['server/a.ts', 'server/c.tsx', 'server/x/index.ts', 'b.ts']);
    expect(resolveImport('server/y.ts', './a', files)).toBe('server/a.ts');
    expect(resolveImport('server/y.ts', './c.js', files)).toBe('server/c.tsx');
    expect(resolveImport('server/y.ts', './x', files)).toBe('server/x/index.ts');
    expect(resolveImport('server/y.ts', '../b', files)).toBe('b.ts');
    expect(resolveImport('server/y.ts', './g.css', files)).toBeNull();
    expect(resolveImport('server/y.ts', 'zod', files)).toBeNull();
  });

  it('finds each circle with its files', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', ['e']],
      ['e', []],
      ['f', ['f']],
    ]);
    expect(findCircles(graph)).toEqual([['a', 'b', 'c'], ['f']]);
  });

  it('src/ and server/ have none', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    const circles = findCircles(graph);
    const listed = circles.map((files, i) => `circle ${i + 1}: ${files.join(', ')}`).join('\n');
    expect(circles, `import circles; move what the files of each share to a module both import:\n${listed}`).toEqual([]);
  });
});
