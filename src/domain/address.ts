/**
 * The address as the server sends it (part 1 §3 profile; part 2 §3 Organization, Area): six flat,
 * optional wire fields. Wire schemas spread `addressWireShape` into their own object; the form
 * side (what must be filled, the postal-code rule) is validation/address.ts's.
 */
import { z } from 'zod';

export const addressWireShape = {
  address1: z.string().nullish(),
  address2: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  postal_code: z.string().nullish(),
  country_code: z.string().nullish(),
};

export const addressWireSchema = z.object(addressWireShape);

/**
 * The edit counter of a record a form edits (organization, user, asset, area, closure): the form
 * sends it back as If-Match, and a save from an older copy is refused (412, lost updates). Absent
 * from a server without it.
 */
export const versionWireShape = { version: z.number().int().nullish() };
export type AddressWire = z.infer<typeof addressWireSchema>;

/** The client's address (organization, profile): a field the server leaves out is null. */
export interface Address {
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  countryCode: string | null;
}

export function fromAddressWire(wire: AddressWire): Address {
  return {
    address1: wire.address1 ?? null,
    address2: wire.address2 ?? null,
    city: wire.city ?? null,
    state: wire.state ?? null,
    postalCode: wire.postal_code ?? null,
    countryCode: wire.country_code ?? null,
  };
}

/** The address as the client writes it (part 2 §3 area "Write payload", §7 PUT /organization/{id}). */
export interface AddressPayload {
  address1: string;
  address2: string;
  city: string;
  state: string;
  postal_code: string;
  country_code: string;
}

/** What the payload reads: a client address whose line 2 may be left out. */
export interface AddressFields {
  readonly address1: string;
  readonly address2?: string | undefined;
  readonly city: string;
  readonly state: string;
  readonly postalCode: string;
  readonly countryCode: string;
}

export function toAddressPayload(address: AddressFields): AddressPayload {
  return {
    address1: address.address1,
    address2: address.address2 ?? '',
    city: address.city,
    state: address.state,
    postal_code: address.postalCode,
    country_code: address.countryCode,
  };
}

/** An address as the account forms edit it: '' for a field the server left out, the country upper-cased (US when none). */
export function addressFormValues(address: Address): AddressFields & { address2: string } {
  return {
    address1: address.address1 ?? '',
    address2: address.address2 ?? '',
    city: address.city ?? '',
    state: address.state ?? '',
    postalCode: address.postalCode ?? '',
    countryCode: (address.countryCode ?? 'US').toUpperCase(),
  };
}
