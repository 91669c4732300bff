/**
 * Renders the whole app (routes, services, session) in jsdom with fetch answered at the HTTP
 * boundary by a table of handlers: what the pages send and show is what a browser would.
 */
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { ServicesContext, createAppServices, type AppServices } from '../../../src/app/services';
import { appRoutes } from '../../../src/app/router';

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

export interface AppHarness {
  services: AppServices;
  router: ReturnType<typeof createMemoryRouter>;
  storage: MemoryStorage;
  calls: { method: string; path: string; body: unknown; headers: Headers }[];
}

/** `routes` maps 'METHOD /path' to a handler; unknown calls answer 404. */
export function renderApp(path: string, routes: Record<string, Handler>, options: { signedIn?: boolean; hasWebGL?: boolean } = {}): AppHarness {
  const storage = new MemoryStorage();
  const calls: AppHarness['calls'] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://lightbar.test');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, body, headers: new Headers(init?.headers) });
    const handler = routes[`${method} ${url.pathname}`];
    return handler ? handler(body, url) : json(404, { error: 'not_found', message: 'Not found' });
  });
  const services = createAppServices({ fetch: fetchMock as unknown as typeof fetch, storage, channel: false, createBridge: null, hasWebGL: () => options.hasWebGL ?? true });
  if (options.signedIn) services.session.signIn({ ...TOKENS, created_at: Math.floor(Date.now() / 1000) });
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  render(
    <ServicesContext.Provider value={services}>
      <RouterProvider router={router} />
    </ServicesContext.Provider>,
  );
  return { services, router, storage, calls };
}
