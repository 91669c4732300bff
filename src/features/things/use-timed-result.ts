/**
 * An action's outcome line (part 1 §8): pending while the call runs, then success or failure,
 * cleared after a fixed time when one is given (R2R 10 s, LED 4 s). One timer per action control,
 * never per asset; it is cancelled on the next action and on unmount.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type ResultTone = 'pending' | 'success' | 'failure';

export interface TimedResult {
  readonly tone: ResultTone;
  readonly text: string;
  /** A second line (e.g. the catalogue's reason under 'Alert Not Delivered'). */
  readonly detail?: string;
}

export interface TimedResultControl {
  readonly result: TimedResult | null;
  readonly pending: (text: string) => void;
  /** Shows the outcome; it clears after `clearAfterMs` when that is not null. */
  readonly settle: (result: TimedResult) => void;
  readonly clear: () => void;
}

export function useTimedResult(clearAfterMs: number | null): TimedResultControl {
  const [result, setResult] = useState<TimedResult | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);
  const pending = useCallback(
    (text: string) => {
      cancel();
      setResult({ tone: 'pending', text });
    },
    [cancel],
  );
  const settle = useCallback(
    (next: TimedResult) => {
      cancel();
      setResult(next);
      if (clearAfterMs !== null) {
        timer.current = setTimeout(() => {
          timer.current = null;
          setResult(null);
        }, clearAfterMs);
      }
    },
    [cancel, clearAfterMs],
  );
  const clear = useCallback(() => {
    cancel();
    setResult(null);
  }, [cancel]);
  return { result, pending, settle, clear };
}
