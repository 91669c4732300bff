/** The Live section's routes (part 1 §2 "Asset routes"). */
export const THINGS_PATH = '/dashboard/things';

export type ThingEditTab = 'profile' | 'associations';

export function thingHref(id: string): string {
  return `${THINGS_PATH}/${encodeURIComponent(id)}`;
}

/** /dashboard/things/{id}/edit with its tab (profile is the default). */
export function thingEditHref(id: string, tab: ThingEditTab = 'profile'): string {
  const base = `${thingHref(id)}/edit`;
  return tab === 'profile' ? base : `${base}?tab=${tab}`;
}
