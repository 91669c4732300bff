/**
 * The current session: taking one (page load, sign-in, a refresh here or in another tab) and
 * ending one (sign-out with revoke and clear, or another tab's sign-out), with what that starts
 * and stops: the refresh timer, the inactivity timer, the listeners.
 */
import { SESSION_TEXT } from '../../domain/labels';
import { isSessionExpired, toSession, type TokenResponse } from '../../domain/session';
import type { AuthCalls } from './auth-calls';
import type { Inactivity } from './inactivity';
import type { SessionListener, SessionNotice, SessionState } from './session-state';
import type { PostToTabs } from './tab-channel';
import type { TokenRefresh } from './token-refresh';
import { clearSession, readSession, writeSession, type StoredSession, type TokenStorage } from './token-storage';

export interface SignInFlowOptions {
  state: SessionState;
  auth: Pick<AuthCalls, 'revoke'>;
  storage: TokenStorage | null;
  listeners: ReadonlySet<SessionListener>;
  post: PostToTabs;
  tokens: TokenRefresh;
  inactivity: Inactivity;
}

export interface SignInFlow {
  start(): void;
  signIn(response: TokenResponse): void;
  signOut(notice?: SessionNotice | null): void;
  /** Takes a session as the current one (sign-in, refresh, another tab's refresh). */
  adopt(session: StoredSession, fromOtherTab: boolean): void;
  /** Ends the session in this tab only (another tab signed out). */
  endLocally(notice: SessionNotice | null): void;
  clearTimers(): void;
}

export function createSignInFlow(options: SignInFlowOptions): SignInFlow {
  const { state, auth, storage, listeners, post, tokens, inactivity } = options;
  const emitToken = (token: string) => listeners.forEach((l) => l.token?.(token));

  function clearTimers(): void {
    tokens.stop();
    inactivity.clear();
  }

  function adopt(session: StoredSession, fromOtherTab: boolean): void {
    const wasSignedIn = state.status === 'signedIn';
    const previousToken = state.session?.token;
    state.session = session;
    state.status = 'signedIn';
    if (!fromOtherTab) writeSession(storage, session);
    tokens.schedule(session);
    if (!wasSignedIn) inactivity.restart();
    if (session.token !== previousToken) emitToken(session.token);
  }

  function endLocally(notice: SessionNotice | null): void {
    clearTimers();
    state.status = 'signedOut';
    state.session = null;
    state.profile = null;
    state.awarenessMode = false;
    if (notice) state.notice = notice;
    listeners.forEach((l) => l.signedOut?.());
  }

  return {
    start() {
      const stored = readSession(storage);
      if (!stored) return;
      if (isSessionExpired(stored, Date.now())) {
        clearSession(storage);
        endLocally({ title: SESSION_TEXT.sessionExpired });
        return;
      }
      adopt(stored, true);
    },
    signIn(response) {
      state.notice = null;
      // A plain object: the state's copy is a proxy, which a BroadcastChannel cannot clone.
      const next: StoredSession = { ...toSession(response, Date.now()), organizationId: null };
      adopt(next, false);
      post({ type: 'session', session: next });
    },
    signOut(notice = null) {
      const token = state.session?.token;
      clearSession(storage);
      if (token) void auth.revoke(token).catch(() => undefined);
      post({ type: 'signOut' });
      endLocally(notice);
    },
    adopt,
    endLocally,
    clearTimers,
  };
}
