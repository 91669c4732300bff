/** part 2 §2, §3, §5, §9: the area form's model — shapes of an area, sq mi, the payload, the list filter. */
import { describe, expect, it } from 'vitest';
import { fromAreaWire, type AreaWire } from '../../src/domain/area';
import {
  areaFormValues,
  areaFormValuesSchema,
  areaGeometry,
  areaPayloadFromForm,
  filterAreas,
  geometrySqMiles,
  sqMilesText,
  type AreaFormValues,
} from '../../src/domain/area-form';

const TYPE = { id: 't', db_name: 'other', display_name: 'Other', is_station_view: false };
const wire = (overrides: Partial<AreaWire>): AreaWire => ({ id: 'a', organization_id: 'o', name: 'A', ez_type: TYPE, ...overrides });

describe('part2 §2 §3 an area shape', () => {
  it.each([
    [
      'a ring → polygon',
      {
        area_geom: {
          type: 'Polygon' as const,
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
      },
      'polygon',
    ],
    ['a point and a radius → circle (metres = miles × 1609)', { point_geom: { lat: 1, lon: 2 }, radius_dist: 0.5 }, 'circle'],
    ['a point alone → point of interest', { point_geom: { lat: 1, lon: 2 } }, 'point'],
    ['nothing → legacy (none)', {}, null],
  ])('%s', (_name, overrides, kind) => {
    const geometry = areaGeometry(fromAreaWire(wire(overrides)));
    expect(geometry?.kind ?? null).toBe(kind);
    if (geometry?.kind === 'circle') expect(geometry.radius).toBe(0.5 * 1609);
  });

  it('§9 sq mi: a circle of 1 mile radius is π sq mi (1609 m per mile); a point has none', () => {
    expect(geometrySqMiles({ kind: 'circle', center: { lat: 0, lng: 0 }, radius: 1609.344 })).toBeCloseTo(Math.PI, 3);
    expect(geometrySqMiles({ kind: 'point', position: { lat: 0, lng: 0 } })).toBe(0);
    expect(sqMilesText(0.0456)).toBe('0.046 sq mi');
    expect(sqMilesText(0.5)).toBe('0.50 sq mi');
  });
});

describe('part2 §5 the form values', () => {
  const values = (overrides: Partial<AreaFormValues>): AreaFormValues => ({
    ...areaFormValues(fromAreaWire(wire({ point_geom: { lat: 30, lon: -97 } }))),
    ezTypeId: 't',
    ...overrides,
  });

  it('a shape of another kind than the chosen one does not count: the position text', () => {
    const result = areaFormValuesSchema.safeParse(values({ shapeKind: 'circle' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['shape', "ERROR: Please set new map location. Click 'View Instructions' above if needed"],
    ]);
  });

  it('the payload: trimmed text, upper-cased zip and country, coordinates truncated to 7 decimals', () => {
    const payload = areaPayloadFromForm(
      values({
        name: ' Yard ',
        postalCode: 'k1a 0b1',
        countryCode: 'ca',
        shapeKind: 'point',
        shape: { kind: 'point', position: { lat: 30.123456789, lng: -97.987654321 } },
      }),
      'o',
      'a',
    );
    expect(payload).toMatchObject({
      id: 'a',
      name: 'Yard',
      postal_code: 'K1A 0B1',
      country_code: 'CA',
      point_geom: { lat: 30.1234567, lon: -97.9876543 },
      area_geom: null,
      radius_dist: null,
    });
  });
});

describe('part2 §2 the list filter', () => {
  const list = [
    { displayName: 'North Yard', description: '', ezTypeId: 'a' },
    { displayName: 'Clinic', description: 'north entrance', ezTypeId: 'b' },
  ];
  it.each([
    ['', '', ['North Yard', 'Clinic']],
    ['NORTH', '', ['North Yard', 'Clinic']],
    ['north', 'b', ['Clinic']],
    ['  yard ', '', ['North Yard']],
    ['zzz', '', []],
  ])('search %j type %j', (search, type, names) => {
    expect(filterAreas(list, search, type).map((a) => a.displayName)).toEqual(names);
  });
});
