/**
 * The Owned / Managed toggles of the Live list (part 1 §2 "Owned and Managed organization toggles
 * show when relations exist", §3 grouping, §6). The worker counts the fleet by the one ownership
 * rule (`ownershipOf`: the subscribed organization and its children own, every other owner
 * manages) and says whether relations exist; the list sends the choice, never organization ids.
 */
import type { OrganizationGroupKind } from '../../domain/organization';

/** part 1 §1: acs organizations skip the relation logic; others show the toggles when relations exist. */
export function showOwnershipToggles(acs: boolean, relations: boolean): boolean {
  return !acs && relations;
}

/** The filter of the two toggles: both on (or both off) is every asset, one alone its kind. */
export function ownershipChoice(owned: boolean, managed: boolean): OrganizationGroupKind | null {
  if (owned === managed) return null;
  return owned ? 'owned' : 'managed';
}
