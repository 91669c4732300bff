/**
 * The session's observable state (part 1 §4 Session), one valtio proxy the React tree reads, and
 * what the manager tells its listeners.
 */
import { proxy } from 'valtio';
import { INACTIVITY_PROMPT_MS, SECOND_MS } from '../../domain/constants';
import type { Profile } from '../../domain/profile';
import type { StoredSession } from './token-storage';

/** A dialog the app shows once (title and an optional line). */
export interface SessionNotice {
  title: string;
  body?: string;
}

export interface SessionState {
  status: 'signedOut' | 'signedIn';
  session: StoredSession | null;
  profile: Profile | null;
  notice: SessionNotice | null;
  inactivity: { prompting: boolean; secondsLeft: number };
  /** part 1 §4: situational-awareness mode; while on, the inactivity sign-out does not apply. */
  awarenessMode: boolean;
}

export interface SessionListener {
  /** A new or refreshed access token (hand it to the live worker). */
  token?(token: string): void;
  signedOut?(): void;
}

export const PROMPT_SECONDS = INACTIVITY_PROMPT_MS / SECOND_MS;

export function createSessionState(): SessionState {
  return proxy<SessionState>({
    status: 'signedOut',
    session: null,
    profile: null,
    notice: null,
    inactivity: { prompting: false, secondsLeft: PROMPT_SECONDS },
    awarenessMode: false,
  });
}
