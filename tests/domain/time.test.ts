import { describe, expect, it } from 'vitest';
import {
  dateInputText,
  fromMinuteInput,
  isoDateTime,
  parseTime,
  readDateInput,
  toIso,
  toMinuteInput,
  UNREADABLE_DATE_TEXT,
} from '../../src/domain/time';

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

describe('part2 §5 date inputs: what the browser holds, read as an instant', () => {
  it("a datetime-local value in a zone; '' is none; an unreadable input (year 0000: badInput) or a year before 100 is NaN, never a 1900s date", () => {
    expect(fromMinuteInput('2026-01-31T14:05', 'UTC')).toBe(Date.UTC(2026, 0, 31, 14, 5));
    expect(fromMinuteInput('', 'UTC')).toBeNull();
    expect(fromMinuteInput('0099-01-31T14:05', 'UTC')).toBeNaN();
    expect(readDateInput({ value: '', validity: { badInput: true } }, 'UTC')).toBeNaN();
    expect(readDateInput({ value: '', validity: { badInput: false } }, 'UTC')).toBeNull();
    expect(dateInputText({ value: '', validity: { badInput: true } })).toBe(UNREADABLE_DATE_TEXT);
    expect(fromMinuteInput(`${UNREADABLE_DATE_TEXT}T10:30`, 'UTC')).toBeNaN();
    expect(toMinuteInput(Number.NaN, 'UTC')).toBe('');
  });
});
