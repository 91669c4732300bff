import { and, eq, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { monthlyReportWireSchema, sortMonthlyReports, type MonthlyReport, type MonthlyReportWire } from '../../src/domain/monthly-report';
import { section } from '../../src/domain/permissions';
import { canSeeOrg } from '../auth/scope';
import { signedLinksFor } from '../auth/signed-links';
import { monthlyReports, organizations } from '../db/schema';
import type { ServerDeps } from '../deps';
import { createFileStore } from '../files';
import { errorAnswer, notFound } from '../core/errors';
import { pathIds } from './route-validation';

/**
 * Monthly reports (part 2 §7 "GET /reports/{orgId}/organization_monthly_report_list" and
 * "GET /reports/organization_monthly_report_pdf_link?filename=… Returns file_url"). Both need a
 * permission of the reports row of part 2 §6. The list holds the reports of the organization and
 * of its child organizations the caller may see, sorted as part 2 §3 says (sortMonthlyReports).
 */
const orgParams = z.object({ orgId: z.uuid({ error: 'must be a uuid' }) });
const linkQuery = z.object({ filename: z.string({ error: 'Required' }).min(1, { error: 'Required' }).max(200) });
/** A signed link to a report's PDF (GET /files/{fileId}, no bearer needed). */
const fileLinkAnswer = z.object({ file_url: z.string().meta({ description: 'A signed, expiring link to the file.' }) });

const toWire = (report: MonthlyReport): MonthlyReportWire => ({
  year: report.year,
  month: report.month,
  file_id: report.fileId,
  organization_id: report.orgId,
  organization_name: report.orgName,
});

export function reportRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const store = createFileStore(deps.config.dataDir);
  const api = app.withTypeProvider<ZodTypeProvider>();

  // A malformed id names no organization: the same 404 as an unknown one (part 2 §8 'Organization not found').
  const reportsPath = pathIds(orgParams, 'Organization');
  api.get(
    '/reports/:orgId/organization_monthly_report_list',
    {
      config: { access: section('reports').anyOf },
      schema: {
        summary: 'The monthly reports of an organization and its child organizations',
        params: reportsPath,
        response: { 200: z.array(monthlyReportWireSchema), 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const { orgId } = request.params;
      const [org] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(and(eq(organizations.id, orgId), isNull(organizations.deletedAt)))
        .limit(1);
      if (!org || !canSeeOrg(caller.scope, org.id)) throw notFound('Organization');

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
      const visible = rows.filter((row) => canSeeOrg(caller.scope, row.orgId));
      return sortMonthlyReports(visible).map(toWire);
    },
  );

  api.get(
    '/reports/organization_monthly_report_pdf_link',
    {
      config: { access: section('reports').anyOf },
      schema: {
        summary: "A signed link to a monthly report's PDF",
        querystring: linkQuery,
        response: { 200: fileLinkAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const { filename } = request.query;
      const [report] = await db
        .select({ fileId: monthlyReports.fileId, orgId: monthlyReports.organizationId })
        .from(monthlyReports)
        .innerJoin(organizations, eq(organizations.id, monthlyReports.organizationId))
        .where(and(eq(monthlyReports.fileId, filename), isNull(organizations.deletedAt)))
        .limit(1);
      // part 2 §8 report file 'File not found': unknown, another organization's, or gone from the disk.
      if (!report || !canSeeOrg(caller.scope, report.orgId) || !(await store.exists(report.fileId))) throw notFound('File');
      return { file_url: signedLinksFor(deps.config.dataDir).sign(report.fileId, deps.now()) };
    },
  );
}
