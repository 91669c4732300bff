import { describe, expect, it } from 'vitest';
import {
  fromMonthlyReportWire,
  isReportYearInRange,
  monthlyReportWireSchema,
  reportTree,
  sortMonthlyReports,
  type MonthlyReport,
} from '../../src/domain/monthly-report';

const valid = { year: 2026, month: 10, file_id: 'org1-2026-10.pdf', organization_id: 'org1', organization_name: 'Org One' };

describe('part2 §3 Monthly report', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['valid', {}, true],
    ['year 2014 (the minimum)', { year: 2014 }, true],
    ['year 2013', { year: 2013 }, false],
    ['month 1', { month: 1 }, true],
    ['month 12', { month: 12 }, true],
    ['month 0', { month: 0 }, false],
    ['month 13', { month: 13 }, false],
    ['month 1.5', { month: 1.5 }, false],
    ['file .PDF', { file_id: 'A.PDF' }, true],
    ['file .csv', { file_id: 'a.csv' }, false],
  ])('%s', (_name, o, ok) => {
    expect(monthlyReportWireSchema.safeParse({ ...valid, ...o }).success).toBe(ok);
  });

  it('maps the wire', () => {
    expect(fromMonthlyReportWire(valid)).toEqual({ year: 2026, month: 10, fileId: 'org1-2026-10.pdf', orgId: 'org1', orgName: 'Org One' });
  });

  it.each([
    [2014, true],
    [2013, false],
    [2026, true],
    [2027, false],
  ])('year %s is 2014 to current (2026): %s', (year, expected) => {
    expect(isReportYearInRange(year, Date.parse('2026-11-22T00:00:00Z'))).toBe(expected);
  });
});

const r = (year: number, month: number, orgName: string): MonthlyReport => ({
  year,
  month,
  fileId: `${year}-${month}-${orgName}.pdf`,
  orgId: orgName,
  orgName,
});

describe('part2 §3 monthly reports sorted by year and month descending, then organization name', () => {
  it('sorts', () => {
    const reports = [r(2025, 12, 'b'), r(2026, 1, 'B org'), r(2026, 1, 'a org'), r(2026, 2, 'z'), r(2024, 5, 'a')];
    expect(sortMonthlyReports(reports).map((x) => `${x.year}-${x.month} ${x.orgName}`)).toEqual([
      '2026-2 z',
      '2026-1 a org',
      '2026-1 B org',
      '2025-12 b',
      '2024-5 a',
    ]);
  });

  it('part2 §2 a tree by year and month, newest first', () => {
    const tree = reportTree([r(2025, 3, 'a'), r(2026, 1, 'b'), r(2025, 11, 'a'), r(2026, 1, 'a'), r(2025, 3, 'c')]);
    expect(tree.map((y) => [y.year, y.months.map((m) => [m.month, m.reports.map((x) => x.orgName)])])).toEqual([
      [2026, [[1, ['a', 'b']]]],
      [
        2025,
        [
          [11, ['a']],
          [3, ['a', 'c']],
        ],
      ],
    ]);
    expect(reportTree([])).toEqual([]);
  });
});
