import { describe, expect, it } from 'vitest';
import {
  alertingZoneWireSchema,
  compareZoneFilters,
  defaultZoneFilter,
  fromAlertingZoneWire,
  refilterZones,
  sortZones,
  toZoneView,
  zoneFilterLoosens,
  zoneMatchesFilter,
  zoneMatchesSearch,
  zoneStatus,
  type FilterChange,
  type ZoneFilter,
  type ZoneView,
} from '../../src/domain/alerting-zone';

const zoneWire = alertingZoneWireSchema.parse({
  id: 'z1',
  external_id: 'EXT-77',
  alerting_zone_type_name: 'school',
  alert_message: 'School zone',
  description: 'Lincoln Elementary',
  features: [
    { type: 'Feature', geometry: { type: 'Point', coordinates: [-105, 39] }, properties: { radius: 120 } },
    {
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [-105, 39],
          [-105.1, 39.1],
        ],
      },
      properties: null,
    },
  ],
  is_active: true,
  active_things: [
    { id: 't1', haas_id: 'ha-001', nickname: 'Engine 5' },
    { id: 't2', haas_id: 'ha-002', nickname: null },
  ],
  active_locations: { default_expiry: 3600 },
});

describe('part2 §3 alerting zone', () => {
  it('maps the wire to the client model', () => {
    const z = fromAlertingZoneWire(zoneWire);
    expect(z).toEqual({
      id: 'z1',
      externalId: 'EXT-77',
      typeName: 'school',
      alertMessage: 'School zone',
      description: 'Lincoln Elementary',
      features: [
        { kind: 'circle', center: { lat: 39, lng: -105 }, radius: 120 },
        {
          kind: 'line',
          path: [
            { lat: 39, lng: -105 },
            { lat: 39.1, lng: -105.1 },
          ],
        },
      ],
      isActive: true,
      status: 'active',
      activeThings: [
        { thingId: 't1', thingName: 'Engine 5' },
        { thingId: 't2', thingName: 'HA-002' },
      ],
      activeLocationExpiry: 3600,
    });
    expect(toZoneView(z)).toEqual({
      id: 'z1',
      externalId: 'EXT-77',
      description: 'Lincoln Elementary',
      typeId: 'school',
      status: 'active',
      things: z.activeThings,
    });
  });

  it('defaults missing optional fields', () => {
    const z = fromAlertingZoneWire(alertingZoneWireSchema.parse({ id: 'z2', alerting_zone_type_name: 'work', is_active: false }));
    expect(z).toMatchObject({
      externalId: null,
      description: '',
      features: [],
      activeThings: [],
      activeLocationExpiry: null,
      status: 'standby',
    });
  });

  it.each([
    [true, 'active'],
    [false, 'standby'],
  ] as const)('part2 §4 zone status: isActive %s → %s', (isActive, status) => {
    expect(zoneStatus({ isActive })).toBe(status);
  });

  it('part2 §4 zones sorted by the active flag, active first, ties keep their order', () => {
    const zones = [
      { id: 'a', status: 'standby' as const },
      { id: 'b', status: 'active' as const },
      { id: 'c', status: 'standby' as const },
      { id: 'd', status: 'active' as const },
    ];
    expect(sortZones(zones).map((z) => z.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(zones.map((z) => z.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('part2 §2 zone search', () => {
  const view = toZoneView(fromAlertingZoneWire(zoneWire));
  it.each([
    ['', true],
    ['   ', true],
    ['z1', true],
    ['Z1', true],
    ['ext-77', true],
    ['lincoln', true],
    ['ELEMENT', true],
    ['t2', true],
    ['engine', true],
    ['ha-002', true],
    ['school', false], // the type name is not searched
    ['zone', false], // nor the alert message
    ['Engine 6', false],
  ])('"%s" → %s', (text, expected) => {
    expect(zoneMatchesSearch(view, text)).toBe(expected);
  });
});

const f = (o: Partial<ZoneFilter> = {}): ZoneFilter => ({ ...defaultZoneFilter(), ...o });

describe('part2 §2 zone filter loosens or tightens', () => {
  it.each<[string, Partial<ZoneFilter>, Partial<ZoneFilter>, FilterChange]>([
    ['unchanged', {}, {}, 'same'],
    ['same search, different case and spaces', { search: 'abc' }, { search: ' ABC ' }, 'same'],
    ['type unhidden', { hiddenTypes: ['a', 'b'] }, { hiddenTypes: ['a'] }, 'looser'],
    ['type hidden', { hiddenTypes: ['a'] }, { hiddenTypes: ['a', 'b'] }, 'tighter'],
    ['hidden types swapped', { hiddenTypes: ['a'] }, { hiddenTypes: ['b'] }, 'mixed'],
    ['hidden types reordered', { hiddenTypes: ['a', 'b'] }, { hiddenTypes: ['b', 'a'] }, 'same'],
    ['status added', { statuses: ['active'] }, { statuses: ['active', 'standby'] }, 'looser'],
    ['status removed', { statuses: ['active', 'standby'] }, { statuses: ['standby'] }, 'tighter'],
    ['status swapped', { statuses: ['active'] }, { statuses: ['standby'] }, 'mixed'],
    ['search shortened', { search: 'abcd' }, { search: 'abc' }, 'looser'],
    ['search shortened from the front', { search: 'abcd' }, { search: 'bcd' }, 'looser'],
    ['search cleared', { search: 'abc' }, { search: '' }, 'looser'],
    ['search extended', { search: 'abc' }, { search: 'abcd' }, 'tighter'],
    ['search started', { search: '' }, { search: 'a' }, 'tighter'],
    ['search replaced', { search: 'abc' }, { search: 'abx' }, 'mixed'],
    ['unhide a type and extend the search', { hiddenTypes: ['a'], search: 'x' }, { hiddenTypes: [], search: 'xy' }, 'mixed'],
    ['unhide a type and add a status', { hiddenTypes: ['a'], statuses: ['active'] }, { statuses: ['active', 'standby'] }, 'looser'],
    ['hide a type and remove a status', { statuses: ['active', 'standby'] }, { hiddenTypes: ['a'], statuses: ['active'] }, 'tighter'],
  ])('%s (%j → %j) → %s', (_name, prev, next, expected) => {
    expect(compareZoneFilters(f(prev), f(next))).toBe(expected);
    expect(zoneFilterLoosens(f(prev), f(next))).toBe(expected === 'looser');
  });
});

describe('part2 §2 zone re-filtering', () => {
  const zone = (id: string, typeId: string, status: 'active' | 'standby', description = ''): ZoneView => ({
    id,
    externalId: null,
    description,
    typeId,
    status,
    things: [],
  });
  const school = zone('z-school', 'school', 'active', 'north school');
  const work = zone('z-work', 'work', 'standby', 'north work');
  const event = zone('z-event', 'event', 'active', 'south stadium');
  const all = [school, work, event];

  /** Runs refilterZones and records which zones `matches` was asked about. */
  function run(prev: ZoneFilter, next: ZoneFilter, shown: ZoneView[], hidden: ZoneView[]) {
    const tested: string[] = [];
    const result = refilterZones(prev, next, shown, hidden, (z) => {
      tested.push(z.id);
      return zoneMatchesFilter(z, next);
    });
    return { tested, shown: result.shown.map((z) => z.id), hidden: result.hidden.map((z) => z.id) };
  }

  function split(filter: ZoneFilter): [ZoneView[], ZoneView[]] {
    return [all.filter((z) => zoneMatchesFilter(z, filter)), all.filter((z) => !zoneMatchesFilter(z, filter))];
  }

  it('loosening re-tests only hidden zones, which may appear', () => {
    const prev = f({ hiddenTypes: ['work'], search: 'north' });
    const next = f({ hiddenTypes: [], search: 'north' });
    const [shown, hidden] = split(prev);
    expect(shown.map((z) => z.id)).toEqual(['z-school']);
    const r = run(prev, next, shown, hidden);
    expect(r.tested).toEqual(['z-work', 'z-event']);
    expect(r.shown).toEqual(['z-school', 'z-work']);
    expect(r.hidden).toEqual(['z-event']);
  });

  it('tightening re-tests only shown zones, which may be hidden', () => {
    const prev = f();
    const next = f({ statuses: ['active'] });
    const [shown, hidden] = split(prev);
    const r = run(prev, next, shown, hidden);
    expect(r.tested).toEqual(['z-school', 'z-work', 'z-event']);
    expect(r.shown).toEqual(['z-school', 'z-event']);
    expect(r.hidden).toEqual(['z-work']);

    const r2 = run(
      next,
      f({ statuses: ['active'], search: 'stadium' }),
      r.shown.map((id) => all.find((z) => z.id === id)!),
      [work],
    );
    expect(r2.tested).toEqual(['z-school', 'z-event']);
    expect(r2.shown).toEqual(['z-event']);
    expect(r2.hidden).toEqual(['z-school', 'z-work']);
  });

  it('an unchanged filter re-tests shown zones only ("otherwise")', () => {
    const filter = f({ search: 'north' });
    const [shown, hidden] = split(filter);
    const r = run(filter, { ...filter }, shown, hidden);
    expect(r.tested).toEqual(shown.map((z) => z.id));
    expect(r.shown).toEqual(shown.map((z) => z.id));
  });

  it('a mixed change re-tests both lists, so a newly admitted zone appears', () => {
    const prev = f({ statuses: ['active'] });
    const next = f({ statuses: ['standby'] });
    const [shown, hidden] = split(prev);
    const r = run(prev, next, shown, hidden);
    expect(r.tested.sort()).toEqual(['z-event', 'z-school', 'z-work']);
    expect(r.shown).toEqual(['z-work']);
    expect(r.hidden.sort()).toEqual(['z-event', 'z-school']);
  });

  // Whatever the change, the result is the same as filtering from scratch.
  it.each<[Partial<ZoneFilter>, Partial<ZoneFilter>]>([
    [{}, { hiddenTypes: ['school'] }],
    [{ hiddenTypes: ['school'] }, {}],
    [{ search: 'north' }, { search: 'nor' }],
    [{ search: 'nor' }, { search: 'north w' }],
    [{ search: 'north' }, { search: 'south' }],
    [{ statuses: ['standby'] }, { statuses: ['active', 'standby'], hiddenTypes: ['event'] }],
  ])('from %j to %j agrees with a full filter', (p, n) => {
    const prev = f(p);
    const next = f(n);
    const [shown, hidden] = split(prev);
    const r = run(prev, next, shown, hidden);
    expect(r.shown.sort()).toEqual(
      split(next)[0]
        .map((z) => z.id)
        .sort(),
    );
    expect(r.hidden.sort()).toEqual(
      split(next)[1]
        .map((z) => z.id)
        .sort(),
    );
  });
});
