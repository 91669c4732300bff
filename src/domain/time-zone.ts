/**
 * An organization's time zone (part 2 §3 Organization "timezone"): an IANA zone name. The choices
 * are the runtime's own list (Intl.supportedValuesOf('timeZone')), which the browser and the
 * server both have, plus 'UTC' (the list leaves it out in some runtimes).
 */

import { knownZone } from './time';

let zones: readonly string[] | null = null;

/** Every IANA time zone the runtime knows, sorted, with 'UTC'. */
export function timeZoneNames(): readonly string[] {
  zones ??= [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();
  return zones;
}

/** Whether a name is a time zone the runtime can format in (aliases such as 'US/Central' included). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  return timeZoneNames().includes(name) || knownZone(name);
}
