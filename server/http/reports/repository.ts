import { and, eq, isNull, or } from 'drizzle-orm';
import { sortMonthlyReports, type MonthlyReport, type MonthlyReportWire } from '../../../src/domain/monthly-report';
import { canSeeOrg, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { monthlyReports, organizations } from '../../db/schema';

/** The monthly report calls' reads and the report wire (who may do what: ./routes). */

const toWire = (report: MonthlyReport): MonthlyReportWire => ({
  year: report.year,
  month: report.month,
  file_id: report.fileId,
  organization_id: report.orgId,
  organization_name: report.orgName,
});

/**
 * The reports of a live organization and of its live child organizations that the scope sees,
 * sorted as part 2 §3 says (sortMonthlyReports).
 */
export async function listMonthlyReports(db: Db, scope: OrgScope, orgId: string): Promise<MonthlyReportWire[]> {
  const rows = await db
    .select({
      year: monthlyReports.year,
      month: monthlyReports.month,
      fileId: monthlyReports.fileId,
      orgId: monthlyReports.organizationId,
      orgName: organizations.name,
    })
    .from(monthlyReports)
    .innerJoin(organizations, eq(organizations.id, monthlyReports.organizationId))
    .where(and(isNull(organizations.deletedAt), or(eq(organizations.id, orgId), eq(organizations.parentId, orgId))));
  const visible = rows.filter((row) => canSeeOrg(scope, row.orgId));
  return sortMonthlyReports(visible).map(toWire);
}

/** The report whose file is `fileId`, of a live organization the scope sees, else undefined. */
export async function findVisibleReportFile(db: Db, scope: OrgScope, fileId: string): Promise<{ fileId: string } | undefined> {
  const [report] = await db
    .select({ fileId: monthlyReports.fileId, orgId: monthlyReports.organizationId })
    .from(monthlyReports)
    .innerJoin(organizations, eq(organizations.id, monthlyReports.organizationId))
    .where(and(eq(monthlyReports.fileId, fileId), isNull(organizations.deletedAt)))
    .limit(1);
  return report && canSeeOrg(scope, report.orgId) ? report : undefined;
}
