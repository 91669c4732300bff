import { describe, expect, it } from 'vitest';
import { addressLabels, isValidCountryCode, normalizePostalCode, postalCodeError, stateFieldKind } from '../../src/domain/postal-code';

describe('part2 §5 postal code by country', () => {
  it.each<[string, string, string | null]>([
    ['US', '12345', null],
    ['US', '12345-6789', null],
    ['US', '12345-678', 'Invalid zip code'],
    ['US', '1234', 'Invalid zip code'],
    ['US', '123456', 'Invalid zip code'],
    ['US', '1234A', 'Invalid zip code'],
    ['us', ' 12345 ', null],
    ['CA', 'K1A 0B1', null],
    ['CA', 'K1A0B1', null],
    ['CA', 'k1a 0b1', null],
    ['CA', 'K1A  0B1', 'Invalid postal code'],
    ['CA', '12345', 'Invalid postal code'],
    ['CA', 'KK1 0B1', 'Invalid postal code'],
    ['GB', 'SW1A 1AA', null],
    ['PT', '1234-567', null],
    ['DE', '10115', null],
    ['GB', 'SW1A_1AA', 'Invalid postal code'],
    ['GB', 'SW1A  1AA', 'Invalid postal code'],
    ['GB', '-1234', 'Invalid postal code'],
    ['', 'ABC123', null],
    ['FR', '', 'Invalid postal code'],
  ])('%s %j → %s', (country, value, expected) => {
    expect(postalCodeError(country, value)).toBe(expected);
  });

  it('upper-cases the zip', () => {
    expect(normalizePostalCode(' k1a 0b1 ')).toBe('K1A 0B1');
  });

  it.each<[string, boolean]>([
    ['US', true],
    ['U', true],
    ['USA', false],
  ])('country code %s valid: %s', (code, expected) => {
    expect(isValidCountryCode(code)).toBe(expected);
  });
});

describe('part1 §5, part2 §2 address labels by country', () => {
  it.each<[string | null, { state: string; postalCode: string }, string]>([
    ['US', { state: 'State', postalCode: 'Zip Code' }, 'us-state'],
    ['CA', { state: 'Province', postalCode: 'Postal Code' }, 'ca-province'],
    ['ca', { state: 'Province', postalCode: 'Postal Code' }, 'ca-province'],
    ['MX', { state: 'Region', postalCode: 'Postal Code' }, 'free-text'],
    [null, { state: 'Region', postalCode: 'Postal Code' }, 'free-text'],
  ])('%s', (country, labels, kind) => {
    expect(addressLabels(country)).toEqual(labels);
    expect(stateFieldKind(country)).toBe(kind);
  });
});
