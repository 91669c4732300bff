/**
 * A REST change of an incident (a note, an acknowledgement: docs/decisions/spec.md "Incident notes
 * and acknowledgement") told to the open sockets as the live 'location' message the ingest sends
 * (part 1 §4 "Live updates"), with the location wire, to every organization that may see the
 * incident's organization. No asset changed: `thing_id` is '' (an id no asset has), so the client
 * refreshes the event only.
 */
import type { LocationWireOut } from '../core/location-wire';
import type { ServerDeps } from '../deps';
import { readOrganizationAudiences } from './ingest';

export async function publishLocationChange(deps: Pick<ServerDeps, 'db' | 'bus'>, wire: LocationWireOut, at: Date): Promise<void> {
  const organizationId = wire.organization_id;
  if (!organizationId) return;
  const audience = (await readOrganizationAudiences(deps.db)).get(organizationId) ?? [organizationId];
  for (const id of audience) {
    deps.bus.publish(id, { type: 'location', thing_id: '', location_id: wire.id, location: wire, timestamp: at.toISOString() });
  }
}
