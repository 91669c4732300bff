/**
 * The command palette's ranking (docs/accessibility.md "Keyboard"): what Ctrl+K (⌘+K) finds —
 * assets, incidents, areas, sections and a typed coordinate — and in which order. Pure: the live
 * worker grades the fleet and the events with `matchGrade` (so no fleet travels per keystroke),
 * the page merges them with the areas and sections and ranks them all with `rankPalette`.
 *
 * Order: the user's recent choices first (most recent first), then prefix matches above substring
 * matches above fuzzy ones (the query's characters in order), ties by kind order then name.
 */
import { compareIds, compareText } from './compare';

export const PALETTE_KINDS = ['coordinate', 'asset', 'incident', 'area', 'section'] as const;
export type PaletteKind = (typeof PALETTE_KINDS)[number];

/** What the palette lists: a kind, the id it opens and the name it shows. */
export interface PaletteItem {
  kind: PaletteKind;
  id: string;
  /** The name shown and the tie-break of the order. */
  label: string;
  /** A second line (an asset's other names, an incident's street). */
  detail?: string | null;
  /** The texts the query matches besides the label (nickname, identifiers). */
  terms?: readonly (string | null)[];
}

/** How an item matched: 0 prefix, 1 substring, 2 fuzzy (the query's characters in order). */
export type MatchGrade = 0 | 1 | 2;
export const MATCH_GRADE = { prefix: 0, substring: 1, fuzzy: 2 } as const satisfies Record<string, MatchGrade>;

/** The palette lists at most this many items. */
export const PALETTE_LIMIT = 12;
/** Recent choices kept per user. */
export const PALETTE_RECENT_MAX = 5;

/** The query as matched: trimmed, lower-cased. */
export function normalizeQuery(query: string): string {
  return query.trim().toLowerCase();
}

/** Whether the characters of `needle` appear in `text` in order (both lower-cased; spaces in the needle ignored). */
function isSubsequence(needle: string, text: string): boolean {
  let at = 0;
  for (const char of needle) {
    if (char === ' ') continue;
    at = text.indexOf(char, at);
    if (at < 0) return false;
    at += 1;
  }
  return true;
}

/** The grade of one text for a normalized query (`normalizeQuery`); null when it does not match. */
export function matchGrade(needle: string, text: string | null | undefined): MatchGrade | null {
  if (!text || needle === '') return null;
  const hay = text.toLowerCase();
  if (hay.startsWith(needle)) return MATCH_GRADE.prefix;
  if (hay.includes(needle)) return MATCH_GRADE.substring;
  return isSubsequence(needle, hay) ? MATCH_GRADE.fuzzy : null;
}

/** The best grade of an item's label and terms; null when none matches. */
export function itemGrade(needle: string, item: Pick<PaletteItem, 'label' | 'terms'>): MatchGrade | null {
  let best: MatchGrade | null = matchGrade(needle, item.label);
  for (const term of item.terms ?? []) {
    if (best === MATCH_GRADE.prefix) break;
    const grade = matchGrade(needle, term);
    if (grade !== null && (best === null || grade < best)) best = grade;
  }
  return best;
}

/** The key of an item in the recent list. */
export function paletteKey(item: Pick<PaletteItem, 'kind' | 'id'>): string {
  return `${item.kind}:${item.id}`;
}

const KIND_ORDER = new Map<PaletteKind, number>(PALETTE_KINDS.map((kind, index) => [kind, index]));

/** Kind order, then name (A to Z ignoring case), then id. */
export function comparePaletteItems(a: PaletteItem, b: PaletteItem): number {
  return (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0) || compareText(a.label, b.label) || compareIds(a.id, b.id);
}

/**
 * The palette's list for a query: with an empty query the recent choices (most recent first);
 * otherwise the matching items, the recent ones first (most recent first), then by grade, kind and
 * name; a recent item among the candidates shows once (the candidates are each listed once). At
 * most `limit`.
 */
export function rankPalette(
  query: string,
  candidates: readonly PaletteItem[],
  recent: readonly PaletteItem[] = [],
  limit: number = PALETTE_LIMIT,
): PaletteItem[] {
  const needle = normalizeQuery(query);
  if (limit <= 0) return [];
  if (needle === '') return recent.slice(0, limit);
  const recency = new Map(recent.map((item, index) => [paletteKey(item), index]));
  // The best `limit` kept in order as they come (a long list is never sorted whole: the worker ranks
  // a 50,000-asset fleet per keystroke).
  const best: { item: PaletteItem; grade: MatchGrade; recent: number }[] = [];
  const order = (a: (typeof best)[number], b: (typeof best)[number]) =>
    a.recent - b.recent || a.grade - b.grade || comparePaletteItems(a.item, b.item);
  const consider = (item: PaletteItem, recentAt: number) => {
    const grade = itemGrade(needle, item);
    if (grade === null) return;
    const entry = { item, grade, recent: recentAt };
    if (best.length >= limit && order(entry, best[best.length - 1]!) >= 0) return;
    let at = best.length;
    while (at > 0 && order(entry, best[at - 1]!) < 0) at -= 1;
    best.splice(at, 0, entry);
    if (best.length > limit) best.pop();
  };
  recent.forEach((item, index) => consider(item, index));
  for (const item of candidates) {
    // A recent item listed among the candidates too shows once, as a recent one.
    if (recency.size > 0 && recency.has(paletteKey(item))) continue;
    consider(item, Number.POSITIVE_INFINITY);
  }
  return best.map((entry) => entry.item);
}

/** The recent list after choosing `item`: first, once, at most `max`. */
export function withRecent(recent: readonly PaletteItem[], item: PaletteItem, max: number = PALETTE_RECENT_MAX): PaletteItem[] {
  const key = paletteKey(item);
  const { kind, id, label, detail, terms } = item;
  const kept: PaletteItem = {
    kind,
    id,
    label,
    ...(detail ? { detail } : {}),
    ...(terms?.length ? { terms: terms.filter((term): term is string => !!term) } : {}),
  };
  return [kept, ...recent.filter((entry) => paletteKey(entry) !== key)].slice(0, max);
}

/** The recent list read back from storage: anything that is not a list of items is dropped. */
export function parseRecent(raw: string | null): PaletteItem[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value
      .filter(
        (entry): entry is PaletteItem =>
          typeof entry === 'object' &&
          entry !== null &&
          PALETTE_KINDS.includes((entry as PaletteItem).kind) &&
          typeof (entry as PaletteItem).id === 'string' &&
          typeof (entry as PaletteItem).label === 'string',
      )
      .slice(0, PALETTE_RECENT_MAX);
  } catch {
    return [];
  }
}

/** The storage key of a user's recent choices. */
export function paletteRecentKey(userId: string): string {
  return `lightbar.palette.recent.${userId}`;
}

/**
 * The shortcut that opens the palette: Ctrl+K, or ⌘+K on macOS (either is taken on both, as
 * most apps do). It opens from a text field too; it is not a plain-letter shortcut.
 */
export function isPaletteShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
}
