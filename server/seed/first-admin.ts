/**
 * The first administrator of a real deployment (docs/deployment.md "The first administrator"): with
 * LIGHTBAR_ADMIN_EMAIL set and an empty database, the start creates the agency's organization
 * (LIGHTBAR_ADMIN_ORGANIZATION, of the type 'Public Safety') and in it an organization administrator
 * (the 'MANUFACTURER ADMIN' role, shown as Org Admin: the organization, its users and assets; part 2
 * §6) without a password, mailed the set-password link a new user gets (7 days). The link is answered for the start's log too, since a
 * new deployment may have no mail server yet. On a database with any organization nothing is made:
 * further users and organizations are added in Accounts. Two processes starting together on one
 * Postgres make it once (the seeding's advisory lock).
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { organizations, organizationTypes, roles, users } from '../db/schema';
import type { ServerDeps } from '../deps';
import { mailSetPasswordLink } from '../mail/welcome-mail';
import { hasOrganizations, SEED_LOCK_KEY } from './demo';

/** The first administrator's role and organization type (server/db/reference-data.ts). */
export const FIRST_ADMIN_ROLE = 'MANUFACTURER ADMIN';
const FIRST_ORGANIZATION_TYPE = 'Public Safety';

export interface FirstAdmin {
  email: string;
  organization: string;
  /** The set-password link, also mailed. */
  link: string;
}

export async function createFirstAdmin(
  deps: Pick<ServerDeps, 'db' | 'mailer' | 'config' | 'now'>,
  admin: { email: string; organization: string },
): Promise<FirstAdmin | null> {
  const db: Db = deps.db;
  if (await hasOrganizations(db)) return null;
  const now = deps.now();
  const user = await db.transaction(async (tx) => {
    // Two processes starting on one empty Postgres: the second waits here, then sees the organization.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (await hasOrganizations(tx)) return null;
    const [type] = await tx
      .select({ id: organizationTypes.id })
      .from(organizationTypes)
      .where(eq(organizationTypes.name, FIRST_ORGANIZATION_TYPE));
    const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, FIRST_ADMIN_ROLE));
    if (!type || !role)
      throw new Error(`reference data lacks the organization type ${FIRST_ORGANIZATION_TYPE} or the role ${FIRST_ADMIN_ROLE}`);
    const [org] = await tx
      .insert(organizations)
      .values({ name: admin.organization, organizationTypeId: type.id, createdAt: now, updatedAt: now })
      .returning({ id: organizations.id });
    const local = admin.email.split('@')[0] ?? admin.email;
    const [created] = await tx
      .insert(users)
      .values({
        organizationId: org!.id,
        email: admin.email,
        firstname: local,
        lastname: 'Administrator',
        roleId: role.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id, email: users.email, firstname: users.firstname });
    return created!;
  });
  if (!user) return null;
  const link = await mailSetPasswordLink(deps, user, now);
  return { email: user.email, organization: admin.organization, link };
}
