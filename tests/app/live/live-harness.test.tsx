// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ASSET_STATUS } from '../../../src/domain/asset-status';
import { FakeApi, iso, NOW, runClockFromNow, thing } from '../../support/live-fixtures';
import { renderApp, signedInRoutes } from '../support/render-app';

// The fixtures' times sit around NOW: the date runs on from it (see runClockFromNow).
beforeEach(() => runClockFromNow());

afterEach(() => {
  vi.useRealTimers();
});

describe('the in-process live engine of the component tests', () => {
  it('after sign-in the real engine loads the fleet into the store and applies socket messages', async () => {
    const api = new FakeApi();
    api.setThings([thing(1), thing(2, { enroute: true })]);
    const { services, live } = renderApp('/dashboard/things', signedInRoutes(['thing:read']), { signedIn: true, live: api });
    await waitFor(() => expect(services.live.bridge?.store.total).toBe(2), { timeout: 5_000 });
    const store = services.live.bridge!.store;
    await waitFor(() => expect(live!.cable.subscribed).toBe(true));
    live!.cable.send({ type: 'heartbeat', thing_id: 'thing-00001', is_active: true, timestamp: iso(NOW + 1_000) });
    live!.cable.send({ type: 'point', thing_id: 'thing-00001', lat: 30.3, lng: -97.6, speed: 20, timestamp: iso(NOW + 1_000) });
    await waitFor(() => expect(store.counts[ASSET_STATUS.active]).toBeGreaterThanOrEqual(1), { timeout: 5_000 });
    await waitFor(async () => expect((await services.live.bridge!.asset('thing-00001'))?.position).toEqual({ lat: 30.3, lng: -97.6 }), {
      timeout: 5_000,
    });
  });
});
