import { describe, expect, it } from 'vitest';
import { areaFormSchema, shapeCornerCount } from '../../../src/domain/validation/area';
import { fieldErrors } from '../../../src/domain/validation/field-errors';

const p = (lat: number, lng: number) => ({ lat, lng });
const triangle = [p(40, -74), p(40.001, -74), p(40, -74.001)];
const valid = {
  name: 'Station 7',
  description: 'North station',
  ezTypeId: 3,
  isPoi: false,
  position: p(40, -74),
  lineStringArray: triangle,
  address1: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  countryCode: 'US',
};
const x = (n: number): string => 'x'.repeat(n);

describe('part2 §5 area', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['name missing', { name: ' ' }, { name: 'Required' }],
    ['name of 100', { name: x(100) }, {}],
    ['name of 101', { name: x(101) }, { name: '100 Max Characters' }],
    ['description of 101', { description: x(101) }, { description: '100 Max Characters' }],
    ['type missing', { ezTypeId: '' }, { ezTypeId: 'Required' }],
    ['type absent', { ezTypeId: null }, { ezTypeId: 'Required' }],
    ['position not set', { position: null }, { position: "ERROR: Please set new map location. Click 'View Instructions' above if needed" }],
    ['exclusion with 2 points', { lineStringArray: triangle.slice(0, 2) }, { lineStringArray: 'Exclusions must have at least 3 points' }],
    ['exclusion with 3 points', { lineStringArray: triangle }, {}],
    [
      'closed ring of 3 points (2 corners)',
      { lineStringArray: [p(40, -74), p(40.001, -74), p(40, -74)] },
      { lineStringArray: 'Exclusions must have at least 3 points' },
    ],
    ['point of interest without a shape', { isPoi: true, lineStringArray: [] }, {}],
    ['zip 12345-6789', { postalCode: '12345-6789' }, {}],
    ['zip 12345-678', { postalCode: '12345-678' }, { postalCode: 'Invalid zip code' }],
    ['Canada A1A 1A1', { countryCode: 'CA', postalCode: 'a1a 1a1' }, {}],
    ['Canada wrong', { countryCode: 'CA', postalCode: '12345' }, { postalCode: 'Invalid postal code' }],
    ['other country', { countryCode: 'GB', postalCode: 'SW1A 1AA' }, {}],
    ['other country wrong', { countryCode: 'GB', postalCode: 'SW1A#' }, { postalCode: 'Invalid postal code' }],
    ['country code of 3', { countryCode: 'USA' }, { countryCode: 'Must be 2 or fewer characters' }],
    ['address left blank', { address1: '', city: '', state: '', postalCode: '', countryCode: '' }, {}],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(areaFormSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });

  it('upper-cases the zip', () => {
    const parsed = areaFormSchema.parse({ ...valid, countryCode: 'CA', postalCode: 'k1a 0b1' });
    expect(parsed.postalCode).toBe('K1A 0B1');
  });

  it.each<[number, number]>([
    [0, 0],
    [1, 1],
    [3, 3],
  ])('shapeCornerCount of %i open points is %i', (n, expected) => {
    expect(shapeCornerCount(triangle.slice(0, n))).toBe(expected);
  });
});
