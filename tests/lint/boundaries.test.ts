/**
 * The layers of docs/architecture.md are enforced by ESLint (`no-restricted-imports` per folder):
 * each row imports across a boundary from a file of that folder and must be refused by
 * `npm run lint`; the allowed imports beside them must pass.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restrictedImports(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer boundaries (docs/architecture.md "Layers")', () => {
  it.each([
    [
      'a feature importing another feature',
      'src/features/things/x.ts',
      "import { useNow } from '../events/use-now';",
      'Features never import each other',
    ],
    [
      'a feature importing the worker',
      'src/features/events/x.ts',
      "import { EventsCache } from '../../workers/events-cache';",
      'may not import src/workers',
    ],
    [
      'the map importing the app',
      'src/map/layers/x.ts',
      "import { createLiveStore } from '../../app/live/store';",
      'may not import src/app',
    ],
    ['the map importing the worker', 'src/map/x.ts', "import { LiveCore } from '../workers/live-core';", 'may not import src/workers'],
    [
      'the app importing a feature',
      'src/app/shell/x.ts',
      "import { ThingsSection } from '../../features/things/things-section';",
      'may not import src/features',
    ],
    ['the worker importing the app', 'src/workers/x.ts', "import { createLiveStore } from '../app/live/store';", 'may not import src/app'],
    [
      'the domain importing the worker',
      'src/domain/x.ts',
      "import { LiveCore } from '../workers/live-core';",
      'may not import src/workers',
    ],
    [
      'the server importing the app',
      'server/http/x.ts',
      "import { createLiveStore } from '../../src/app/live/store';",
      'may not import src/app',
    ],
  ])('refuses %s', async (_case, filePath, source, message) => {
    const messages = await restrictedImports(filePath, `${source}\nexport const used = [${source.match(/\{ (\w+) \}/)![1]}];\n`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(message);
  });

  it.each([
    [
      'a feature importing the app, the map and the domain',
      'src/features/things/x.ts',
      "import { a } from '../../app/ui/a';\nimport { b } from '../../map/b';\nimport { c } from '../../domain/c';\nimport { d } from './d';",
    ],
    ['the router importing a feature', 'src/app/router.tsx', "import { a } from '../features/things/things-section';"],
    [
      'the app importing the worker and the map',
      'src/app/live/x.ts',
      "import { a } from '../../workers/live-engine';\nimport { b } from '../../map/b';",
    ],
    ['the server importing the domain', 'server/http/x.ts', "import { a } from '../../src/domain/a';"],
  ])('allows %s', async (_case, filePath, source) => {
    expect(await restrictedImports(filePath, source)).toEqual([]);
  });
});
