/**
 * A REST change of an incident (a note, an acknowledgement: docs/decisions/spec.md "Incident notes
 * and acknowledgement") told to the open sockets as the live 'location' message the ingest sends
 * (part 1 §4 "Live updates"), with the location wire, to every organization that may see the
 * incident's organization. No asset changed: `thing_id` is '' (an id no asset has), so the client
 * refreshes the event only.
 */
import { organizationRelationships, organizations } from '../db/schema';
import { toLocationWires, type LocationRow } from '../core/location-wire';
import type { ServerDeps } from '../deps';
import { organizationAudiences } from './ingest';

export async function publishLocationChange(deps: Pick<ServerDeps, 'db' | 'bus'>, row: LocationRow, at: Date): Promise<void> {
  const { db, bus } = deps;
  const [wire] = await toLocationWires(db, [row], at);
  if (!wire) return;
  const orgs = await db.select({ id: organizations.id, parentId: organizations.parentId }).from(organizations);
  const relations = await db
    .select({
      organizationId: organizationRelationships.organizationId,
      relatedOrganizationId: organizationRelationships.relatedOrganizationId,
    })
    .from(organizationRelationships);
  const audience = organizationAudiences(orgs, relations).get(row.organizationId) ?? [row.organizationId];
  for (const organizationId of audience) {
    bus.publish(organizationId, { type: 'location', thing_id: '', location_id: row.id, location: wire, timestamp: at.toISOString() });
  }
}
