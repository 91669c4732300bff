/**
 * The one way to write a dashboard address (part 1 §2 routes): a section's path, an item's id
 * (always encoded: ids are the server's and may hold '/', '?' or '#'), then a sub-page ('edit')
 * and a query.
 */
import { sectionHref, type SectionKey } from '../../domain/permissions';

export interface ItemHrefOptions {
  /** A page under the item: 'edit'. */
  page?: string;
  /** Query parameters; an undefined value is left out. */
  query?: Readonly<Record<string, string | undefined>>;
}

export function itemHref(section: SectionKey, id?: string | null, { page, query }: ItemHrefOptions = {}): string {
  let href = sectionHref(section);
  if (id) href += `/${encodeURIComponent(id)}`;
  if (page) href += `/${page}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(key, value);
  const search = params.toString();
  return search ? `${href}?${search}` : href;
}
