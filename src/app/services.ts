/**
 * The app's long-lived parts, made once per page (or per test): the API client, the auth calls,
 * the session, the REST query cache and the live bridge. Components reach them through `ServicesContext`.
 */
import { createContext, useContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Profile } from '../domain/profile';
import { createApiClient, type ApiClient } from './api-client';
import type { LiveBridge } from './live/bridge';
import { liveReadsFor } from '../workers/live-protocol';
import { createAuthCalls, type AuthCalls } from './session/auth-calls';
import { createSessionManager, SESSION_CHANNEL, type SessionManager } from './session/session-manager';
import type { TokenStorage } from './session/token-storage';
import { createQueryClient } from './query-cache';
import { createThemeController, type ThemeController } from './theme';
import { subscribe } from 'valtio';
import { MOBILE_QUERY } from './shell/use-media';

export interface LiveConnection {
  /** The running bridge, null before sign-in or after sign-out. */
  readonly bridge: LiveBridge | null;
  /** After sign-in: starts the live worker with the token and the profile's organization; its store, or null. */
  start(profile: Profile): LiveBridge | null;
  /**
   * Creates the worker ahead of `start` (a page load with a stored session): its script loads and
   * runs while the profile is asked for, instead of after it.
   */
  prepare(): void;
}

export interface AppServices {
  api: ApiClient;
  auth: AuthCalls;
  session: SessionManager;
  live: LiveConnection;
  /** REST answers kept CACHE_TTL_MS (part 1 §7, query-cache.ts); emptied on sign-out. */
  queries: QueryClient;
  /** Whether the map can draw (the WebGL check of part 1 §2). */
  hasWebGL: () => boolean;
  /** Day or night (docs/map.md "Night mode"): the signed-in user's remembered choice or the system's. */
  theme: ThemeController;
}

export interface AppServicesOptions {
  fetch?: typeof fetch;
  storage?: TokenStorage | null;
  /** Makes a live bridge; null: no live data (component tests). */
  createBridge?: ((onUnauthorized: () => void) => LiveBridge) | null;
  channel?: boolean;
  hasWebGL?: () => boolean;
  /** Whether the page is the mobile client; default: the phone layout's media query matches. */
  isMobileClient?: () => boolean;
  theme?: ThemeController;
}

/** The shell's phone layout (part 1 §9 breakpoints) is the mobile client. */
function isPhoneWidth(): boolean {
  return typeof matchMedia === 'function' && matchMedia(MOBILE_QUERY).matches;
}

export function createAppServices(options: AppServicesOptions = {}): AppServices {
  let session: SessionManager | null = null;
  const api = createApiClient({
    getToken: () => session?.token() ?? null,
    renewToken: (refused) => session?.renewAfterUnauthorized(refused) ?? Promise.resolve(false),
    onUnauthorized: () => session?.signOut(),
    fetch: options.fetch,
    isMobileClient: options.isMobileClient ?? isPhoneWidth,
  });
  const auth = createAuthCalls(api);
  const useChannel = options.channel ?? typeof BroadcastChannel !== 'undefined';
  session = createSessionManager({
    auth,
    storage: options.storage === undefined ? (typeof localStorage === 'undefined' ? null : localStorage) : options.storage,
    channel: useChannel ? new BroadcastChannel(SESSION_CHANNEL) : null,
    locks: typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : null,
  });
  const manager = session;

  const queries = createQueryClient();
  let bridge: LiveBridge | null = null;
  let startedFor: string | null = null;
  /** The last token handed to the worker, and the one a renewal after the worker's 401 gave. */
  let handed: string | null = null;
  let renewedForWorker: string | null = null;
  /**
   * part 1 §4: the worker's 401. The worker may hold a token a refresh (here or in another tab)
   * just rotated: renew first, and sign out only when the token a renewal gave is refused again
   * (or the refresh is refused, which signs out itself).
   */
  const workerUnauthorized = () => {
    const refused = handed;
    if (!refused || refused === renewedForWorker) {
      manager.signOut();
      return;
    }
    void manager.renewAfterUnauthorized(refused).then((renewed) => {
      if (renewed) renewedForWorker = manager.token();
    });
  };
  const live: LiveConnection = {
    get bridge() {
      return bridge;
    },
    prepare() {
      if (options.createBridge && manager.token()) bridge ??= options.createBridge(workerUnauthorized);
    },
    start(profile) {
      const token = manager.token();
      if (!options.createBridge || !token) return null;
      const key = `${profile.id}:${profile.organizationId}`;
      if (bridge && startedFor === key) return bridge;
      bridge ??= options.createBridge(workerUnauthorized);
      startedFor = key;
      handed = token;
      void bridge
        .start({ token, organizationId: profile.organizationId, orgIds: [], reads: liveReadsFor(profile.permissions) })
        .catch(() => undefined);
      return bridge;
    },
  };
  manager.subscribe({
    token(token) {
      if (!bridge) return;
      handed = token;
      void bridge.setToken(token).catch(() => undefined);
    },
    signedOut() {
      queries.clear();
      const running = bridge;
      bridge = null;
      startedFor = null;
      handed = renewedForWorker = null;
      if (running) void running.dispose().catch(() => undefined);
    },
  });
  // The theme follows who is signed in (their remembered choice; the system's when signed out).
  const theme = options.theme ?? createThemeController();
  const followUser = () => theme.setUser(manager.state.status === 'signedIn' ? (manager.state.profile?.id ?? null) : null);
  followUser();
  subscribe(manager.state, followUser);
  return { api, auth, session: manager, live, queries, hasWebGL: options.hasWebGL ?? (() => true), theme };
}

export const ServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('ServicesContext is missing');
  return services;
}
