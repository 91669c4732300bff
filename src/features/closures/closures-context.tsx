/**
 * The section's one read of the worker's closures, shared by its pages and its map overlay, and
 * the list's filter (kept while the user opens a closure and comes back).
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { defaultClosureFilter, type ClosureFilter } from '../../domain/closure';
import { useClosures, type ClosureLookup, type ClosuresData } from './use-closures';

interface ClosuresSectionData extends ClosuresData {
  filter: ClosureFilter;
  setFilter(filter: ClosureFilter): void;
}

const ClosuresContext = createContext<ClosuresSectionData>({
  closures: [],
  loaded: false,
  filter: defaultClosureFilter(),
  setFilter: () => undefined,
});

export function ClosuresProvider({ children }: { children: ReactNode }) {
  const data = useClosures();
  const [filter, setFilter] = useState(defaultClosureFilter);
  const value = useMemo(() => ({ ...data, filter, setFilter }), [data, filter]);
  return <ClosuresContext.Provider value={value}>{children}</ClosuresContext.Provider>;
}

export function useClosuresData(): ClosuresSectionData {
  return useContext(ClosuresContext);
}

/** One closure by id; 'missing' once the first load is done and it is not there. */
export function useClosure(id: string): ClosureLookup {
  const { closures, loaded } = useClosuresData();
  const closure = closures.find((c) => c.id === id);
  if (closure) return { state: 'found', closure };
  return loaded ? { state: 'missing' } : { state: 'loading' };
}
