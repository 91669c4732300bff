/**
 * The hazard report's call (part 2 §2 Hazards; the spec shows no path: GET /organization/hazards,
 * server/http/hazards/), for the shown organization (`org_ids[]` as the lists ask, part 1 §4).
 */
import { useMemo } from 'react';
import type { ApiClient } from '../../app/api-client';
import { queryKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import type { HazardSeverity, HazardType } from '../../domain/constants';
import { hazardReportWireSchema, type HazardReportWire } from '../../domain/hazard';

export interface HazardQuery {
  orgIds: readonly string[];
  allTypes: boolean;
  types: readonly HazardType[];
  severities: readonly HazardSeverity[];
  startTime: number;
  endTime: number;
}

export interface HazardCalls {
  report(query: HazardQuery): Promise<HazardReportWire>;
}

export function createHazardCalls(api: ApiClient): HazardCalls {
  return {
    report(query) {
      return api.request('/organization/hazards', {
        query: {
          'org_ids[]': [...query.orgIds],
          start_time: new Date(query.startTime).toISOString(),
          end_time: new Date(query.endTime).toISOString(),
          all_types: query.allTypes ? 'true' : undefined,
          'types[]': query.allTypes ? undefined : [...query.types],
          'severities[]': [...query.severities],
        },
        schema: hazardReportWireSchema,
        context: 'reports',
      });
    },
  };
}

export function useHazardCalls(): HazardCalls {
  const { api } = useServices();
  return useMemo(() => createHazardCalls(api), [api]);
}

export function hazardReportKey(organizationId: string, query: HazardQuery) {
  return queryKey(
    'hazards',
    organizationId,
    query.allTypes ? 'all' : query.types.join(','),
    query.severities.join(','),
    query.startTime,
    query.endTime,
  );
}
