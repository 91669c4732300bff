import { describe, expect, it } from 'vitest';
import {
  areaKind,
  areaTypeWireSchema,
  areaWireSchema,
  DEFAULT_AREA_KIND,
  fromAreaTypeWire,
  fromAreaWire,
  isAvAreaType,
  newArea,
  sortAreas,
  sortAreaTypes,
  stationsFrom,
  toAreaPayload,
  toAreaTypeWire,
  type Area,
  type AreaTypeWire,
  type AreaWire,
} from '../../src/domain/area';
import { METRES_PER_MILE, STATION_RADIUS_DEFAULT_M } from '../../src/domain/constants';

const exclusionType: AreaTypeWire = {
  id: 't-ex',
  db_name: 'exclusion',
  display_name: 'Exclusion',
  is_station_view: false,
  is_av_type: false,
};
const stationType: AreaTypeWire = {
  id: 't-st',
  db_name: 'station',
  display_name: 'Station',
  is_station_view: true,
  is_av_type: false,
};

const polygon = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [-105, 39],
      [-105, 39.01],
      [-104.99, 39.01],
      [-105, 39],
    ],
  ],
};

function wire(overrides: Partial<AreaWire> = {}): AreaWire {
  return areaWireSchema.parse({
    id: 'a1',
    organization_id: 'org1',
    organization_name: 'Org One',
    thing_id: null,
    lat: 39.005,
    lng: -104.995,
    desc: 'Main yard',
    radius_dist: 0.5,
    is_active: true,
    area_geom: null,
    point_geom: { lat: 39.005, lon: -104.995 },
    name: 'Yard',
    ez_type: exclusionType,
    address1: '1 Main St',
    address2: null,
    city: 'Denver',
    state: 'CO',
    postal_code: '80202',
    country_code: 'US',
    ...overrides,
  });
}

describe('part2 §3 Area (server) → Area (client)', () => {
  it('maps every field', () => {
    const area = fromAreaWire(wire({ area_geom: polygon }));
    expect(area).toMatchObject({
      id: 'a1',
      displayName: 'Yard',
      description: 'Main yard',
      ezTypeId: 't-ex',
      ezTypeName: 'Exclusion',
      position: { lat: 39.005, lng: -104.995 },
      lat: 39.005,
      lng: -104.995,
      isPoi: false,
      isStationView: false,
      isLegacy: false,
      isExclusion: true,
      address1: '1 Main St',
      address2: '',
      city: 'Denver',
      state: 'CO',
      postalCode: '80202',
      countryCode: 'US',
      orgId: 'org1',
      orgName: 'Org One',
    });
    expect(area.lineStringArray).toEqual([
      { lat: 39, lon: -105 },
      { lat: 39.01, lon: -105 },
      { lat: 39.01, lon: -104.99 },
    ]);
  });

  it.each([
    [0.5, 0.5 * 1609],
    [1, 1609],
    [0, 0],
    [null, null],
  ])('radius_dist %s miles = %s metres (factor 1609)', (miles, metres) => {
    expect(METRES_PER_MILE).toBe(1609);
    expect(fromAreaWire(wire({ radius_dist: miles })).radius).toBe(metres);
  });

  // part 2 §2: "A legacy area has no point or area geometry. A point of interest has a point but
  // no shape." §3: isExclusion is the opposite of isPoi.
  it.each([
    [
      'point, no shape',
      { point_geom: { lat: 1, lon: 2 }, area_geom: null },
      { isPoi: true, isLegacy: false, isExclusion: false },
      'point_of_interest',
    ],
    [
      'point and shape',
      { point_geom: { lat: 1, lon: 2 }, area_geom: polygon },
      { isPoi: false, isLegacy: false, isExclusion: true },
      'exclusion',
    ],
    ['shape, no point', { point_geom: null, area_geom: polygon }, { isPoi: false, isLegacy: false, isExclusion: true }, 'exclusion'],
    ['neither', { point_geom: null, area_geom: null }, { isPoi: false, isLegacy: true, isExclusion: true }, 'legacy'],
  ] as const)('part2 §2 area kind: %s', (_name, overrides, flags, kind) => {
    const area = fromAreaWire(wire(overrides));
    expect(area).toMatchObject(flags);
    expect(areaKind(area)).toBe(kind);
  });

  it('a legacy area keeps its lat/lng position', () => {
    const area = fromAreaWire(wire({ point_geom: null, area_geom: null, lat: 10, lng: 20 }));
    expect(area.position).toEqual({ lat: 10, lng: 20 });
    expect(fromAreaWire(wire({ point_geom: null, area_geom: null, lat: null, lng: null })).position).toBeNull();
  });

  it('part2 §2 the default new area is an exclusion', () => {
    expect(DEFAULT_AREA_KIND).toBe('exclusion');
    const area = newArea('org1', 'Org');
    expect(area.isExclusion).toBe(true);
    expect(area.isPoi).toBe(false);
    expect(areaKind(area)).toBe('exclusion');
    expect(area.orgId).toBe('org1');
  });
});

