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
import { proxy } from 'valtio';
import { INACTIVITY_PROMPT_MS, INACTIVITY_TIMEOUT_MS, SECOND_MS } from '../../domain/constants';
import { CLIENT_ERROR_CODES, errorText, isNoAnswerOrBusy, type UserError } from '../../domain/errors';
import { SESSION_TEXT } from '../../domain/labels';
import { tokenOrgMismatch, type Profile } from '../../domain/profile';
import { isSessionExpired, refreshDelay, toSession, type TokenResponse } from '../../domain/session';
import { ApiError } from '../api-client';
import type { AuthCalls } from './auth-calls';
import { clearSession, readSession, writeSession, type StoredSession, type TokenStorage } from './token-storage';

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

type TabMessage = { type: 'session'; session: StoredSession } | { type: 'signOut' } | { type: 'activity'; at: number };

export interface SessionManagerOptions {
  auth: AuthCalls;
  storage: TokenStorage | null;
  /** null: one tab only (tests). */
  channel?: (Pick<BroadcastChannel, 'postMessage' | 'close'> & { onmessage: ((event: MessageEvent) => void) | null }) | null;
  /** null: no Web Locks (the refresh runs without one). */
  locks?: Pick<LockManager, 'request'> | null;
}

export const SESSION_CHANNEL = 'lightbar.session';
export const REFRESH_LOCK = 'lightbar.token-refresh';
/** Activity is shared with other tabs at most this often (chosen: cheap, far below the 4 h window). */
export const ACTIVITY_SHARE_MS = 5 * SECOND_MS;
/** After a refresh that got no answer, try again this much later while the token is still valid (chosen). */
export const REFRESH_RETRY_MS = 5 * SECOND_MS;

/** A profile load that got no answer (offline, or aborted) is asked again this much later (chosen). */
export const PROFILE_RETRY_MS = 5 * SECOND_MS;

