/**
 * The signed-in user's profile (part 1 §3 "Session and profile", §7 GET /profile, §8 profile load;
 * part 2 §3 User "Profile adds ...").
 *
 * Wire names: id, email, firstname, lastname, phone, address1, address2, city, state, postal_code,
 * country_code, timezone, organization_id, organization_type (the type's name), acs, permissions,
 * has_api_keys, is_ha_direct_enabled, show_infinite_timeout_option, user_access, dashboard_access,
 * role_id, user_org {id, name, maxio_cust_id}, managed_orgs [{id, name}], accessed_orgs [{id, name}].
 */
import { z } from 'zod';
import { addressWireShape, fromAddressWire, type Address } from './address';
import { organizationRefWireSchema, type OrganizationRef } from './organization';

export const profileUserOrgWireSchema = organizationRefWireSchema.extend({
  maxio_cust_id: z.string().nullish(),
});

export const profileWireSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstname: z.string().nullish(),
  lastname: z.string().nullish(),
  phone: z.string().nullish(),
  ...addressWireShape,
  timezone: z.string().nullish(),
  organization_id: z.string(),
  organization_type: z.string().nullish(),
  acs: z.boolean().default(false),
  permissions: z.array(z.string()).default([]),
  has_api_keys: z.boolean().default(false),
  is_ha_direct_enabled: z.boolean().default(false),
  show_infinite_timeout_option: z.boolean().default(false),
  user_access: z.boolean().default(true),
  dashboard_access: z.boolean().default(true),
  role_id: z.number().int().nullish(),
  user_org: profileUserOrgWireSchema.nullish(),
  managed_orgs: z.array(organizationRefWireSchema).default([]),
  accessed_orgs: z.array(organizationRefWireSchema).default([]),
});
export type ProfileWire = z.infer<typeof profileWireSchema>;
export type ProfileWireInput = z.input<typeof profileWireSchema>;

export interface Profile extends Address {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  /** Upper-cased (part 1 §3). */
  state: string | null;
  timezone: string | null;
  organizationId: string;
  organizationType: string | null;
  acs: boolean;
  permissions: string[];
  hasApiKeys: boolean;
  isHADEnabled: boolean;
  /** From show_infinite_timeout_option: the situational-awareness (no inactivity timeout) mode. */
  hasAwarenessModeAccess: boolean;
  userAccess: boolean;
  dashboardAccess: boolean;
  roleId: number | null;
  userOrg: OrganizationRef | null;
  /** The billing customer id of the user's organization. */
  maxioCustomerId: string | null;
  managedOrgs: OrganizationRef[];
  accessedOrgs: OrganizationRef[];
}

const toRef = ({ id, name }: OrganizationRef): OrganizationRef => ({ id, name });

export function fromProfileWire(wire: ProfileWire): Profile {
  return {
    id: wire.id,
    email: wire.email,
    firstName: wire.firstname ?? '',
    lastName: wire.lastname ?? '',
    phone: wire.phone ?? null,
    ...fromAddressWire(wire),
    state: wire.state ? wire.state.toUpperCase() : null,
    timezone: wire.timezone ?? null,
    organizationId: wire.organization_id,
    organizationType: wire.organization_type ?? null,
    acs: wire.acs,
    permissions: [...wire.permissions],
    hasApiKeys: wire.has_api_keys,
    isHADEnabled: wire.is_ha_direct_enabled,
    hasAwarenessModeAccess: wire.show_infinite_timeout_option,
    userAccess: wire.user_access,
    dashboardAccess: wire.dashboard_access,
    roleId: wire.role_id ?? null,
    userOrg: wire.user_org ? toRef(wire.user_org) : null,
    maxioCustomerId: wire.user_org?.maxio_cust_id ?? null,
    managedOrgs: wire.managed_orgs.map(toRef),
    accessedOrgs: wire.accessed_orgs.map(toRef),
  };
}

/** Initials for the profile circle (part 1 §2): first letters of first and last name, upper-cased. */
export function profileInitials(profile: Pick<Profile, 'firstName' | 'lastName' | 'email'>): string {
  const initials = (profile.firstName.trim().charAt(0) + profile.lastName.trim().charAt(0)).toUpperCase();
  return initials || profile.email.charAt(0).toUpperCase();
}

/**
 * part 1 §7, §8: the profile's organization is compared with the token's; a difference shows
 * 'Invalid Credentials' / 'Organization was changed, please log back in.' and signs out. A token
 * that names no organization cannot be compared and is not a mismatch.
 */
export function tokenOrgMismatch(profile: Pick<Profile, 'organizationId'>, tokenOrgId: string | null | undefined): boolean {
  if (!tokenOrgId) return false;
  return profile.organizationId !== tokenOrgId;
}
