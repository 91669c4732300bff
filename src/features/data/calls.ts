/**
 * The Data section's REST calls (part 2 §7): monthly reports and their PDF link, exports (list,
 * create, delete) and their file link, and the assets an export may name. Each answer is parsed
 * with its zod schema and each failure named by its catalogue context (part 2 §8).
 */
import { useMemo } from 'react';
import { z } from 'zod';
import type { ApiClient } from '../../app/api-client';
import { loadFleetList, type FleetEntry } from '../../app/fleet-list';
import { queryKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import { exportWireSchema, fromExportWire, type DataExport, type ExportRequest } from '../../domain/export';
import { fromMonthlyReportWire, monthlyReportWireSchema, type MonthlyReport } from '../../domain/monthly-report';

const reportsSchema = z.array(monthlyReportWireSchema);
const exportsSchema = z.array(exportWireSchema);
const fileLinkSchema = z.object({ file_url: z.string().min(1) });
/** An asset as the export wizard's picker lists it. */
export type ExportAsset = Pick<FleetEntry, 'id' | 'name'>;

export interface DataCalls {
  monthlyReports(orgId: string): Promise<MonthlyReport[]>;
  /** A fresh signed link to a report's PDF (part 2 §7 organization_monthly_report_pdf_link). */
  reportLink(fileId: string): Promise<string>;
  exports(orgId: string): Promise<DataExport[]>;
  createExport(request: ExportRequest): Promise<DataExport>;
  deleteExport(id: string): Promise<void>;
  /** A fresh signed link to an export's CSV ("same link path with is_downloadable=true"). */
  exportLink(id: string): Promise<string>;
  assets(orgId: string): Promise<ExportAsset[]>;
}

export function createDataCalls(api: ApiClient): DataCalls {
  return {
    async monthlyReports(orgId) {
      const list = await api.request(`/reports/${encodeURIComponent(orgId)}/organization_monthly_report_list`, {
        schema: reportsSchema,
        context: 'reports',
      });
      return list.map(fromMonthlyReportWire);
    },
    async reportLink(fileId) {
      const answer = await api.request('/reports/organization_monthly_report_pdf_link', {
        query: { filename: fileId },
        schema: fileLinkSchema,
        context: 'reportFile',
      });
      return answer.file_url;
    },
    async exports(orgId) {
      const list = await api.request('/organization/export', { query: { 'org_ids[]': [orgId] }, schema: exportsSchema, context: 'lists' });
      return list.map(fromExportWire);
    },
    async createExport(request) {
      // part 2 §8 has no row for a refused export request: the Reports row (the server's message, else 'Unknown failure').
      return fromExportWire(
        await api.request('/organization/export', { method: 'POST', body: request, schema: exportWireSchema, context: 'reports' }),
      );
    },
    async deleteExport(id) {
      await api.request(`/organization/export/${encodeURIComponent(id)}`, { method: 'DELETE', context: 'exportDelete' });
    },
    async exportLink(id) {
      const answer = await api.request(`/organization/export/${encodeURIComponent(id)}`, {
        query: { is_downloadable: 'true' },
        schema: fileLinkSchema,
        context: 'reportFile',
      });
      return answer.file_url;
    },
    // Every page of the organization's assets, named as the dashboard names them (the pickers' one list).
    assets: (orgId) => loadFleetList(api, [orgId]),
  };
}

/** The section's cached answers, per organization (an organization switch asks again). */
export const DATA_QUERIES = {
  reports: (orgId: string) => queryKey('reports', orgId),
  exports: (orgId: string) => queryKey('exports', orgId),
  allExports: ['exports'],
  assets: (orgId: string) => queryKey('things', orgId, 'export-assets'),
} as const;

export function useDataCalls(): DataCalls {
  const { api } = useServices();
  return useMemo(() => createDataCalls(api), [api]);
}
