/**
 * part 1 §4 Session: what may end a session and what may not. Through the real services (API
 * client, auth calls, session manager) over a fake server at the fetch boundary that behaves like
 * ours: a refresh rotates the pair (the old access token is refused from then on) and a refresh
 * token is good once. A reload aborts the page's requests; the aborted fetch rejects, which must
 * not sign out or clear the stored session the next page reads. Only an explicit sign-out, a
 * refused refresh, or a 401 that survives a refresh end it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SECOND_MS } from '../../../src/domain/constants';
import { createAppServices, type AppServices } from '../../../src/app/services';
import { PROFILE_RETRY_MS, REFRESH_RETRY_MS } from '../../../src/app/session/session-manager';
import { readSession } from '../../../src/app/session/token-storage';
import { json, MemoryStorage, profileWire } from '../support/render-app';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const HOUR_S = 3600;

/** What the page would see from a reload: the browser aborts the fetch (DOMException AbortError). */
const aborted = () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError'));

/** A body whose stream fails after its first bytes: what the browser gives when a navigation cuts an answer off. */
const cutOffBody = () =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"id":"us'));
      controller.error(new DOMException('The user aborted a request.', 'AbortError'));
    },
  });

interface Deferred {
  promise: Promise<Response>;
  resolve(response: Response): void;
}
function deferred(): Deferred {
  let resolve!: (response: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

/** A server like ours: pairs n = 1, 2, …; the current access token works, the others answer 401. */
class FakeAuthServer {
  current = 1;
  usedRefresh = new Set<string>();
  calls: { path: string; token: string }[] = [];
  /** Answer this call instead (an aborted fetch, a held refresh…). */
  override: Partial<Record<string, () => Promise<Response>>> = {};
  /** The profile refuses every token (a 401 that survives a refresh). */
  refuseProfile = false;
  /** The server refuses the refresh token (invalid_grant-like 422 of server/http/auth/routes.ts). */
  refuseRefresh = false;

  pair(n: number) {
    return {
      access_token: `access-${n}`,
      refresh_token: `refresh-${n}`,
      expires_in: 2 * HOUR_S,
      created_at: Math.floor(Date.now() / 1000),
    };
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = new URL(String(input), 'http://app.test').pathname;
    const token = (new Headers(init?.headers).get('authorization') ?? '').replace(/^Bearer /, '');
    this.calls.push({ path, token });
    const override = this.override[path];
    if (override) {
      delete this.override[path];
      return override();
    }
    if (path === '/user_token') {
      const body = JSON.parse(String(init?.body)) as { refresh_token?: string };
      const refresh = body.refresh_token ?? '';
      if (this.refuseRefresh || refresh !== `refresh-${this.current}` || this.usedRefresh.has(refresh)) {
        return json(422, { error: 'invalid_token', error_description: 'Access token is expired or does not exist.' });
      }
      this.usedRefresh.add(refresh);
      this.current += 1; // rotation: the old pair is revoked
      return json(200, this.pair(this.current));
    }
    if (path === '/revoke_token') return json(200, {});
    if (token !== `access-${this.current}` || (path === '/profile' && this.refuseProfile)) return json(401, { error: 'unauthorized' });
    if (path === '/profile') return json(200, profileWire(['thing:read']));
    return json(404, { error: 'not_found' });
  };

  callsTo(path: string) {
    return this.calls.filter((call) => call.path === path);
  }
}

let server: FakeAuthServer;
let storage: MemoryStorage;
let services: AppServices;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  server = new FakeAuthServer();
  storage = new MemoryStorage();
  services = createAppServices({ fetch: server.fetch as typeof fetch, storage, channel: false });
  services.session.signIn(server.pair(1));
});
afterEach(() => {
  services.session.dispose();
  vi.useRealTimers();
});

