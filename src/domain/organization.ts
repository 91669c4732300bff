/**
 * Organization: wire schema, client model and mapper (part 1 §3, part 2 §3), the owned / managed
 * grouping of the asset filter, and the acs test.
 */
import { z } from 'zod';
import {
  addressWireShape,
  fromAddressWire,
  toAddressPayload,
  versionWireShape,
  type Address,
  type AddressFields,
  type AddressPayload,
} from './address';
import { compareIds } from './compare';
import { OWNED_ONLY_SUFFIX } from './constants';

/** organization_type {name, acs, icon urls, id} (part 1 §3). */
export const organizationTypeWireSchema = z.object({
  id: z.string().nullish(),
  name: z.string(),
  acs: z.boolean().default(false),
  /** Icon urls by purpose (e.g. marker, logo); the spec names "icon urls" only. */
  icon_urls: z.record(z.string(), z.string()).default({}),
});
export type OrganizationTypeWire = z.infer<typeof organizationTypeWireSchema>;

/** A reference to another organization, as lists of managers, accessors and children carry it. */
export const organizationRefWireSchema = z.object({
  id: z.string(),
  name: z.string(),
});
export type OrganizationRefWire = z.infer<typeof organizationRefWireSchema>;

/** One node of the organization's child structure: a flat list with parent ids. */
export const organizationChildWireSchema = organizationRefWireSchema.extend({
  parent_id: z.string().nullish(),
});

export const organizationWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullish(),
  ...addressWireShape,
  /** The legacy organization fields (part 2 §7 legacy PUT /organization/): the organization's contact. */
  phone_number: z.string().nullish(),
  cell_phone_number: z.string().nullish(),
  contact_name: z.string().nullish(),
  lat: z.number().nullish(),
  lng: z.number().nullish(),
  timezone: z.string().nullish(),
  organization_type: organizationTypeWireSchema.nullish(),
  show_infinite_timeout_option: z.boolean().default(false),
  organization_managers: z.array(organizationRefWireSchema).default([]),
  organization_accessors: z.array(organizationRefWireSchema).default([]),
  is_wzdx_org: z.boolean().default(false),
  is_large_org: z.boolean().default(false),
  billing_id: z.string().nullish(),
  child_structure: z.array(organizationChildWireSchema).default([]),
  ...versionWireShape,
});
export type OrganizationWire = z.infer<typeof organizationWireSchema>;

export interface OrganizationType {
  id: string | null;
  name: string;
  acs: boolean;
  iconUrls: Readonly<Record<string, string>>;
}

export interface OrganizationRef {
  id: string;
  name: string;
}

export interface OrganizationChild extends OrganizationRef {
  parentId: string | null;
}

export interface Organization extends Address {
  id: string;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  cellPhoneNumber: string | null;
  contactName: string | null;
  lat: number | null;
  lng: number | null;
  timezone: string | null;
  organizationType: OrganizationType | null;
  showInfiniteTimeoutOption: boolean;
  organizationManagers: OrganizationRef[];
  organizationAccessors: OrganizationRef[];
  isWzdxOrg: boolean;
  isLargeOrg: boolean;
  billingId: string | null;
  childStructure: OrganizationChild[];
  /** The server's edit counter of the copy shown (the organization form's If-Match). */
  version?: number | null;
}

export function fromOrganizationTypeWire(wire: OrganizationTypeWire): OrganizationType {
  return { id: wire.id ?? null, name: wire.name, acs: wire.acs, iconUrls: wire.icon_urls };
}

export function fromOrganizationWire(wire: OrganizationWire): Organization {
  return {
    id: wire.id,
    name: wire.name,
    email: wire.email ?? null,
    phoneNumber: wire.phone_number ?? null,
    cellPhoneNumber: wire.cell_phone_number ?? null,
    contactName: wire.contact_name ?? null,
    ...fromAddressWire(wire),
    lat: wire.lat ?? null,
    lng: wire.lng ?? null,
    timezone: wire.timezone ?? null,
    organizationType: wire.organization_type ? fromOrganizationTypeWire(wire.organization_type) : null,
    showInfiniteTimeoutOption: wire.show_infinite_timeout_option,
    organizationManagers: wire.organization_managers.map(({ id, name }) => ({ id, name })),
    organizationAccessors: wire.organization_accessors.map(({ id, name }) => ({ id, name })),
    isWzdxOrg: wire.is_wzdx_org,
    isLargeOrg: wire.is_large_org,
    billingId: wire.billing_id ?? null,
    childStructure: wire.child_structure.map((c) => ({ id: c.id, name: c.name, parentId: c.parent_id ?? null })),
    version: wire.version ?? null,
  };
}

