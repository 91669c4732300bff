import { describe, expect, it } from 'vitest';
import { formatClock, formatDateTime, formatDuration } from '../../src/domain/time';

describe('shown times (part1 §2 event detail)', () => {
  it.each([
    [0, '0s'],
    [35_400, '35s'],
    [60_000, '1m 0s'],
    [250_000, '4m 10s'],
    [3_900_000, '1h 5m'],
    [3_600_000 * 27 + 60_000 * 3, '1d 3h'],
    [-5_000, '0s'],
  ])('formatDuration(%i) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('formatDateTime writes the time in the given zone', () => {
    const at = Date.UTC(2026, 10, 22, 12, 5);
    expect(formatDateTime(at, 'America/Chicago')).toBe('11/22/2026 6:05 AM');
    expect(formatDateTime(at, 'Europe/Berlin')).toBe('11/22/2026 1:05 PM');
  });

  it('an unknown zone (a bad profile value) writes the runtime zone instead of throwing', () => {
    const at = Date.UTC(2026, 10, 22, 12, 5);
    expect(formatDateTime(at, 'Not/AZone')).toBe(formatDateTime(at));
    expect(formatClock(at, 'Not/AZone')).toBe(formatClock(at));
  });

  it("the top bar's clock is written in the user's zone, as every other shown time", () => {
    const at = Date.UTC(2026, 10, 22, 13, 31);
    expect(formatClock(at, 'America/Chicago')).toBe('Sun, Nov 22, 2026 07:31 AM');
    expect(formatClock(at, 'Asia/Tokyo')).toBe('Sun, Nov 22, 2026 10:31 PM');
  });
});
