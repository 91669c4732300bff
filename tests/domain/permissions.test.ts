import { describe, expect, it } from 'vitest';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import {
  orgRelationsOf,
  writesOrg,
  ACCOUNTS_CONTEXT_ACTIONS,
  PERMISSIONS,
  SECTIONS,
  SECTION_KEYS,
  allowedSections,
  apiKeyAccess,
  areaCrud,
  canAddArea,
  canAddClosure,
  canChangeLightIntensity,
  canConfigureDevices,
  integrationAccess,
  canDeleteArea,
  canDeleteClosure,
  canEditArea,
  canEditAsset,
  canEditClosure,
  canEditEvent,
  canRunR2RTest,
  canSeeSection,
  dataIndexTarget,
  firstAllowedSection,
  hasAny,
  isPermission,
  sectionHref,
  sectionPathRedirect,
  showsAssetCount,
  showsManageAccounts,
  showsOrgChooser,
  showsOrganizationAccessEdit,
  type Permission,
  type PermissionArea,
  type R2RAssetFacts,
  type SectionKey,
} from '../../src/domain/permissions';

const { location, active, standby, stationary, pending, offline, oos } = ASSET_STATUS;

describe('part1 §6 permission catalogue', () => {
  it.each([
    'organization:update',
    'organization:manage',
    'organization:create',
    'organization:read',
    'organization:delete',
    'user:admin:manage',
    'user:admin:create',
    'user:manage',
    'user:create',
    'user:read',
    'user:update',
    'user:delete',
    'thing:manage',
    'thing:read',
    'thing:update',
    'thing:admin:manage',
    'thing:invoke_r2r',
    'thing:ha5_light_intensity_change',
    'incident:read',
    'incident:update',
    'heatmap:create',
    'heatmap:read',
    'exclusion:manage',
    'closure:delete',
    'mobile:closure:manage',
    'mobile:closure:create',
    'mobile:closure:update',
    'zone:manage',
    'zone:read',
    'trip:read',
    'hazard:read',
    'report:read',
    'export:view',
    'integration_configuration:manage',
    'integration_configuration:read',
    'integration_configuration:create',
    'integration_configuration:delete',
    'billing:read',
    'haas:manage',
    'engineer:test',
  ])('%s is a permission', (permission) => {
    expect(isPermission(permission)).toBe(true);
  });

  it('has no duplicates and rejects unknown strings', () => {
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
    expect(isPermission('thing:fly')).toBe(false);
  });
});

describe('part1 §6 hasAny', () => {
  it.each<[string, readonly string[], readonly Permission[], boolean]>([
    ['one of them held', ['trip:read'], ['thing:read', 'trip:read'], true],
    ['none held', ['trip:read'], ['thing:read'], false],
    ['empty requirement', ['trip:read'], [], false],
    ['no permissions', [], ['thing:read'], false],
    ['haas:manage where the row names it', ['haas:manage'], ['incident:read', 'haas:manage'], true],
    ['haas:manage where the row does not', ['haas:manage'], ['trip:read'], false],
  ])('%s', (_name, perms, required, expected) => {
    expect(hasAny(perms, required)).toBe(expected);
    expect(hasAny(new Set(perms), required)).toBe(expected);
  });
});

