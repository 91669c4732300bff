/** The Live section's routes (part 1 §2 "Asset routes"), written by the kit's itemHref. */
import { itemHref } from '../../app/section/item-href';

export type ThingEditTab = 'profile' | 'associations';

export function thingHref(id: string): string {
  return itemHref('things', id);
}

/** /dashboard/things/{id}/edit with its tab (profile is the default). */
export function thingEditHref(id: string, tab: ThingEditTab = 'profile'): string {
  return itemHref('things', id, { page: 'edit', query: { tab: tab === 'profile' ? undefined : tab } });
}
