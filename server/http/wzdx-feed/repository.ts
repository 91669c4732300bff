import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { fromClosureWire, type Closure } from '../../../src/domain/closure';
import type { WzdxFeedInfoInput } from '../../../src/domain/wzdx';
import type { Db } from '../../db/connection';
import { organizations } from '../../db/schema';
import { closureToWire, publishingClosuresWhere, selectClosures } from '../closures/repository';

/**
 * The public WZDx feed's reads (./routes): the publishing organization, its published closures
 * (the closures' own query, ../closures/repository) and the feed's header from the organization.
 */

type OrganizationRow = typeof organizations.$inferSelect;

/** A live WZDx organization, else undefined (an id that is no uuid names none). */
export async function findWzdxOrganization(db: Db, id: string): Promise<OrganizationRow | undefined> {
  const parsed = z.uuid().safeParse(id);
  const [org] = parsed.success
    ? await db
        .select()
        .from(organizations)
        .where(and(eq(organizations.id, parsed.data), isNull(organizations.deletedAt)))
        .limit(1)
    : [];
  return org?.isWzdxOrg ? org : undefined;
}

/** The organization's publishing closures (a WZDx id set), as the domain's closures at `now`. */
export async function listPublishingClosures(db: Db, orgId: string, now: number): Promise<Closure[]> {
  const rows = await selectClosures(db, publishingClosuresWhere(orgId));
  return rows.map((row) => fromClosureWire(closureToWire(row), now));
}

const emailSchema = z.email();

/** The feed's header: the organization publishes, with its contact (an e-mail only when it is one). */
export function feedInfoOf(org: OrganizationRow): WzdxFeedInfoInput {
  const email = emailSchema.safeParse(org.email ?? '');
  const contact = {
    ...(org.contactName ? { contact_name: org.contactName } : {}),
    ...(email.success ? { contact_email: email.data } : {}),
  };
  return {
    publisher: org.name,
    ...contact,
    data_sources: [{ data_source_id: org.id, organization_name: org.name, ...contact }],
  };
}
