import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { monthlyReportWireSchema } from '../../../src/domain/monthly-report';
import { section } from '../../../src/domain/permissions';
import { signedLinksFor } from '../../auth/signed-links';
import type { ServerDeps } from '../../deps';
import { createFileStore } from '../../files';
import { errorAnswer, notFound } from '../../core/errors';
import { visibleOrganization } from '../organization-scope';
import { findVisibleReportFile, listMonthlyReports } from './repository';
import { fileLinkAnswer, linkQuery, reportsPath } from './schema';

/**
 * Monthly reports (part 2 §7 "GET /reports/{orgId}/organization_monthly_report_list" and
 * "GET /reports/organization_monthly_report_pdf_link?filename=… Returns file_url"). Both need a
 * permission of the reports row of part 2 §6. The list holds the reports of the organization and
 * of its child organizations the caller may see, sorted as part 2 §3 says (sortMonthlyReports).
 */
export function reportRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const store = createFileStore(deps.config.dataDir);
  const api = app.withTypeProvider<ZodTypeProvider>();

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
      await visibleOrganization(db, caller, orgId);
      return listMonthlyReports(db, caller.scope, orgId);
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
      const report = await findVisibleReportFile(db, caller.scope, filename);
      // part 2 §8 report file 'File not found': unknown, another organization's, or gone from the disk.
      if (!report || !(await store.exists(report.fileId))) throw notFound('File');
      return { file_url: signedLinksFor(deps.config).sign(report.fileId, deps.now()) };
    },
  );
}
