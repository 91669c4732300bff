/**
 * part 2 §2 Trips: "The page remembers the tab, the last query parameters and the live path
 * asset" — kept per user in localStorage (read back through the domain's schema) so a reload
 * opens the page as it was left.
 */
import { useCallback, useState } from 'react';
import { readTripsMemory, type TripsMemory } from '../../domain/trip-report';

export const TRIPS_MEMORY_PREFIX = 'lightbar.trips.';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function useTripsMemory(userId: string): [TripsMemory, (patch: Partial<TripsMemory>) => void] {
  const key = `${TRIPS_MEMORY_PREFIX}${userId}`;
  const [memory, setMemory] = useState<TripsMemory>(() => readTripsMemory(storage()?.getItem(key) ?? null));
  const update = useCallback(
    (patch: Partial<TripsMemory>) =>
      setMemory((previous) => {
        const next = { ...previous, ...patch };
        try {
          storage()?.setItem(key, JSON.stringify(next));
        } catch {
          // A full or refused storage only loses the memory.
        }
        return next;
      }),
    [key],
  );
  return [memory, update];
}
