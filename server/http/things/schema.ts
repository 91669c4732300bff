import { z } from 'zod';
import {
  associationsPayloadSchema,
  organizationRelationshipWireSchema,
  RELATIONSHIP_TYPES,
  thingWireSchema,
} from '../../../src/domain/asset';
import {
  INTEGRATION_PROVIDERS,
  LIGHT_INTENSITY_OPTIONS,
  NICKNAME_MAX,
  PLATE_MAX,
  REGISTRY_MAX,
  THINGS_PAGE_MAX,
  THINGS_PAGE_SIZE,
  VEHICLE_ID_MAX,
} from '../../../src/domain/constants';
import { pagedAnswerSchema } from '../../../src/domain/incremental';
import { organizationRefWireSchema } from '../../../src/domain/organization';
import { thingSnapshotSchema } from '../../../src/domain/thing-snapshot';
import { thingSubtypeWireSchema, thingTypeWireSchema } from '../../../src/domain/thing-type';
import { INTEGRATIONS_LIMIT, VIN_PATTERN } from '../../../src/domain/validation/asset';
import { requiredString } from '../../../src/domain/validation/fields';
import { MESSAGES } from '../../../src/domain/validation/messages';
import { HttpError } from '../../core/errors';
import { pathIds } from '../route-validation';
import { timeValue } from '../query';

/** The asset calls' bodies, query and texts (part 1 §5 rules, part 1 §7 calls, part 1 §8 texts). */

/** The texts the asset calls answer with; each carries the word part 1 §8's catalogue reads. */
export const THING_ERRORS = {
  /** 404 for unknown and invisible; 422 for a visible asset since removed (assetSave's 'found' row). */
  notFound: 'Asset not found',
  /** assetSave's 'nickname' row: another asset of the organization has this nickname. */
  nicknameTaken: 'nickname is already used by another asset of this organization',
  readOnly: 'Your organization can view this asset but not change it',
  ownerOnly: "Only the asset's owner organization can change its organization access",
  testModeNotAllowed: 'Test mode is not allowed for this asset',
} as const;

/** chosen: the longest external identifier an integration row may carry. */
export const IDENTIFIER_ID_MAX = 100;
/** chosen: VINs are 17 characters; older and foreign ones vary, so the shared 50 caps them. */
export const VIN_MAX = 50;
/** chosen: the highest page number accepted (keeps the SQL offset an exact integer). */
const MAX_PAGE = 1_000_000;
/** chosen: most organization relations one associations call may set. */
const MAX_RELATIONS = 200;

const uuid = () => z.uuid({ error: 'must be a uuid' });
const max50 = (max: number) => ({ error: MESSAGES.max50.replace('50', String(max)) });
/** An optional text; blank or null clears it. */
const clearableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, max50(max))
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

/** PUT /things/{id} (part 1 §7) with the rules of part 1 §5 (server side of src/domain/validation/asset.ts). */
export const thingUpdateSchema = z.object({
  id: uuid(),
  in_service: z.boolean(),
  is_publicly_alerting: z.boolean(),
  nickname: requiredString({ max: NICKNAME_MAX, message: MESSAGES.max50 }).optional(),
  thing_type_id: uuid().optional(),
  thing_subtype_id: uuid().nullable().optional(),
  vin_number: z
    .string()
    .trim()
    .max(VIN_MAX, max50(VIN_MAX))
    .regex(VIN_PATTERN, { error: MESSAGES.onlyNumbersOrLetters })
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value)),
  license_plate_number: clearableText(PLATE_MAX),
  registry_number: clearableText(Math.min(REGISTRY_MAX, VEHICLE_ID_MAX)),
  external_identifiers: z
    .array(
      z.object({
        identifier_id: requiredString({ max: IDENTIFIER_ID_MAX, message: `Must be ${IDENTIFIER_ID_MAX} or fewer characters` }),
        system_name: z.enum(INTEGRATION_PROVIDERS, { error: MESSAGES.required }),
        is_deleted: z.boolean().default(false),
      }),
    )
    .max(INTEGRATION_PROVIDERS.length * 2, { error: MESSAGES.providersInUse })
    .default([])
    .superRefine((rows, ctx) => {
      const seen = new Set<string>();
      rows.forEach((row, index) => {
        if (seen.has(row.system_name)) {
          ctx.addIssue({ code: 'custom', path: [index, 'system_name'], message: MESSAGES.providerAlreadyUsed });
        }
        seen.add(row.system_name);
      });
      if (rows.filter((row) => !row.is_deleted).length > INTEGRATIONS_LIMIT) {
        ctx.addIssue({ code: 'custom', path: [], message: MESSAGES.providersInUse });
      }
    }),
});

