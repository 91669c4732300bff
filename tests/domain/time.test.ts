import { describe, expect, it } from 'vitest';
import { isoDateTime, parseTime, toIso } from '../../src/domain/time';

describe('part1 §3 wire times: ISO 8601 ↔ epoch ms', () => {
  it.each([
    ['2024-03-01T12:00:00Z', Date.UTC(2024, 2, 1, 12)],
    ['2024-03-01T12:00:00.250Z', Date.UTC(2024, 2, 1, 12, 0, 0, 250)],
    ['2024-03-01T07:00:00-05:00', Date.UTC(2024, 2, 1, 12)],
    ['1970-01-01T00:00:00Z', 0],
  ] as const)('parseTime(%s) → %d', (iso, ms) => {
    expect(parseTime(iso)).toBe(ms);
  });

  it.each([null, undefined, '', 'not a date', '2024-13-45T99:00:00Z'])('parseTime(%s) → null', (iso) => {
    expect(parseTime(iso)).toBeNull();
  });

  it.each([
    [Date.UTC(2024, 2, 1, 12), '2024-03-01T12:00:00.000Z'],
    [0, '1970-01-01T00:00:00.000Z'],
    [null, null],
  ] as const)('toIso(%s) → %s', (ms, iso) => {
    expect(toIso(ms)).toBe(iso);
  });

  it.each([Date.UTC(2024, 2, 1, 12, 0, 0, 250), 0])('parseTime(toIso(%d)) round-trips', (ms) => {
    expect(parseTime(toIso(ms))).toBe(ms);
  });

  it.each([
    ['2024-03-01T12:00:00Z', true],
    ['2024-03-01T12:00:00.123+02:00', true],
    ['2024-03-01T12:00:00', false],
    ['2024-03-01', false],
    ['yesterday', false],
  ] as const)('isoDateTime accepts %s: %s', (value, ok) => {
    expect(isoDateTime.safeParse(value).success).toBe(ok);
  });
});
