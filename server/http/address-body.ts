/**
 * The address of a write body (part 2 §5 "Organization and account address"): its wire fields
 * and their sizes, the domain form's names for them (so a 422 names what the client sent), and
 * the domain form's values ('' for a field left out). The profile and the organization bodies use
 * it; the area body keeps its own sizes.
 */
import { z } from 'zod';

const TEXT_MAX = 200;
/** A text field of a body: at most TEXT_MAX characters, absent or null for none. */
export const bodyText = () => z.string().max(TEXT_MAX).nullish();

export const addressBodyShape = {
  address1: bodyText(),
  address2: bodyText(),
  city: bodyText(),
  state: bodyText(),
  postal_code: z.string().max(20).nullish(),
  country_code: z.string().max(10).nullish(),
};

/** Domain address field → wire field. */
export const ADDRESS_WIRE_NAMES = {
  address1: 'address1',
  address2: 'address2',
  city: 'city',
  state: 'state',
  postalCode: 'postal_code',
  countryCode: 'country_code',
} as const;

type AddressBody = { [K in keyof typeof addressBodyShape]?: string | null | undefined };

/** The body's address as the domain form reads it. */
export function addressFormValues(body: AddressBody) {
  return {
    address1: body.address1 ?? '',
    address2: body.address2 ?? '',
    city: body.city ?? '',
    state: body.state ?? '',
    postalCode: body.postal_code ?? '',
    countryCode: body.country_code ?? '',
  };
}
