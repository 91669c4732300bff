/**
 * part 1 §4 Session, the live worker's side: a refresh rotates the token pair (the server refuses
 * the old access token from then on) while the worker may still send the old one. The worker's 401
 * renews the token and the worker goes on with it; only a 401 that survives the renewal signs out.
 * The real engine and bridge (in this thread, over a MessageChannel) and the real services.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../src/domain/profile';
import { createAppServices, type AppServices } from '../../../src/app/services';
import { createLiveEngine } from '../../../src/workers/live-engine';
import type { LiveListener, LiveStatus } from '../../../src/workers/live-protocol';
import { FakeApi, ORG, runClockFromNow, thing, TOKEN } from '../../support/live-fixtures';
import { inProcessLive } from '../support/live-harness';
import { json, MemoryStorage } from '../support/render-app';

const HOUR_S = 3600;
const WAIT = { timeout: 5_000 };

beforeEach(() => runClockFromNow());
afterEach(() => vi.useRealTimers());

describe('part1 §4 the live worker after a 401', () => {
  let services: AppServices;
  let api: FakeApi;
  let current: number;
  let refuseAll: boolean;
  let refreshes: number;

  function pair(n: number) {
    return {
      access_token: `access-${n}`,
      refresh_token: `refresh-${n}`,
      expires_in: 2 * HOUR_S,
      created_at: Math.floor(Date.now() / 1000),
    };
  }

  beforeEach(() => {
    api = new FakeApi();
    api.setThings([thing(1), thing(2)]);
    current = 1;
    refuseAll = false;
    refreshes = 0;
    // The worker's calls: only the current access token is good (a rotation revokes the old one).
    const liveFetch = async (input: string, init: RequestInit) => {
      const token = (new Headers(init.headers).get('authorization') ?? '').replace(/^Bearer /, '');
      if (refuseAll || token !== `access-${current}`) return json(401, { error: 'unauthorized' });
      return api.fetch(input, init);
    };
    const appFetch = async (input: RequestInfo | URL, _init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname;
      if (path === '/user_token') {
        refreshes += 1;
        current += 1;
        return json(200, pair(current));
      }
      return json(200, {});
    };
    services = createAppServices({
      fetch: appFetch as typeof fetch,
      storage: new MemoryStorage(),
      channel: false,
      createBridge: inProcessLive(liveFetch).createBridge,
    });
    services.session.signIn(pair(1));
  });
  afterEach(() => services.session.dispose());

  it("the worker's token refused (rotated by a refresh elsewhere): the session renews it, the worker goes on, still signed in", async () => {
    const bridge = services.live.start({ id: 'u', organizationId: ORG, permissions: ['haas:manage'] } as Profile)!;
    await vi.waitFor(() => expect(bridge.store.total).toBe(2), WAIT);
    // Another tab (or the server) rotated the pair: access-1 is refused from now on.
    current = 2;
    await bridge.refresh();

    await vi.waitFor(() => expect(services.session.token()).toBe('access-3'), WAIT);
    expect(services.session.state.status).toBe('signedIn');
    await vi.waitFor(() => expect(bridge.store.connectivity.unauthorized).toBe(false), WAIT);
    // The worker asks again with the renewed token and is answered.
    await vi.waitFor(() => expect(api.tokens.at(-1)).toBe('access-3'), WAIT);
    expect(services.live.bridge).toBe(bridge);
    expect(refreshes).toBe(1);
  });

  it('a 401 that survives the renewal signs out and stops the worker', async () => {
    const bridge = services.live.start({ id: 'u', organizationId: ORG, permissions: ['haas:manage'] } as Profile)!;
    await vi.waitFor(() => expect(bridge.store.total).toBe(2), WAIT);
    refuseAll = true;
    await bridge.refresh();

    await vi.waitFor(() => expect(services.session.state.status).toBe('signedOut'), WAIT);
    expect(services.live.bridge).toBeNull();
    expect(refreshes).toBe(1);
  });
});

describe('part1 §4 the live engine and a stale token', () => {
  it('a 401 for a token replaced while the call travelled is not reported: the engine asks again with the new one', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const api = new FakeApi();
    api.setThings([thing(1)]);
    let hold = false;
    const seen: string[] = [];
    const fetch = async (input: string, init: RequestInit) => {
      const token = (new Headers(init.headers).get('authorization') ?? '').replace(/^Bearer /, '');
      seen.push(token);
      if (hold && token === TOKEN) {
        await held;
        return json(401, { error: 'unauthorized' });
      }
      return api.fetch(input, init);
    };
    const engine = createLiveEngine({ fetch, openSocket: () => ({}) as never });
    const statuses: LiveStatus[] = [];
    const listener: LiveListener = { diff: () => undefined, status: (status) => void statuses.push(status) };
    engine.start(
      {
        apiBase: 'http://api.test',
        socketUrl: 'ws://api.test/cable',
        token: TOKEN,
        organizationId: ORG,
        largeOrg: true,
        online: true,
        focused: true,
      },
      listener,
    );
    await vi.waitFor(() => expect(engine.status().phase).toBe('live'), WAIT);

    hold = true;
    const refreshing = engine.refresh();
    await vi.waitFor(() => expect(seen.at(-1)).toBe(TOKEN), WAIT);
    engine.setToken('token-next');
    release();
    await refreshing;

    await vi.waitFor(() => expect(seen.at(-1)).toBe('token-next'), WAIT);
    expect(statuses.some((status) => status.unauthorized)).toBe(false);
    expect(engine.status().unauthorized).toBe(false);
    engine.stop();
  });
});
