import { expect, type Page } from '@playwright/test';
import type { LatLng } from '../src/domain/geometry';

/** The dashboard map's view as it writes it on its element (`data-view`: lng,lat,zoom, on each view change). */
export interface MapView {
  longitude: number;
  latitude: number;
  zoom: number;
  /** The attribute's text, to tell one view from another. */
  text: string;
}

/** `data-view` read; null before the map has a view. */
export function parseMapView(text: string | null): MapView | null {
  if (!text) return null;
  const [longitude, latitude, zoom] = text.split(',').map(Number);
  if (![longitude, latitude, zoom].every((n) => Number.isFinite(n))) return null;
  return { longitude: longitude!, latitude: latitude!, zoom: zoom!, text };
}

/** The map's view now; fails the spec when the map has none. */
export async function mapView(page: Page): Promise<MapView> {
  const view = parseMapView(await page.getByTestId('dashboard-map').getAttribute('data-view'));
  if (!view) throw new Error('the dashboard map has no data-view yet');
  return view;
}

/**
 * The map's view once it stood still for three reads a second apart and `accept` takes it (a fit, a
 * zoom, a view unlike an earlier one): after a camera move, whose frames in software WebGL can take
 * a second each, so no fixed time will do.
 */
export async function settledMapView(
  page: Page,
  { accept = () => true, timeout = 120_000 }: { accept?: (view: MapView) => boolean | Promise<boolean>; timeout?: number } = {},
): Promise<MapView> {
  const map = page.getByTestId('dashboard-map');
  let seen: (MapView | null)[] = [];
  await expect
    .poll(
      async () => {
        const now = parseMapView(await map.getAttribute('data-view', { timeout }));
        seen = [...seen, now].slice(-3);
        return !!now && seen.length === 3 && seen.every((v) => v?.text === now.text) && (await accept(now));
      },
      { timeout, intervals: [1_000] },
    )
    .toBe(true);
  return seen[2]!;
}

/**
 * Waits until the map's view is centred on `at` within 1e-4° (about 10 m): after a search or a
 * fly-to, before a spec clicks the map's centre.
 */
export async function expectMapCentredAt(page: Page, at: LatLng, timeout = 60_000): Promise<void> {
  const map = page.getByTestId('dashboard-map');
  await expect
    .poll(
      async () => {
        const view = parseMapView(await map.getAttribute('data-view'));
        return !!view && Math.abs(view.longitude - at.lng) < 1e-4 && Math.abs(view.latitude - at.lat) < 1e-4;
      },
      { timeout },
    )
    .toBe(true);
}
