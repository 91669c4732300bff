/**
 * The routing interface (src/map/directions.ts, part 2 §7 "Closure routing uses a maps directions
 * service"): Google's Directions as a PathRouter — the street of an address, the path from the
 * steps (or the overview), a library that never loads or a request that fails without a status
 * counted as Google being unavailable — and `routeWithFallback`, which turns to the offline router
 * only then. Google's `routes` library is a stand-in given to the router as its loader would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceError, errorText } from '../../src/domain/errors';
import type { LatLng } from '../../src/domain/geometry';
import {
  DirectionsUnavailableError,
  googleDirections,
  routeWithFallback,
  streetOfAddress,
  type PathRouter,
  type RoutedPath,
} from '../../src/map/directions';

const A = { lat: 30.25, lng: -97.75 };
const B = { lat: 30.26, lng: -97.74 };
const latLng = (p: LatLng) => ({ lat: () => p.lat, lng: () => p.lng });

function routesLibrary(answer: (request: unknown) => Promise<unknown>) {
  return {
    DirectionsService: class {
      route(request: unknown) {
        return answer(request);
      }
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('streetOfAddress: the street of a Google address', () => {
  it.each([
    ['1200-1298 S Congress Ave, Austin, TX 78704, USA', 'S Congress Ave'],
    ['500 W Riverside Dr, Austin, TX 78704, USA', 'W Riverside Dr'],
    ['1st St, Austin, TX, USA', '1st St'],
    ['12B Main St, Austin, TX', 'Main St'],
    ['Lamar Blvd', 'Lamar Blvd'],
    ['', ''],
  ])('%j → %j', (address, street) => {
    expect(streetOfAddress(address)).toBe(street);
  });
  it('an absent address gives no street', () => {
    expect(streetOfAddress(undefined)).toBe('');
  });
});

describe("googleDirections: Google's Directions as a PathRouter", () => {
  it('takes the overview path when the steps carry none, 7 decimals kept', async () => {
    const route = googleDirections(() =>
      Promise.resolve(
        routesLibrary(() =>
          Promise.resolve({
            routes: [
              {
                overview_path: [latLng({ lat: 30.123456789, lng: -97.987654321 }), latLng(B)],
                legs: [{ start_address: '1 Elm St, Austin', end_address: '2 Oak St, Austin', distance: { value: 120 }, steps: [] }],
              },
            ],
          }),
        ),
      ),
    );
    expect(await route([A, B])).toEqual<RoutedPath>({
      path: [{ lat: 30.1234567, lng: -97.9876543 }, B],
      streetStart: 'Elm St',
      streetEnd: 'Oak St',
      distanceM: 120,
    });
  });

  it("an OK answer without a route is Google's ZERO_RESULTS words", async () => {
    const route = googleDirections(() => Promise.resolve(routesLibrary(() => Promise.resolve({ routes: [] }))));
    const error = await route([A, B]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(errorText('routeDrawing', (error as ServiceError).failure).text).toBe(
      'No route could be found between the origin and destination.',
    );
  });

  it('a request that fails without a Directions status (a script or network failure) is unavailable', async () => {
    const route = googleDirections(() =>
      Promise.resolve(routesLibrary(() => Promise.reject(Object.assign(new Error('x'), { code: 'SOMETHING_NEW' })))),
    );
    await expect(route([A, B])).rejects.toBeInstanceOf(DirectionsUnavailableError);
  });

  it('a routes library that does not load in time is unavailable; the next request asks the loader again', async () => {
    vi.useFakeTimers();
    const loader = vi.fn<(name: 'routes') => Promise<unknown>>(() => new Promise(() => undefined));
    const route = googleDirections(loader, 5_000);
    const first = route([A, B]).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await first).toBeInstanceOf(DirectionsUnavailableError);
    loader.mockResolvedValueOnce({});
    // A library without a DirectionsService is unavailable too.
    await expect(route([A, B])).rejects.toBeInstanceOf(DirectionsUnavailableError);
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('loads the routes library once for several requests', async () => {
    const loader = vi.fn(() => Promise.resolve(routesLibrary(() => Promise.resolve({ routes: [{ overview_path: [A, B].map(latLng) }] }))));
    const route = googleDirections(loader);
    await route([A, B]);
    await route([B, A]);
    expect(loader).toHaveBeenCalledTimes(1);
    expect(loader).toHaveBeenCalledWith('routes');
  });
});

describe('routeWithFallback', () => {
  const offlineAnswer: RoutedPath = { path: [A, B], streetStart: 'Lamar Blvd', streetEnd: 'Riverside Dr', distanceM: 10 };
  const offline = vi.fn<PathRouter>(() => Promise.resolve(offlineAnswer));
  afterEach(() => offline.mockClear());

  it('asks the offline router when there is no directions service now', async () => {
    expect(await routeWithFallback(() => null, offline)([A, B])).toBe(offlineAnswer);
    expect(offline).toHaveBeenCalledWith([A, B]);
  });

  it('asks it when the directions service is unavailable, never when the service answered a status', async () => {
    const unavailable: PathRouter = () => Promise.reject(new DirectionsUnavailableError('down'));
    expect(await routeWithFallback(() => unavailable, offline)([A, B])).toBe(offlineAnswer);
    const status = new ServiceError({ code: 'ZERO_RESULTS', message: 'No route' });
    const refusing: PathRouter = () => Promise.reject(status);
    await expect(routeWithFallback(() => refusing, offline)([A, B])).rejects.toBe(status);
    expect(offline).toHaveBeenCalledTimes(1);
  });

  it('reads the directions service at each request (the Google map may have fallen back since)', async () => {
    const google = vi.fn<PathRouter>(() => Promise.resolve({ ...offlineAnswer, streetStart: 'Google St' }));
    let current: PathRouter | null = google;
    const route = routeWithFallback(() => current, offline);
    expect((await route([A, B])).streetStart).toBe('Google St');
    current = null;
    expect(await route([A, B])).toBe(offlineAnswer);
    expect(google).toHaveBeenCalledTimes(1);
  });
});
