import { z } from 'zod';
import { CLIENT_ERROR_CODES } from '../../../src/domain/errors';
import { organizationFormSchema } from '../../../src/domain/validation/accounts';
import { parseForm, unprocessable } from '../../core/errors';
import type { OrganizationRow } from '../account-admin';
import { addressBodyShape, addressFormValues, ADDRESS_WIRE_NAMES, bodyText } from '../address-body';

/**
 * The organization calls' bodies, answers and texts (part 2 §3 Organization, §5 "Organization and
 * account address", §7 PUT /organization/{id} and the legacy organization calls; §8 'Organization
 * update'): types and sizes here, the domain's organization form schema for the spec's messages.
 */

// ── texts ────────────────────────────────────────────────────────────────────

/** part 2 §8 'Organization update': a 422 shows 'Organization not found'. */
export const ORGANIZATION_NOT_FOUND_MESSAGE = 'Organization not found';
export const CANNOT_DELETE_OWN_ORGANIZATION_MESSAGE = 'You cannot delete your own organization';
/** DELETE /organization/{id} of an organization that still owns assets (designed): they report live, so they are never hidden silently. */
export const organizationHasAssetsMessage = (count: number) =>
  `This organization still has ${count} ${count === 1 ? 'asset' : 'assets'}. Move or delete them before deleting the organization.`;
export const ORGANIZATION_TYPE_CHANGE_MESSAGE = 'Not authorized to change the organization type';

export const organizationNotFound = () => unprocessable(ORGANIZATION_NOT_FOUND_MESSAGE, 'not_found');
export const organizationTypeNotFound = () =>
  unprocessable('organization_type_id: Organization type not found', 'invalid', {
    fields: { organization_type_id: 'Organization type not found' },
  });
export const cannotDeleteOwnOrganization = () =>
  unprocessable(CANNOT_DELETE_OWN_ORGANIZATION_MESSAGE, CLIENT_ERROR_CODES.cannotDeleteOwnOrganization);
export const organizationHasAssets = (count: number) =>
  unprocessable(organizationHasAssetsMessage(count), CLIENT_ERROR_CODES.organizationHasAssets, { assets: count });

// ── requests ─────────────────────────────────────────────────────────────────

/**
 * The body of PUT /organization/{id} (name and address) and of the legacy PUT /organization/ and
 * /organization/{targetId} (adds e-mail, phones, contact and organization type). Types and sizes
 * here; the domain's organization form schema gives the spec's messages.
 */
export const organizationBody = z.object({
  name: bodyText(),
  ...addressBodyShape,
  email: z.string().max(254).nullish(),
  phone_number: z.string().max(50).nullish(),
  cell_phone_number: z.string().max(50).nullish(),
  contact_name: bodyText(),
  organization_type_id: z.union([z.string().max(100), z.number()]).nullish(),
  timezone: z.string().max(64).nullish(),
});
type OrganizationBody = z.infer<typeof organizationBody>;

/** Domain form field → wire field, so a 422 names what the client sent. */
const ORGANIZATION_FIELDS = {
  name: 'name',
  ...ADDRESS_WIRE_NAMES,
  email: 'email',
  phoneNumber: 'phone_number',
  cellPhoneNumber: 'cell_phone_number',
  contactName: 'contact_name',
  organizationTypeId: 'organization_type_id',
  timezone: 'timezone',
} as const;

/** '' and absent both mean none for optional text. */
const orNull = (value: string | null | undefined): string | null => (value ? value : null);

/**
 * The domain's organization form over a PUT body: the columns it writes, and the organization type
 * it asks for (checked by ./routes: changing it is Lightbar staff's).
 */
export function validOrganization(body: OrganizationBody, org: OrganizationRow) {
  const form = parseForm(
    organizationFormSchema,
    {
      name: body.name ?? '',
      ...addressFormValues(body),
      email: body.email ?? undefined,
      phoneNumber: body.phone_number ?? undefined,
      cellPhoneNumber: body.cell_phone_number ?? undefined,
      contactName: body.contact_name ?? undefined,
      organizationTypeId: body.organization_type_id,
      timezone: body.timezone ?? undefined,
    },
    ORGANIZATION_FIELDS,
  );
  // Fields the legacy form sends and the new one does not: left out, they keep their value.
  const fields = {
    name: form.name,
    address1: form.address1,
    address2: orNull(form.address2),
    city: form.city,
    state: form.state,
    postalCode: form.postalCode,
    countryCode: form.countryCode.toUpperCase(),
    email: body.email === undefined ? org.email : orNull(form.email),
    phoneNumber: body.phone_number === undefined ? org.phoneNumber : orNull(form.phoneNumber),
    cellPhoneNumber: body.cell_phone_number === undefined ? org.cellPhoneNumber : orNull(form.cellPhoneNumber),
    contactName: body.contact_name === undefined ? org.contactName : orNull(form.contactName),
    timezone: form.timezone ?? org.timezone,
  };
  return { fields, organizationTypeId: form.organizationTypeId };
}

// ── answers ──────────────────────────────────────────────────────────────────

export const organizationDeletedAnswer = z.object({ id: z.string(), uuid: z.string() });