/** PUT /organization/{id} body (part 2 §7): "name, address1, address2, city, state, postal_code, country_code". */
export interface OrganizationPayload extends AddressPayload {
  name: string;
}

/** The organization edit form (validation/accounts.ts's, parsed) as the §7 body; line 2 left out is ''. */
export function toOrganizationPayload(form: AddressFields & { readonly name: string }): OrganizationPayload {
  return { name: form.name, ...toAddressPayload(form) };
}

/** part 1 §1: acs organizations skip the organization-relation logic and get an organization chooser. */
export function isAcs(org: { readonly organizationType: { readonly acs: boolean } | null } | null | undefined): boolean {
  return org?.organizationType?.acs === true;
}

// ── owned / managed grouping (part 1 §3, part 2 §3) ──────────────────────────
export type OrganizationGroupKind = 'owned' | 'managed';

export interface OrganizationGroup {
  id: string;
  name: string;
  isSubscribedOrg: boolean;
  /** 'owned' for the subscribed organization's own assets (and its children's), 'managed' for another owner's. */
  kind: OrganizationGroupKind;
  thingIds: string[];
}

/** What the grouping reads of an asset; the client `Asset` model satisfies it. */
export interface GroupableAsset {
  readonly id: string;
  /** The owner; null is taken as the subscribed organization. */
  readonly organization: { readonly id: string; readonly name: string } | null;
  readonly organizationRelationships: readonly unknown[];
}

/**
 * The one ownership rule of the Live list's Owned / Managed toggles and of the grouping (part 1 §3,
 * part 2 §3). Decision: the subscribed organization owns its own assets and those of its child
 * organizations (the organization record's childStructure: they belong to it, part 2 §3 lists them
 * with it); every other owner's asset is managed, whether it is seen through a manager or accessor
 * relationship of the organizations or shared one by one (organization_relationships). An asset
 * without an owner is taken as the subscribed organization's.
 */
export function ownershipOf(ownerId: string | null | undefined, ownedOrgIds: ReadonlySet<string>): OrganizationGroupKind {
  return ownerId == null || ownedOrgIds.has(ownerId) ? 'owned' : 'managed';
}

/**
 * part 1 §3 "relations exist": some visible asset is managed, or some owned asset carries
 * organization relationships (it is shared with another organization). The Owned and Managed
 * toggles show then, and the owned group's name loses ' (ONLY)'.
 */
export function relationsExist(counts: { readonly managed: number; readonly ownedShared: number }): boolean {
  return counts.managed > 0 || counts.ownedShared > 0;
}

/**
 * Groups the visible assets by owner. The subscribed organization's group is first, then its child
 * organizations' groups (also 'owned'), then every other owner's group ('managed'), each by
 * upper-cased name (`ownershipOf`). When relations do not exist (`relationsExist`) the subscribed
 * organization's group name gets ' (ONLY)'. The subscribed organization's group is always present
 * (possibly with no things). `ownedOrgIds` defaults to the subscribed organization alone.
 */
export function groupOrganizations(
  subscribedOrg: OrganizationRef,
  assets: Iterable<GroupableAsset>,
  ownedOrgIds: ReadonlySet<string> = new Set([subscribedOrg.id]),
): OrganizationGroup[] {
  const subscribed: OrganizationGroup = {
    id: subscribedOrg.id,
    name: subscribedOrg.name,
    isSubscribedOrg: true,
    kind: 'owned',
    thingIds: [],
  };
  const owned = new Set([...ownedOrgIds, subscribedOrg.id]);
  const others = new Map<string, OrganizationGroup>();
  const counts = { managed: 0, ownedShared: 0 };
  for (const asset of assets) {
    const owner = asset.organization;
    const kind = ownershipOf(owner?.id, owned);
    if (kind === 'managed') counts.managed += 1;
    else if (asset.organizationRelationships.length > 0) counts.ownedShared += 1;
    if (!owner || owner.id === subscribedOrg.id) {
      subscribed.thingIds.push(asset.id);
      continue;
    }
    let group = others.get(owner.id);
    if (!group) {
      group = { id: owner.id, name: owner.name, isSubscribedOrg: false, kind, thingIds: [] };
      others.set(owner.id, group);
    }
    group.thingIds.push(asset.id);
  }
  if (!relationsExist(counts)) subscribed.name += OWNED_ONLY_SUFFIX;
  const rest = [...others.values()].sort(compareGroupNames);
  return [subscribed, ...rest.filter((g) => g.kind === 'owned'), ...rest.filter((g) => g.kind === 'managed')];
}