describe('part2 §3 area write payload', () => {
  it('sends id, organization_id, name, desc, ez_type_id, area_geom, point_geom {lat, lon} and the address', () => {
    const area = fromAreaWire(wire({ area_geom: polygon, point_geom: { lat: 39.123456789, lon: -104.987654321 } }));
    expect(toAreaPayload(area)).toEqual({
      id: 'a1',
      organization_id: 'org1',
      name: 'Yard',
      desc: 'Main yard',
      ez_type_id: 't-ex',
      area_geom: polygon,
      point_geom: { lat: 39.1234567, lon: -104.9876543 },
      address1: '1 Main St',
      address2: '',
      city: 'Denver',
      state: 'CO',
      postal_code: '80202',
      country_code: 'US',
    });
  });

  it('a point of interest sends no shape; a new area sends no id; coordinates are truncated', () => {
    const poi = fromAreaWire(wire());
    expect(toAreaPayload(poi).area_geom).toBeNull();
    const area: Area = {
      ...newArea('org1'),
      displayName: '  Gate ',
      ezTypeId: 't-ex',
      position: { lat: 1.123456789, lng: 2.987654321 },
      lineStringArray: [
        { lat: 1.123456789, lon: 2.1 },
        { lat: 1.2, lon: 2.2 },
        { lat: 1.3, lon: 2.1 },
      ],
    };
    const payload = toAreaPayload(area);
    expect(payload).not.toHaveProperty('id');
    expect(payload.name).toBe('Gate');
    expect(payload.point_geom).toEqual({ lat: 1.1234567, lon: 2.9876543 });
    expect(payload.area_geom?.coordinates[0]).toEqual([
      [2.1, 1.1234567],
      [2.2, 1.2],
      [2.1, 1.3],
      [2.1, 1.1234567],
    ]);
  });

  it('an exclusion with no shape yet sends area_geom null', () => {
    expect(toAreaPayload(newArea('org1')).area_geom).toBeNull();
    expect(toAreaPayload(newArea('org1')).point_geom).toBeNull();
  });
});

describe('part2 §3 Area type', () => {
  it.each([
    ['no_stop', true],
    ['no_enter', true],
    ['exclusion', false],
    ['station', false],
    ['No_Stop', false],
  ])('is_av_type for %s is %s', (dbName, expected) => {
    expect(isAvAreaType(dbName)).toBe(expected);
    expect(fromAreaTypeWire({ ...exclusionType, db_name: dbName, is_av_type: !expected }).isAvType).toBe(expected);
    expect(toAreaTypeWire({ id: 'x', dbName, displayName: 'X', isStationView: false }).is_av_type).toBe(expected);
  });

  it('parses and maps a type', () => {
    expect(fromAreaTypeWire(areaTypeWireSchema.parse(stationType))).toEqual({
      id: 't-st',
      dbName: 'station',
      displayName: 'Station',
      isStationView: true,
      isAvType: false,
    });
  });

  it('sorted alphabetically with Other last', () => {
    const names = ['Other', 'station', 'Exclusion', 'No Stop', 'apron', 'Zebra'];
    const types = names.map((n) => ({ dbName: n.toLowerCase().replace(' ', '_'), displayName: n }));
    expect(sortAreaTypes(types).map((t) => t.displayName)).toEqual(['apron', 'Exclusion', 'No Stop', 'station', 'Zebra', 'Other']);
  });

  it.each([[{ dbName: 'other', displayName: 'Misc' }], [{ dbName: 'misc', displayName: 'OTHER' }]])(
    'Other is recognised by db name or display name: %j',
    (other) => {
      const sorted = sortAreaTypes([other, { dbName: 'zz', displayName: 'Zz' }, { dbName: 'aa', displayName: 'Aa' }]);
      expect(sorted[sorted.length - 1]).toBe(other);
    },
  );

  it('does not mutate its input', () => {
    const types = [
      { dbName: 'other', displayName: 'Other' },
      { dbName: 'a', displayName: 'A' },
    ];
    sortAreaTypes(types);
    expect(types[0]?.displayName).toBe('Other');
  });
});

describe('part2 §4 areas sorted by name, case-insensitively', () => {
  it('sorts', () => {
    const areas = ['beta', 'Alpha', 'gamma', 'ALPHA2', 'Beta 2'].map((displayName) => ({ displayName }));
    expect(sortAreas(areas).map((a) => a.displayName)).toEqual(['Alpha', 'ALPHA2', 'beta', 'Beta 2', 'gamma']);
  });

  it('keeps the order of names equal but for case', () => {
    const areas = [
      { displayName: 'yard', id: 1 },
      { displayName: 'Yard', id: 2 },
      { displayName: 'YARD', id: 3 },
    ];
    expect(sortAreas(areas).map((a) => a.id)).toEqual([1, 2, 3]);
  });
});

describe('part1 §4 stations for the worker', () => {
  it('keeps station-view areas with a position, defaulting the radius', () => {
    const areas = [
      fromAreaWire(wire({ id: 's1', name: 'Station 1', ez_type: stationType, radius_dist: 0.1 })),
      fromAreaWire(wire({ id: 's2', name: 'Station 2', ez_type: stationType, radius_dist: null })),
      fromAreaWire(wire({ id: 's3', name: 'Station 3', ez_type: stationType, radius_dist: 0 })),
      fromAreaWire(wire({ id: 's4', ez_type: stationType, point_geom: null, area_geom: null, lat: null, lng: null })),
      fromAreaWire(wire({ id: 'x1', ez_type: exclusionType })),
    ];
    expect(STATION_RADIUS_DEFAULT_M).toBe(100);
    expect(stationsFrom(areas)).toEqual([
      { id: 's1', name: 'Station 1', position: { lat: 39.005, lng: -104.995 }, radius: 0.1 * 1609 },
      { id: 's2', name: 'Station 2', position: { lat: 39.005, lng: -104.995 }, radius: 100 },
      { id: 's3', name: 'Station 3', position: { lat: 39.005, lng: -104.995 }, radius: 100 },
    ]);
  });
});
