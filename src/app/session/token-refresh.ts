/**
 * The refresh of the access token (part 1 §4, §7): scheduled TOKEN_REFRESH_LEAD_MS before expiry,
 * one refresh in flight that every caller shares, and the answer to a 401.
 *
 * Tabs: the refresh runs under a Web Lock; inside it the tab reads storage again and adopts a
 * session another tab already refreshed instead of spending its (rotated, now revoked) refresh
 * token.
 */
import { SECOND_MS } from '../../domain/constants';
import { errorText, isNoAnswerOrBusy, type UserError } from '../../domain/errors';
import { SESSION_TEXT } from '../../domain/labels';
import { isSessionExpired, refreshDelay, toSession } from '../../domain/session';
import { ApiError } from '../api-client';
import type { AuthCalls } from './auth-calls';
import type { SessionNotice, SessionState } from './session-state';
import type { PostToTabs } from './tab-channel';
import { readSession, type StoredSession, type TokenStorage } from './token-storage';

export const REFRESH_LOCK = 'lightbar.token-refresh';
/** After a refresh that got no answer, try again this much later while the token is still valid (chosen). */
export const REFRESH_RETRY_MS = 5 * SECOND_MS;

export interface TokenRefreshOptions {
  state: SessionState;
  auth: Pick<AuthCalls, 'refresh'>;
  storage: TokenStorage | null;
  /** null: no Web Locks (the refresh runs without one). */
  locks: Pick<LockManager, 'request'> | null;
  post: PostToTabs;
  /** Takes a session as the current one (this refresh's, or another tab's). */
  adopt(session: StoredSession, fromOtherTab: boolean): void;
  signOut(notice: SessionNotice): void;
}

/** The refresh timer and the single refresh in flight. */
export class TokenRefresh {
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  /** The refresh under way: a second caller (a 401 while the scheduled refresh runs) waits for it. */
  private refreshing: Promise<void> | null = null;

  constructor(private readonly options: TokenRefreshOptions) {}

  /** Sets the refresh timer for this session. */
  schedule(session: StoredSession): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), Math.max(0, refreshDelay(session, Date.now())));
  }

  stop(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
  }

  async refresh(): Promise<void> {
    const { state, locks, signOut } = this.options;
    if (!state.session) return;
    // The scheduled refresh runs inside the lead; only a token past its real expiry is lost.
    if (state.session.expiresAt <= Date.now()) {
      signOut({ title: SESSION_TEXT.sessionExpired });
      return;
    }
    const refreshUnlocked = () => this.refreshUnlocked();
    this.refreshing ??= (locks ? locks.request(REFRESH_LOCK, refreshUnlocked) : refreshUnlocked()).finally(() => {
      this.refreshing = null;
    });
    await this.refreshing;
  }

  async renewAfterUnauthorized(refused: string): Promise<boolean> {
    const { state } = this.options;
    // The scheduled refresh may be rotating this very token now: wait for it rather than spend it twice.
    if (this.refreshing) await this.refreshing;
    if (state.session?.token === refused) await this.refresh();
    return state.status === 'signedIn' && !!state.session && state.session.token !== refused;
  }

  private async refreshUnlocked(): Promise<void> {
    const { state, auth, storage, post, adopt, signOut } = this.options;
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
        this.refreshTimer = setTimeout(() => void this.refresh(), REFRESH_RETRY_MS);
        return;
      }
      const text: UserError = errorText('tokenRefresh', failure);
      signOut({ title: SESSION_TEXT.sessionExpired, body: text.text });
    }
  }
}