function compareGroupNames(a: OrganizationGroup, b: OrganizationGroup): number {
  const an = a.name.toUpperCase();
  const bn = b.name.toUpperCase();
  if (an < bn) return -1;
  if (an > bn) return 1;
  return compareIds(a.id, b.id);
}

// ── the organization's relations on the accounts organization tab (part 2 §3) ─
export type RelationGroupKind = 'owned' | 'managed' | 'managers' | 'accessors';

export interface RelationEntry {
  id: string;
  name: string;
  isSubscribedOrg: boolean;
}

export interface RelationGroup {
  kind: RelationGroupKind;
  entries: RelationEntry[];
}

export interface RelationSources {
  /** The organization shown (the subscribed one on the legacy tab). */
  organization: OrganizationRef;
  subscribedOrgId: string;
  /** Its child organizations (owned with it). */
  children: readonly OrganizationRef[];
  /** Organizations it manages (the profile's managed_orgs when it is the subscribed one). */
  managed: readonly OrganizationRef[];
  /** Organizations that manage it and that access it (organization_managers, organization_accessors). */
  managers: readonly OrganizationRef[];
  accessors: readonly OrganizationRef[];
}

const byUpperName = (a: OrganizationRef, b: OrganizationRef) => {
  const an = a.name.toUpperCase();
  const bn = b.name.toUpperCase();
  return an < bn ? -1 : an > bn ? 1 : compareIds(a.id, b.id);
};

/**
 * part 2 §3: the owned group first (the subscribed organization first, then by upper-cased name),
 * then managed, managed-by and accessed-by, each by upper-cased name; an empty group other than
 * owned is left out. The owned name gets ' (ONLY)' when the organization has no relationships
 * (it manages none, and none manages or accesses it).
 */
export function organizationRelationGroups(sources: RelationSources): RelationGroup[] {
  const entry = (ref: OrganizationRef): RelationEntry => ({
    id: ref.id,
    name: ref.name,
    isSubscribedOrg: ref.id === sources.subscribedOrgId,
  });
  const sorted = (refs: readonly OrganizationRef[]) => [...refs].sort(byUpperName).map(entry);
  const hasRelationships = sources.managed.length + sources.managers.length + sources.accessors.length > 0;
  const self = entry(sources.organization);
  if (!hasRelationships) self.name += OWNED_ONLY_SUFFIX;
  const owned = [self, ...sorted(sources.children.filter((child) => child.id !== sources.organization.id))].sort(
    (a, b) => Number(b.isSubscribedOrg) - Number(a.isSubscribedOrg) || byUpperName(a, b),
  );
  const groups: RelationGroup[] = [{ kind: 'owned', entries: owned }];
  for (const [kind, refs] of [
    ['managed', sources.managed],
    ['managers', sources.managers],
    ['accessors', sources.accessors],
  ] as const) {
    if (refs.length) groups.push({ kind, entries: sorted(refs) });
  }
  return groups;
}

/**
 * The organizations a user administers (part 2 §2 accounts): their own, its children and the ones
 * it manages, each once, in that order (the server's rule for organization and device
 * configuration writes; accessed organizations are only read).
 */
export function administeredOrganizations(organization: Organization, managedOrgs: readonly OrganizationRef[]): OrganizationRef[] {
  const byId = new Map<string, OrganizationRef>();
  for (const org of [organization, ...organization.childStructure, ...managedOrgs]) {
    if (!byId.has(org.id)) byId.set(org.id, { id: org.id, name: org.name });
  }
  return [...byId.values()];
}
