/**
 * Billing (part 2 §2 accounts-new "billing", §6 "billing:read exists"; part 1 §3 the maxio
 * customer id on the user's organization). Path designed (§7 "Paths not shown"):
 *   GET /organization/billing?organization_id=... → { billing_id, maxio_cust_id, asset_count, plan }.
 * The plan is the pricing tier the organization's live asset count falls in.
 */
import { and, count, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { things } from '../db/schema';
import type { ServerDeps } from '../deps';
import { administeredOrg } from './account-admin';
import { parse } from './errors';

/** Tiers by asset count (chosen; README "Values the spec does not give"). */
export const BILLING_PLANS = [
  { name: 'starter', maxAssets: 25 },
  { name: 'fleet', maxAssets: 250 },
  { name: 'enterprise', maxAssets: Number.POSITIVE_INFINITY },
] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number]['name'];

export function billingPlan(assetCount: number): BillingPlan {
  return (BILLING_PLANS.find((plan) => assetCount <= plan.maxAssets) ?? BILLING_PLANS[BILLING_PLANS.length - 1]!).name;
}

export const billingWireSchema = z.object({
  billing_id: z.string().nullable(),
  maxio_cust_id: z.string().nullable(),
  asset_count: z.number().int().min(0),
  plan: z.enum(BILLING_PLANS.map((plan) => plan.name) as [BillingPlan, ...BillingPlan[]]),
});
export type BillingWire = z.infer<typeof billingWireSchema>;

export function billingRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  app.get('/organization/billing', { config: { access: ['billing:read'] } }, async (request): Promise<BillingWire> => {
    const { caller } = request;
    const query = parse(z.object({ organization_id: z.string().max(100).optional() }), request.query);
    const org = await administeredOrg(db, caller, query.organization_id);
    const [assets] = await db
      .select({ n: count() })
      .from(things)
      .where(and(eq(things.organizationId, org.id), isNull(things.deletedAt)));
    const assetCount = Number(assets?.n ?? 0);
    return { billing_id: org.billingId, maxio_cust_id: org.maxioCustId, asset_count: assetCount, plan: billingPlan(assetCount) };
  });
}
