/**
 * Renders the whole app (routes, services, session) in jsdom with fetch answered at the HTTP
 * boundary by a table of handlers: what the pages send and show is what a browser would.
 */
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { createThemeController } from '../../../src/app/theme';
import { ServicesContext, createAppServices, type AppServices } from '../../../src/app/services';
import { appRoutes } from '../../../src/app/router';
import { FakeApi, runClockFromNow } from '../../support/live-fixtures';
import { inProcessLive, type FakeCable } from './live-harness';

export type Handler = (body: unknown, url: URL) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export class MemoryStorage {
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

export const TOKENS = { access_token: 'access-1', refresh_token: 'refresh-1', expires_in: 7200, created_at: null };

export function profileWire(permissions: string[], extra: Record<string, unknown> = {}) {
  return {
    id: 'user-1',
    email: 'ada@example.com',
    firstname: 'Ada',
    lastname: 'Lovelace',
    organization_id: 'org-1',
    permissions,
    user_org: { id: 'org-1', name: 'Travis County Regional' },
    ...extra,
  };
}

/** The calls every signed-in page makes: the profile, the asset count, the version and the token refresh. */
export function signedInRoutes(
  permissions: string[],
  extra: Record<string, unknown> = {},
  version = () => '1.0.0',
): Record<string, Handler> {
  return {
    'GET /profile': () => json(200, profileWire(permissions, extra)),
    'GET /organization/things_count': () => json(200, { count: 1234 }),
    'GET /version': () => json(200, { version: version() }),
    // The 2-hour tokens refresh on their own while hours pass.
    'POST /user_token': () => json(200, { access_token: `access-${Date.now()}`, refresh_token: `refresh-${Date.now()}`, expires_in: 7200 }),
  };
}

export interface AppHarness {
  services: AppServices;
  router: ReturnType<typeof createMemoryRouter>;
  storage: MemoryStorage;
  calls: { method: string; path: string; body: unknown; headers: Headers }[];
  /** With `live`: the fake REST data of the worker's calls and the socket the test pushes messages through. */
  live: { api: FakeApi; cable: FakeCable } | null;
}

/** The worker's calls (part 1 §7): answered by FakeApi when a test renders with `live` (and the organization records it holds). */
const LIVE_PATHS = new Set([
  '/organization/things',
  '/organization/things/snapshot',
  '/locations',
  '/organization/closure',
  '/organization/exclusion_zone',
]);

/** `routes` maps 'METHOD /path' to a handler; unknown calls answer 404. */
export function renderApp(
  path: string,
  routes: Record<string, Handler>,
  options: { signedIn?: boolean; hasWebGL?: boolean; live?: FakeApi | boolean; storage?: MemoryStorage } = {},
): AppHarness {
  const storage = options.storage ?? new MemoryStorage();
  const liveApi = options.live === true ? new FakeApi() : options.live || null;
  if (liveApi) runClockFromNow();
  const calls: AppHarness['calls'] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://lightbar.test');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, body, headers: new Headers(init?.headers) });
    const handler = routes[`${method} ${url.pathname}`];
    const liveRecord = liveApi?.organizations.has(url.pathname.replace(/^\/organization\//, '')) ?? false;
    if (!handler && liveApi && method === 'GET' && (LIVE_PATHS.has(url.pathname) || liveRecord)) return liveApi.fetch(url.href, init ?? {});
    return handler ? handler(body, url) : json(404, { error: 'not_found', message: 'Not found' });
  });
  const live = liveApi ? inProcessLive((input, init) => fetchMock(input, init)) : null;
  const services = createAppServices({
    fetch: fetchMock as unknown as typeof fetch,
    storage,
    channel: false,
    createBridge: live ? live.createBridge : null,
    hasWebGL: () => options.hasWebGL ?? true,
    // The theme choice is kept in the test's storage (not jsdom's shared localStorage); no system preference.
    theme: createThemeController({ storage, media: null }),
  });
  if (options.signedIn) services.session.signIn({ ...TOKENS, created_at: Math.floor(Date.now() / 1000) });
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  render(
    <ServicesContext.Provider value={services}>
      <RouterProvider router={router} />
    </ServicesContext.Provider>,
  );
  return { services, router, storage, calls, live: liveApi && live ? { api: liveApi, cable: live.cable } : null };
}
