/**
 * Billing (part 2 §2 accounts "billing", §6 "billing:read exists"; part 1 §3 the maxio customer
 * id on the user's organization). Path designed (§7 "Paths not shown"):
 *   GET /organization/billing?organization_id=... → { billing_id, maxio_cust_id, asset_count, assets_by_type }.
 * Only what the data holds: no plan tiers or prices (docs/decisions/spec.md: billing).
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import type { ServerDeps } from '../../deps';
import { administeredOrg } from '../account-admin';
import { errorAnswer } from '../../core/errors';
import { billingOf } from './repository';
import { billingQuery, billingWireSchema, type BillingWire } from './schema';

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
      return billingOf(db, org);
    },
  );
}
