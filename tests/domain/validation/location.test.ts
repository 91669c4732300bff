import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../../src/domain/validation/field-errors';
import { locationEditSchema } from '../../../src/domain/validation/location';

describe('part1 §5 location edit', () => {
  const valid = { lat: 40, lng: -74, roadwayHeading: 90 };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['lat 90', { lat: 90 }, {}],
    ['lat 90.0000001', { lat: 90.0000001 }, { lat: 'Must be between -90 and 90' }],
    ['lat -90', { lat: -90 }, {}],
    ['lat -90.0000001', { lat: -90.0000001 }, { lat: 'Must be between -90 and 90' }],
    ['lng 180', { lng: 180 }, {}],
    ['lng 180.0000001', { lng: 180.0000001 }, { lng: 'Must be between -180 and 180' }],
    ['lng -180.0000001', { lng: -180.0000001 }, { lng: 'Must be between -180 and 180' }],
    ['heading 0', { roadwayHeading: 0 }, {}],
    ['heading 360', { roadwayHeading: 360 }, {}],
    ['heading 360.1', { roadwayHeading: 360.1 }, { roadwayHeading: 'Must be between 0 and 360' }],
    ['heading -1', { roadwayHeading: -1 }, { roadwayHeading: 'Must be between 0 and 360' }],
    ['heading missing', { roadwayHeading: undefined }, { roadwayHeading: 'Required' }],
    ['heading not a number', { roadwayHeading: Number.NaN }, { roadwayHeading: 'Required' }],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(locationEditSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});
