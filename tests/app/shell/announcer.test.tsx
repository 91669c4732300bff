// @vitest-environment jsdom
/**
 * The page's polite announcements (src/app/shell/announcer.tsx; docs/accessibility.md): with the
 * real live engine over FakeApi, the incidents held at load are not announced; one that appears
 * later is ('New incident: …'), once, and several at once are counted.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveBridge } from '../../../src/app/live/bridge';
import { liveOf, LiveProvider } from '../../../src/app/live/hooks';
import { IncidentAnnouncer } from '../../../src/app/shell/announcer';
import { FakeApi, crashOnLamar, iso, thing } from '../../support/live-fixtures';
import { startPollingLive } from '../support/live-harness';

let bridge: LiveBridge | null = null;

afterEach(async () => {
  cleanup();
  await bridge?.dispose();
  bridge = null;
});

function incident(id: string, name: string, now: number) {
  return { id, display_name: name, is_active: true, lat: 30.27, lng: -97.74, start_time: iso(now) };
}

describe('announcements of new incidents', () => {
  it('announces a new incident politely, not the ones there at load; several at once are counted', async () => {
    const now = Date.now();
    const api = new FakeApi();
    api.setThings([thing(1, { lat: 30.3, lng: -97.7, heartbeat_datetime: iso(now) })]);
    api.setLocation(crashOnLamar(now, { id: 'thing-00001', haas_id: 'ha-1' }));
    bridge = (await startPollingLive(api, 1)).bridge;
    render(
      <LiveProvider value={liveOf(bridge)}>
        <IncidentAnnouncer />
      </LiveProvider>,
    );
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    // The first read of the events (Crash on Lamar) is what was there: nothing is said.
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_500)));
    expect(region.textContent).toBe('');

    api.setLocation(incident('loc-7', 'Fire on 6th St', now));
    await act(async () => {
      await bridge!.refresh();
    });
    await waitFor(() => expect(region.textContent).toBe('New incident: Fire on 6th St'), { timeout: 4_000 });

    api.setLocation(incident('loc-8', 'Crash on Congress', now));
    api.setLocation(incident('loc-9', 'Crash on I-35', now));
    await act(async () => {
      await bridge!.refresh();
    });
    await waitFor(() => expect(region.textContent).toBe('2 new incidents'), { timeout: 4_000 });
  });
});
