import { describe, expect, it } from 'vitest';
import { addressWireSchema, fromAddressWire, toAddressPayload } from '../../src/domain/address';
import { areaWireSchema } from '../../src/domain/area';
import { organizationWireSchema } from '../../src/domain/organization';
import { profileWireSchema } from '../../src/domain/profile';

const WIRE_FIELDS = ['address1', 'address2', 'city', 'state', 'postal_code', 'country_code'] as const;

describe('part2 §3 address wire fields (organization, profile, area)', () => {
  it.each([
    ['organization', organizationWireSchema],
    ['profile', profileWireSchema],
    ['area', areaWireSchema],
  ] as const)('the %s wire schema carries every address field', (_name, schema) => {
    for (const field of WIRE_FIELDS) expect(Object.keys(schema.shape)).toContain(field);
  });

  it.each([
    [
      { address1: '1 Main St', address2: 'Suite 2', city: 'Austin', state: 'tx', postal_code: '78701', country_code: 'US' },
      { address1: '1 Main St', address2: 'Suite 2', city: 'Austin', state: 'tx', postalCode: '78701', countryCode: 'US' },
    ],
    [{}, { address1: null, address2: null, city: null, state: null, postalCode: null, countryCode: null }],
    [
      { address1: null, city: 'Toronto', postal_code: 'M5V 2T6' },
      { address1: null, address2: null, city: 'Toronto', state: null, postalCode: 'M5V 2T6', countryCode: null },
    ],
  ])('fromAddressWire(%o)', (wire, expected) => {
    expect(fromAddressWire(addressWireSchema.parse(wire))).toEqual(expected);
  });

  it.each([{ city: 5 }, { postal_code: 78701 }])('rejects a non-string field %o', (wire) => {
    expect(addressWireSchema.safeParse(wire).success).toBe(false);
  });
});

describe('part2 §3 area "Write payload", §7 PUT /organization/{id}: the address as written', () => {
  const client = { address1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', countryCode: 'US' };
  it.each([
    [{ ...client, address2: 'Suite 2' }, 'Suite 2'],
    [client, ''],
    [{ ...client, address2: undefined }, ''],
  ])('toAddressPayload(%o) writes address2 %j', (address, line2) => {
    expect(toAddressPayload(address)).toEqual({
      address1: '1 Main St',
      address2: line2,
      city: 'Austin',
      state: 'TX',
      postal_code: '78701',
      country_code: 'US',
    });
  });
});
