/**
 * Permissions (part 1 §5, §6; part 2 §6): the catalogue of permission strings, area:action CRUD,
 * the dashboard sections with their "any one of" permissions, and every action rule the spec
 * names. Inputs are structural so any model that carries the named fields fits.
 *
 * haas:manage, "the super permission": it passes every row of the §6 tables that names it
 * (things, events, areas, closures, zones and data views; edit event) and every area rule (part 2
 * §6 "Non-owners and automated-vehicle types need haas manage"). It does not open rows that leave
 * it out (trips, hazards, r2r, exports, accounts, R2R test, LED): the tables name it row
 * by row, so a row without it is read as not granted by it.
 *
 * One exception, the monthly reports: the data row opens the Data section to haas:manage, yet
 * neither the reports nor the exports row names it, which would leave a haas:manage-only user a
 * Data link that ends on the unauthorized page. haas:manage therefore reads the monthly reports
 * (a read-only page; docs/decisions/spec.md); exports, which create and delete server work, stay
 * with the export permissions.
 */
import { LIGHT_INTENSITY_OPTIONS, R2R_CAPABLE_TYPES, R2R_DEVICE_TYPES } from './constants';
import { ASSET_STATUS, displayStatus, type AssetStatus } from './asset-status';
import { TOOLTIP } from './labels';