describe('part1 §6 area:action CRUD', () => {
  const none = { canCreate: false, canRead: false, canUpdate: false, canDelete: false };
  const all = { canCreate: true, canRead: true, canUpdate: true, canDelete: true };
  it.each<[string, readonly string[], PermissionArea, typeof none]>([
    ['manage sets all four', ['closure:manage'], 'closure', all],
    ['each action alone', ['exclusion:read', 'exclusion:delete'], 'exclusion', { ...none, canRead: true, canDelete: true }],
    ['create', ['exclusion:create'], 'exclusion', { ...none, canCreate: true }],
    ['update', ['exclusion:update'], 'exclusion', { ...none, canUpdate: true }],
    ['another area does not count', ['closure:manage'], 'exclusion', none],
    ['multi-segment user:admin', ['user:admin:create'], 'user:admin', { ...none, canCreate: true }],
    ['user:admin:manage is not user:manage', ['user:admin:manage'], 'user', none],
    ['user:manage is not user:admin:manage', ['user:manage'], 'user:admin', none],
    ['multi-segment mobile:closure manage', ['mobile:closure:manage'], 'mobile:closure', all],
    ['mobile:closure:update', ['mobile:closure:update'], 'mobile:closure', { ...none, canUpdate: true }],
    ['haas:manage is not an area manage', ['haas:manage'], 'closure', none],
  ])('%s', (_name, perms, area, expected) => {
    expect(areaCrud(perms, area)).toEqual(expected);
  });
});

describe('part1 §6, part2 §6 sections', () => {
  it('are in the spec order with their routes', () => {
    expect(SECTIONS.map((s) => s.key)).toEqual(SECTION_KEYS);
    expect(SECTIONS.map((s) => s.path)).toEqual([
      'things',
      'events',
      'areas',
      'closures',
      'zones',
      'trips',
      'r2r',
      'hazards',
      'data',
      'data/reports',
      'data/exports',
      'accounts',
      'accounts-new',
    ]);
    expect(sectionHref('accounts_new')).toBe('/dashboard/accounts-new');
  });

  // docs/decisions/spec.md "accounts_new or accounts-new": the key is part 1's, the route part 2's; the key's path redirects.
  it.each<[string, string | null]>([
    ['/dashboard/accounts_new', '/dashboard/accounts-new'],
    ['/dashboard/accounts_new/', '/dashboard/accounts-new/'],
    ['/dashboard/accounts_new/users', '/dashboard/accounts-new/users'],
    ['/dashboard/accounts-new', null],
    ['/dashboard/accounts', null],
    ['/dashboard/accounts_newer', null],
    ['/dashboard/data/reports', null],
    // The data pages by their own names.
    ['/dashboard/reports', '/dashboard/data/reports'],
    ['/dashboard/exports/new', '/dashboard/data/exports/new'],
    ['/accounts_new', null],
  ])('part2 §2 route table: %s redirects to %s', (path, expected) => {
    expect(sectionPathRedirect(path)).toBe(expected);
  });

  // One row per permission that opens a section, and the near misses that do not.
  it.each<[SectionKey, string, boolean]>([
    ['things', 'thing:read', true],
    ['things', 'thing:manage', true],
    ['things', 'haas:manage', true],
    ['things', 'thing:update', false],
    ['events', 'incident:read', true],
    ['events', 'haas:manage', true],
    ['events', 'incident:update', false],
    ['areas', 'exclusion:read', true],
    ['areas', 'exclusion:manage', true],
    ['areas', 'haas:manage', true],
    ['areas', 'exclusion:create', false],
    ['closures', 'closure:read', true],
    ['closures', 'closure:manage', true],
    ['closures', 'haas:manage', true],
    ['closures', 'mobile:closure:manage', false],
    ['zones', 'zone:read', true],
    ['zones', 'zone:manage', true],
    ['zones', 'haas:manage', true],
    ['trips', 'trip:read', true],
    ['trips', 'haas:manage', false],
    ['r2r', 'engineer:test', true],
    ['r2r', 'thing:invoke_r2r', false],
    ['accounts_new', 'engineer:test', true],
    ['hazards', 'hazard:read', true],
    ['hazards', 'haas:manage', false],
    ['data', 'report:read', true],
    ['data', 'report:manage', true],
    ['data', 'export:read', true],
    ['data', 'export:manage', true],
    ['data', 'haas:manage', true],
    ['data', 'report:create', false],
    ['reports', 'report:read', true],
    ['reports', 'report:manage', true],
    ['reports', 'report:create', true],
    ['reports', 'report:update', true],
    ['reports', 'report:delete', true],
    ['reports', 'export:read', false],
    // docs/decisions/spec.md: the data row's haas:manage reads the monthly reports.
    ['reports', 'haas:manage', true],
    ['exports', 'haas:manage', false],
    ['exports', 'export:view', true],
    ['exports', 'export:read', true],
    ['exports', 'export:create', true],
    ['exports', 'export:delete', true],
    ['exports', 'export:manage', true],
    ['exports', 'report:read', false],
    ['accounts', 'user:read', true],
    ['accounts', 'user:admin:manage', true],
    ['accounts', 'user:admin:create', true],
    ['accounts', 'organization:update', true],
    ['accounts', 'thing:admin:manage', true],
    ['accounts', 'thing:manage', false],
    ['accounts', 'haas:manage', false],
  ])('%s with %s: %s', (key, permission, expected) => {
    expect(canSeeSection([permission], key)).toBe(expected);
  });

  it('allowedSections keeps the spec order', () => {
    const keys = allowedSections(['zone:read', 'incident:read', 'hazard:read']).map((s) => s.key);
    expect(keys).toEqual(['events', 'zones', 'hazards']);
  });

  it.each<[string, readonly string[], ReturnType<typeof firstAllowedSection>]>([
    ['things first', ['incident:read', 'thing:read'], { key: 'things', path: 'things' }],
    ['events when no things', ['incident:read', 'trip:read'], { key: 'events', path: 'events' }],
    ['data with report permission goes to reports', ['report:read', 'export:read'], { key: 'data', path: 'data/reports' }],
    ['data without report permission goes to exports', ['export:read'], { key: 'data', path: 'data/exports' }],
    ['reports alone (not a data permission)', ['report:create'], { key: 'reports', path: 'data/reports' }],
    ['engineer:test opens r2r before accounts_new', ['engineer:test'], { key: 'r2r', path: 'r2r' }],
    ['nothing allowed', ['billing:read'], null],
  ])('part1 §2 firstAllowedSection: %s', (_name, perms, expected) => {
    expect(firstAllowedSection(perms)).toEqual(expected);
  });

  it.each<[readonly string[], 'reports' | 'exports']>([
    [['report:delete'], 'reports'],
    [['export:manage'], 'exports'],
    [['haas:manage'], 'reports'],
  ])('part2 §2 dataIndexTarget %j → %s', (perms, expected) => {
    expect(dataIndexTarget(perms)).toBe(expected);
  });

  it.each<[SectionKey, boolean]>([
    ['things', true],
    ['events', true],
    ['areas', true],
    ['closures', true],
    ['zones', false],
    ['trips', false],
    ['r2r', false],
    ['hazards', false],
    ['exports', false],
    ['accounts', false],
  ])('part1 §2 mobile availability of %s: %s', (key, expected) => {
    expect(SECTIONS.find((s) => s.key === key)?.onMobile).toBe(expected);
  });
});

