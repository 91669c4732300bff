import { and, asc, eq, inArray } from 'drizzle-orm';
import type { IntegrationWire } from '../../../src/domain/integration';
import type { Db } from '../../db/connection';
import { integrationConfigurations, organizations } from '../../db/schema';
import { isUuid } from '../query';
import { masked } from './schema';

/**
 * The integration calls' reads and writes, and the integration wire (who may do what: ./routes).
 * A second configuration of one provider answers 'provider_used'; an unknown id answers undefined.
 */

// ── wire ─────────────────────────────────────────────────────────────────────

export type IntegrationRow = typeof integrationConfigurations.$inferSelect;

export function integrationWire(row: IntegrationRow): IntegrationWire {
  return {
    id: row.id,
    organization_id: row.organizationId,
    provider: row.provider as IntegrationWire['provider'],
    settings: masked(row.settings),
    created_at: row.createdAt.toISOString(),
  };
}

// ── reads ────────────────────────────────────────────────────────────────────

/** A configuration by id, or undefined; ids that are not uuids are simply unknown. */
export async function findIntegration(db: Db, id: string): Promise<IntegrationRow | undefined> {
  const [row] = isUuid(id) ? await db.select().from(integrationConfigurations).where(eq(integrationConfigurations.id, id)).limit(1) : [];
  return row;
}

/** The configurations of the organizations, by provider, then oldest first. */
export async function listIntegrations(db: Db, orgIds: string[]): Promise<IntegrationWire[]> {
  const rows = await db
    .select()
    .from(integrationConfigurations)
    .where(inArray(integrationConfigurations.organizationId, orgIds))
    .orderBy(asc(integrationConfigurations.provider), asc(integrationConfigurations.createdAt));
  return rows.map(integrationWire);
}

// ── writes ───────────────────────────────────────────────────────────────────

/** A creation refused: the organization already has a configuration of the provider. */
export type ProviderUsed = 'provider_used';

export interface NewIntegration {
  organizationId: string;
  provider: string;
  settings: Record<string, string>;
}

/** Writes a provider's configuration unless the organization already has one of that provider. */
export async function insertIntegration(db: Db, values: NewIntegration, now: Date): Promise<IntegrationRow | ProviderUsed | undefined> {
  return db.transaction(async (tx) => {
    // Lock the organization's row: two concurrent additions of one provider cannot both pass.
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, values.organizationId)).for('update');
    const existing = await tx
      .select({ id: integrationConfigurations.id })
      .from(integrationConfigurations)
      .where(
        and(eq(integrationConfigurations.organizationId, values.organizationId), eq(integrationConfigurations.provider, values.provider)),
      );
    if (existing.length) return 'provider_used';
    const [row] = await tx
      .insert(integrationConfigurations)
      .values({ ...values, createdAt: now })
      .returning();
    return row;
  });
}

/** Replaces a configuration's settings whole; the row, or undefined when it is gone. */
export async function replaceIntegrationSettings(
  db: Db,
  id: string,
  settings: Record<string, string>,
): Promise<IntegrationRow | undefined> {
  const [updated] = await db.update(integrationConfigurations).set({ settings }).where(eq(integrationConfigurations.id, id)).returning();
  return updated;
}

export async function deleteIntegration(db: Db, id: string): Promise<void> {
  await db.delete(integrationConfigurations).where(eq(integrationConfigurations.id, id));
}
