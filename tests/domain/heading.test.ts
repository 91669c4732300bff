import { describe, expect, it } from 'vitest';
import { COMPASS_POINTS } from '../../src/domain/constants';
import { courseToCompass } from '../../src/domain/heading';

describe('part1 §3 heading: course/45 rounded modulo 8', () => {
  it('has the 8 points in order', () => {
    expect(COMPASS_POINTS).toEqual(['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW']);
  });

  it.each([
    [0, 'N'],
    [22.4, 'N'],
    [22.5, 'NE'],
    [45, 'NE'],
    [67.4, 'NE'],
    [67.5, 'E'],
    [90, 'E'],
    [135, 'SE'],
    [180, 'S'],
    [225, 'SW'],
    [270, 'W'],
    [315, 'NW'],
    [337.4, 'NW'],
    [337.5, 'N'],
    [359, 'N'],
    [360, 'N'],
    [405, 'NE'],
    [720, 'N'],
    [-45, 'NW'],
    [-22.5, 'N'],
    [-22.6, 'NW'],
    [-90, 'W'],
    [-360, 'N'],
    [-405, 'NW'],
  ] as const)('%d° → %s', (course, expected) => {
    expect(courseToCompass(course)).toBe(expected);
  });

  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY])('%s → null', (course) => {
    expect(courseToCompass(course)).toBeNull();
  });
});