describe('part1 §6 asset and event edit', () => {
  it.each<[string, boolean, boolean]>([
    ['thing:update', true, false],
    ['thing:manage', true, false],
    ['thing:read', false, false],
    ['incident:update', false, true],
    ['haas:manage', false, true],
    ['incident:read', false, false],
  ])('%s: edit asset %s, edit event %s', (permission, asset, event) => {
    expect(canEditAsset([permission])).toBe(asset);
    expect(canEditEvent([permission])).toBe(event);
  });

  it.each<[readonly string[], number, number, boolean]>([
    [['thing:update'], 1, 0, true],
    [['thing:update'], 0, 1, true],
    [['thing:update'], 0, 0, false],
    [['thing:read'], 1, 1, false],
  ])(
    'part1 §5 organization access edit %j, %i asset / %i org relations → %s',
    (perms, assetRelations, subscribedOrgRelations, expected) => {
      expect(showsOrganizationAccessEdit(perms, { assetRelations, subscribedOrgRelations })).toBe(expected);
    },
  );
});

describe('part1 §5 R2R test', () => {
  const ok: R2RAssetFacts = { deviceType: 'ha5', isR2REnabled: true, thingType: 'police', status: standby };
  const perms = ['thing:invoke_r2r'];
  it.each<[string, Partial<R2RAssetFacts>, readonly string[], boolean, string | null]>([
    ['allowed on ha5 standby', {}, perms, true, null],
    ['allowed on ha7 stationary', { deviceType: 'ha7', status: stationary }, perms, true, null],
    ['no permission', {}, ['thing:manage'], false, 'Not authorized'],
    ['haas:manage is not the R2R permission', {}, ['haas:manage'], false, 'Not authorized'],
    ['api device', { deviceType: 'api' }, perms, false, 'R2R testing available only for HA5 and HA7 devices'],
    ['no device type', { deviceType: null }, perms, false, 'R2R testing available only for HA5 and HA7 devices'],
    ['location status', { status: location }, perms, false, 'Invalid asset status'],
    ['active status', { status: active }, perms, false, 'Invalid asset status'],
    ['pending status', { status: pending }, perms, false, 'Invalid asset status'],
    ['offline status', { status: offline }, perms, false, 'Invalid asset status'],
    ['R2R off', { isR2REnabled: false }, perms, false, 'R2R not enabled'],
    ['not an R2R-capable type', { thingType: 'tow' }, perms, false, 'R2R not enabled'],
    // order: permission, hardware, status, enabled
    ['permission before hardware', { deviceType: 'api' }, [], false, 'Not authorized'],
    ['hardware before status', { deviceType: 'api', status: offline }, perms, false, 'R2R testing available only for HA5 and HA7 devices'],
    ['status before enabled', { status: offline, isR2REnabled: false }, perms, false, 'Invalid asset status'],
  ])('%s', (_name, change, held, allowed, tooltip) => {
    expect(canRunR2RTest({ ...ok, ...change }, held)).toEqual({ allowed, tooltip });
  });
});

