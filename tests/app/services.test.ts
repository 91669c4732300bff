/**
 * The live worker follows the session: started after sign-in with the token, the profile's
 * organization and the lists its permissions read (part 1 §6), given every refreshed token,
 * disposed at sign-out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECOND_MS, TOKEN_REFRESH_LEAD_MS } from '../../src/domain/constants';
import type { Profile } from '../../src/domain/profile';
import type { LiveBridge } from '../../src/app/live/bridge';
import { createAppServices } from '../../src/app/services';

afterEach(() => vi.useRealTimers());

function fakeBridge() {
  return {
    start: vi.fn(async () => undefined),
    setToken: vi.fn(async () => undefined),
    dispose: vi.fn(async () => undefined),
    switchOrganization: vi.fn(),
  };
}

describe('session → live bridge', () => {
  it('start, token hand-over and sign-out', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const bridge = fakeBridge();
    const onUnauthorized: (() => void)[] = [];
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ access_token: 'a2', refresh_token: 'r2', expires_in: 3600 }), { status: 200 }),
    );
    const services = createAppServices({
      fetch: fetchMock as unknown as typeof fetch,
      storage: null,
      channel: false,
      createBridge: (cb) => {
        onUnauthorized.push(cb);
        return bridge as unknown as LiveBridge;
      },
    });
    services.session.signIn({ access_token: 'a1', refresh_token: 'r1', expires_in: 60 });
    // A Media user (incidents only): the worker reads the events and no other list.
    const profile = { id: 'u', organizationId: 'org-1', permissions: ['incident:read'] } as Profile;
    expect(services.live.start(profile)).toBe(bridge);
    expect(bridge.start).toHaveBeenCalledWith({
      token: 'a1',
      organizationId: 'org-1',
      orgIds: [],
      reads: { things: false, areas: false, events: true, closures: false },
    });
    // The same user and organization again: no second start.
    services.live.start(profile);
    expect(bridge.start).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(60 * SECOND_MS - TOKEN_REFRESH_LEAD_MS);
    expect(bridge.setToken).toHaveBeenCalledWith('a2');

    // The worker's 401 asks for a refresh; the server refuses it: that signs out, which disposes the bridge.
    fetchMock.mockImplementation(async () => new Response(JSON.stringify({ error: 'invalid_token' }), { status: 422 }));
    onUnauthorized[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(services.session.state.status).toBe('signedOut');
    expect(bridge.dispose).toHaveBeenCalledTimes(1);
    expect(services.live.bridge).toBeNull();
    services.session.dispose();
  });
});

describe('session → live bridge ahead of the profile', () => {
  it('prepare (a page load with a stored session) creates the worker; start uses that one; signed out it creates none', () => {
    const bridge = fakeBridge();
    let created = 0;
    const services = createAppServices({
      storage: null,
      channel: false,
      createBridge: () => {
        created += 1;
        return bridge as unknown as LiveBridge;
      },
    });
    services.live.prepare();
    expect(created).toBe(0);
    services.session.signIn({ access_token: 'a1', refresh_token: 'r1', expires_in: 3600 });
    services.live.prepare();
    expect(created).toBe(1);
    expect(bridge.start).not.toHaveBeenCalled();
    expect(services.live.start({ id: 'u', organizationId: 'org-1', permissions: ['thing:read'] } as Profile)).toBe(bridge);
    expect(created).toBe(1);
    expect(bridge.start).toHaveBeenCalledWith({
      token: 'a1',
      organizationId: 'org-1',
      orgIds: [],
      reads: { things: true, areas: false, events: false, closures: false },
    });
    services.session.dispose();
  });
});
