/**
 * Billing (part 2 §2 accounts "billing", §6 "billing:read exists"; part 1 §3 the maxio customer
 * id on the user's organization). Path designed (§7 "Paths not shown"):
 *   GET /organization/billing?organization_id=... → { billing_id, maxio_cust_id, asset_count, assets_by_type }.
 * Only what the data holds: no plan tiers or prices (README "Spec decisions": billing).
 */
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { billingWireSchema, type BillingWire } from '../../src/domain/billing';
import { things, thingTypes } from '../db/schema';
import type { ServerDeps } from '../deps';
import { administeredOrg } from './account-admin';
import { errorAnswer } from '../core/errors';

export { billingWireSchema, type BillingWire } from '../../src/domain/billing';

const billingQuery = z.object({ organization_id: z.string().max(100).optional() });

export function billingRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const billingSchema = {
    summary: "An organization's billing ids and its assets by type",
    querystring: billingQuery,
    response: { 200: billingWireSchema, 404: errorAnswer },
  };
  api.get(
    '/organization/billing',
    { config: { access: ['billing:read'] }, schema: billingSchema },
    async (request): Promise<BillingWire> => {
      const { caller, query } = request;
      const org = await administeredOrg(db, caller, query.organization_id);
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
    },
  );
}
