/**
 * Postal codes and address labels by country (part 1 §5 "Address form"; part 2 §2, §5).
 * - US: 5 digits, optionally '-' and 4 more ('Invalid zip code').
 * - Canada: letter-digit-letter, an optional space, digit-letter-digit ('A1A 1A1').
 * - Others: letters and digits; single spaces or hyphens may separate groups ('SW1A 1AA',
 *   '1234-567'), because many countries write them so ('Invalid postal code', also for Canada).
 * Codes are upper-cased before they are checked and saved ("zip is uppercased").
 */
import { COUNTRY_CODE_MAX } from './constants';

export const US = 'US';
export const CANADA = 'CA';

const US_ZIP = /^\d{5}(?:-\d{4})?$/;
const CANADA_POSTAL = /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/;
const OTHER_POSTAL = /^[A-Z0-9]+(?:[ -][A-Z0-9]+)*$/;

export const POSTAL_CODE_MESSAGES = {
  invalidZip: 'Invalid zip code',
  invalidPostalCode: 'Invalid postal code',
} as const;

/** Country codes compare case-insensitively: 'us' is the US. */
function country(countryCode: string | null | undefined): string {
  return (countryCode ?? '').trim().toUpperCase();
}

/** part 2 §5 "zip is uppercased"; surrounding spaces dropped. */
export function normalizePostalCode(value: string): string {
  return value.trim().toUpperCase();
}

/** The message for a postal code in a country, or null when it is valid. The code is normalized first. */
export function postalCodeError(countryCode: string | null | undefined, value: string): string | null {
  const code = normalizePostalCode(value);
  switch (country(countryCode)) {
    case US:
      return US_ZIP.test(code) ? null : POSTAL_CODE_MESSAGES.invalidZip;
    case CANADA:
      return CANADA_POSTAL.test(code) ? null : POSTAL_CODE_MESSAGES.invalidPostalCode;
    default:
      return OTHER_POSTAL.test(code) ? null : POSTAL_CODE_MESSAGES.invalidPostalCode;
  }
}

export function isValidPostalCode(countryCode: string | null | undefined, value: string): boolean {
  return postalCodeError(countryCode, value) === null;
}

/** part 2 §5: "country code max 2 characters". */
export function isValidCountryCode(value: string): boolean {
  return value.trim().length <= COUNTRY_CODE_MAX;
}

export interface AddressLabels {
  readonly state: 'State' | 'Province' | 'Region';
  readonly postalCode: 'Zip Code' | 'Postal Code';
}

/** part 1 §5, part 2 §2: US State / Zip Code; Canada Province / Postal Code; others Region / Postal Code. */
export function addressLabels(countryCode: string | null | undefined): AddressLabels {
  switch (country(countryCode)) {
    case US:
      return { state: 'State', postalCode: 'Zip Code' };
    case CANADA:
      return { state: 'Province', postalCode: 'Postal Code' };
    default:
      return { state: 'Region', postalCode: 'Postal Code' };
  }
}

/** part 2 §5: "Country-based state field: US state, CA province, else free text." */
export function stateFieldKind(countryCode: string | null | undefined): 'us-state' | 'ca-province' | 'free-text' {
  switch (country(countryCode)) {
    case US:
      return 'us-state';
    case CANADA:
      return 'ca-province';
    default:
      return 'free-text';
  }
}