describe('part1 §4 session: a reload or an aborted request never ends it', () => {
  it.each<[string, () => Promise<Response>]>([
    ['the profile request aborted', aborted],
    // The headers of a 200 arrived, then the reload aborted the body's stream.
    ['the profile answer cut off mid-body (its 200 headers came)', async () => new Response(cutOffBody(), { status: 200 })],
  ])('%s by a reload right after sign-in: still signed in, the stored session intact, nothing revoked', async (_name, answer) => {
    const stored = readSession(storage);
    server.override['/profile'] = answer;
    const loading = services.session.loadProfile();
    await vi.advanceTimersByTimeAsync(0);

    expect(services.session.state.status).toBe('signedIn');
    expect(services.session.state.notice).toBeNull();
    expect(readSession(storage)).toEqual(stored);
    expect(server.callsTo('/revoke_token')).toEqual([]);

    // Still on the page (offline, not a reload): the profile is asked again and arrives.
    await vi.advanceTimersByTimeAsync(PROFILE_RETRY_MS);
    await expect(loading).resolves.toMatchObject({ id: 'user-1', organizationId: 'org-1' });
    expect(server.callsTo('/profile')).toHaveLength(2);
    expect(services.session.state.profile?.id).toBe('user-1');
  });

  it('a profile load that gets no answer at all keeps the session until one comes', async () => {
    server.override['/profile'] = () => Promise.reject(new TypeError('Failed to fetch'));
    const loading = services.session.loadProfile();
    await vi.advanceTimersByTimeAsync(PROFILE_RETRY_MS - SECOND_MS);
    expect(services.session.state.status).toBe('signedIn');
    expect(readSession(storage)?.token).toBe('access-1');
    await vi.advanceTimersByTimeAsync(SECOND_MS);
    expect(await loading).not.toBeNull();
  });

  it.each([502, 503, 504])(
    'a busy server answering the profile %i (load shedding under load) keeps the session and asks again',
    async (status) => {
      server.override['/profile'] = async () => json(status, { error: 'overloaded', message: 'The server is busy: try again shortly.' });
      const loading = services.session.loadProfile();
      await vi.advanceTimersByTimeAsync(0);
      expect(services.session.state.status).toBe('signedIn');
      expect(services.session.state.notice).toBeNull();
      expect(server.callsTo('/revoke_token')).toEqual([]);
      delete server.override['/profile'];
      await vi.advanceTimersByTimeAsync(PROFILE_RETRY_MS);
      await expect(loading).resolves.toMatchObject({ id: 'user-1' });
    },
  );

  it("a profile answer that is a failure (500) still signs out with 'Error' / 'Please log back in.' (part 1 §8)", async () => {
    server.override['/profile'] = async () => json(500, {});
    expect(await services.session.loadProfile()).toBeNull();
    expect(services.session.state.status).toBe('signedOut');
    expect(services.session.state.notice).toEqual({ title: 'Error', body: 'Please log back in.' });
    expect(readSession(storage)).toBeNull();
  });
});

describe('part1 §4 session: a 401 ends it only when it survives a refresh', () => {
  it('a 401 for a token a refresh rotated while the call travelled: sent again with the new token, still signed in', async () => {
    const refresh = deferred();
    server.override['/user_token'] = () => refresh.promise;
    const refreshing = services.session.refresh();
    await vi.advanceTimersByTimeAsync(0);
    // The server rotated: access-1 is refused from now on; the answer is still on its way.
    server.current = 2;
    server.usedRefresh.add('refresh-1');
    const loading = services.session.loadProfile();
    await vi.advanceTimersByTimeAsync(0);
    refresh.resolve(json(200, server.pair(2)));
    await refreshing;

    await expect(loading).resolves.toMatchObject({ id: 'user-1' });
    expect(services.session.state.status).toBe('signedIn');
    expect(readSession(storage)?.token).toBe('access-2');
    expect(server.callsTo('/profile').map((call) => call.token)).toEqual(['access-1', 'access-2']);
    // The one refresh token was spent once: no second refresh raced the first.
    expect(server.callsTo('/user_token')).toHaveLength(1);
  });

  it('a 401 for the current token: one refresh, the call again with the new token, still signed in', async () => {
    // The first profile call is refused (say, the server restarted its token check); refresh-1 is good.
    server.override['/profile'] = async () => json(401, { error: 'unauthorized' });

    await expect(services.session.loadProfile()).resolves.toMatchObject({ id: 'user-1' });
    expect(services.session.state.status).toBe('signedIn');
    expect(readSession(storage)?.token).toBe('access-2');
    expect(server.callsTo('/profile').map((call) => call.token)).toEqual(['access-1', 'access-2']);
  });

  it('a 401 that survives the refresh signs out and clears the stored session', async () => {
    server.refuseProfile = true;
    expect(await services.session.loadProfile()).toBeNull();
    expect(services.session.state.status).toBe('signedOut');
    expect(readSession(storage)).toBeNull();
    expect(server.callsTo('/profile').map((call) => call.token)).toEqual(['access-1', 'access-2']);
  });

  it('a refresh answered 503 by a busy server keeps the session and is tried again; the next one rotates the pair', async () => {
    server.override['/user_token'] = async () => json(503, { error: 'overloaded', message: 'The server is busy: try again shortly.' });
    await services.session.refresh();
    expect(services.session.state.status).toBe('signedIn');
    expect(services.session.state.notice).toBeNull();
    expect(readSession(storage)?.token).toBe('access-1');
    delete server.override['/user_token'];
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MS);
    expect(readSession(storage)?.token).toBe('access-2');
    expect(services.session.state.status).toBe('signedIn');
  });

  it("a 401 whose refresh the server refuses signs out: 'Session Expired'", async () => {
    server.refuseRefresh = true;
    server.override['/profile'] = async () => json(401, { error: 'unauthorized' });
    expect(await services.session.loadProfile()).toBeNull();
    expect(services.session.state.status).toBe('signedOut');
    expect(services.session.state.notice?.title).toBe('Session Expired');
    expect(readSession(storage)).toBeNull();
  });
});
