import { describe, expect, it } from 'vitest';
import { fromProfileWire, profileInitials, profileWireSchema, tokenOrgMismatch, type ProfileWireInput } from '../../src/domain/profile';

function profile(overrides: Partial<ProfileWireInput> = {}) {
  return fromProfileWire(profileWireSchema.parse({ id: 'u1', email: 'a@b.example', organization_id: 'o1', ...overrides }));
}

describe('part1 §3 profile', () => {
  it('maps every field', () => {
    expect(
      profile({
        firstname: 'Ada',
        lastname: 'Lovelace',
        phone: '555',
        address1: '1 Main',
        address2: 'Suite 2',
        city: 'Town',
        state: 'pa',
        postal_code: '19000',
        country_code: 'US',
        timezone: 'America/New_York',
        organization_type: 'fire',
        acs: true,
        permissions: ['thing:read'],
        has_api_keys: true,
        is_ha_direct_enabled: true,
        show_infinite_timeout_option: true,
        user_access: false,
        dashboard_access: true,
        role_id: 3,
        user_org: { id: 'o1', name: 'County', maxio_cust_id: 'cus_1' },
        managed_orgs: [{ id: 'o2', name: 'Two' }],
        accessed_orgs: [{ id: 'o3', name: 'Three' }],
      }),
    ).toEqual({
      id: 'u1',
      email: 'a@b.example',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '555',
      address1: '1 Main',
      address2: 'Suite 2',
      city: 'Town',
      state: 'PA',
      postalCode: '19000',
      countryCode: 'US',
      timezone: 'America/New_York',
      organizationId: 'o1',
      organizationType: 'fire',
      acs: true,
      permissions: ['thing:read'],
      hasApiKeys: true,
      isHADEnabled: true,
      hasAwarenessModeAccess: true,
      userAccess: false,
      dashboardAccess: true,
      roleId: 3,
      userOrg: { id: 'o1', name: 'County' },
      maxioCustomerId: 'cus_1',
      managedOrgs: [{ id: 'o2', name: 'Two' }],
      accessedOrgs: [{ id: 'o3', name: 'Three' }],
    });
  });

  it.each([
    ['ny', 'NY'],
    ['Ontario', 'ONTARIO'],
    [null, null],
    ['', null],
  ])('state %j is upper-cased → %j', (state, expected) => {
    expect(profile({ state }).state).toBe(expected);
  });

  it.each([
    [true, true],
    [false, false],
    [undefined, false],
  ])('show_infinite_timeout_option %s → hasAwarenessModeAccess %s', (flag, expected) => {
    expect(profile({ show_infinite_timeout_option: flag }).hasAwarenessModeAccess).toBe(expected);
  });

  it.each([
    ['Ada', 'Lovelace', 'AL'],
    ['ada', '', 'A'],
    ['', '', 'A'],
  ])('initials of %j %j → %s', (firstname, lastname, expected) => {
    expect(profileInitials(profile({ firstname, lastname }))).toBe(expected);
  });
});

describe('part1 §7, §8 token organization mismatch', () => {
  it.each([
    ['same organization', 'o1', false],
    ['another organization', 'o2', true],
    ['no organization in the token', null, false],
    ['undefined', undefined, false],
  ])('%s (token organization %j) → mismatch %s', (_name, tokenOrg, expected) => {
    expect(tokenOrgMismatch(profile(), tokenOrg)).toBe(expected);
  });
});
