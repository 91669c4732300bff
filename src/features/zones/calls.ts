/**
 * The alerting zones section's REST call (part 2 §7 "GET /organization/alerting_zones?org_ids[]=
 * {orgId}"): the current organization's zones, active first (§4), cached per organization in the
 * 'zones' group (dropped at once after an organization switch, part 1 §7), failures mapped through
 * the catalogue's 'Zones fetch' row (part 2 §8). While the page is mounted the list is asked again
 * every ZONES_POLL_MS, so a zone the server turns standby shows without a reload.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { z } from 'zod';
import type { ApiClient, ApiError } from '../../app/api-client';
import { queryKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import { useApiQuery } from '../../app/use-api-query';
import { alertingZoneWireSchema, fromAlertingZoneWire, sortZones, type AlertingZone } from '../../domain/alerting-zone';

/** chosen: how often the open page asks for the zones again (the spec names no period). */
export const ZONES_POLL_MS = 15_000;

const zonesSchema = z.array(alertingZoneWireSchema);

/** The cache key of an organization's zones. */
export function zonesKey(organizationId: string | null) {
  return queryKey('zones', organizationId);
}

export async function fetchZones(api: ApiClient, organizationId: string): Promise<AlertingZone[]> {
  const wire = await api.request('/organization/alerting_zones', {
    schema: zonesSchema,
    query: { 'org_ids[]': [organizationId] },
    context: 'zonesFetch',
  });
  return sortZones(wire.map(fromAlertingZoneWire));
}

export function useZonesQuery(organizationId: string | null, pollMs: number = ZONES_POLL_MS): UseQueryResult<AlertingZone[], ApiError> {
  const { api } = useServices();
  return useApiQuery({
    key: zonesKey(organizationId),
    load: () => fetchZones(api, organizationId!),
    enabled: organizationId !== null,
    pollMs,
  });
}
