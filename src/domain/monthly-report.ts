/**
 * Monthly PDF reports (part 2 §2 Data, §3 Monthly report, §7 GET /reports/{orgId}/organization_monthly_report_list).
 */
import { z } from 'zod';
import { compareText } from './compare';
import { MONTHLY_REPORT_MIN_YEAR } from './constants';

const MONTHS_IN_YEAR = 12;
export const REPORT_FILE_EXTENSION = '.pdf';

/**
 * part 2 §3: year 2014 to current, month 1-12, file_id a .pdf. The upper bound of the year
 * moves with time, so the schema checks the floor and `isReportYearInRange` the ceiling.
 */
export const monthlyReportWireSchema = z.object({
  year: z.number().int().min(MONTHLY_REPORT_MIN_YEAR),
  month: z.number().int().min(1).max(MONTHS_IN_YEAR),
  file_id: z.string().refine((id) => id.toLowerCase().endsWith(REPORT_FILE_EXTENSION), { message: 'Must be a .pdf file' }),
  organization_id: z.string(),
  organization_name: z.string(),
});
export type MonthlyReportWire = z.infer<typeof monthlyReportWireSchema>;

export interface MonthlyReport {
  year: number;
  month: number;
  fileId: string;
  orgId: string;
  orgName: string;
}

export function fromMonthlyReportWire(wire: MonthlyReportWire): MonthlyReport {
  return {
    year: wire.year,
    month: wire.month,
    fileId: wire.file_id,
    orgId: wire.organization_id,
    orgName: wire.organization_name,
  };
}

/** 2014 up to the current year (UTC) inclusive. */
export function isReportYearInRange(year: number, now: number): boolean {
  return Number.isInteger(year) && year >= MONTHLY_REPORT_MIN_YEAR && year <= new Date(now).getUTCFullYear();
}

/** part 2 §3: year and month descending, then organization name (A to Z, ignoring case). */
export function compareMonthlyReports(a: MonthlyReport, b: MonthlyReport): number {
  if (a.year !== b.year) return b.year - a.year;
  if (a.month !== b.month) return b.month - a.month;
  return compareText(a.orgName, b.orgName);
}

export function sortMonthlyReports(reports: readonly MonthlyReport[]): MonthlyReport[] {
  return [...reports].sort(compareMonthlyReports);
}

export interface ReportMonthNode {
  month: number;
  reports: MonthlyReport[];
}

export interface ReportYearNode {
  year: number;
  months: ReportMonthNode[];
}

/** part 2 §2: "a tree by year and month, newest first". */
export function reportTree(reports: readonly MonthlyReport[]): ReportYearNode[] {
  const tree: ReportYearNode[] = [];
  for (const report of sortMonthlyReports(reports)) {
    let yearNode = tree[tree.length - 1];
    if (!yearNode || yearNode.year !== report.year) {
      yearNode = { year: report.year, months: [] };
      tree.push(yearNode);
    }
    let monthNode = yearNode.months[yearNode.months.length - 1];
    if (!monthNode || monthNode.month !== report.month) {
      monthNode = { month: report.month, reports: [] };
      yearNode.months.push(monthNode);
    }
    monthNode.reports.push(report);
  }
  return tree;
}
