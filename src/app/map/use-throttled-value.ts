import { useEffect, useRef, useState } from 'react';

/**
 * `value`, passed on at most once per `intervalMs` (0: at once). The latest value always arrives:
 * one timer per hook, armed only while a newer value waits.
 */
export function useThrottledValue<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (intervalMs <= 0) {
      setShown(() => value);
      return undefined;
    }
    const wait = last.current + intervalMs - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      setShown(() => value);
      return undefined;
    }
    const timer = setTimeout(() => {
      last.current = Date.now();
      setShown(() => value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, intervalMs]);
  return intervalMs <= 0 ? value : shown;
}
