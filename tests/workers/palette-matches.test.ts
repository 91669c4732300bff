/**
 * The command palette's worker call (LiveCore.paletteMatches; docs/accessibility.md "Keyboard"):
 * every asset by its names and identifiers and every kept event, whatever the Live list's filters
 * and the events panel's query show, ranked by src/domain/palette.ts, at most the limit.
 */
import { describe, expect, it } from 'vitest';
import { defaultAssetFilter } from '../../src/domain/asset-filter';
import { locationWireSchema } from '../../src/domain/location';
import { LiveCore } from '../../src/workers/live-core';
import { NOW, crashOnLamar, parsedThing } from '../support/live-fixtures';

function core(): LiveCore {
  const live = new LiveCore();
  live.loadThings(
    [
      parsedThing(1, { nickname: 'Engine 12', external_id: 'EXT-900' }),
      parsedThing(2, { nickname: 'Medic 7' }),
      parsedThing(3, { nickname: null, haas_id: 'lamar-tow' }),
    ],
    [],
    NOW,
  );
  live.loadEvents([locationWireSchema.parse(crashOnLamar(NOW, { id: 'thing-00001', haas_id: 'ha-00001' }))], []);
  live.flush(NOW);
  return live;
}

const found = (live: LiveCore, query: string, limit = 10) => live.paletteMatches(query, limit).map((item) => `${item.kind}:${item.label}`);

describe('command palette matches in the worker', () => {
  it.each([
    ['engine', ['asset:Engine 12']],
    ['ext-900', ['asset:Engine 12']], // an identifier
    ['ha-00002', ['asset:Medic 7']], // the name behind the nickname
    // prefix (the asset named lamar-tow, shown upper-cased) above substring (the incident)
    ['lamar', ['asset:LAMAR-TOW', 'incident:Crash on Lamar']],
    ['n lamar blvd', ['incident:Crash on Lamar']], // an incident's street
    ['', []],
    ['zzz', []],
  ] as const)('%j → %j', (query, expected) => {
    expect(found(core(), query)).toEqual(expected);
  });

  it("finds what the list's search and the events panel's query hide, at most the limit", () => {
    const live = core();
    live.setFilter({ ...defaultAssetFilter(true), search: 'nothing-matches' }, NOW);
    live.events.query = { display: 'active', search: 'nothing-matches' };
    expect(live.events.view(NOW).events).toEqual([]);
    expect(found(live, 'medic')).toEqual(['asset:Medic 7']);
    expect(found(live, 'crash')).toEqual(['incident:Crash on Lamar']);
    expect(live.paletteMatches('a', 2)).toHaveLength(2);
  });

  it('an asset with a nickname shows its name as the detail', () => {
    const [medic] = core().paletteMatches('medic', 5);
    expect(medic).toMatchObject({ kind: 'asset', id: 'thing-00002', label: 'Medic 7', detail: 'ha-00002' });
  });
});
