/**
 * The session, outside React (part 1 §4 Session; CONVENTIONS §3): tokens, the refresh scheduled
 * TOKEN_REFRESH_LEAD_MS before expiry, 'Session Expired' when already expired, the 4-hour
 * inactivity timer with its 10-second 'Inactivity Warning', situational-awareness mode, sign-out
 * (revoke and clear), the profile check, and several tabs sharing one session.
 *
 * Tabs: the refresh runs under a Web Lock; inside it the tab reads storage again and adopts a
 * session another tab already refreshed instead of spending its (rotated, now revoked) refresh
 * token. New sessions, sign-outs and activity go to the other tabs over a BroadcastChannel, so a
 * refresh in one tab never signs the others out and activity in one keeps all of them signed in.
 * What ends a session: an explicit sign-out, a refresh the server refuses, a 401 that survives a
 * refresh, the profile check of part 1 §8, and the timeouts. Never a call that got no answer: a
 * reload or a closed tab aborts the page's requests (the aborted fetch rejects like a lost
 * connection), and a page going away must not clear the session the next page reads.
 * Timers use the global setTimeout and Date.now, so fake timers drive them in tests.
 */
import type { Profile } from '../../domain/profile';
import type { TokenResponse } from '../../domain/session';
import type { AuthCalls } from './auth-calls';
import { Inactivity } from './inactivity';
import { loadProfile } from './profile-load';
import { createSessionState, type SessionListener, type SessionNotice, type SessionState } from './session-state';
import { createSignInFlow } from './sign-in-flow';
import { listenToTabs, type PostToTabs, type TabChannel } from './tab-channel';
import { TokenRefresh } from './token-refresh';
import type { StoredSession, TokenStorage } from './token-storage';

export type { SessionListener, SessionNotice, SessionState } from './session-state';
export { ACTIVITY_SHARE_MS, SESSION_CHANNEL } from './tab-channel';
export { REFRESH_LOCK, REFRESH_RETRY_MS } from './token-refresh';
export { PROFILE_RETRY_MS } from './profile-load';

export interface SessionManagerOptions {
  auth: AuthCalls;
  storage: TokenStorage | null;
  /** null: one tab only (tests). */
  channel?: TabChannel | null;
  /** null: no Web Locks (the refresh runs without one). */
  locks?: Pick<LockManager, 'request'> | null;
}

export interface SessionManager {
  readonly state: SessionState;
  /** Reads the stored session (page load): schedules its refresh, or signs out when it expired. */
  start(): void;
  signIn(response: TokenResponse): void;
  signOut(notice?: SessionNotice | null): void;
  /** Refreshes now (the scheduled refresh calls this); calls made meanwhile share the one refresh. */
  refresh(): Promise<void>;
  /**
   * A call carrying `refused` was answered 401: true when a newer token is there to send it again
   * with (it was stale, another tab refreshed, or a refresh now gave one). A refused refresh signs
   * out; a refresh that got no answer keeps the session (false: the caller gets its 401).
   */
  renewAfterUnauthorized(refused: string): Promise<boolean>;
  /** Mouse, key, touch or scroll: resets the inactivity timer. */
  recordActivity(): void;
  staySignedIn(): void;
  setAwarenessMode(on: boolean): void;
  /**
   * GET /profile with the organization check (part 1 §7, §8). Null when it signed out. A load that
   * got no answer is asked again PROFILE_RETRY_MS later (the session stays).
   */
  loadProfile(): Promise<Profile | null>;
  dismissNotice(): void;
  token(): string | null;
  subscribe(listener: SessionListener): () => void;
  dispose(): void;
}

export function createSessionManager(options: SessionManagerOptions): SessionManager {
  const { auth, storage } = options;
  const channel = options.channel ?? null;
  const listeners = new Set<SessionListener>();
  const state = createSessionState();
  const post: PostToTabs = (message) => channel?.postMessage(message);
  const signOut = (notice: SessionNotice) => manager.signOut(notice);

  // ── the parts: inactivity (part 1 §4), the token refresh, the sign-in flow ────
  const locks = options.locks ?? null;
  const adopt = (session: StoredSession, fromOtherTab: boolean) => flow.adopt(session, fromOtherTab);
  const inactivity = new Inactivity({ state, post, signOut });
  const tokens = new TokenRefresh({ state, auth, storage, locks, post, adopt, signOut });
  const flow = createSignInFlow({ state, auth, storage, listeners, post, tokens, inactivity });

  // ── other tabs ──────────────────────────────────────────────────────────────
  if (channel) {
    listenToTabs(channel, {
      session: (session) => flow.adopt(session, true),
      signOut: () => {
        if (state.status === 'signedIn') flow.endLocally(null);
      },
      activity: (at) => inactivity.fromOtherTab(at),
    });
  }

  const manager: SessionManager = {
    state,
    start: () => flow.start(),
    signIn: (response) => flow.signIn(response),
    signOut: (notice = null) => flow.signOut(notice),
    refresh: () => tokens.refresh(),
    renewAfterUnauthorized: (refused) => tokens.renewAfterUnauthorized(refused),
    recordActivity: () => inactivity.record(),
    staySignedIn: () => inactivity.staySignedIn(),
    setAwarenessMode(on) {
      if (on && !state.profile?.hasAwarenessModeAccess) return;
      state.awarenessMode = on;
      inactivity.resume();
    },
    loadProfile: () => loadProfile({ state, auth, storage, signOut }),
    dismissNotice() {
      state.notice = null;
    },
    token: () => state.session?.token ?? null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      flow.clearTimers();
      channel?.close();
      listeners.clear();
    },
  };
  return manager;
}
