import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { BillingWire } from '../../../src/domain/billing';
import type { Db } from '../../db/connection';
import { things, thingTypes } from '../../db/schema';

/** The billing wire of an organization: its billing ids and its live assets by type, the most first (then by type name). */
export async function billingOf(db: Db, org: { id: string; billingId: string | null; maxioCustId: string | null }): Promise<BillingWire> {
  const rows = await db
    .select({ type: thingTypes.name, displayName: thingTypes.displayName, n: count() })
    .from(things)
    .leftJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
    .where(and(eq(things.organizationId, org.id), isNull(things.deletedAt)))
    .groupBy(thingTypes.name, thingTypes.displayName)
    .orderBy(sql`count(*) desc`, thingTypes.name);
  const byType = rows.map((row) => ({ type: row.type ?? '', display_name: row.displayName ?? row.type ?? '', count: Number(row.n) }));
  return {
    billing_id: org.billingId,
    maxio_cust_id: org.maxioCustId,
    asset_count: byType.reduce((sum, row) => sum + row.count, 0),
    assets_by_type: byType,
  };
}
