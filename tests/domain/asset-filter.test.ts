import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASSET_STATUS, type AssetStatus } from '../../src/domain/asset-status';
import { fromThingWire, thingWireSchema, type Asset, type ThingWireInput } from '../../src/domain/asset';
import {
  activeFilterCount,
  defaultAssetFilter,
  compareAssets,
  compareKeyedNames,
  compareNames,
  createAssetFilter,
  defaultStatusFilter,
  filterAssets,
  matchesAssetFilter,
  nameSortKey,
  normalizeSearch,
  sortAssets,
  type AssetFilterInput,
  type SortableAsset,
} from '../../src/domain/asset-filter';

const { location, active, standby, stationary, pending, offline } = ASSET_STATUS;
const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);

function s(id: string, status: AssetStatus, name: string, heartbeatTime: number | null = null): SortableAsset {
  return { id, status, primaryDisplayName: name, heartbeatTime };
}

describe('part1 §4 asset sort', () => {
  it('by status first', () => {
    const list = [s('a', offline, 'A', 5), s('b', location, 'Z'), s('c', pending, 'B', 9), s('d', active, 'Y')];
    expect(sortAssets(list).map((a) => a.id)).toEqual(['b', 'd', 'c', 'a']);
  });

  it.each([
    ['location', location],
    ['active', active],
    ['standby', standby],
    ['stationary', stationary],
  ] as const)('by name within %s (below pending), ignoring heartbeats', (_name, status) => {
    const list = [s('1', status, 'Unit 10', 1), s('2', status, 'unit 2', 3), s('3', status, 'Alpha', 2)];
    expect(sortAssets(list).map((a) => a.primaryDisplayName)).toEqual(['Alpha', 'unit 2', 'Unit 10']);
  });

  it.each([
    ['pending', pending],
    ['offline', offline],
    ['oos', ASSET_STATUS.oos],
  ] as const)('newest heartbeat first within %s, none last', (_name, status) => {
    const list = [s('old', status, 'A', 100), s('none', status, 'B', null), s('new', status, 'C', 300), s('mid', status, 'D', 200)];
    expect(sortAssets(list).map((a) => a.id)).toEqual(['new', 'mid', 'old', 'none']);
  });

  it('equal heartbeats fall back to name, then id', () => {
    const list = [s('2', pending, 'B', 5), s('3', pending, 'A', 5), s('1', pending, 'A', 5)];
    expect(sortAssets(list).map((a) => a.id)).toEqual(['1', '3', '2']);
  });

  it('is a total order: antisymmetric and returns a copy', () => {
    const a = s('a', standby, 'Same');
    const b = s('b', standby, 'Same');
    expect(Math.sign(compareAssets(a, b))).toBe(-Math.sign(compareAssets(b, a)));
    expect(compareAssets(a, a)).toBe(0);
    const input = [b, a];
    expect(sortAssets(input)).toEqual([a, b]);
    expect(input).toEqual([b, a]);
  });
});

describe('part1 §4 name order: the sort key equals the collator', () => {
  const sign = (n: number) => Math.sign(n);
  const named = (id: string, name: string) => ({ id, primaryDisplayName: name });
  // Every printable ASCII character, digits and letters more often, and a few the key leaves to the collator.
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...'0123456789') },
    { weight: 4, arbitrary: fc.constantFrom(...'aAbBzZ') },
    { weight: 4, arbitrary: fc.constantFrom(...printable) },
    { weight: 1, arbitrary: fc.constantFrom('é', 'Ü', 'ß', '\t', '٣', '中') },
  );
  const name = fc.string({ unit, maxLength: 12 });

  it('property: two names compare the same through their keys as through the collator', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        const x = named('x', a);
        const y = named('y', b);
        expect(sign(compareKeyedNames(x, nameSortKey(a), y, nameSortKey(b)))).toBe(sign(compareNames(x, y)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('property: a list sorted through the keys is the list sorted by the collator', () => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 60 }), (names) => {
        const assets = names.map((n, i) => ({ ...named(`id-${String(i).padStart(3, '0')}`, n), key: nameSortKey(n) }));
        const keyed = [...assets].sort((a, b) => compareKeyedNames(a, a.key, b, b.key)).map((a) => a.id);
        expect(keyed).toEqual([...assets].sort(compareNames).map((a) => a.id));
      }),
    );
  });

  it.each([
    ['Unit 2', 'Unit 10', -1],
    ['unit 2', 'UNIT 2', 0],
    ['Unit 007', 'Unit 7', 0],
    ['Unit 10', 'Unit 9b', 1],
    ['A-1', 'A 1', 1],
    ['Engine', 'Engine 1', -1],
    ['1 Truck', 'Alpha', -1],
  ] as const)('%s against %s: %i, as the collator says', (a, b, expected) => {
    expect(sign(compareKeyedNames(named('x', a), nameSortKey(a), named('x', b), nameSortKey(b)))).toBe(expected);
    expect(sign(compareNames(named('x', a), named('x', b)))).toBe(expected);
  });

  it('a name beyond printable ASCII (or with a number of over 254 digits) has no key: the collator orders it', () => {
    expect(nameSortKey('Café 1')).toBeNull();
    expect(nameSortKey('Unit\t1')).toBeNull();
    expect(nameSortKey(`N${'9'.repeat(255)}`)).toBeNull();
    expect(nameSortKey(`N${'9'.repeat(254)}`)).not.toBeNull();
    expect(sign(compareKeyedNames(named('x', 'Cafe 2'), nameSortKey('Cafe 2'), named('y', 'Café 10'), null))).toBe(-1);
  });
});

