import { z } from 'zod';

/**
 * Billing (part 2 §2 accounts "billing", §6 "billing:read exists"; part 1 §3 the maxio customer
 * id on the user's organization): the query of GET /organization/billing and its answer.
 */

export { billingWireSchema, type BillingWire } from '../../../src/domain/billing';

export const billingQuery = z.object({ organization_id: z.string().max(100).optional() });