describe('part1 §5 LED intensity', () => {
  const perms = ['thing:ha5_light_intensity_change'];
  it.each<[string, number, readonly string[], number | null, boolean, string | null]>([
    ['location', location, perms, 50, true, null],
    ['active', active, perms, 50, true, null],
    ['standby', standby, perms, 25, true, null],
    ['stationary (at the limit)', stationary, perms, 100, true, null],
    ['pending (just past)', pending, perms, 50, false, 'Invalid asset status'],
    ['out of service', oos, perms, 50, false, 'Invalid asset status'],
    ['no permission', standby, ['thing:manage'], 50, false, 'Not authorized'],
    ['no value chosen', standby, perms, null, false, null],
    ['a value not offered', standby, perms, 33, false, null],
  ])('%s', (_name, status, held, value, allowed, tooltip) => {
    expect(canChangeLightIntensity({ status }, held, value)).toEqual({ allowed, tooltip });
  });
});

describe('part2 §6 areas', () => {
  const own = { orgId: 'org-1', isAvType: false };
  const other = { orgId: 'org-2', isAvType: false };
  const av = { orgId: 'org-1', isAvType: true };
  it.each<[string, readonly string[], typeof own, boolean, boolean]>([
    ['owner with manage', ['exclusion:manage'], own, true, true],
    ['owner with update', ['exclusion:update'], own, true, false],
    ['owner with delete', ['exclusion:delete'], own, false, true],
    ['owner with read', ['exclusion:read'], own, false, false],
    ['non-owner with manage', ['exclusion:manage'], other, false, false],
    ['non-owner with haas:manage', ['haas:manage'], other, true, true],
    ['av type with manage', ['exclusion:manage'], av, false, false],
    ['av type with haas:manage', ['haas:manage'], av, true, true],
  ])('%s (%j, area %j): edit %s, delete %s', (_name, perms, area, edit, del) => {
    expect(canEditArea(perms, area, 'org-1')).toBe(edit);
    expect(canDeleteArea(perms, area, 'org-1')).toBe(del);
  });

  it('compares organization ids as text', () => {
    expect(canEditArea(['exclusion:update'], { orgId: 7, isAvType: false }, '7')).toBe(true);
    expect(canEditArea(['exclusion:update'], { orgId: null, isAvType: false }, null)).toBe(false);
  });

  it.each<[string, readonly string[], string, boolean]>([
    ['create for own org', ['exclusion:create'], 'org-1', true],
    ['manage for own org', ['exclusion:manage'], 'org-1', true],
    ['create for another org', ['exclusion:create'], 'org-2', false],
    ['haas:manage for another org', ['haas:manage'], 'org-2', true],
    ['update only', ['exclusion:update'], 'org-1', false],
  ])('add area: %s', (_name, perms, owner, expected) => {
    expect(canAddArea(perms, owner, 'org-1')).toBe(expected);
  });
});

