/**
 * part 1 §4 Session: the refresh 10 s before expiry, 'Session Expired' when already expired, the
 * 4-hour inactivity warning with its 10-second countdown, awareness mode, sign-out, the profile
 * check (part 1 §8) and tabs sharing one session. Fake timers drive every timer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INACTIVITY_PROMPT_MS, INACTIVITY_TIMEOUT_MS, SECOND_MS, TOKEN_REFRESH_LEAD_MS } from '../../../src/domain/constants';
import { errorText } from '../../../src/domain/errors';
import type { Profile } from '../../../src/domain/profile';
import type { TokenResponse } from '../../../src/domain/session';
import { ApiError } from '../../../src/app/api-client';
import type { AuthCalls } from '../../../src/app/session/auth-calls';
import { createSessionManager, type SessionManager } from '../../../src/app/session/session-manager';
import { readSession, SESSION_STORAGE_KEY, writeSession } from '../../../src/app/session/token-storage';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
const HOUR_S = 3600;

class MemoryStorage {
  items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

function tokens(n: number, nowMs = Date.now()): TokenResponse {
  return { access_token: `access-${n}`, refresh_token: `refresh-${n}`, expires_in: 2 * HOUR_S, created_at: Math.floor(nowMs / 1000) };
}

function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'u1',
    email: 'a@b.c',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: null,
    address1: null,
    address2: null,
    city: null,
    state: null,
    postalCode: null,
    countryCode: null,
    timezone: null,
    organizationId: 'org-1',
    organizationType: null,
    acs: false,
    permissions: ['thing:read'],
    hasApiKeys: false,
    isHADEnabled: false,
    hasAwarenessModeAccess: false,
    userAccess: true,
    dashboardAccess: true,
    roleId: null,
    userOrg: { id: 'org-1', name: 'Org One' },
    maxioCustomerId: null,
    managedOrgs: [],
    accessedOrgs: [],
    ...overrides,
  } as Profile;
}

function fakeAuth(): AuthCalls & { [K in keyof AuthCalls]: ReturnType<typeof vi.fn> } {
  let n = 1;
  return {
    signIn: vi.fn(),
    refresh: vi.fn(async () => tokens(++n)),
    verify: vi.fn(),
    revoke: vi.fn(async () => undefined),
    forgotPassword: vi.fn(),
    unlockAccount: vi.fn(),
    resetPassword: vi.fn(),
    profile: vi.fn(async () => profile()),
  } as never;
}

let storage: MemoryStorage;
let auth: ReturnType<typeof fakeAuth>;
let manager: SessionManager;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  storage = new MemoryStorage();
  auth = fakeAuth();
  manager = createSessionManager({ auth, storage });
});
afterEach(() => {
  manager.dispose();
  vi.useRealTimers();
});

describe('part1 §4 session: tokens and refresh', () => {
  it('stores token, refreshToken, expiresIn and expiresAt = (created_at + expires_in) × 1000', () => {
    manager.signIn(tokens(1));
    expect(readSession(storage)).toEqual({
      token: 'access-1',
      refreshToken: 'refresh-1',
      expiresIn: 7200,
      expiresAt: T0 + 7200 * SECOND_MS,
      organizationId: null,
    });
    expect(manager.state.status).toBe('signedIn');
  });

  it('refreshes TOKEN_REFRESH_LEAD_MS (10 s) before expiry, not a moment earlier', async () => {
    manager.signIn(tokens(1));
    await vi.advanceTimersByTimeAsync(2 * HOUR_S * SECOND_MS - TOKEN_REFRESH_LEAD_MS - 1);
    expect(auth.refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(auth.refresh).toHaveBeenCalledWith('refresh-1');
    expect(manager.token()).toBe('access-2');
    expect(readSession(storage)?.token).toBe('access-2');
  });

  it('hands every new token to its listeners (the live worker)', async () => {
    const seen: string[] = [];
    manager.subscribe({ token: (t) => seen.push(t) });
    manager.signIn(tokens(1));
    await vi.advanceTimersByTimeAsync(2 * HOUR_S * SECOND_MS);
    expect(seen).toEqual(['access-1', 'access-2']);
  });

  it("a stored session already expired shows 'Session Expired' and signs out", () => {
    writeSession(storage, { token: 'old', refreshToken: 'r', expiresIn: 60, expiresAt: T0 + TOKEN_REFRESH_LEAD_MS - 1 });
    manager.start();
    expect(manager.state.status).toBe('signedOut');
    expect(manager.state.notice).toEqual({ title: 'Session Expired' });
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a stored session still valid is resumed and its refresh scheduled', async () => {
    writeSession(storage, { token: 'kept', refreshToken: 'r', expiresIn: 60, expiresAt: T0 + 60 * SECOND_MS });
    manager.start();
    expect(manager.state.status).toBe('signedIn');
    await vi.advanceTimersByTimeAsync(50 * SECOND_MS);
    expect(auth.refresh).toHaveBeenCalledWith('r');
  });

  it("a refused refresh (422) signs out with 'Session Expired' and the catalogue's text", async () => {
    auth.refresh.mockRejectedValueOnce(new ApiError(422, 'invalid_token', 'x', errorText('tokenRefresh', { status: 422 })));
    manager.signIn(tokens(1));
    await vi.advanceTimersByTimeAsync(2 * HOUR_S * SECOND_MS);
    expect(manager.state.status).toBe('signedOut');
    expect(manager.state.notice).toEqual({ title: 'Session Expired', body: 'Access token is expired or does not exist.' });
  });

  it('sign-out revokes the token and clears storage', () => {
    manager.signIn(tokens(1));
    manager.signOut();
    expect(auth.revoke).toHaveBeenCalledWith('access-1');
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(manager.token()).toBeNull();
  });
});

describe('part1 §4 session: inactivity', () => {
  it("after 4 hours without activity: 'Inactivity Warning', a 10 s countdown, then 'Session Expired - Activity'", async () => {
    manager.signIn({ ...tokens(1), expires_in: 24 * HOUR_S });
    await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS - 1);
    expect(manager.state.inactivity.prompting).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(manager.state.inactivity).toEqual({ prompting: true, secondsLeft: 10 });
    await vi.advanceTimersByTimeAsync(3 * SECOND_MS);
    expect(manager.state.inactivity.secondsLeft).toBe(7);
    await vi.advanceTimersByTimeAsync(INACTIVITY_PROMPT_MS - 3 * SECOND_MS);
    expect(manager.state.status).toBe('signedOut');
    expect(manager.state.notice).toEqual({ title: 'Session Expired - Activity' });
    expect(auth.revoke).toHaveBeenCalledWith('access-1');
  });

  it('activity moves the deadline; Stay Signed In ends the warning and starts a new 4 hours', async () => {
    manager.signIn({ ...tokens(1), expires_in: 24 * HOUR_S });
    await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS / 2);
    manager.recordActivity();
    await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS - 1);
    expect(manager.state.inactivity.prompting).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(manager.state.inactivity.prompting).toBe(true);
    // Activity during the warning does not dismiss it: only the button does.
    manager.recordActivity();
    expect(manager.state.inactivity.prompting).toBe(true);
    manager.staySignedIn();
    expect(manager.state.inactivity.prompting).toBe(false);
    await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS - 1);
    expect(manager.state.status).toBe('signedIn');
    expect(manager.state.inactivity.prompting).toBe(false);
  });

  it('awareness mode (hasAwarenessModeAccess users only) turns the inactivity sign-out off', async () => {
    manager.signIn({ ...tokens(1), expires_in: 24 * HOUR_S });
    auth.profile.mockResolvedValueOnce(profile({ hasAwarenessModeAccess: false }));
    await manager.loadProfile();
    manager.setAwarenessMode(true);
    expect(manager.state.awarenessMode).toBe(false);

    auth.profile.mockResolvedValueOnce(profile({ hasAwarenessModeAccess: true }));
    await manager.loadProfile();
    manager.setAwarenessMode(true);
    expect(manager.state.awarenessMode).toBe(true);
    await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS + INACTIVITY_PROMPT_MS + SECOND_MS);
    expect(manager.state.inactivity.prompting).toBe(false);
    expect(manager.state.status).toBe('signedIn');

    manager.setAwarenessMode(false);
    await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS);
    expect(manager.state.inactivity.prompting).toBe(true);
  });
});

describe('part1 §7, §8 profile check', () => {
  it("keeps the profile's organization as the token's and accepts the same one again", async () => {
    manager.signIn(tokens(1));
    expect(await manager.loadProfile()).not.toBeNull();
    expect(readSession(storage)?.organizationId).toBe('org-1');
    expect(await manager.loadProfile()).not.toBeNull();
  });

  it("a token organization mismatch: 'Invalid Credentials' / 'Organization was changed, please log back in.' and sign-out", async () => {
    manager.signIn(tokens(1));
    await manager.loadProfile();
    auth.profile.mockResolvedValueOnce(profile({ organizationId: 'org-2' }));
    expect(await manager.loadProfile()).toBeNull();
    expect(manager.state.status).toBe('signedOut');
    expect(manager.state.notice).toEqual({ title: 'Invalid Credentials', body: 'Organization was changed, please log back in.' });
  });

  it("any other profile failure: 'Error' / 'Please log back in.' and sign-out", async () => {
    manager.signIn(tokens(1));
    auth.profile.mockRejectedValueOnce(new ApiError(500, null, null, errorText('profile', { status: 500 })));
    await manager.loadProfile();
    expect(manager.state.notice).toEqual({ title: 'Error', body: 'Please log back in.' });
    expect(manager.state.status).toBe('signedOut');
  });
});

describe('part1 §4 several tabs share one session', () => {
  /** Two tabs on one storage with a BroadcastChannel-like pair and one Web Lock. */
  function twoTabs() {
    type Port = { postMessage(m: unknown): void; close(): void; onmessage: ((e: MessageEvent) => void) | null };
    const ports: Port[] = [];
    const port = (): Port => {
      const p: Port = {
        onmessage: null,
        postMessage(message) {
          for (const other of ports)
            if (other !== p) queueMicrotask(() => other.onmessage?.({ data: structuredClone(message) } as MessageEvent));
        },
        close() {},
      };
      ports.push(p);
      return p;
    };
    let chain: Promise<unknown> = Promise.resolve();
    const locks = {
      request: (_name: string, callback: () => Promise<unknown>) => {
        const run = chain.then(callback);
        chain = run.catch(() => undefined);
        return run;
      },
    } as unknown as LockManager;
    const a = createSessionManager({ auth, storage, channel: port(), locks });
    const b = createSessionManager({ auth, storage, channel: port(), locks });
    return { a, b };
  }

  it('a refresh in one tab reaches the other; the other never spends the rotated refresh token', async () => {
    manager.dispose();
    const { a, b } = twoTabs();
    a.signIn(tokens(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(b.token()).toBe('access-1');
    // Both tabs' refresh timers fire at the same moment.
    await vi.advanceTimersByTimeAsync(2 * HOUR_S * SECOND_MS - TOKEN_REFRESH_LEAD_MS);
    expect(auth.refresh).toHaveBeenCalledTimes(1);
    expect(a.token()).toBe('access-2');
    expect(b.token()).toBe('access-2');
    expect(a.state.status).toBe('signedIn');
    expect(b.state.status).toBe('signedIn');
    a.dispose();
    b.dispose();
  });

  it('sign-out in one tab signs the other out; activity in one keeps the other signed in', async () => {
    manager.dispose();
    const { a, b } = twoTabs();
    a.signIn({ ...tokens(1), expires_in: 24 * HOUR_S });
    await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS - SECOND_MS);
    a.recordActivity();
    await vi.advanceTimersByTimeAsync(2 * SECOND_MS);
    expect(b.state.inactivity.prompting).toBe(false);
    a.signOut();
    await vi.advanceTimersByTimeAsync(0);
    expect(b.state.status).toBe('signedOut');
    expect(auth.revoke).toHaveBeenCalledTimes(1);
    a.dispose();
    b.dispose();
  });
});
