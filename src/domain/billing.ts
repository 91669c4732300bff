/**
 * Billing (part 2 §2 "billing", §6 "billing:read exists"; part 1 §3 the maxio customer id): what
 * the server has — the billing and customer ids and the live asset count by type. No plan or price
 * is invented (docs/decisions/spec.md: billing).
 */
import { z } from 'zod';

export const billingWireSchema = z.object({
  billing_id: z.string().nullable(),
  maxio_cust_id: z.string().nullable(),
  asset_count: z.number().int().min(0),
  /** By type, most first then by name; assets without a type count under type ''. */
  assets_by_type: z.array(z.object({ type: z.string(), display_name: z.string(), count: z.number().int().min(0) })),
});
export type BillingWire = z.infer<typeof billingWireSchema>;
