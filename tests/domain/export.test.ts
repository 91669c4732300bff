import { describe, expect, it } from 'vitest';
import {
  canDeleteExport,
  defaultExportTitle,
  EXPORT_DELETE_TOOLTIP,
  EXPORT_TABS,
  EXPORT_TYPE_LABELS,
  exportDefaults,
  exportDeleteTooltip,
  exportsInTab,
  exportStatusGroup,
  exportWireSchema,
  fromExportWire,
  sortExports,
  toExportRequest,
  zonedMidnight,
  type ExportForm,
  type ExportStatus,
  type ExportTab,
  type ExportType,
} from '../../src/domain/export';

const wire = {
  id: 'e1',
  organization_id: 'org1',
  requested_by: 'u1',
  export_type: 'thing',
  title: 'Asset Export 2026-11-21',
  export_start_time: null,
  export_end_time: null,
  requested_at: '2026-11-22T10:00:00.000Z',
  completed_at: '2026-11-22T10:01:00.000Z',
  file_id: 'e1.csv',
  status: 'completed',
};

describe('part2 §3 Export', () => {
  it('maps the wire', () => {
    expect(fromExportWire(exportWireSchema.parse(wire))).toEqual({
      id: 'e1',
      orgId: 'org1',
      requestedBy: 'u1',
      requesterDeleted: false,
      exportType: 'thing',
      title: 'Asset Export 2026-11-21',
      startTime: null,
      endTime: null,
      requestedAt: Date.parse('2026-11-22T10:00:00.000Z'),
      completedAt: Date.parse('2026-11-22T10:01:00.000Z'),
      fileId: 'e1.csv',
      status: 'completed',
      tab: 'completed',
      // An older wire without them: no reason, local times, no progress (part 2 §4).
      error: null,
      useUtc: false,
      rowsWritten: 0,
      rowsTotal: null,
      startedAt: null,
    });
  });

  it('maps an error, the UTC flag and the progress of a running export', () => {
    const running = exportWireSchema.parse({
      ...wire,
      status: 'in_progress',
      file_id: null,
      use_utc: true,
      error: null,
      rows_written: 120,
      rows_total: 480,
      started_at: '2026-11-22T10:00:30.000Z',
    });
    expect(fromExportWire(running)).toMatchObject({
      tab: 'in_progress',
      useUtc: true,
      rowsWritten: 120,
      rowsTotal: 480,
      startedAt: Date.parse('2026-11-22T10:00:30.000Z'),
    });
    expect(exportWireSchema.safeParse({ ...wire, rows_written: -1 }).success).toBe(false);
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    ['valid', {}, true],
    ['no file yet', { file_id: null, status: 'requested' }, true],
    ['pdf file', { file_id: 'e1.pdf' }, false],
    ['asset type is "thing"', { export_type: 'asset' }, false],
    ['unknown status', { status: 'done' }, false],
  ])('%s', (_name, o, ok) => {
    expect(exportWireSchema.safeParse({ ...wire, ...o }).success).toBe(ok);
  });

  it('type labels: the thing export is shown as Asset', () => {
    expect(EXPORT_TYPE_LABELS).toEqual({ incident: 'Incident', point: 'Point', thing: 'Asset', closure: 'Closure' });
  });

  it.each<[ExportStatus, ExportTab]>([
    ['completed', 'completed'],
    ['requested', 'in_progress'],
    ['in_progress', 'in_progress'], // in_progress counts as requested
    ['errored', 'error'],
  ])('status %s goes to tab %s', (status, tab) => {
    expect(exportStatusGroup(status)).toBe(tab);
  });

  it('tabs Completed, In-Progress and Error', () => {
    expect(EXPORT_TABS.map((t) => t.label)).toEqual(['Completed', 'In-Progress', 'Error']);
  });

  it('lists by tab, newest first', () => {
    const a = fromExportWire(exportWireSchema.parse({ ...wire, id: 'a', status: 'requested', requested_at: '2026-11-20T00:00:00Z' }));
    const b = fromExportWire(exportWireSchema.parse({ ...wire, id: 'b', status: 'in_progress', requested_at: '2026-11-21T00:00:00Z' }));
    const c = fromExportWire(exportWireSchema.parse({ ...wire, id: 'c' }));
    expect(exportsInTab(sortExports([a, b, c]), 'in_progress').map((e) => e.id)).toEqual(['b', 'a']);
  });
});

