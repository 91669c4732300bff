// @vitest-environment jsdom
/**
 * Where WebGL draws in software, the dashboard's basemap waits for the Live list's first rows
 * (useBasemapHold; bench/README.md "Application bench"): building its layers there held the page for about
 * a second, and the rows came after it. The real live engine and bridge run in-process; the
 * renderer is reported as software (jsdom has no WebGL to ask).
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_LIST_TEXT } from '../../../src/domain/labels';
import { FakeApi, ORG, runClockFromNow, thing } from '../../support/live-fixtures';
import { renderApp, signedInRoutes } from '../../app/support/render-app';

vi.mock('../../../src/map/renderer', async (original) => ({
  ...(await original<typeof import('../../../src/map/renderer')>()),
  drawsInSoftware: () => true,
}));

beforeEach(() => runClockFromNow());
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  localStorage.clear();
});

const WAIT = { timeout: 15_000 };
const routes = () => signedInRoutes(['thing:read', 'incident:read'], { organization_id: ORG, user_org: { id: ORG, name: 'Org' } });

/** The live API with the fleet's first page held until `release`. */
function heldFleet() {
  const api = new FakeApi();
  api.setThings([thing(1, { nickname: 'Alpha' }), thing(2, { nickname: 'Bravo' })]);
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answer = api.fetch;
  api.fetch = async (input, init) => {
    if (new URL(String(input)).pathname === '/organization/things') await gate;
    return answer(input, init);
  };
  return { api, release };
}

const basemap = () => screen.getByTestId('dashboard-map').getAttribute('data-basemap');

describe('the basemap waits for the first rows where WebGL draws in software', () => {
  it('on the Live list: held while the fleet loads, shown once its rows are', async () => {
    const { api, release } = heldFleet();
    renderApp('/dashboard/things', routes(), { signedIn: true, live: api });
    await screen.findByRole('heading', { level: 1, name: 'Live' }, WAIT);
    expect(basemap()).toBe('held');
    release();
    await screen.findByText('Alpha', {}, WAIT);
    // Shown because the rows came: well before the longest wait (BASEMAP_HOLD_MAX_MS, 3 s from the map's start).
    await waitFor(() => expect(basemap()).toBe('shown'), { timeout: 1_000 });
  });

  it('on the Live list of an empty fleet: shown once the load is over (no rows to wait for)', async () => {
    const api = new FakeApi();
    api.setThings([]);
    renderApp('/dashboard/things', routes(), { signedIn: true, live: api });
    await screen.findByText(LIVE_LIST_TEXT.empty, {}, WAIT);
    await waitFor(() => expect(basemap()).toBe('shown'), { timeout: 1_000 });
  });

  it('without the Live list (the Events panel): shown once the fleet’s first page is in', async () => {
    const { api, release } = heldFleet();
    renderApp('/dashboard/events', routes(), { signedIn: true, live: api });
    await screen.findByTestId('event-counts', {}, WAIT);
    expect(basemap()).toBe('held');
    release();
    await waitFor(() => expect(basemap()).toBe('shown'), WAIT);
  });
});
