/**
 * The comparators the spec's sorts share (part 1 §4 assets and events, part 2 §3 reports, §4
 * areas), so each order is written once.
 */

/** Code-unit order of ids (the last tie-break that makes a sort total) and of other plain keys (asset-filter's name sort keys). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Newest (largest ms) first, a missing time last. */
export function compareNewest(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}

/** One collator for every text comparison: `localeCompare` with options builds one per call. */
const TEXT_COLLATOR = new Intl.Collator('en', { sensitivity: 'base' });

/** A to Z ignoring case and accents ('en', base sensitivity). */
export function compareText(a: string, b: string): number {
  return TEXT_COLLATOR.compare(a, b);
}