describe("part2 §4 only the creator may delete an export; a deleted requester's, the organization's administrators", () => {
  const ADMIN = ['user:admin:manage'];
  it.each([
    { who: 'the creator', exp: { requesterDeleted: false }, viewer: { userId: 'u1' }, can: true },
    { who: 'another user', exp: { requesterDeleted: false }, viewer: { userId: 'u2' }, can: false },
    { who: "an administrator, the creator's account live", exp: { requesterDeleted: false }, viewer: { permissions: ADMIN }, can: false },
    { who: 'an administrator, the creator deleted', exp: { requesterDeleted: true }, viewer: { permissions: ADMIN }, can: true },
    {
      who: 'a user:admin reader, the creator deleted',
      exp: { requesterDeleted: true },
      viewer: { permissions: ['user:admin:read'] },
      can: false,
    },
    {
      who: "another organization's administrator, the creator deleted",
      exp: { requesterDeleted: true },
      viewer: { permissions: ADMIN, organizationId: 'o2' },
      can: false,
    },
    { who: 'a plain user, the creator deleted', exp: { requesterDeleted: true }, viewer: { permissions: ['export:manage'] }, can: false },
  ])('$who: $can', ({ exp, viewer, can }) => {
    expect(EXPORT_DELETE_TOOLTIP).toBe('Only the export creator can delete.');
    const e = { requestedBy: 'u1', orgId: 'o1', ...exp };
    const v = { userId: 'u9', organizationId: 'o1', permissions: [] as string[], ...viewer };
    expect(canDeleteExport(e, v)).toBe(can);
    expect(exportDeleteTooltip(e, v)).toBe(can ? null : 'Only the export creator can delete.');
  });
});

describe('part2 §3 export request payload', () => {
  const form: ExportForm = {
    exportType: 'point',
    title: ' Points ',
    startTime: Date.parse('2026-11-21T00:00:00.000Z'),
    endTime: Date.parse('2026-11-22T00:00:00.000Z'),
    useUtc: true,
    organizationId: 'org1',
    thingUuids: ['t1', 't2'],
    includeNoThingIl: true,
    closuresToInclude: ['manual'],
  };
  const base = {
    title: 'Points',
    export_start_time: '2026-11-21T00:00:00.000Z',
    export_end_time: '2026-11-22T00:00:00.000Z',
    use_utc: true,
    organization_id: 'org1',
    thing_uuids: ['t1', 't2'],
  };

  it.each<[ExportType, Record<string, unknown>]>([
    ['point', { export_type: 'point' }],
    ['thing', { export_type: 'thing' }],
    ['incident', { export_type: 'incident', include_no_thing_il: true }],
    ['closure', { export_type: 'closure', closures_to_include: ['manual'] }],
  ])('%s', (exportType, extra) => {
    expect(toExportRequest({ ...form, exportType })).toEqual({ ...base, ...extra });
  });

  it('an asset export without a range sends nulls', () => {
    const req = toExportRequest({ ...form, exportType: 'thing', startTime: null, endTime: null });
    expect(req.export_start_time).toBeNull();
    expect(req.export_end_time).toBeNull();
  });
});

describe('part2 §4 export defaults: previous day, title "Type Export date"', () => {
  it.each<[ExportType, string]>([
    ['incident', 'Incident Export 2026-11-21'],
    ['point', 'Point Export 2026-11-21'],
    ['thing', 'Asset Export 2026-11-21'],
    ['closure', 'Closure Export 2026-11-21'],
  ])('%s in UTC', (type, title) => {
    const d = exportDefaults(Date.parse('2026-11-22T15:30:00.000Z'), type);
    expect(d).toEqual({
      exportType: type,
      title,
      startTime: Date.parse('2026-11-21T00:00:00.000Z'),
      endTime: Date.parse('2026-11-22T00:00:00.000Z'),
      useUtc: true,
      thingUuids: [],
      includeNoThingIl: false,
      closuresToInclude: [],
    });
  });

  it.each([
    // now (UTC), zone, expected start, expected end, title date
    ['2026-11-22T00:00:00.000Z', 'UTC', '2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z', '2026-11-21'],
    ['2026-11-21T23:59:59.999Z', 'UTC', '2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z', '2026-11-20'],
    // 03:00 UTC on the 22nd is still the 21st in Denver (UTC-7): the previous day is the 20th.
    ['2026-11-22T03:00:00.000Z', 'America/Denver', '2026-11-20T07:00:00.000Z', '2026-11-21T07:00:00.000Z', '2026-11-20'],
    // Across the spring-forward change in New York (2026-03-08): a 23-hour day.
    ['2026-03-09T12:00:00.000Z', 'America/New_York', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z', '2026-03-08'],
    // Year boundary, east of UTC: 10:00 on 1 January in Tokyo (UTC+9).
    ['2026-01-01T01:00:00.000Z', 'Asia/Tokyo', '2025-12-30T15:00:00.000Z', '2025-12-31T15:00:00.000Z', '2025-12-31'],
  ])('at %s in %s: %s to %s', (now, zone, start, end, date) => {
    const d = exportDefaults(Date.parse(now), 'incident', zone);
    expect(new Date(d.startTime ?? 0).toISOString()).toBe(start);
    expect(new Date(d.endTime ?? 0).toISOString()).toBe(end);
    expect(d.title).toBe(`Incident Export ${date}`);
    expect(d.useUtc).toBe(zone === 'UTC');
  });

  it('zonedMidnight and the title helper', () => {
    expect(new Date(zonedMidnight({ year: 2026, month: 7, day: 4 }, 'Europe/Paris')).toISOString()).toBe('2026-07-03T22:00:00.000Z');
    expect(defaultExportTitle('thing', { year: 2026, month: 1, day: 5 })).toBe('Asset Export 2026-01-05');
  });
});