// ── the catalogue (part 1 §6 "Permission strings in the product", part 2 §6) ─
export const PERMISSIONS = [
  'organization:manage',
  'organization:create',
  'organization:read',
  'organization:update',
  'organization:delete',
  // part 1 names user:admin:manage and :create; part 2 §6 accounts row: "manage, create, read,
  // update, delete variants" of user admin and thing admin permissions.
  'user:admin:manage',
  'user:admin:create',
  'user:admin:read',
  'user:admin:update',
  'user:admin:delete',
  'user:manage',
  'user:create',
  'user:read',
  'user:update',
  'user:delete',
  'thing:manage',
  'thing:read',
  'thing:update',
  'thing:admin:manage',
  'thing:admin:create',
  'thing:admin:read',
  'thing:admin:update',
  'thing:admin:delete',
  'thing:invoke_r2r',
  'thing:ha5_light_intensity_change',
  'incident:read',
  'incident:update',
  'heatmap:create',
  'heatmap:read',
  'exclusion:manage',
  'exclusion:create',
  'exclusion:read',
  'exclusion:update',
  'exclusion:delete',
  'closure:manage',
  'closure:create',
  'closure:read',
  'closure:update',
  'closure:delete',
  'mobile:closure:manage',
  'mobile:closure:create',
  'mobile:closure:update',
  'zone:manage',
  'zone:read',
  'trip:read',
  'hazard:read',
  'report:manage',
  'report:create',
  'report:read',
  'report:update',
  'report:delete',
  'export:manage',
  'export:create',
  'export:read',
  'export:update',
  'export:delete',
  // part 2 §6 exports row: "view, create, delete; manage".
  'export:view',
  'integration_configuration:manage',
  'integration_configuration:read',
  'integration_configuration:create',
  'integration_configuration:delete',
  'billing:read',
  'haas:manage',
  'engineer:test',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const HAAS_MANAGE = 'haas:manage' satisfies Permission;

const KNOWN = new Set<string>(PERMISSIONS);

export function isPermission(value: string): value is Permission {
  return KNOWN.has(value);
}

/** What a user holds: the profile's permission strings (unknown strings are simply never asked). */
export type PermissionList = ReadonlySet<string> | readonly string[];

function holds(perms: PermissionList, permission: string): boolean {
  return Array.isArray(perms) ? perms.includes(permission) : (perms as ReadonlySet<string>).has(permission);
}

export function hasPermission(perms: PermissionList, permission: Permission): boolean {
  return holds(perms, permission);
}

/** part 1 §6, part 2 §6: "any one of". An empty requirement is never met. */
export function hasAny(perms: PermissionList, required: readonly Permission[]): boolean {
  return required.some((permission) => holds(perms, permission));
}

// ── area:action CRUD (part 1 §6) ─────────────────────────────────────────────
/** The prefixes of the catalogue: `${area}:${action}`. */
export type PermissionArea =
  | 'organization'
  | 'user'
  | 'user:admin'
  | 'thing'
  | 'thing:admin'
  | 'incident'
  | 'heatmap'
  | 'exclusion'
  | 'closure'
  | 'mobile:closure'
  | 'zone'
  | 'trip'
  | 'hazard'
  | 'report'
  | 'export'
  | 'integration_configuration'
  | 'billing';

export interface Crud {
  readonly canCreate: boolean;
  readonly canRead: boolean;
  readonly canUpdate: boolean;
  readonly canDelete: boolean;
}

/** part 1 §6: "A permission of the form area:action yields canCreate, canRead, canUpdate, canDelete; manage sets all four." */
export function areaCrud(perms: PermissionList, area: PermissionArea): Crud {
  const manage = holds(perms, `${area}:manage`);
  return {
    canCreate: manage || holds(perms, `${area}:create`),
    canRead: manage || holds(perms, `${area}:read`),
    canUpdate: manage || holds(perms, `${area}:update`),
    canDelete: manage || holds(perms, `${area}:delete`),
  };
}

// ── dashboard sections (part 1 §2, §6; part 2 §2, §6) ────────────────────────
export const SECTION_KEYS = [
  'things',
  'events',
  'areas',
  'closures',
  'zones',
  'trips',
  'r2r',
  'hazards',
  'data',
  'reports',
  'exports',
  'accounts',
  'accounts_new',
] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export const DASHBOARD_PATH = '/dashboard';

export interface DashboardSection {
  readonly key: SectionKey;
  /** Route under /dashboard (part 2 §2 route table). */
  readonly path: string;
  /** Shown when the user holds any one of these. */
  readonly anyOf: readonly Permission[];
  /** part 1 §2, part 2 §2: false where the page says 'This page isn't available on mobile devices.' */
  readonly onMobile: boolean;
}

/** part 2 §6 accounts row: the "manage, create, read, update, delete variants" of user admin. */
const USER_ADMIN_VARIANTS: readonly Permission[] = [
  'user:admin:manage',
  'user:admin:create',
  'user:admin:read',
  'user:admin:update',
  'user:admin:delete',
];

const USER_ADMIN_AND_ORG: readonly Permission[] = [
  'user:manage',
  'user:create',
  'user:read',
  'user:update',
  'user:delete',
  ...USER_ADMIN_VARIANTS,
  'organization:manage',
  'organization:create',
  'organization:read',
  'organization:update',
  'organization:delete',
  'thing:admin:manage',
  'thing:admin:create',
  'thing:admin:read',
  'thing:admin:update',
  'thing:admin:delete',
];

/** In the spec's order; the default section is the first allowed. */
export const SECTIONS: readonly DashboardSection[] = [
  { key: 'things', path: 'things', anyOf: ['thing:read', 'thing:manage', 'haas:manage'], onMobile: true },
  { key: 'events', path: 'events', anyOf: ['incident:read', 'haas:manage'], onMobile: true },
  { key: 'areas', path: 'areas', anyOf: ['exclusion:read', 'exclusion:manage', 'haas:manage'], onMobile: true },
  { key: 'closures', path: 'closures', anyOf: ['closure:read', 'closure:manage', 'haas:manage'], onMobile: true },
  { key: 'zones', path: 'zones', anyOf: ['zone:read', 'zone:manage', 'haas:manage'], onMobile: false },
  { key: 'trips', path: 'trips', anyOf: ['trip:read'], onMobile: false },
  { key: 'r2r', path: 'r2r', anyOf: ['engineer:test'], onMobile: false },
  { key: 'hazards', path: 'hazards', anyOf: ['hazard:read'], onMobile: false },
  {
    key: 'data',
    path: 'data',
    anyOf: ['report:read', 'report:manage', 'export:read', 'export:manage', 'haas:manage'],
    onMobile: true,
  },
  {
    key: 'reports',
    path: 'data/reports',
    // part 2 §6 reports row, plus haas:manage (the data row's super permission; see the file's header).
    anyOf: ['report:read', 'report:manage', 'report:create', 'report:update', 'report:delete', 'haas:manage'],
    onMobile: true,
  },
  {
    // part 2 §6 "view, create, delete; manage"; part 1's export:* adds read, which the data row uses.
    key: 'exports',
    path: 'data/exports',
    anyOf: ['export:view', 'export:read', 'export:create', 'export:delete', 'export:manage'],
    onMobile: false,
  },
  { key: 'accounts', path: 'accounts', anyOf: USER_ADMIN_AND_ORG, onMobile: false },
  // docs/decisions/spec.md "accounts_new or accounts-new": key accounts_new (part 1), route accounts-new (part 2). Desktop only like accounts.
  { key: 'accounts_new', path: 'accounts-new', anyOf: ['engineer:test'], onMobile: false },
];

const BY_KEY = new Map<SectionKey, DashboardSection>(SECTIONS.map((section) => [section.key, section]));

export function section(key: SectionKey): DashboardSection {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown section ${key}`);
  return found;
}

/** The absolute route of a section, e.g. '/dashboard/accounts-new'. */
export function sectionHref(key: SectionKey): string {
  return `${DASHBOARD_PATH}/${section(key).path}`;
}

/**
 * docs/decisions/spec.md "accounts_new or accounts-new": part 1's name of a section, where it differs from its
 * route; and the data pages by their own names ('/dashboard/reports' → '/dashboard/data/reports').
 */
const SECTION_PATH_ALIASES: ReadonlyMap<string, SectionKey> = new Map([
  ['accounts_new', 'accounts_new'],
  ['reports', 'reports'],
  ['exports', 'exports'],
]);

/**
 * Where a dashboard path written with a section's part 1 name goes: '/dashboard/accounts_new/users'
 * redirects to '/dashboard/accounts-new/users'. Null when the path needs no redirect.
 */
export function sectionPathRedirect(pathname: string): string | null {
  const prefix = `${DASHBOARD_PATH}/`;
  if (!pathname.startsWith(prefix)) return null;
  const [first = '', ...rest] = pathname.slice(prefix.length).split('/');
  const key = SECTION_PATH_ALIASES.get(first);
  return key ? [sectionHref(key), ...rest].join('/') : null;
}

export function canSeeSection(perms: PermissionList, key: SectionKey): boolean {
  return hasAny(perms, section(key).anyOf);
}

export function allowedSections(perms: PermissionList): readonly DashboardSection[] {
  return SECTIONS.filter((entry) => hasAny(perms, entry.anyOf));
}

/** part 2 §2: the data index goes to reports with a report permission, otherwise to exports. */
export function dataIndexTarget(perms: PermissionList): 'reports' | 'exports' {
  return canSeeSection(perms, 'reports') ? 'reports' : 'exports';
}

/**
 * part 1 §2: /dashboard goes to the first section allowed; for data, to its sub-page. Null when
 * no section is allowed (the unauthorized page).
 */
export function firstAllowedSection(perms: PermissionList): { key: SectionKey; path: string } | null {
  const first = allowedSections(perms)[0];
  if (!first) return null;
  if (first.key === 'data') return { key: 'data', path: section(dataIndexTarget(perms)).path };
  return { key: first.key, path: first.path };
}

// ── assets and events (part 1 §6) ────────────────────────────────────────────
export function canEditAsset(perms: PermissionList): boolean {
  return hasAny(perms, ['thing:update', 'thing:manage']);
}

export function canEditEvent(perms: PermissionList): boolean {
  return hasAny(perms, ['incident:update', 'haas:manage']);
}

/**
 * part 1 §5: the organization access edit shows only with edit permission and at least one asset
 * relation or subscribed organization relation.
 */
export function showsOrganizationAccessEdit(
  perms: PermissionList,
  relations: { readonly assetRelations: number; readonly subscribedOrgRelations: number },
): boolean {
  return canEditAsset(perms) && (relations.assetRelations > 0 || relations.subscribedOrgRelations > 0);
}

/** Whether an action may run, and the tooltip shown on the disabled control (null: none). */
export interface ActionAvailability {
  readonly allowed: boolean;
  readonly tooltip: string | null;
}

const ALLOWED: ActionAvailability = { allowed: true, tooltip: null };

/** What the R2R rule reads; the client asset model fits. `status` is an ASSET_STATUS code. */
/** The status facts of the action rules: an out-of-service asset counts as status 6 (part 1 §4), whatever its live status. */
export interface ActionStatusFacts {
  readonly status: number;
  /** Absent: in service. */
  readonly inService?: boolean;
}

function actionStatus(asset: ActionStatusFacts): number {
  return displayStatus(asset.status as AssetStatus, asset.inService ?? true);
}

export interface R2RAssetFacts extends ActionStatusFacts {
  readonly deviceType: string | null | undefined;
  readonly isR2REnabled: boolean;
  readonly thingType: string | null | undefined;
}

/**
 * part 1 §5 R2R test. Checks run in the order the spec lists the tooltips, so the tooltip names
 * the first thing the user could not fix by waiting: permission ('Not authorized'), hardware
 * ('R2R testing available only for HA5 and HA7 devices'), status standby or stationary
 * ('Invalid asset status'), then R2R enabled on an R2R-capable type ('R2R not enabled').
 */
export function canRunR2RTest(asset: R2RAssetFacts, perms: PermissionList): ActionAvailability {
  if (!hasPermission(perms, 'thing:invoke_r2r')) return { allowed: false, tooltip: TOOLTIP.notAuthorized };
  if (!(R2R_DEVICE_TYPES as readonly (string | null | undefined)[]).includes(asset.deviceType)) {
    return { allowed: false, tooltip: TOOLTIP.r2rHardware };
  }
  const status = actionStatus(asset);
  if (status !== ASSET_STATUS.standby && status !== ASSET_STATUS.stationary) {
    return { allowed: false, tooltip: TOOLTIP.invalidAssetStatus };
  }
  const capable = (R2R_CAPABLE_TYPES as readonly (string | null | undefined)[]).includes(asset.thingType);
  if (!asset.isR2REnabled || !capable) return { allowed: false, tooltip: TOOLTIP.r2rNotEnabled };
  return ALLOWED;
}

/**
 * part 1 §5 LED intensity: the light-intensity permission ('Not authorized'), status at or below
 * stationary, i.e. location, active, standby or stationary ('Invalid asset status'), and a chosen
 * value among LIGHT_INTENSITY_OPTIONS (disabled with no tooltip until one is chosen).
 */
export function canChangeLightIntensity(
  asset: ActionStatusFacts,
  perms: PermissionList,
  value: number | null | undefined,
): ActionAvailability {
  if (!hasPermission(perms, 'thing:ha5_light_intensity_change')) {
    return { allowed: false, tooltip: TOOLTIP.notAuthorized };
  }
  const status = actionStatus(asset);
  if (!(status >= ASSET_STATUS.location && status <= ASSET_STATUS.stationary)) {
    return { allowed: false, tooltip: TOOLTIP.invalidAssetStatus };
  }
  if (value === null || value === undefined || !(LIGHT_INTENSITY_OPTIONS as readonly number[]).includes(value)) {
    return { allowed: false, tooltip: null };
  }
  return ALLOWED;
}

// ── areas (part 2 §6) ────────────────────────────────────────────────────────
export type OrgId = string | number;

function sameOrg(a: OrgId | null | undefined, b: OrgId | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);
}

/** What the area rules read: the owner organization and the area type's is_av_type. */
export interface AreaOwnership {
  readonly orgId: OrgId | null | undefined;
  readonly isAvType: boolean;
}

/**
 * part 2 §6: the owner organization edits with exclusion manage or update; non-owners and
 * automated-vehicle types (is_av_type) need haas:manage, which alone suffices (super permission).
 */
export function canEditArea(perms: PermissionList, area: AreaOwnership, userOrgId: OrgId | null | undefined): boolean {
  if (hasPermission(perms, HAAS_MANAGE)) return true;
  return sameOrg(area.orgId, userOrgId) && !area.isAvType && hasAny(perms, ['exclusion:manage', 'exclusion:update']);
}

/** As canEditArea with exclusion manage or delete. */
export function canDeleteArea(perms: PermissionList, area: AreaOwnership, userOrgId: OrgId | null | undefined): boolean {
  if (hasPermission(perms, HAAS_MANAGE)) return true;
  return sameOrg(area.orgId, userOrgId) && !area.isAvType && hasAny(perms, ['exclusion:manage', 'exclusion:delete']);
}

/** part 2 §6: "Add area needs exclusion create or manage, and owner or haas manage" (haas alone suffices). */
export function canAddArea(perms: PermissionList, ownerOrgId: OrgId | null | undefined, userOrgId: OrgId | null | undefined): boolean {
  if (hasPermission(perms, HAAS_MANAGE)) return true;
  return sameOrg(ownerOrgId, userOrgId) && hasAny(perms, ['exclusion:create', 'exclusion:manage']);
}

// ── organization access (docs/security.md) ─────────────────────────────────
/** The caller's organizations as the server's scope holds them. */
export interface OrgRelations {
  /** The caller's own organization. */
  readonly organizationId: string;
  /** Organizations that name the caller's as manager. */
  readonly managedOrgIds: ReadonlySet<string>;
  /** Organizations that name the caller's as accessor. */
  readonly accessedOrgIds: ReadonlySet<string>;
}

/**
 * Whether a caller may write the records of an organization it sees: its own, a managed one or a
 * child; one that only names it accessor is read-only. null relations: every organization
 * (haas:manage). The server's scope (`orgAccess`) and the screens decide with this one rule.
 */
export function writesOrg(relations: OrgRelations | null, orgId: string): boolean {
  if (relations === null) return true;
  return orgId === relations.organizationId || relations.managedOrgIds.has(orgId) || !relations.accessedOrgIds.has(orgId);
}

/** The signed-in user's OrgRelations from the profile (null with haas:manage: every organization). */
export function orgRelationsOf(profile: {
  readonly organizationId: string;
  readonly managedOrgs: readonly { readonly id: string }[];
  readonly accessedOrgs: readonly { readonly id: string }[];
  readonly permissions: PermissionList;
}): OrgRelations | null {
  if (hasPermission(profile.permissions, HAAS_MANAGE)) return null;
  return {
    organizationId: profile.organizationId,
    managedOrgIds: new Set(profile.managedOrgs.map((org) => org.id)),
    accessedOrgIds: new Set(profile.accessedOrgs.map((org) => org.id)),
  };
}

// ── closures (part 2 §4, §6) ─────────────────────────────────────────────────
export interface ClosureKind {
  readonly closureType: string;
  /** The closure's organization; with the context's relations, an accessor's closure is read-only. */
  readonly orgId?: string;
}

export interface ClosureContext {
  /** part 1 §2: closure new/edit on mobile use the mobile closure permissions. */
  readonly mobile: boolean;
  /**
   * The caller's organizations (orgRelationsOf): a closure of an organization it only accesses is
   * neither edited, toggled nor deleted, as the server refuses it. Left out (the server, which
   * checks the organization first): not looked at.
   */
  readonly relations?: OrgRelations | null;
}

/** Whether the context's relations let the caller write the closure's organization. */
function writesClosureOrg(closure: ClosureKind, context: ClosureContext): boolean {
  return closure.orgId === undefined || context.relations === undefined || writesOrg(context.relations, closure.orgId);
}

export function canAddClosure(perms: PermissionList, context: ClosureContext): boolean {
  return context.mobile
    ? hasAny(perms, ['mobile:closure:create', 'mobile:closure:manage'])
    : hasAny(perms, ['closure:create', 'closure:manage']);
}

/** part 2 §6: update or manage (the mobile variants on mobile); feed closures never (the WZDx feed manages them). */
export function canEditClosure(perms: PermissionList, closure: ClosureKind, context: ClosureContext): boolean {
  if (closure.closureType === 'feed' || !writesClosureOrg(closure, context)) return false;
  return context.mobile
    ? hasAny(perms, ['mobile:closure:update', 'mobile:closure:manage'])
    : hasAny(perms, ['closure:update', 'closure:manage']);
}

/**
 * part 2 §6: delete or manage; feed closures never. No mobile delete permission exists, so on
 * mobile closure delete/manage apply as on desktop and mobile:closure:manage (which "sets all
 * four") also grants it.
 */
export function canDeleteClosure(perms: PermissionList, closure: ClosureKind, context: ClosureContext): boolean {
  if (closure.closureType === 'feed' || !writesClosureOrg(closure, context)) return false;
  if (context.mobile && hasPermission(perms, 'mobile:closure:manage')) return true;
  return hasAny(perms, ['closure:delete', 'closure:manage']);
}

// ── shell and accounts (part 1 §2, §6; part 2 §6) ────────────────────────────
/**
 * part 1 §2, part 2 §6: 'Manage Accounts & Users' shows for user-admin or organization admin
 * permissions: any user:admin variant, or an organization write variant (manage, create, update,
 * delete; read alone administers nothing).
 */
export function showsManageAccounts(perms: PermissionList): boolean {
  return hasAny(perms, [
    ...USER_ADMIN_VARIANTS,
    'organization:manage',
    'organization:create',
    'organization:update',
    'organization:delete',
  ]);
}

/** part 1 §2: the top bar's asset count needs thing read or manage. */
export function showsAssetCount(perms: PermissionList): boolean {
  return hasAny(perms, ['thing:read', 'thing:manage']);
}

/** part 1 §2: the organization chooser for users with the acs flag and at least one organization. */
export function showsOrgChooser(profile: { readonly acs: boolean; readonly organizations: readonly unknown[] }): boolean {
  return profile.acs && profile.organizations.length > 0;
}

/** part 1 §6, part 2 §6: inside the accounts context these are always allowed. */
export const ACCOUNTS_CONTEXT_ACTIONS = {
  canAddUser: true,
  canEditUser: true,
  canDeleteUser: true,
  canEditOrganization: true,
} as const;

// ── accounts (part 2 §6 accounts row, "Inside the accounts context ...") ─────
export type AccountsUserAction = 'canCreate' | 'canUpdate' | 'canDelete';

/** Adding, editing or deleting a user: any one of the user or user-admin variants of the action (manage sets all). */
export function canAdministerUsers(perms: PermissionList, action: AccountsUserAction): boolean {
  return areaCrud(perms, 'user')[action] || areaCrud(perms, 'user:admin')[action];
}

/**
 * Editing an organization: organization update or manage; or, by "inside the accounts context ...
 * edit organization [is] always allowed", a user who may update users. Read-only permissions edit nothing.
 */
export function canEditOrganizationInAccounts(perms: PermissionList): boolean {
  return areaCrud(perms, 'organization').canUpdate || canAdministerUsers(perms, 'canUpdate');
}

// ── API keys and device configuration (part 2 §2 "API keys and integrations", "Device configuration"; §6) ──
/**
 * API keys are for integrations (devices and fleet systems sending data): the integration
 * configuration permissions govern them (read lists, create creates, delete revokes; manage all
 * three), and the matching user:admin variant does as well. The server enforces the same rule.
 */
export function apiKeyAccess(perms: PermissionList): Crud {
  const integration = areaCrud(perms, 'integration_configuration');
  const admin = areaCrud(perms, 'user:admin');
  return {
    canCreate: integration.canCreate || admin.canCreate,
    canRead: integration.canRead || admin.canRead,
    canUpdate: integration.canUpdate || admin.canUpdate,
    canDelete: integration.canDelete || admin.canDelete,
  };
}

/**
 * An organization's administrators (user:admin read, delete; manage both) see and revoke every key
 * of their organization, not only their own: a key whose owner left or lost the right is theirs to
 * end. The server enforces the same rule.
 */
export function organizationApiKeyAccess(perms: PermissionList): { canRead: boolean; canDelete: boolean } {
  const admin = areaCrud(perms, 'user:admin');
  return { canRead: admin.canRead, canDelete: admin.canDelete };
}

/**
 * Whether a key still acts for its owner: the owner's role now holds the right to make keys
 * (a key made by an Admin later given a role without it is refused at the ingest).
 */
export function apiKeyStillHeld(ownerPerms: PermissionList): boolean {
  return apiKeyAccess(ownerPerms).canCreate;
}

/**
 * The Integrations tab and its calls (part 2 §6 "Integration configuration permissions: manage,
 * read, create, delete"): read lists the configurations, create adds one, delete removes one.
 * Testing a stored configuration's connection (designed) changes nothing and calls the provider
 * with the stored credentials: whoever may read or create configurations may run it.
 */
export function integrationAccess(perms: PermissionList): Crud & { readonly canTest: boolean } {
  const crud = areaCrud(perms, 'integration_configuration');
  return { ...crud, canTest: crud.canRead || crud.canCreate };
}

/** Device configuration is hardware administration: thing:admin:manage, or haas:manage (every call). */
export const DEVICE_CONFIG_PERMISSIONS = ['thing:admin:manage', HAAS_MANAGE] as const satisfies readonly Permission[];

export function canConfigureDevices(perms: PermissionList): boolean {
  return hasAny(perms, DEVICE_CONFIG_PERMISSIONS);
}
