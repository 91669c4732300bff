import { useEffect, useState, useSyncExternalStore } from 'react';
import { BREAKPOINTS, MEDIA_QUERY_DEBOUNCE_MS } from '../../domain/constants';

/** part 1 §9 breakpoints: the mobile layout is at sm (768 px) and below. */
export const MOBILE_QUERY = `(max-width: ${BREAKPOINTS.sm}px)`;

/**
 * Whether `query` matches, read at once and then followed with part 1 §9's debounce
 * (MEDIA_QUERY_DEBOUNCE_MS): a window dragged across a breakpoint switches the layout once it
 * rests there, not at every pixel.
 */
export function useMediaQuery(query: string): boolean {
  const read = () => (typeof matchMedia === 'function' ? matchMedia(query).matches : false);
  const [matches, setMatches] = useState(read);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return undefined;
    const list = matchMedia(query);
    setMatches(list.matches);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setMatches(matchMedia(query).matches), MEDIA_QUERY_DEBOUNCE_MS);
    };
    list.addEventListener('change', onChange);
    return () => {
      clearTimeout(timer);
      list.removeEventListener('change', onChange);
    };
  }, [query]);
  return matches;
}

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}

/** navigator.onLine with its events (the offline banner). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener('online', onChange);
      window.addEventListener('offline', onChange);
      return () => {
        window.removeEventListener('online', onChange);
        window.removeEventListener('offline', onChange);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}
