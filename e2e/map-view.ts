import { expect, type Page } from '@playwright/test';
import type { LatLng } from '../src/domain/geometry';

/**
 * Waits until the dashboard map's view (`data-view`: lng,lat,zoom, set on each view change) is
 * centred on `at` within 1e-4° (about 10 m): after a search or a fly-to, before a spec clicks the
 * map's centre. In software WebGL a frame of the fly-to can take a second, so no fixed time will do.
 */
export async function expectMapCentredAt(page: Page, at: LatLng, timeout = 60_000): Promise<void> {
  const map = page.getByTestId('dashboard-map');
  await expect
    .poll(
      async () => {
        const [lng, lat] = ((await map.getAttribute('data-view')) ?? '').split(',').map(Number);
        return Math.abs((lng ?? 0) - at.lng) < 1e-4 && Math.abs((lat ?? 0) - at.lat) < 1e-4;
      },
      { timeout },
    )
    .toBe(true);
}
