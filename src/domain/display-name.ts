/**
 * Display names (part 1 §9): "names over 12 characters shortened to first 4 and last 4 characters
 * with dots; ' | OOS' appended when out of service; long-text truncation 50 characters".
 *
 * Decisions: the dots are three ASCII full stops ('...'), so a shortened name is always 11
 * characters. Long text keeps its first 50 characters (trailing spaces dropped) and then '...'.
 * Lengths count Unicode code points, so an emoji is one character and is never cut in half.
 */
import { DISPLAY_NAME_KEEP, DISPLAY_NAME_SHORTEN_OVER, LONG_TEXT_TRUNCATE, OOS_SUFFIX } from './constants';

export const ELLIPSIS = '...';

/** 'ABCDEFGHIJKLM' (13) → 'ABCD...JKLM'; 12 characters or fewer are unchanged. */
export function shortenName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= DISPLAY_NAME_SHORTEN_OVER) return name;
  return chars.slice(0, DISPLAY_NAME_KEEP).join('') + ELLIPSIS + chars.slice(-DISPLAY_NAME_KEEP).join('');
}

/** Appends ' | OOS' when the asset is out of service. */
export function withOosSuffix(name: string, inService: boolean): string {
  return inService ? name : name + OOS_SUFFIX;
}

/** The short label of an asset: shortened name, then ' | OOS' when out of service. */
export function displayName(name: string, inService: boolean): string {
  return withOosSuffix(shortenName(name), inService);
}

/** Text longer than `max` keeps its first `max` characters (trailing spaces dropped) plus '...'. */
export function truncate(text: string, max: number = LONG_TEXT_TRUNCATE): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, max).join('').trimEnd() + ELLIPSIS;
}
