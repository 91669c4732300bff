/**
 * The one way a page sends a write (part 1 §7) and shows how it went (part 1 §8): `pending` while
 * it is on its way, the catalogue's text of `context` when it failed, `succeeded` after it
 * passed. After a success the named queries are invalidated (their pages read them again), the
 * page may be left without the unsaved-changes question (LeaveGuard) and `onSuccess` runs (go back
 * to the detail, say it passed).
 */
import { useCallback, useRef, useState } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import type { ErrorContext, UserError } from '../../domain/errors';
import { userErrorOf } from '../api-client';
import { useServices } from '../services';
import { useLeaveRelease } from '../ui/leave-guard';

export interface SubmitOptions<T> {
  /** The catalogue row a failure is read from (part 1 §8). */
  context: ErrorContext;
  /** Cached answers the write changed. */
  invalidates?: readonly QueryKey[];
  onSuccess?: (answer: T) => void | Promise<void>;
}

export interface Submit<T> {
  pending: boolean;
  failure: UserError | null;
  succeeded: boolean;
  /** Sends; resolves true when it passed (the failure is shown, never thrown). */
  submit(send: () => Promise<T>): Promise<boolean>;
  /** Forgets the last outcome. */
  reset(): void;
}

export function useSubmit<T = unknown>({ context, invalidates = [], onSuccess }: SubmitOptions<T>): Submit<T> {
  const { queries } = useServices();
  const release = useLeaveRelease();
  const [state, setState] = useState<{ pending: boolean; failure: UserError | null; succeeded: boolean }>({
    pending: false,
    failure: null,
    succeeded: false,
  });
  const latest = useRef({ context, invalidates, onSuccess });
  latest.current = { context, invalidates, onSuccess };
  const submit = useCallback(
    async (send: () => Promise<T>) => {
      setState({ pending: true, failure: null, succeeded: false });
      let answer: T;
      try {
        answer = await send();
      } catch (error) {
        setState({ pending: false, failure: userErrorOf(error, latest.current.context), succeeded: false });
        return false;
      }
      for (const queryKey of latest.current.invalidates) void queries.invalidateQueries({ queryKey });
      // The page may go now (its form is still changed until it leaves: LeaveGuard).
      release();
      setState({ pending: false, failure: null, succeeded: true });
      await latest.current.onSuccess?.(answer);
      return true;
    },
    [queries, release],
  );
  const reset = useCallback(() => setState({ pending: false, failure: null, succeeded: false }), []);
  return { ...state, submit, reset };
}