export const associationsSchema = z.object({
  organization_relationships: z
    .array(
      associationsPayloadSchema.shape.organization_relationships.element.extend({
        organization_uuid: uuid(),
        organization_name: z.string().max(500).default(''),
        relationship_type: z.enum(RELATIONSHIP_TYPES, { error: 'must be manager or accessor' }),
      }),
    )
    .max(MAX_RELATIONS),
});

/** `{ action: 'test' }` sends an R2R test alert; `{ test_mode: boolean }` switches test mode. */
export const r2rSchema = z
  .object({ action: z.literal('test', { error: "must be 'test'" }).optional(), test_mode: z.boolean().optional() })
  .refine((body) => (body.action === undefined) !== (body.test_mode === undefined), {
    error: "send either action: 'test' or test_mode: true|false",
  });

export const lightIntensitySchema = z.object({
  light_intensity: z.literal([...LIGHT_INTENSITY_OPTIONS], { error: `must be one of ${LIGHT_INTENSITY_OPTIONS.join(', ')}` }),
});

export const pagingSchema = z.object({
  page: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(MAX_PAGE).default(1),
  per_page: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(THINGS_PAGE_MAX, { error: `must be at most ${THINGS_PAGE_MAX}` })
    .default(THINGS_PAGE_SIZE),
});

/** `page` and `per_page` as the list reads them (with pagingSchema), for its documented-only query (../query). */
export const pageQuery = {
  page: z
    .string()
    .optional()
    .meta({ description: `The page, a whole number from 1 (default) to ${MAX_PAGE.toLocaleString('en-US')}; else 422.` }),
  per_page: z
    .string()
    .optional()
    .meta({ description: `Assets per page, a whole number from 1 to ${THINGS_PAGE_MAX} (default ${THINGS_PAGE_SIZE}); else 422.` }),
};

/** `If-None-Match` as the asset list and count read it (an ETag they answered: 304, no body). */
export const ifNoneMatchHeader = {
  'if-none-match': z
    .string()
    .optional()
    .meta({ description: 'The ETag of an earlier answer (W/ ignored; a list, or `*`): when it still matches, 304 with no body.' }),
};

/** The path of one asset: an id that is no uuid names none (404 'Asset not found'). */
export const thingPath = pathIds(z.object({ id: z.uuid() }), 'Asset');

/** A 422 naming a field, like `parse` does. */
export function fieldError(field: string, message: string): HttpError {
  return new HttpError(422, 'invalid', `${field}: ${message}`, { fields: { [field]: message } });
}

/** The texts of the part 1 §5 rules a save checks against the database (a 422 naming the field). */
export const THING_FIELD_ERRORS = {
  unknownType: 'unknown thing type',
  /** The type keeps the asset's emergency kind. */
  typeKind: (emergency: boolean) => `must be ${emergency ? 'an emergency' : 'a non-emergency'} type like the asset's`,
  subtypeOfType: "is not a subtype of the asset's type",
} as const;

/**
 * PUT /things/{id}/associations: each relation names an organization that is not the asset's
 * owner, is not listed twice, and is assignable (`assignable`: GET /organization/assignable's ids).
 */
