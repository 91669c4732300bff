import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/domain/constants';
import { fieldErrors } from '../../../src/domain/validation/field-errors';
import type { ExportForm } from '../../../src/domain/export';
import {
  exportFormSchema,
  hazardReportSchema,
  r2rSearchSchema,
  tripsFormSchema,
  type ExportFormValues,
} from '../../../src/domain/validation/reports';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const START = NOW - 2 * DAY_MS;

describe('part2 §5 trips and date-range reports', () => {
  const valid = { thingIds: ['a'], startTime: START, endTime: START + HOUR_MS };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['no asset', { thingIds: [] }, { thingIds: 'Must select at least 1 Asset' }],
    ['5 assets', { thingIds: ['a', 'b', 'c', 'd', 'e'] }, {}],
    ['6 assets', { thingIds: ['a', 'b', 'c', 'd', 'e', 'f'] }, { thingIds: '5 Assets max' }],
    ['no start', { startTime: null }, { startTime: 'Required' }],
    ['no end', { endTime: null }, { endTime: 'Required' }],
    [
      'start in the future',
      { startTime: NOW + 1, endTime: NOW + HOUR_MS },
      { startTime: 'Must be past date', endTime: 'Must be past date' },
    ],
    ['end in the future', { startTime: NOW - HOUR_MS, endTime: NOW + 1 }, { endTime: 'Must be past date' }],
    ['end exactly now', { startTime: NOW - HOUR_MS, endTime: NOW }, {}],
    ['same dates', { endTime: START }, { endTime: 'Dates must be different' }],
    ['end before start', { endTime: START - 1 }, { endTime: 'End time must be after Start time' }],
    ['exactly 24 h', { endTime: START + 24 * HOUR_MS }, {}],
    ['24 h + 1 ms', { endTime: START + 24 * HOUR_MS + 1 }, { endTime: 'Select up to 24 hours' }],
    // A year 0000 typed: the browser cannot read it, the input reads NaN (time.ts readDateInput), not empty.
    ['unreadable start', { startTime: Number.NaN }, { startTime: 'Enter a date between 1970 and 2100' }],
    ['start in 1969', { startTime: Date.UTC(1969, 11, 31) }, { startTime: 'Enter a date between 1970 and 2100' }],
    [
      'both unreadable',
      { startTime: Number.NaN, endTime: Number.NaN },
      { startTime: 'Enter a date between 1970 and 2100', endTime: 'Enter a date between 1970 and 2100' },
    ],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(tripsFormSchema({ now: NOW }).safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});

describe('part2 §5 hazard report', () => {
  const valid = { allTypes: false, types: ['ice'], startTime: START, endTime: START + HOUR_MS };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['one type', {}, {}],
    ['all types', { allTypes: true, types: [] }, {}],
    ['no type', { types: [] }, { types: 'Must select at least 1 type' }],
    ['24 h + 1 ms', { endTime: START + 24 * HOUR_MS + 1 }, { endTime: 'Select up to 24 hours' }],
    ['severity high', { severities: ['high'] }, {}],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(hazardReportSchema({ now: NOW }).safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});

describe('part2 §5 R2R search', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', { thingId: 'a', startTime: NOW - HOUR_MS }, {}],
    ['start now', { thingId: 'a', startTime: NOW }, {}],
    ['no asset', { thingId: '', startTime: NOW - HOUR_MS }, { thingId: 'Required' }],
    ['no start', { thingId: 'a', startTime: null }, { startTime: 'Required' }],
    ['future start', { thingId: 'a', startTime: NOW + 1 }, { startTime: 'Must be past date' }],
    ['unreadable start', { thingId: 'a', startTime: Number.NaN }, { startTime: 'Enter a date between 1970 and 2100' }],
  ])('%s', (_name, form, expected) => {
    expect(fieldErrors(r2rSearchSchema({ now: NOW }).safeParse(form))).toEqual(expected);
  });
});

describe('part2 §5 export and report', () => {
  const valid = {
    exportType: 'incident',
    title: 'Incident Export 2024-05-31',
    useUtc: false,
    organizationId: 'org-1',
    startTime: START,
    endTime: START + DAY_MS,
    thingUuids: [],
    includeNoThingIl: true,
    closuresToInclude: [],
  };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['title missing', { title: ' ' }, { title: 'Required' }],
    ['type missing', { exportType: undefined }, { exportType: 'Required' }],
    ['UTC flag missing', { useUtc: undefined }, { useUtc: 'Required' }],
    ['organization missing', { organizationId: '' }, { organizationId: 'Required' }],
    ['exactly 31 days', { startTime: NOW - 31 * DAY_MS, endTime: NOW }, {}],
    ['31 days + 1 ms', { startTime: NOW - 31 * DAY_MS - 1, endTime: NOW }, { endTime: 'Exceeds max time range' }],
    ['end beyond now', { startTime: NOW - DAY_MS, endTime: NOW + 1 }, { endTime: 'Must be past date' }],
    ['range missing', { startTime: null, endTime: null }, { startTime: 'Required', endTime: 'Required' }],
    ['asset export without a range', { exportType: 'thing', startTime: null, endTime: null }, {}],
    ['point export without assets', { exportType: 'point' }, { thingUuids: 'Must select at least 1 Asset' }],
    ['point export with an asset', { exportType: 'point', thingUuids: ['a'] }, {}],
    [
      'closure export with nothing',
      { exportType: 'closure', closuresToInclude: [] },
      { closuresToInclude: 'Must include at least 1 Closure type or Asset' },
    ],
    ['closure export with manual', { exportType: 'closure', closuresToInclude: ['manual'] }, {}],
    ['closure export with feed', { exportType: 'closure', closuresToInclude: ['feed'] }, {}],
    ['closure export with an asset', { exportType: 'closure', thingUuids: ['a'] }, {}],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(exportFormSchema({ now: NOW }).safeParse({ ...valid, ...change }))).toEqual(expected);
  });

  it("parses to export.ts's ExportForm", () => {
    const parsed: ExportForm = exportFormSchema({ now: NOW }).parse(valid) satisfies ExportFormValues;
    expect(parsed.organizationId).toBe('org-1');
  });
});
