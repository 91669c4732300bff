/**
 * Address fields (part 1 §5 "Address form"; part 2 §5 area and "Organization and account
 * address"): country, state, postal code by country, line 2 optional. The fields are flat: a
 * form spreads `requiredAddressShape()` or `optionalAddressShape()` into its own object and calls
 * `checkPostalCode` in its refinement (the postal rule reads the country).
 */
import { z } from 'zod';
import { COUNTRY_CODE_MAX } from '../constants';
import { postalCodeError } from '../postal-code';
import { requiredString } from './fields';
import { MESSAGES } from './messages';

const optionalText = () => z.string().trim().optional();
const requiredText = () => requiredString();
const countryCode = <T extends z.ZodType<string | undefined>>(field: T) =>
  field.refine((value) => (value ?? '').length <= COUNTRY_CODE_MAX, { error: MESSAGES.countryCodeMax });

/**
 * The organization and account address: every field but line 2 must be filled (the spec calls
 * only line 2 optional).
 */
export function requiredAddressShape() {
  return {
    address1: requiredText(),
    address2: optionalText(),
    city: requiredText(),
    state: requiredText(),
    /** part 2 §5 "zip is uppercased". */
    postalCode: requiredText().toUpperCase(),
    countryCode: countryCode(requiredText()),
  };
}

/** An area's address: an area placed on the map may leave it blank; what is filled is checked. */
export function optionalAddressShape() {
  return {
    address1: optionalText(),
    address2: optionalText(),
    city: optionalText(),
    state: optionalText(),
    postalCode: z.string().trim().toUpperCase().optional(),
    countryCode: countryCode(optionalText()),
  };
}

/** Adds the postal-code issue ('Invalid zip code' / 'Invalid postal code') of a filled postal code. */
export function checkPostalCode(
  form: { readonly postalCode?: string | undefined; readonly countryCode?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (!form.postalCode) return;
  const message = postalCodeError(form.countryCode, form.postalCode);
  if (message) ctx.addIssue({ code: 'custom', path: ['postalCode'], message });
}

/** A standalone address (e.g. the profile's). */
export function addressSchema(required: boolean) {
  return required
    ? z.object(requiredAddressShape()).superRefine(checkPostalCode)
    : z.object(optionalAddressShape()).superRefine(checkPostalCode);
}
export type AddressForm = z.infer<ReturnType<typeof addressSchema>>;