describe('part1 §4 default status filter', () => {
  it.each([
    [true, [location, active, standby, stationary, pending, offline]],
    [false, [location, active, standby, stationary, pending]],
  ])('show offline %s', (showOffline, expected) => {
    expect(defaultStatusFilter(showOffline)).toEqual(expected);
  });
});

function asset(overrides: Partial<ThingWireInput>): Asset {
  const a = fromThingWire(
    thingWireSchema.parse({ id: 'id-1', haas_id: 'haas-1', heartbeat_datetime: new Date(NOW).toISOString(), lat: 1, lng: 2, ...overrides }),
    NOW,
  );
  if (!a) throw new Error('unpositioned');
  return a;
}

describe('part1 §4 asset filter', () => {
  const standbyAsset = asset({});
  const oosAsset = asset({ id: 'id-oos', in_service: false });
  const feedAsset = asset({ id: 'id-feed', feed_subscriptions: ['wzdx-1'] });
  const offlineAsset = asset({ id: 'id-off', heartbeat_datetime: null });
  const rich = asset({
    id: 'uuid-77',
    haas_id: 'hx-77',
    nickname: 'Engine Seven',
    vin_number: '1HGCM82633A004352',
    license_plate_number: 'ABC-123',
    registry_number: 'REG-5',
    external_id: 'SYS-42',
    device_type: 'api',
    thing_type: 'fire',
    thing_subtype_id: 'sub-engine',
    organization: { id: 'org-b', name: 'B' },
  });
  const all = { statuses: [location, active, standby, stationary, pending, offline] };

  const rows: [string, Asset, AssetFilterInput, boolean][] = [
    ['status in the list', standbyAsset, { statuses: [standby] }, true],
    ['status not in the list', standbyAsset, { statuses: [active, pending] }, false],
    ['no statuses chosen', standbyAsset, { statuses: [] }, false],
    ['offline hidden by the default without show-offline', offlineAsset, { statuses: defaultStatusFilter(false) }, false],
    ['offline shown by the default with show-offline', offlineAsset, { statuses: defaultStatusFilter(true) }, true],
    ['out of service: not matched by its computed status (it shows as out of service)', oosAsset, all, false],
    ['out of service added: an out-of-service asset is in', oosAsset, { ...all, outOfService: true }, true],
    ['out of service added: the in-service assets of the chosen statuses stay', standbyAsset, { ...all, outOfService: true }, true],
    ['out of service added to no status: an in-service asset is out', standbyAsset, { statuses: [], outOfService: true }, false],
    ['out of service added to no status: an out-of-service asset is in', oosAsset, { statuses: [], outOfService: true }, true],
    ['feed added: the in-service assets of the chosen statuses stay', standbyAsset, { ...all, feed: true }, true],
    ['feed added: an asset in a feed whose status is not chosen is in', feedAsset, { statuses: [], feed: true }, true],
    ['feed added to no status: an asset in no feed is out', standbyAsset, { statuses: [], feed: true }, false],
    ['feed added: the other filters still apply', feedAsset, { statuses: [], feed: true, typeNames: ['police'] }, false],
    ['search: nickname, any case', rich, { ...all, search: 'engine SEV' }, true],
    ['search: name', rich, { ...all, search: 'HX-77' }, true],
    ['search: id', rich, { ...all, search: 'uuid-7' }, true],
    ['search: plate', rich, { ...all, search: 'abc-1' }, true],
    ['search: vin', rich, { ...all, search: '82633a' }, true],
    ['search: registry', rich, { ...all, search: 'reg-5' }, true],
    ['search: system id', rich, { ...all, search: 'sys-42' }, true],
    ['search: padded', rich, { ...all, search: '  sys-42  ' }, true],
    ['search: no match', rich, { ...all, search: 'ladder' }, false],
    ['search: cannot span two fields', rich, { ...all, search: 'seven\nhx' }, false],
    ['search: blank matches', rich, { ...all, search: '   ' }, true],
    ['type name matches', rich, { ...all, typeNames: ['police', 'fire'] }, true],
    ['type name does not match', rich, { ...all, typeNames: ['police'] }, false],
    ['type filter, asset without type', standbyAsset, { ...all, typeNames: ['police'] }, false],
    ['subtype id matches', rich, { ...all, subtypeIds: ['sub-engine'] }, true],
    ['subtype id does not match', rich, { ...all, subtypeIds: ['sub-ladder'] }, false],
    ['Owned: a child organization (org-b) owns', rich, { ...all, ownership: 'owned', ownedOrgIds: ['org-a', 'org-b'] }, true],
    ['Owned: another owner is managed', rich, { ...all, ownership: 'owned', ownedOrgIds: ['org-a'] }, false],
    ['Managed: another owner', rich, { ...all, ownership: 'managed', ownedOrgIds: ['org-a'] }, true],
    ['Managed: an owned asset is not', rich, { ...all, ownership: 'managed', ownedOrgIds: ['org-a', 'org-b'] }, false],
    ['Managed: an asset without owner is owned', standbyAsset, { ...all, ownership: 'managed', ownedOrgIds: ['org-a'] }, false],
    ['both (no ownership) keeps every owner', rich, { ...all, ownership: null, ownedOrgIds: ['org-a'] }, true],
    ['empty lists mean any', rich, { ...all, typeNames: [], subtypeIds: [] }, true],
  ];

  it.each(rows)('%s', (_name, a, input, expected) => {
    expect(matchesAssetFilter(a, createAssetFilter(input))).toBe(expected);
  });

  it('filterAssets keeps input order', () => {
    const f = createAssetFilter({ statuses: [standby], outOfService: true, search: 'id-' });
    expect(filterAssets([feedAsset, offlineAsset, standbyAsset, oosAsset], f).map((a) => a.id)).toEqual(['id-feed', 'id-1', 'id-oos']);
  });

  it.each([
    ['  Engine\n7 ', 'engine 7'],
    ['ABC', 'abc'],
  ])('normalizeSearch(%j) → %j', (input, expected) => {
    expect(normalizeSearch(input)).toBe(expected);
  });
});