export function checkRelations(
  ownerId: string,
  relations: z.infer<typeof associationsSchema>['organization_relationships'],
  assignable: ReadonlySet<string>,
): void {
  const seen = new Set<string>();
  relations.forEach((relation, index) => {
    const field = `organization_relationships.${index}.organization_uuid`;
    if (relation.organization_uuid === ownerId) throw fieldError(field, 'is the organization that owns the asset');
    if (seen.has(relation.organization_uuid)) throw fieldError(field, 'is listed twice');
    // Unknown and not assignable read the same: nothing tells a stranger an organization exists.
    if (!assignable.has(relation.organization_uuid)) throw fieldError(field, 'unknown organization');
    seen.add(relation.organization_uuid);
  });
}

// ── answers (part 1 §7): what the calls send, read by the dashboard with the same wire schemas ──

/**
 * An asset as the calls answer it: the domain's thing wire (src/domain/asset.ts), with `is_stale`
 * the server sends beside `status` (server/core/thing-wire.ts). Every field is always sent, so the
 * wire schema's defaults add nothing.
 */
export const thingAnswer = thingWireSchema.extend({
  is_stale: z.boolean().meta({ description: "Whether the heartbeat is older than the stale threshold at the server's now." }),
});

/** GET /organization/things: a page of assets with the incremental meta (src/domain/incremental.ts). */
export const thingsPageAnswer = pagedAnswerSchema(thingAnswer);

/** An asset answer's type: what `loadThingWires` writes, every field present (server/core/thing-wire.ts). */
export type ThingAnswer = z.output<typeof thingAnswer>;

/**
 * GET /organization/things/snapshot: the whole fleet in one compact answer (src/domain/thing-snapshot.ts);
 * with `since`, the assets changed after it and `meta.deleted_ids`.
 * The handler sends it as JSON text made by the database (thingSnapshotJson), which bypasses the
 * serializer: the schema only documents it.
 */
export const thingSnapshotAnswer = {
  description: 'The fleet snapshot: rows of cells in the order of `columns`, with the lists they refer to by place.',
  content: { 'application/json': { schema: thingSnapshotSchema } },
};

/** The snapshot's incremental time (docs/decisions/spec.md "The fleet snapshot since a time"), read by sinceParam. */
export const SNAPSHOT_SINCE = 'since';
export const snapshotSinceQuery = {
  [SNAPSHOT_SINCE]: timeValue(
    'Only the assets changed after this time (as last_updated_timestamp of GET /organization/things), with the ids deleted since in meta.deleted_ids; absent = the whole fleet.',
  ),
};

export const thingsCountAnswer = z.object({ count: z.number().int().min(0) });
export const thingTypesAnswer = z.array(thingTypeWireSchema);
export const thingSubtypesAnswer = z.array(thingSubtypeWireSchema);
/** GET /organization/assignable: the organizations an asset may be related to, by upper-cased name. */
export const assignableAnswer = z.array(organizationRefWireSchema);
export const associationsAnswer = z.object({ organization_relationships: z.array(organizationRelationshipWireSchema) });
/** PUT /things/{id}/r2r: `{ id, is_test_mode_on }` after a test-mode switch, `{ delivered }` after a test alert. */
export const r2rAnswer = z.union([
  z.object({ id: z.string(), is_test_mode_on: z.boolean() }).meta({ description: 'Test mode switched.' }),
  z.object({ delivered: z.boolean() }).meta({ description: 'A test alert sent; delivered when the device is connected now.' }),
]);
export const lightIntensityAnswer = z.object({ id: z.string(), light_intensity: lightIntensitySchema.shape.light_intensity });

/** An answer with no body: 304 of a list whose ETag the client's If-None-Match names. */
export const notModifiedAnswer = z
  .undefined()
  .meta({ description: "Not modified: the client's If-None-Match names the list's ETag (no body)." });
