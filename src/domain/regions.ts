/**
 * The state field of an address (part 2 §5 "Country-based state field: US state, CA province,
 * else free text"): the choices for the United States and Canada by their postal abbreviations,
 * and whether a country picks from a list.
 */

export interface Region {
  readonly code: string;
  readonly name: string;
}

/** The 50 states and the District of Columbia. */
export const US_STATES: readonly Region[] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
].map(([code, name]) => ({ code: code!, name: name! }));

/** The 10 provinces and 3 territories. */
export const CA_PROVINCES: readonly Region[] = [
  ['AB', 'Alberta'],
  ['BC', 'British Columbia'],
  ['MB', 'Manitoba'],
  ['NB', 'New Brunswick'],
  ['NL', 'Newfoundland and Labrador'],
  ['NS', 'Nova Scotia'],
  ['NT', 'Northwest Territories'],
  ['NU', 'Nunavut'],
  ['ON', 'Ontario'],
  ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'],
  ['SK', 'Saskatchewan'],
  ['YT', 'Yukon'],
].map(([code, name]) => ({ code: code!, name: name! }));

/** The list the state field picks from for a country ('US', 'CA', any case), or null: free text. */
export function regionsOf(countryCode: string | null | undefined): readonly Region[] | null {
  const country = (countryCode ?? '').trim().toUpperCase();
  if (country === 'US') return US_STATES;
  if (country === 'CA') return CA_PROVINCES;
  return null;
}

/** Whether a state fits its country: one of the list's codes for US and CA, anything else elsewhere. */
export function isStateOf(countryCode: string | null | undefined, state: string): boolean {
  const regions = regionsOf(countryCode);
  if (!regions) return true;
  const code = state.trim().toUpperCase();
  return regions.some((region) => region.code === code);
}

/** The countries the address form offers first (chosen); a stored code outside it is offered too. */
export const COUNTRY_CODES: readonly string[] = [
  'US',
  'CA',
  'MX',
  'GB',
  'IE',
  'AU',
  'NZ',
  'DE',
  'FR',
  'NL',
  'BE',
  'ES',
  'IT',
  'SE',
  'NO',
  'DK',
];

/** The country choices: code and English name ('US' → 'United States'), with `current` added when missing. */
export function countryOptions(current: string | null | undefined): readonly Region[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const code = (current ?? '').trim().toUpperCase();
  const codes = code && !COUNTRY_CODES.includes(code) ? [...COUNTRY_CODES, code] : COUNTRY_CODES;
  return codes.map((c) => ({ code: c, name: names.of(c) ?? c }));
}