it('the default filter: the default statuses, out of service in view, no feed filter', () => {
  expect(defaultAssetFilter(true)).toEqual({ statuses: defaultStatusFilter(true), outOfService: true, feed: false });
  expect(defaultAssetFilter(false).statuses).not.toContain(ASSET_STATUS.offline);
});

describe('activeFilterCount: how many Filters panel choices narrow or widen the list (the button shows it)', () => {
  const { location, active, standby, stationary, pending, offline } = ASSET_STATUS;
  const base = { statuses: defaultStatusFilter(true), outOfService: true, feed: false, typeNames: [], subtypeIds: [] };
  it.each([
    ['the default', base, true, 0],
    ['the default without offline, with show-offline off', { ...base, statuses: defaultStatusFilter(false) }, false, 0],
    ['the same statuses in another order', { ...base, statuses: [offline, pending, stationary, standby, active, location] }, true, 0],
    ['offline removed while show-offline is on', { ...base, statuses: defaultStatusFilter(false) }, true, 1],
    ['two statuses removed count once', { ...base, statuses: [location, active, standby, stationary] }, true, 1],
    ['out of service left out (it is in view by default)', { ...base, outOfService: false }, true, 1],
    ['feed added', { ...base, feed: true }, true, 1],
    ['a type and its subtype', { ...base, typeNames: ['fire'], subtypeIds: ['sub-engine'] }, true, 2],
    ['everything', { statuses: [active], outOfService: false, feed: true, typeNames: ['fire'], subtypeIds: ['sub-engine'] }, true, 5],
  ])('%s', (_name, choice, showOffline, count) => {
    expect(activeFilterCount(choice, showOffline)).toBe(count);
  });
});
