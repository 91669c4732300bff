/**
 * The zone the export wizard's `datetime-local` inputs are on (read and written with the domain's
 * `toMinuteInput` / `fromMinuteInput`): UTC when the export's times are UTC (part 2 §3 use_utc),
 * else the user's zone as every other shown time, else the browser's.
 */
import { knownZone } from '../../domain/time';

export function wizardZone(useUtc: boolean, userZone: string | null): string {
  if (useUtc) return 'UTC';
  if (userZone && knownZone(userZone)) return userZone;
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