describe('part2 §6 closures', () => {
  const manual = { closureType: 'manual' };
  const feed = { closureType: 'feed' };
  const desktop = { mobile: false };
  const mobile = { mobile: true };
  it.each<[string, readonly string[], { closureType: string }, { mobile: boolean }, boolean, boolean]>([
    ['update on desktop', ['closure:update'], manual, desktop, true, false],
    ['manage on desktop', ['closure:manage'], manual, desktop, true, true],
    ['delete on desktop', ['closure:delete'], manual, desktop, false, true],
    ['mobile update on desktop', ['mobile:closure:update'], manual, desktop, false, false],
    ['mobile update on mobile', ['mobile:closure:update'], manual, mobile, true, false],
    ['mobile manage on mobile', ['mobile:closure:manage'], manual, mobile, true, true],
    ['desktop update on mobile', ['closure:update'], manual, mobile, false, false],
    ['desktop delete on mobile', ['closure:delete'], manual, mobile, false, true],
    ['feed closure, manage', ['closure:manage', 'haas:manage'], feed, desktop, false, false],
    ['feed closure on mobile', ['mobile:closure:manage'], feed, mobile, false, false],
    ['automated closure', ['closure:update'], { closureType: 'automated' }, desktop, true, false],
  ])('%s (%j, %j, %j): edit %s, delete %s', (_name, perms, closure, context, edit, del) => {
    expect(canEditClosure(perms, closure, context)).toBe(edit);
    expect(canDeleteClosure(perms, closure, context)).toBe(del);
  });

  it.each<[readonly string[], boolean, boolean]>([
    [['closure:create'], false, true],
    [['closure:create'], true, false],
    [['mobile:closure:create'], true, true],
    [['mobile:closure:manage'], true, true],
    [['closure:read'], false, false],
  ])('add closure %j on mobile %s → %s', (perms, onMobile, expected) => {
    expect(canAddClosure(perms, { mobile: onMobile })).toBe(expected);
  });
});

describe('part1 §2, part2 §6 shell', () => {
  it.each<[string, boolean]>([
    ['user:admin:manage', true],
    ['user:admin:create', true],
    ['organization:manage', true],
    ['organization:update', true],
    ['organization:read', false],
    ['user:read', false],
    ['thing:admin:manage', false],
  ])('Manage Accounts & Users with %s: %s', (permission, expected) => {
    expect(showsManageAccounts([permission])).toBe(expected);
  });

  it.each<[string, boolean]>([
    ['thing:read', true],
    ['thing:manage', true],
    ['thing:update', false],
    ['haas:manage', false],
  ])('asset count with %s: %s', (permission, expected) => {
    expect(showsAssetCount([permission])).toBe(expected);
  });

  it.each<[boolean, number, boolean]>([
    [true, 1, true],
    [true, 0, false],
    [false, 3, false],
  ])('organization chooser: acs %s, %i organizations → %s', (acs, count, expected) => {
    expect(showsOrgChooser({ acs, organizations: Array.from({ length: count }, (_, i) => i) })).toBe(expected);
  });

  it('accounts context always allows user and organization edits', () => {
    expect(ACCOUNTS_CONTEXT_ACTIONS).toEqual({
      canAddUser: true,
      canEditUser: true,
      canDeleteUser: true,
      canEditOrganization: true,
    });
  });
});

