import { describe, expect, it } from 'vitest';
import { displayName, ELLIPSIS, shortenName, truncate, withOosSuffix } from '../../src/domain/display-name';

describe('part1 §9 display names: over 12 characters → first 4 + dots + last 4', () => {
  it('the dots are three full stops', () => {
    expect(ELLIPSIS).toBe('...');
  });

  it.each([
    ['', ''],
    ['ABC', 'ABC'],
    ['ABCDEFGHIJK', 'ABCDEFGHIJK'],
    ['ABCDEFGHIJKL', 'ABCDEFGHIJKL'], // exactly 12: kept
    ['ABCDEFGHIJKLM', 'ABCD...JKLM'], // 13: shortened
    ['ENGINE 12 - NORTH STATION', 'ENGI...TION'],
    ['🚒🚒🚒🚒🚒🚒🚒🚒🚒🚒🚒🚒', '🚒🚒🚒🚒🚒🚒🚒🚒🚒🚒🚒🚒'], // 12 code points: kept
    ['🚒BCDEFGHIJKL🚓', '🚒BCD...JKL🚓'], // 13 code points: never split a pair
  ])('%j → %j', (name, expected) => {
    expect(shortenName(name)).toBe(expected);
  });

  it.each([
    ['Unit 7', true, 'Unit 7'],
    ['Unit 7', false, 'Unit 7 | OOS'],
  ] as const)("' | OOS' when out of service: %j in service %s", (name, inService, expected) => {
    expect(withOosSuffix(name, inService)).toBe(expected);
  });

  it.each([
    ['ABCDEFGHIJKL', false, 'ABCDEFGHIJKL | OOS'],
    ['ABCDEFGHIJKLM', false, 'ABCD...JKLM | OOS'],
    ['ABCDEFGHIJKLM', true, 'ABCD...JKLM'],
  ] as const)('displayName(%j, %s) → %j', (name, inService, expected) => {
    expect(displayName(name, inService)).toBe(expected);
  });
});

describe('part1 §9 long-text truncation (50 characters)', () => {
  const fifty = 'x'.repeat(50);
  it.each([
    ['shorter: kept', 'short', 'short'],
    ['exactly 50: kept', fifty, fifty],
    ['51: the first 50 and dots', fifty + 'y', fifty + '...'],
    ['cut after a space: the space dropped', 'a'.repeat(49) + ' ' + 'tail', 'a'.repeat(49) + '...'],
  ])('%s', (_name, text, expected) => {
    expect(truncate(text)).toBe(expected);
  });

  it('takes another limit (mobile organization name, 70)', () => {
    expect(truncate('o'.repeat(70), 70)).toBe('o'.repeat(70));
    expect(truncate('o'.repeat(71), 70)).toBe('o'.repeat(70) + '...');
  });
});
