/**
 * Asset forms (part 1 §3, §5): the profile edit with integrations, and the organization access
 * edit. Subtype options by type and type options by emergency kind are list rules of the
 * thing-type module, not validation.
 */
import { z } from 'zod';
import { INTEGRATION_PROVIDERS, MAX_INTEGRATIONS, NICKNAME_MAX, PLATE_MAX, REGISTRY_MAX, VEHICLE_ID_MAX } from '../constants';
import { optionalString, requiredId, requiredString } from './fields';
import { MESSAGES } from './messages';

/** part 1 §5: "VIN only letters and digits". Empty is allowed (the VIN is optional). */
export const VIN_PATTERN = /^[A-Za-z0-9]*$/;

/**
 * One integration row: a provider and its id, both required. The provider is kept as a string so
 * an empty select reads 'Required' rather than a type error.
 */
export const integrationSchema = z.object({
  provider: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required })
    .refine((value) => (INTEGRATION_PROVIDERS as readonly string[]).includes(value), { error: MESSAGES.required }),
  id: requiredString(),
});
export type IntegrationForm = z.infer<typeof integrationSchema>;

/** How many integration rows an asset may have: the cap, limited to the providers there are. */
export const INTEGRATIONS_LIMIT = Math.min(MAX_INTEGRATIONS, INTEGRATION_PROVIDERS.length);

/** part 1 §5: whether another integration row may be added, and the note when it may not. */
export function canAddIntegration(rows: readonly { readonly provider: string }[]): {
  readonly allowed: boolean;
  readonly message: string | null;
} {
  return rows.length < INTEGRATIONS_LIMIT ? { allowed: true, message: null } : { allowed: false, message: MESSAGES.providersInUse };
}

/** The providers a row may still choose: its own plus those no other row uses. */
export function availableProviders(rows: readonly { readonly provider: string }[], rowIndex: number): readonly string[] {
  const taken = new Set(rows.filter((_, index) => index !== rowIndex).map((row) => row.provider));
  return INTEGRATION_PROVIDERS.filter((provider) => !taken.has(provider));
}

const integrationsSchema = z.array(integrationSchema).superRefine((rows, ctx) => {
  if (rows.length > INTEGRATIONS_LIMIT) {
    ctx.addIssue({ code: 'custom', path: [], message: MESSAGES.providersInUse });
  }
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    if (!row.provider) return;
    if (seen.has(row.provider)) {
      ctx.addIssue({ code: 'custom', path: [index, 'provider'], message: MESSAGES.providerAlreadyUsed });
    }
    seen.add(row.provider);
  });
});

/** The thing form (part 1 §3 "Thing form"). Label of the nickname field: FORM_LABEL.nickname. */
export const assetFormSchema = z.object({
  inService: z.boolean(),
  isPubliclyReporting: z.boolean(),
  nickname: requiredString({ max: NICKNAME_MAX, message: MESSAGES.max50 }),
  thingType: requiredId(),
  thingSubtype: z.union([z.string(), z.number()]).nullish(),
  vinNumber: z.string().trim().regex(VIN_PATTERN, { error: MESSAGES.onlyNumbersOrLetters }).optional(),
  /** "license number max 50" */
  plateNumber: optionalString({ max: PLATE_MAX, message: MESSAGES.max50 }),
  /** "vehicle id max 50": the registry number (VEHICLE_ID_MAX = REGISTRY_MAX). */
  registryNumber: optionalString({ max: Math.min(REGISTRY_MAX, VEHICLE_ID_MAX), message: MESSAGES.max50 }),
  integrations: integrationsSchema,
});
export type AssetForm = z.infer<typeof assetFormSchema>;

// ── organization access (part 1 §5) ──────────────────────────────────────────
export const ORGANIZATION_RELATIONS = ['manager', 'accessor', 'delete'] as const;
export type OrganizationRelation = (typeof ORGANIZATION_RELATIONS)[number];

export const organizationAccessSchema = z.object({
  relations: z.array(
    z.object({
      organizationUuid: requiredString(),
      organizationName: z.string(),
      relationshipType: z.enum(ORGANIZATION_RELATIONS, { error: MESSAGES.required }),
    }),
  ),
});
export type OrganizationAccessForm = z.infer<typeof organizationAccessSchema>;
