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
    [
      'a server layer importing the app',
      'server/live/x.ts',
      "import { createLiveStore } from '../../src/app/live/store';",
      'may not import src/app',
    ],
    ['the live hub importing a route module', 'server/live/x.ts', "import { a } from '../http/x';", 'may not import server/http'],
    ['a job importing a route module', 'server/jobs/x.ts', "import { a } from '../../server/http/errors';", 'may not import server/http'],
    ['a job importing the simulator', 'server/jobs/x.ts', "import { a } from '../sim/simulator';", 'may not import server/sim'],
    ['auth importing the live hub', 'server/auth/x.ts', "import { a } from '../live/bus';", 'may not import server/live'],
    ['the core importing auth', 'server/core/x.ts', "import type { a } from '../auth/context';", 'may not import server/auth'],
    ['the region importing the seed', 'server/region/x.ts', "import { a } from '../seed/demo';", 'may not import server/seed'],
    ['the region importing the database', 'server/region/x.ts', "import { a } from '../db/schema';", 'may not import server/db'],
    ['the database importing the core', 'server/db/x.ts', "import { a } from '../core/errors';", 'may not import server/core'],
    ['a route module importing the app', 'server/http/things/x.ts', "import { a } from '../../app';", 'Nothing below server/app.ts'],
    ['the wiring types importing a route module', 'server/deps.ts', "import { a } from './http/x';", 'may not import server/http'],
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
    [
      'a route module importing the layers below it',
      'server/http/things/x.ts',
      "import { a } from '../../core/errors';\nimport { b } from '../../live/ingest';\nimport { c } from '../../region/geography';\nimport { d } from '../../db/schema';\nimport { e } from '../query';",
    ],
    [
      'the simulator importing the ingest, the region and the wiring types',
      'server/sim/x.ts',
      "import { a } from '../live/ingest';\nimport { b } from '../region/route';\nimport type { c } from '../deps';",
    ],
    [
      'the core importing the database and the domain',
      'server/core/x.ts',
      "import { a } from '../db/schema';\nimport { b } from '../../src/domain/b';",
    ],
    ['the entry importing the app', 'server/main.ts', "import { a } from './app';\nimport { b } from './sim/simulator';"],
  ])('allows %s', async (_case, filePath, source) => {
    expect(await restrictedImports(filePath, source)).toEqual([]);
  });
});