describe('API keys, integrations and device configuration (part 2 §2, §6)', () => {
  it.each<[string[], { canRead: boolean; canCreate: boolean; canDelete: boolean }]>([
    [['integration_configuration:manage'], { canRead: true, canCreate: true, canDelete: true }],
    [['integration_configuration:read'], { canRead: true, canCreate: false, canDelete: false }],
    [['integration_configuration:read', 'integration_configuration:delete'], { canRead: true, canCreate: false, canDelete: true }],
    [['user:admin:manage'], { canRead: true, canCreate: true, canDelete: true }],
    [['user:admin:create'], { canRead: false, canCreate: true, canDelete: false }],
    [['user:manage', 'thing:admin:manage'], { canRead: false, canCreate: false, canDelete: false }],
  ])('API keys with %j', (permissions, expected) => {
    expect(apiKeyAccess(permissions)).toMatchObject(expected);
  });

  it.each<[string[], { canRead: boolean; canCreate: boolean; canDelete: boolean; canTest: boolean }]>([
    [['integration_configuration:manage'], { canRead: true, canCreate: true, canDelete: true, canTest: true }],
    [['integration_configuration:read'], { canRead: true, canCreate: false, canDelete: false, canTest: true }],
    [['integration_configuration:create'], { canRead: false, canCreate: true, canDelete: false, canTest: true }],
    [['integration_configuration:delete'], { canRead: false, canCreate: false, canDelete: true, canTest: false }],
    // The user admin permissions govern API keys, not the providers' configurations.
    [['user:admin:manage', 'user:manage'], { canRead: false, canCreate: false, canDelete: false, canTest: false }],
  ])('integrations with %j', (permissions, expected) => {
    expect(integrationAccess(permissions)).toMatchObject(expected);
  });

  it.each<[string[], boolean]>([
    [['thing:admin:manage'], true],
    [['haas:manage'], true],
    [['thing:admin:read', 'thing:admin:update', 'user:admin:manage'], false],
  ])('device configuration with %j → %s', (permissions, expected) => {
    expect(canConfigureDevices(permissions)).toBe(expected);
  });
});

describe('organization access: one rule for the server and the screens (README "Security")', () => {
  const relations = { organizationId: 'own', managedOrgIds: new Set(['managed']), accessedOrgIds: new Set(['accessed', 'managed']) };
  it.each([
    ['own', true],
    ['managed', true], // managed wins over accessed when an organization names both
    ['accessed', false],
    ['child', true], // a visible organization that is neither: a child
  ])('%s is written: %s', (orgId, expected) => {
    expect(writesOrg(relations, orgId)).toBe(expected);
  });
  it('haas:manage writes every organization; the profile gives the rest', () => {
    const profile = {
      organizationId: 'own',
      managedOrgs: [{ id: 'managed' }],
      accessedOrgs: [{ id: 'accessed' }],
      permissions: ['closure:manage'],
    };
    expect(orgRelationsOf({ ...profile, permissions: ['haas:manage'] })).toBeNull();
    expect(writesOrg(null, 'accessed')).toBe(true);
    const mine = orgRelationsOf(profile)!;
    expect([writesOrg(mine, 'own'), writesOrg(mine, 'managed'), writesOrg(mine, 'accessed')]).toEqual([true, true, false]);
  });
});
