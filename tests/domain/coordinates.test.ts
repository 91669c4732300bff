import { describe, expect, it } from 'vitest';
import {
  formatCoordinate,
  formatLatLng,
  formatTruncatedCoordinate,
  formatTruncatedLatLng,
  parseCoordinateSearch,
  truncateCoordinate,
} from '../../src/domain/coordinates';

describe('part1 §5 coordinate search', () => {
  it.each<[string, { lat: number; lng: number } | null]>([
    ['40.7128, -74.006', { lat: 40.7128, lng: -74.006 }],
    ['40.7128,-74.006', { lat: 40.7128, lng: -74.006 }],
    ['  40 , -74  ', { lat: 40, lng: -74 }],
    ['+1.5, .5', { lat: 1.5, lng: 0.5 }],
    ['90, 180', { lat: 90, lng: 180 }],
    ['-90, -180', { lat: -90, lng: -180 }],
    ['90.0000001, 0', null],
    ['-90.0000001, 0', null],
    ['0, 180.0000001', null],
    ['0, -180.0000001', null],
    ['90.00000001, 0', null],
    ['40.12345678901, -74.98765432109', { lat: 40.1234567, lng: -74.9876543 }],
    ['40.7128', null],
    ['40.7128, -74.006, 3', null],
    ['abc, def', null],
    ['40.7128; -74.006', null],
    ['', null],
    ['1e2, 3', null],
  ])('%j → %j', (text, expected) => {
    expect(parseCoordinateSearch(text)).toEqual(expected);
  });
});

describe('part1 §9 coordinate truncation', () => {
  it.each<[number, number, number]>([
    [40.12345678, 7, 40.1234567],
    [-74.98765439, 7, -74.9876543],
    [4.35, 1, 4.3],
    [4.35, 2, 4.35],
    [1.99999999, 7, 1.9999999],
    [0.00000001, 7, 0],
    [-0.00000001, 7, 0],
    [12, 7, 12],
  ])('truncate(%d, %i) = %d', (value, decimals, expected) => {
    expect(truncateCoordinate(value, decimals)).toBe(expected);
  });

  it.each<[number, number, string]>([
    [40.123456789, 5, '40.12345'],
    [-74.000009, 5, '-74.00000'],
    [12.3, 5, '12.30000'],
    [-0.000001, 5, '0.00000'],
    [1e-7, 7, '0.0000001'],
    [45.67, 0, '45'],
  ])('formatCoordinate(%d, %i) = %s', (value, decimals, expected) => {
    expect(formatCoordinate(value, decimals)).toBe(expected);
  });

  it('formats a point for the map menu', () => {
    expect(formatLatLng({ lat: 40.7127999, lng: -74.0059999 }, 5)).toBe('40.71279, -74.00599');
  });

  it.each<[number, string]>([
    [30.26721239, '30.2672123'],
    [-97.74319876, '-97.7431987'],
    [30.2672, '30.2672'],
    [12, '12'],
    [-0.00000001, '0'],
    [1e-7, '0.0000001'],
  ])('formatTruncatedCoordinate(%d) = %s (7 decimals, no trailing zeros)', (value, expected) => {
    expect(formatTruncatedCoordinate(value)).toBe(expected);
  });

  it('formats a point at 7 decimals outside the map menu (the event detail)', () => {
    expect(formatTruncatedLatLng({ lat: 30.26721239, lng: -97.74319876 })).toBe('30.2672123, -97.7431987');
  });
});
