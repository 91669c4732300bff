/**
 * The Owned / Managed toggles of the Live list (part 1 §2 "Owned and Managed organization toggles
 * show when relations exist", §6) as the worker's `orgIds` filter. Relations are read from the
 * profile (managed_orgs, accessed_orgs), so the main thread never groups the fleet.
 */
import type { OrganizationRef } from '../../domain/organization';
import type { Profile } from '../../domain/profile';

/**
 * part 1 §2, §6 "Owned and Managed filters show when relations exist": the organizations whose
 * assets the subscribed one sees through a manager or accessor relation (the profile's
 * managed_orgs and accessed_orgs); acs organizations skip the relation logic (part 1 §1).
 */
export function relatedOrganizations(
  profile: Pick<Profile, 'acs' | 'managedOrgs' | 'accessedOrgs'>,
  organizationId: string,
): OrganizationRef[] {
  if (profile.acs) return [];
  const seen = new Map<string, OrganizationRef>();
  for (const org of [...profile.managedOrgs, ...profile.accessedOrgs])
    if (org.id !== organizationId && !seen.has(org.id)) seen.set(org.id, org);
  return [...seen.values()];
}

/** The `orgIds` filter of the Owned / Managed choice: both on (or both off) is every organization. */
export function organizationFilter(
  owned: boolean,
  managed: boolean,
  organizationId: string,
  related: readonly OrganizationRef[],
): string[] {
  if (owned === managed) return [];
  return owned ? [organizationId] : related.map((org) => org.id);
}
