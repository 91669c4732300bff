import { describe, expect, it } from 'vitest';
import {
  administeredOrganizations,
  fromOrganizationWire,
  groupOrganizations,
  ownershipOf,
  relationsExist,
  isAcs,
  organizationWireSchema,
  toOrganizationPayload,
  type GroupableAsset,
} from '../../src/domain/organization';
import { organizationFormSchema } from '../../src/domain/validation/accounts';

describe('part1 §3, part2 §3 organization wire and model', () => {
  it('maps every field', () => {
    const org = fromOrganizationWire(
      organizationWireSchema.parse({
        id: 'o1',
        name: 'County Fire',
        email: 'ops@county.example',
        phone_number: '217-555-0100',
        cell_phone_number: null,
        contact_name: 'Chief Fire',
        address1: '1 Main St',
        address2: null,
        city: 'Springfield',
        state: 'IL',
        postal_code: '62701',
        country_code: 'US',
        lat: 39.8,
        lng: -89.6,
        timezone: 'America/Chicago',
        organization_type: { id: 'ot1', name: 'fire', acs: false, icon_urls: { marker: '/m.png' } },
        show_infinite_timeout_option: true,
        organization_managers: [{ id: 'o2', name: 'State DOT' }],
        organization_accessors: [{ id: 'o3', name: 'City' }],
        is_wzdx_org: true,
        is_large_org: true,
        billing_id: 'B-1',
        child_structure: [{ id: 'o4', name: 'Station 4', parent_id: 'o1' }],
        version: 9,
      }),
    );
    expect(org).toEqual({
      id: 'o1',
      name: 'County Fire',
      email: 'ops@county.example',
      phoneNumber: '217-555-0100',
      cellPhoneNumber: null,
      contactName: 'Chief Fire',
      address1: '1 Main St',
      address2: null,
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      countryCode: 'US',
      lat: 39.8,
      lng: -89.6,
      timezone: 'America/Chicago',
      organizationType: { id: 'ot1', name: 'fire', acs: false, iconUrls: { marker: '/m.png' } },
      showInfiniteTimeoutOption: true,
      organizationManagers: [{ id: 'o2', name: 'State DOT' }],
      organizationAccessors: [{ id: 'o3', name: 'City' }],
      isWzdxOrg: true,
      isLargeOrg: true,
      billingId: 'B-1',
      childStructure: [{ id: 'o4', name: 'Station 4', parentId: 'o1' }],
      version: 9,
    });
  });

  it('fills defaults for a minimal organization', () => {
    const org = fromOrganizationWire(organizationWireSchema.parse({ id: 'o', name: 'O' }));
    expect(org).toMatchObject({ organizationType: null, isWzdxOrg: false, isLargeOrg: false, organizationManagers: [] });
  });
});

describe('part1 §1 acs organizations', () => {
  const type = (acs: boolean) => ({ id: null, name: 't', acs, iconUrls: {} });
  it.each([
    ['acs type', { organizationType: type(true) }, true],
    ['non-acs type', { organizationType: type(false) }, false],
    ['no type', { organizationType: null }, false],
    ['no organization', null, false],
  ] as const)('%s (%j) → %s', (_name, org, expected) => {
    expect(isAcs(org)).toBe(expected);
  });
});

