import { describe, expect, it } from 'vitest';
import {
  applyClosureMode,
  closureEndLimit,
  closureFormMode,
  closureFormStatusFrom,
  closurePickerRange,
  closureSwitchesDisabled,
  closureTimesOnSave,
  hidesStatusSection,
  isClosureActiveOnSave,
  isWithinClosureEndLimit,
  type ClosureFormMode,
  type ClosureFormStatus,
} from '../../src/domain/closure-form';
import { CLOSURE_MAX_AHEAD_MONTHS, HOUR_MS, MINUTE_MS } from '../../src/domain/constants';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const START = NOW + HOUR_MS;
const END = NOW + 5 * HOUR_MS;

const form = (o: Partial<ClosureFormStatus> = {}): ClosureFormStatus => ({
  closureType: 'manual',
  thingId: null,
  isActive: false,
  isScheduled: false,
  startTime: null,
  endTime: null,
  ...o,
});

describe('part2 §4 closure form modes', () => {
  it.each<[Partial<ClosureFormStatus>, ClosureFormMode]>([
    [{ isActive: true }, 'active'],
    [{ isScheduled: true }, 'scheduled'],
    [{}, 'inactive'],
    [{ isActive: true, isScheduled: true }, 'active'],
  ])('closureFormMode(%j) = %s', (o, mode) => {
    expect(closureFormMode(form(o))).toBe(mode);
  });

  it.each<[ClosureFormMode, Partial<ClosureFormStatus>]>([
    ['active', { isActive: true, isScheduled: false, startTime: null, endTime: END }],
    ['scheduled', { isActive: false, isScheduled: true, startTime: START, endTime: END }],
    ['inactive', { isActive: false, isScheduled: false, startTime: null, endTime: null }],
  ])('applyClosureMode(%s)', (mode, expected) => {
    for (const from of [
      form({ isActive: true, startTime: START, endTime: END }),
      form({ isScheduled: true, startTime: START, endTime: END }),
    ]) {
      const next = applyClosureMode(from, mode);
      expect(next).toMatchObject(expected);
      expect(closureFormMode(next)).toBe(mode);
    }
  });

  it('the active and scheduled switches disable each other', () => {
    const scheduled = applyClosureMode(form({ isActive: true, endTime: END }), 'scheduled');
    expect(scheduled.isActive).toBe(false);
    expect(closureSwitchesDisabled(scheduled)).toEqual({ active: true, scheduled: false });
    const active = applyClosureMode(scheduled, 'active');
    expect(active.isScheduled).toBe(false);
    expect(closureSwitchesDisabled(active)).toEqual({ active: false, scheduled: true });
    expect(closureSwitchesDisabled(form())).toEqual({ active: false, scheduled: false });
  });

  it('keeps the other fields of the form', () => {
    const f = { ...form({ closureType: 'automated', thingId: 't1' }), description: 'x' };
    expect(applyClosureMode(f, 'inactive')).toMatchObject({ description: 'x', closureType: 'automated', thingId: 't1' });
  });
});

describe('part2 §4 scheduled closure becomes active on save if its start is already past', () => {
  it.each<[string, Partial<ClosureFormStatus>, boolean]>([
    ['active', { isActive: true, endTime: END }, true],
    ['inactive', {}, false],
    ['scheduled, start 1 ms ahead', { isScheduled: true, startTime: NOW + 1, endTime: END }, false],
    ['scheduled, start exactly now', { isScheduled: true, startTime: NOW, endTime: END }, true],
    ['scheduled, start 1 ms past', { isScheduled: true, startTime: NOW - 1, endTime: END }, true],
    ['scheduled, no start', { isScheduled: true, endTime: END }, false],
    ['scheduled, start past, end exactly now', { isScheduled: true, startTime: NOW - HOUR_MS, endTime: NOW }, false],
    ['scheduled, start past, end 1 ms ahead', { isScheduled: true, startTime: NOW - HOUR_MS, endTime: NOW + 1 }, true],
  ])('%s (%j) → %s', (_name, o, expected) => {
    expect(isClosureActiveOnSave(form(o), NOW)).toBe(expected);
  });

  it.each<[string, Partial<ClosureFormStatus>, ReturnType<typeof closureTimesOnSave>]>([
    ['active starts now', { isActive: true, endTime: END }, { isActive: true, startTime: NOW, endTime: END }],
    [
      'an active closure keeps its start',
      { isActive: true, startTime: NOW - HOUR_MS, endTime: END },
      { isActive: true, startTime: NOW - HOUR_MS, endTime: END },
    ],
    ['scheduled ahead', { isScheduled: true, startTime: START, endTime: END }, { isActive: false, startTime: START, endTime: END }],
    ['scheduled past', { isScheduled: true, startTime: NOW - 1, endTime: END }, { isActive: true, startTime: NOW - 1, endTime: END }],
    ['inactive clears times', { startTime: START, endTime: END }, { isActive: false, startTime: null, endTime: null }],
  ])('times on save: %s', (_name, o, expected) => {
    expect(closureTimesOnSave(form(o), NOW)).toEqual(expected);
  });
});

describe('part2 §5 end time at most 3 months ahead', () => {
  it.each([
    ['2026-11-22T12:00:00.000Z', '2027-02-22T12:00:00.000Z'],
    ['2026-11-30T08:00:00.000Z', '2027-02-28T08:00:00.000Z'],
    ['2027-11-30T08:00:00.000Z', '2028-02-29T08:00:00.000Z'],
  ])('closureEndLimit(%s) = %s', (now, limit) => {
    expect(CLOSURE_MAX_AHEAD_MONTHS).toBe(3);
    expect(new Date(closureEndLimit(Date.parse(now))).toISOString()).toBe(limit);
  });

  it('the limit itself is allowed, 1 ms past it is not', () => {
    const limit = closureEndLimit(NOW);
    expect(isWithinClosureEndLimit(limit, NOW)).toBe(true);
    expect(isWithinClosureEndLimit(limit + 1, NOW)).toBe(false);
  });

  it('pickers run from now to the limit by the minute', () => {
    expect(closurePickerRange(NOW)).toEqual({ min: NOW, max: closureEndLimit(NOW), stepMs: MINUTE_MS });
  });
});

describe('part2 §4 automated closures (asset associated) hide the status section', () => {
  it.each<[Partial<ClosureFormStatus>, boolean]>([
    [{ closureType: 'automated', thingId: 't1' }, true],
    [{ closureType: 'automated', thingId: null }, false],
    [{ closureType: 'automated', thingId: '' }, false],
    [{ closureType: 'manual', thingId: 't1' }, false],
    [{ closureType: 'manual', thingId: null }, false],
  ])('%j → %s', (o, expected) => {
    expect(hidesStatusSection(form(o))).toBe(expected);
  });
});

describe('closure form status from a closure', () => {
  const base = { closureType: 'manual' as const, thingId: null };
  it.each([
    [{ ...base, isActive: true, startTime: NOW - HOUR_MS, endTime: END }, 'active'],
    [{ ...base, isActive: false, startTime: START, endTime: END }, 'scheduled'],
    [{ ...base, isActive: false, startTime: null, endTime: END }, 'inactive'],
  ] as const)('%j → %s', (closure, mode) => {
    const status = closureFormStatusFrom(closure);
    expect(closureFormMode(status)).toBe(mode);
    if (mode === 'inactive') expect(status.endTime).toBeNull();
  });
});
