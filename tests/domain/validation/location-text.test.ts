import { describe, expect, it } from 'vitest';
import { showsEditLocation } from '../../../src/domain/location';
import { fieldErrors } from '../../../src/domain/validation/field-errors';
import { locationEditText, locationEditTextSchema } from '../../../src/domain/validation/location';

describe('part1 §5 location edit from text inputs', () => {
  const valid = { lat: '30.2672', lng: '-97.7431', roadwayHeading: '90' };
  it('reads the numbers', () => {
    expect(locationEditTextSchema.parse(valid)).toEqual({ lat: 30.2672, lng: -97.7431, roadwayHeading: 90 });
  });
  it.each<[string, Record<string, string>, Record<string, string>]>([
    ['blank heading', { roadwayHeading: ' ' }, { roadwayHeading: 'Required' }],
    ['not a number', { lat: 'north' }, { lat: 'Required' }],
    ['lat 91', { lat: '91' }, { lat: 'Must be between -90 and 90' }],
    ['lng -180.5', { lng: '-180.5' }, { lng: 'Must be between -180 and 180' }],
    ['heading 360.5', { roadwayHeading: '360.5' }, { roadwayHeading: 'Must be between 0 and 360' }],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(locationEditTextSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
  it('starts from the location; no heading starts blank', () => {
    expect(locationEditText({ lat: 1.5, lng: -2, roadwayHeading: 0 })).toEqual({ lat: '1.5', lng: '-2', roadwayHeading: '0' });
    expect(locationEditText({ lat: 1.5, lng: -2, roadwayHeading: null }).roadwayHeading).toBe('');
  });
});

describe("part1 §2 'Edit Location' shows for", () => {
  it.each([
    [true, false, ['incident:update'], true],
    [true, false, ['haas:manage'], true],
    [true, false, ['incident:read'], false],
    [false, false, ['incident:update'], false],
    [true, true, ['incident:update'], false],
  ])('active %s, geo marker %s, %j: %s', (isActive, isGeoMarker, permissions, shown) => {
    expect(showsEditLocation({ isActive, isGeoMarker }, permissions)).toBe(shown);
  });
});