describe('part1 §3, part2 §3 owned / managed grouping', () => {
  const sub = { id: 'sub', name: 'Metro' };
  const a = (id: string, org: { id: string; name: string } | null, rels = 0): GroupableAsset => ({
    id,
    organization: org,
    organizationRelationships: Array.from({ length: rels }, () => ({})),
  });

  it("owned only: ' (ONLY)' suffix", () => {
    expect(groupOrganizations(sub, [a('1', sub), a('2', sub), a('3', null)])).toEqual([
      { id: 'sub', name: 'Metro (ONLY)', isSubscribedOrg: true, kind: 'owned', thingIds: ['1', '2', '3'] },
    ]);
  });

  it('no assets at all: the owned group alone, (ONLY)', () => {
    expect(groupOrganizations(sub, [])).toEqual([{ id: 'sub', name: 'Metro (ONLY)', isSubscribedOrg: true, kind: 'owned', thingIds: [] }]);
  });

  it('an owned asset shared with another org: no suffix', () => {
    expect(groupOrganizations(sub, [a('1', sub, 1)])[0]?.name).toBe('Metro');
  });

  it('managed groups: subscribed first, then by upper-cased name', () => {
    const groups = groupOrganizations(sub, [
      a('1', { id: 'z', name: 'zeta' }),
      a('2', sub),
      a('3', { id: 'b', name: 'Beta' }),
      a('4', { id: 'z', name: 'zeta' }),
      a('5', { id: 'al', name: 'alpha' }),
    ]);
    expect(groups.map((g) => [g.name, g.kind, g.isSubscribedOrg, g.thingIds])).toEqual([
      ['Metro', 'owned', true, ['2']],
      ['alpha', 'managed', false, ['5']],
      ['Beta', 'managed', false, ['3']],
      ['zeta', 'managed', false, ['1', '4']],
    ]);
  });

  it('subscribed sorts first even when its name sorts last', () => {
    const groups = groupOrganizations({ id: 's', name: 'ZZZ' }, [a('1', { id: 'a', name: 'AAA' })]);
    expect(groups.map((g) => g.name)).toEqual(['ZZZ', 'AAA']);
  });

  it("a child organization's assets are owned (after the subscribed group, before the managed ones); they alone are no relation", () => {
    const child = { id: 'child', name: 'Metro North' };
    const owned = new Set(['sub', 'child']);
    const groups = groupOrganizations(sub, [a('1', child), a('2', { id: 'b', name: 'Beta' }), a('3', sub)], owned);
    expect(groups.map((g) => [g.name, g.kind, g.isSubscribedOrg, g.thingIds])).toEqual([
      ['Metro', 'owned', true, ['3']],
      ['Metro North', 'owned', false, ['1']],
      ['Beta', 'managed', false, ['2']],
    ]);
    expect(groupOrganizations(sub, [a('1', child), a('3', sub)], owned)[0]?.name).toBe('Metro (ONLY)');
  });

  it('ownershipOf: own and child owners own, no owner is taken as own, any other owner manages', () => {
    const owned = new Set(['sub', 'child']);
    expect([ownershipOf('sub', owned), ownershipOf('child', owned), ownershipOf(null, owned), ownershipOf('other', owned)]).toEqual([
      'owned',
      'owned',
      'owned',
      'managed',
    ]);
    expect([
      relationsExist({ managed: 0, ownedShared: 0 }),
      relationsExist({ managed: 1, ownedShared: 0 }),
      relationsExist({ managed: 0, ownedShared: 2 }),
    ]).toEqual([false, true, true]);
  });
});

describe('part2 §7 PUT /organization/{id} body: name, address1, address2, city, state, postal_code, country_code', () => {
  const form = {
    name: ' County Fire ',
    address1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62701-1234',
    countryCode: 'US',
  };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['with line 2', { address2: 'Suite 4' }, { address1: '1 Main St', address2: 'Suite 4', postal_code: '62701-1234', country_code: 'US' }],
    ['line 2 left out', {}, { address2: '' }],
    ['line 2 empty', { address2: '' }, { address2: '' }],
  ])('%s', (_name, change, expected) => {
    const parsed = organizationFormSchema.parse({ ...form, ...change });
    const payload = toOrganizationPayload(parsed);
    expect(Object.keys(payload).sort()).toEqual(['name', 'address1', 'address2', 'city', 'state', 'postal_code', 'country_code'].sort());
    expect(payload).toMatchObject({ name: 'County Fire', city: 'Springfield', state: 'IL', ...expected });
  });
});

describe('part2 §2 accounts: the organizations a user administers', () => {
  it('own, then children, then managed, each once', () => {
    const org = fromOrganizationWire(
      organizationWireSchema.parse({
        id: 'o',
        name: 'Own',
        child_structure: [
          { id: 'c', name: 'Child', parent_id: 'o' },
          { id: 'o', name: 'Own', parent_id: null },
        ],
      }),
    );
    expect(
      administeredOrganizations(org, [
        { id: 'm', name: 'Managed' },
        { id: 'c', name: 'Child' },
      ]),
    ).toEqual([
      { id: 'o', name: 'Own' },
      { id: 'c', name: 'Child' },
      { id: 'm', name: 'Managed' },
    ]);
  });
});
