/**
 * The shell's rules as pure functions (CONVENTIONS §1): which links the side nav and the bottom
 * nav show and how they read, where a section link goes (the last selected id appended), the
 * organization list and its search, and the browser the WebGL steps are written for.
 */
import { proxy } from 'valtio';
import { MOBILE_ORG_NAME_MAX, ORG_SEARCH_SHOWN_OVER } from '../../domain/constants';
import type { ResponderMix } from '../../domain/asset-status';
import { eventsSectionLabel } from '../../domain/asset-status';
import { SECTION_LABEL } from '../../domain/labels';
import type { OrganizationRef } from '../../domain/organization';
import { canSeeSection, DASHBOARD_PATH, SECTIONS, type PermissionList, type SectionKey } from '../../domain/permissions';
import type { Profile } from '../../domain/profile';
import { itemHref } from '../section/item-href';

/** The side nav's sections (data, reports, exports and accounts are reached from the top bar and profile card). */
export const SIDE_NAV_KEYS: readonly SectionKey[] = ['things', 'events', 'areas', 'closures', 'zones', 'trips', 'r2r', 'hazards'];
/** part 1 §2: the bottom nav has four items only. */
export const BOTTOM_NAV_KEYS: readonly SectionKey[] = ['things', 'events', 'areas', 'closures'];

export function sectionLabel(key: SectionKey, mix: ResponderMix): string {
  return key === 'events' ? eventsSectionLabel(mix) : SECTION_LABEL[key];
}

export function navSections(perms: PermissionList, keys: readonly SectionKey[]): SectionKey[] {
  return keys.filter((key) => canSeeSection(perms, key));
}

/** part 1 §2: "Nav links append the last selected item id when one exists." */
export function sectionLinkTarget(key: SectionKey, lastIds: Readonly<Partial<Record<SectionKey, string>>>): string {
  return itemHref(key, lastIds[key]);
}

/** Pages of a section that are not an item: '/dashboard/areas/new', '/dashboard/closures/wzdx-feeds'. */
const NOT_ITEMS: ReadonlySet<string> = new Set(['new', 'wzdx-feeds']);

/**
 * The section and item id a dashboard path names: '/dashboard/things/42/edit' → things, '42';
 * a section's own pages ('new', 'wzdx-feeds') name no item.
 */
export function sectionOfPath(pathname: string): { key: SectionKey; id: string | null } | null {
  const prefix = `${DASHBOARD_PATH}/`;
  if (!pathname.startsWith(prefix)) return null;
  const rest = pathname.slice(prefix.length);
  // Longest route first: 'data/reports' before 'data'.
  const sorted = [...SECTIONS].sort((a, b) => b.path.length - a.path.length);
  for (const entry of sorted) {
    if (rest === entry.path || rest.startsWith(`${entry.path}/`)) {
      const id = rest.slice(entry.path.length + 1).split('/')[0] || null;
      return { key: entry.key, id: id && !NOT_ITEMS.has(id) ? decodeURIComponent(id) : null };
    }
  }
  return null;
}

/** The organizations a user can look at: their own, the managed and the accessed ones, once each. */
export function profileOrganizations(
  profile: Pick<Profile, 'userOrg' | 'managedOrgs' | 'accessedOrgs' | 'organizationId'>,
): OrganizationRef[] {
  const seen = new Map<string, OrganizationRef>();
  for (const org of [...(profile.userOrg ? [profile.userOrg] : []), ...profile.managedOrgs, ...profile.accessedOrgs]) {
    if (!seen.has(org.id)) seen.set(org.id, org);
  }
  return [...seen.values()];
}

/**
 * part 1 §1, §2: acs organizations skip the organization-relation logic and get a chooser. Their
 * users choose among the profile's organizations and every organization the server lets them see
 * (GET /organization/assignable: all of them with haas:manage); each once, the profile's first.
 */
export function chooserOrganizations(profileOrgs: readonly OrganizationRef[], visible: readonly OrganizationRef[]): OrganizationRef[] {
  const seen = new Map<string, OrganizationRef>();
  for (const org of [...profileOrgs, ...visible]) if (!seen.has(org.id)) seen.set(org.id, { id: org.id, name: org.name });
  return [...seen.values()];
}

/**
 * The live worker's choice when the subscribed organization changes (part 1 §4 Other): it
 * subscribes to the chosen organization's channel and asks the REST calls for its assets only
 * (`org_ids[]`); back on the user's own organization it asks for the caller's own scope, as at start.
 */
export function organizationChoice(orgId: string, ownOrgId: string): { organizationId: string; orgIds: string[] } {
  return { organizationId: orgId, orgIds: orgId === ownOrgId ? [] : [orgId] };
}

/** part 1 §2: the search shows when more than ORG_SEARCH_SHOWN_OVER organizations are listed. */
export function showsOrganizationSearch(count: number): boolean {
  return count > ORG_SEARCH_SHOWN_OVER;
}

export function filterOrganizations(orgs: readonly OrganizationRef[], query: string): OrganizationRef[] {
  const needle = query.trim().toUpperCase();
  return needle ? orgs.filter((org) => org.name.toUpperCase().includes(needle)) : [...orgs];
}

/** part 1 §2: the organization name on the mobile top bar, truncated to 70 characters. */
export function mobileOrganizationName(name: string): string {
  return name.length > MOBILE_ORG_NAME_MAX ? `${name.slice(0, MOBILE_ORG_NAME_MAX)}…` : name;
}

export type BrowserName = 'chrome' | 'edge' | 'firefox' | 'safari' | 'other';

export function browserOf(userAgent: string): BrowserName {
  if (/Edg\//.test(userAgent)) return 'edge';
  if (/Firefox\//.test(userAgent)) return 'firefox';
  if (/Chrom(e|ium)\//.test(userAgent)) return 'chrome';
  if (/Safari\//.test(userAgent)) return 'safari';
  return 'other';
}

/** The shell's own small state: the drawer and the last selected item per section. */
export interface ShellState {
  drawerOpen: boolean;
  lastIds: Partial<Record<SectionKey, string>>;
}

export function createShellState(): ShellState {
  return proxy<ShellState>({ drawerOpen: true, lastIds: {} });
}