const HTTP_UNAUTHORIZED = 401;
const PROMPT_SECONDS = INACTIVITY_PROMPT_MS / SECOND_MS;

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
  const locks = options.locks ?? null;
  const listeners = new Set<SessionListener>();
  const state = proxy<SessionState>({
    status: 'signedOut',
    session: null,
    profile: null,
    notice: null,
    inactivity: { prompting: false, secondsLeft: PROMPT_SECONDS },
    awarenessMode: false,
  });

  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let inactivityTimer: ReturnType<typeof setTimeout> | null = null;
  let countdownTimer: ReturnType<typeof setInterval> | null = null;
  let lastActivity = Date.now();
  let lastShared = 0;
  /** The refresh under way: a second caller (a 401 while the scheduled refresh runs) waits for it. */
  let refreshing: Promise<void> | null = null;

  const post = (message: TabMessage) => channel?.postMessage(message);
  const emitToken = (token: string) => listeners.forEach((l) => l.token?.(token));

  function clearTimers(): void {
    if (refreshTimer) clearTimeout(refreshTimer);
    if (inactivityTimer) clearTimeout(inactivityTimer);
    if (countdownTimer) clearInterval(countdownTimer);
    refreshTimer = inactivityTimer = countdownTimer = null;
    state.inactivity.prompting = false;
    state.inactivity.secondsLeft = PROMPT_SECONDS;
  }

  function scheduleRefresh(session: StoredSession): void {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void manager.refresh(), Math.max(0, refreshDelay(session, Date.now())));
  }

  /** Takes a session as the current one (sign-in, refresh, another tab's refresh). */
  function adopt(session: StoredSession, fromOtherTab: boolean): void {
    const wasSignedIn = state.status === 'signedIn';
    const previousToken = state.session?.token;
    state.session = session;
    state.status = 'signedIn';
    if (!fromOtherTab) writeSession(storage, session);
    scheduleRefresh(session);
    if (!wasSignedIn) {
      lastActivity = Date.now();
      scheduleInactivity();
    }
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

  // ── inactivity (part 1 §4) ──────────────────────────────────────────────────
  function scheduleInactivity(): void {
    if (inactivityTimer) clearTimeout(inactivityTimer);
    inactivityTimer = null;
    if (state.status !== 'signedIn' || state.awarenessMode) return;
    const due = lastActivity + INACTIVITY_TIMEOUT_MS - Date.now();
    inactivityTimer = setTimeout(
      () => {
        inactivityTimer = null;
        // Activity moved the deadline on: wait for the rest.
        if (Date.now() - lastActivity < INACTIVITY_TIMEOUT_MS) scheduleInactivity();
        else prompt();
      },
      Math.max(0, due),
    );
  }

  function prompt(): void {
    state.inactivity.prompting = true;
    state.inactivity.secondsLeft = PROMPT_SECONDS;
    countdownTimer = setInterval(() => {
      state.inactivity.secondsLeft -= 1;
      if (state.inactivity.secondsLeft <= 0) manager.signOut({ title: SESSION_TEXT.sessionExpiredActivity });
    }, SECOND_MS);
  }

  function stopPrompt(): void {
    if (countdownTimer) clearInterval(countdownTimer);
    countdownTimer = null;
    state.inactivity.prompting = false;
    state.inactivity.secondsLeft = PROMPT_SECONDS;
  }

  // ── other tabs ──────────────────────────────────────────────────────────────
  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      const message = event.data as TabMessage;
      if (message.type === 'session') adopt(message.session, true);
      else if (message.type === 'signOut' && state.status === 'signedIn') endLocally(null);
      else if (message.type === 'activity' && message.at > lastActivity) {
        lastActivity = message.at;
        if (state.inactivity.prompting) {
          stopPrompt();
          scheduleInactivity();
        }
      }
    };
  }

  async function refreshUnlocked(): Promise<void> {
    const current = state.session;
    if (!current) return;
    // Another tab may have refreshed already: its session is in storage.
    const stored = readSession(storage);
    if (stored && stored.token !== current.token && !isSessionExpired(stored, Date.now())) {
      adopt(stored, true);
      return;
    }
    try {
      const next: StoredSession = {
        ...toSession(await auth.refresh(current.refreshToken), Date.now()),
        organizationId: current.organizationId ?? null,
      };
      if (state.session?.token !== current.token) return; // signed out (or replaced) meanwhile
      adopt(next, false);
      post({ type: 'session', session: next });
    } catch (error) {
      const failure = error instanceof ApiError ? error.failure : { status: 0 };
      // No answer, or a busy server: the refresh token is still good; try again while the session lasts.
      if (isNoAnswerOrBusy(failure) && !isSessionExpired(current, Date.now() + REFRESH_RETRY_MS)) {
        refreshTimer = setTimeout(() => void manager.refresh(), REFRESH_RETRY_MS);
        return;
      }
      const text: UserError = errorText('tokenRefresh', failure);
      manager.signOut({ title: SESSION_TEXT.sessionExpired, body: text.text });
    }
  }

  const manager: SessionManager = {
    state,
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
    async refresh() {
      if (!state.session) return;
      // The scheduled refresh runs inside the lead; only a token past its real expiry is lost.
      if (state.session.expiresAt <= Date.now()) {
        manager.signOut({ title: SESSION_TEXT.sessionExpired });
        return;
      }
      refreshing ??= (locks ? locks.request(REFRESH_LOCK, refreshUnlocked) : refreshUnlocked()).finally(() => {
        refreshing = null;
      });
      await refreshing;
    },
    async renewAfterUnauthorized(refused) {
      // The scheduled refresh may be rotating this very token now: wait for it rather than spend it twice.
      if (refreshing) await refreshing;
      if (state.session?.token === refused) await manager.refresh();
      return state.status === 'signedIn' && !!state.session && state.session.token !== refused;
    },
    recordActivity() {
      if (state.status !== 'signedIn' || state.inactivity.prompting) return;
      const now = Date.now();
      lastActivity = now;
      if (now - lastShared >= ACTIVITY_SHARE_MS) {
        lastShared = now;
        post({ type: 'activity', at: now });
      }
    },
    staySignedIn() {
      stopPrompt();
      lastActivity = Date.now();
      post({ type: 'activity', at: lastActivity });
      scheduleInactivity();
    },
    setAwarenessMode(on) {
      if (on && !state.profile?.hasAwarenessModeAccess) return;
      state.awarenessMode = on;
      stopPrompt();
      lastActivity = Date.now();
      scheduleInactivity();
    },
    async loadProfile() {
      for (;;) {
        if (!state.session) return null;
        try {
          const profile = await auth.profile();
          if (state.status !== 'signedIn') return null;
          if (tokenOrgMismatch(profile, state.session?.organizationId)) {
            const text = errorText('profile', { code: CLIENT_ERROR_CODES.organizationMismatch });
            manager.signOut({ title: text.text, body: text.detail });
            return null;
          }
          if (state.session && !state.session.organizationId) {
            state.session.organizationId = profile.organizationId;
            writeSession(storage, { ...state.session });
          }
          state.profile = profile;
          return profile;
        } catch (error) {
          // A 401 that survived a refresh already signed out through the API client.
          if (state.status !== 'signedIn') return null;
          const failure = error instanceof ApiError ? error.failure : { status: 0 };
          // No answer (offline, or the request aborted by a reload), a busy server (503 overloaded
          // under load) or a 401 the session kept (its refresh got no answer): not the profile
          // failure of part 1 §8; ask again later.
          if (isNoAnswerOrBusy(failure) || failure.status === HTTP_UNAUTHORIZED) {
            await new Promise((resolve) => setTimeout(resolve, PROFILE_RETRY_MS));
            continue;
          }
          const text = errorText('profile', failure);
          manager.signOut({ title: text.text, body: text.detail });
          return null;
        }
      }
    },
    dismissNotice() {
      state.notice = null;
    },
    token: () => state.session?.token ?? null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      clearTimers();
      channel?.close();
      listeners.clear();
    },
  };
  return manager;
}
