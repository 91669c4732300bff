// @vitest-environment jsdom
/**
 * part 2 §7 "Closure routing uses a maps directions service (driving, waypoints)" with a Google key:
 * the whole app with VITE_GOOGLE_MAPS_API_KEY set, Google's loader a stand-in at its boundary
 * (@vis.gl/react-google-maps: its APIProvider's context gives `importLibrary`, whose `routes`
 * library holds a DirectionsService that records each request and answers as the test says). The
 * drawn path goes to Google's Directions (origin, destination, the points between as waypoints);
 * Google's status is the §8 Route drawing text with the straight path kept; a loader that fails
 * (several error callbacks, as it does offline) or a routes library that fails leaves the offline
 * router (POST /closure/route) to answer; without a key nothing is asked of Google.
 * jsdom has no WebGL: the drawing finishes at once with the test's line (as closure-route-drawing).
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DrawingRequest } from '../../../src/app/map/map-state';
import type { LatLng } from '../../../src/domain/geometry';
import { json, type Handler } from '../../app/support/render-app';
import { PARADE, cleanupClosures, renderClosures } from './closure-fixtures';

const drawn: { path: LatLng[] } = { path: [] };
vi.mock('../../../src/app/map/map-state', async (original) => {
  const actual = await original<typeof import('../../../src/app/map/map-state')>();
  return {
    ...actual,
    startDrawing: (_state: unknown, request: DrawingRequest) => {
      setTimeout(() => request.onDone({ kind: 'line', path: drawn.path }), 0);
      return () => undefined;
    },
  };
});

interface GoogleLatLngStandIn {
  lat(): number;
  lng(): number;
}
const google = vi.hoisted(() => ({
  /** The loader fails at start: its error callback is called this many times. */
  loaderErrors: 0,
  /** The `routes` library fails to load. */
  routesFail: false,
  imports: [] as string[],
  requests: [] as unknown[],
  answer: (() => Promise.reject(new Error('no answer set'))) as (request: unknown) => Promise<unknown>,
}));

vi.mock('@vis.gl/react-google-maps', async () => {
  const { createContext, useEffect } = await import('react');
  class DirectionsService {
    route(request: unknown) {
      google.requests.push(request);
      return google.answer(request);
    }
  }
  const importLibrary = (name: string) => {
    google.imports.push(name);
    if (name === 'routes' && google.routesFail) return Promise.reject(new Error('The Google Maps JavaScript API could not load.'));
    return Promise.resolve(name === 'routes' ? { DirectionsService } : {});
  };
  const APIProviderContext = createContext<{ importLibrary: typeof importLibrary } | null>(null);
  const context = { importLibrary };
  const fakeMap = { moveCamera: () => undefined };
  return {
    APIProviderContext,
    APIProvider: ({ children, onError }: { children?: ReactNode; onError?: (error: unknown) => void }) => {
      useEffect(() => {
        for (let i = 0; i < google.loaderErrors; i++) onError?.(new Error('The Google Maps JavaScript API could not load.'));
      }, [onError]);
      return <APIProviderContext.Provider value={context}>{children}</APIProviderContext.Provider>;
    },
    Map: ({ children }: { children?: ReactNode }) => <div data-testid="google-map">{children}</div>,
    useMap: () => fakeMap,
  };
});

vi.mock('@deck.gl/google-maps', () => ({
  GoogleMapsOverlay: class {
    setMap() {}
    setProps() {}
    finalize() {}
  },
}));

afterEach(() => {
  cleanupClosures();
  vi.unstubAllEnvs();
  google.loaderErrors = 0;
  google.routesFail = false;
  google.imports = [];
  google.requests = [];
});

const LOAD = { timeout: 20_000 };
const A = { lat: 30.25, lng: -97.75 };
const TURN = { lat: 30.255, lng: -97.745 };
const B = { lat: 30.26, lng: -97.74 };
const X = { lat: 30.2512345, lng: -97.7487654 };
const Y = { lat: 30.2587654, lng: -97.7412345 };
const OFFLINE = [A, { lat: 30.25, lng: -97.74 }, B];

const latLng = (p: LatLng): GoogleLatLngStandIn => ({ lat: () => p.lat, lng: () => p.lng });

/** Google's answer through A, TURN and B: two legs (one per waypoint), 1,609 m in all. */
const GOOGLE_RESULT = {
  routes: [
    {
      overview_path: [A, B].map(latLng),
      legs: [
        {
          start_address: '1200-1298 S Congress Ave, Austin, TX 78704, USA',
          end_address: '300 Barton Springs Rd, Austin, TX 78704, USA',
          distance: { value: 800 },
          steps: [{ path: [A, X].map(latLng) }, { path: [X, TURN].map(latLng) }],
        },
        {
          start_address: '300 Barton Springs Rd, Austin, TX 78704, USA',
          end_address: '500 W Riverside Dr, Austin, TX 78704, USA',
          distance: { value: 809 },
          steps: [{ path: [TURN, Y, B].map(latLng) }],
        },
      ],
    },
  ],
};

function saved(calls: { method: string; body: unknown }[]) {
  return calls
    .filter((c) => c.method === 'POST' && c.body && 'organization_id' in (c.body as object))
    .map((c) => c.body as Record<string, unknown>);
}

const routerCalls = (calls: { path: string }[]) => calls.filter((c) => c.path === '/closure/route');

async function openForm(routes: Record<string, Handler>, { key = 'test-key' } = {}) {
  vi.stubEnv('VITE_GOOGLE_MAPS_API_KEY', key);
  const harness = renderClosures('/dashboard/closures/new', {
    routes: {
      'POST /closure/route': () => json(200, { path: OFFLINE, street_start: 'Lamar Blvd', street_end: 'Riverside Dr', distance_m: 1609 }),
      'POST /organization/closure': () => json(201, PARADE),
      ...routes,
    },
  });
  await screen.findByRole('button', { name: 'Save' }, LOAD);
  return harness;
}

function draw(path: LatLng[]) {
  drawn.path = path;
  fireEvent.click(screen.getByRole('button', { name: /Draw path on map|Redraw path/ }));
}

async function saveWith(description: string, calls: { method: string; body: unknown }[]) {
  fireEvent.change(screen.getByLabelText('Description *'), { target: { value: description } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(saved(calls)).toHaveLength(1));
  return saved(calls)[0]!;
}

describe("part 2 §7 closure routing with a Google key: Google's Directions", () => {
  it("sends origin, destination and the drawn turn as a waypoint (driving); the form keeps Google's path and street names", async () => {
    google.answer = () => Promise.resolve(GOOGLE_RESULT);
    const { calls } = await openForm({});
    expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('google');
    // The routes library is loaded when a path is routed, not before.
    expect(google.imports).not.toContain('routes');

    draw([A, TURN, B]);
    expect(await screen.findByText('Route follows the roads: 1.00 mi', {}, LOAD)).toBeTruthy();
    expect(google.imports.filter((name) => name === 'routes')).toEqual(['routes']);
    expect(google.requests).toEqual([
      {
        origin: A,
        destination: B,
        waypoints: [{ location: TURN, stopover: true }],
        optimizeWaypoints: false,
        travelMode: 'DRIVING',
      },
    ]);
    expect(screen.getByTestId('closure-street-start').textContent).toBe('S Congress Ave');
    expect(screen.getByTestId('closure-street-end').textContent).toBe('W Riverside Dr');
    expect(routerCalls(calls)).toEqual([]);

    const body = await saveWith('Google routed', calls);
    expect(body).toMatchObject({
      user_route: [A, TURN, B],
      calculated_route: [A, X, TURN, Y, B],
      street_start: 'S Congress Ave',
      street_end: 'W Riverside Dr',
    });
  });

  it("part 2 §8 Route drawing: ZERO_RESULTS shows Google's message, keeps the straight drawn path and asks no other router", async () => {
    google.answer = () =>
      Promise.reject(
        Object.assign(new Error('DIRECTIONS_ROUTE: ZERO_RESULTS: No route could be found between the origin and destination.'), {
          code: 'ZERO_RESULTS',
          endpoint: 'DIRECTIONS_ROUTE',
        }),
      );
    const { calls } = await openForm({});
    draw([A, B]);
    expect((await screen.findByTestId('closure-route-error', {}, LOAD)).textContent).toBe(
      'No route could be found between the origin and destination.',
    );
    expect(screen.getByText('No route along roads: the drawn straight path is used.')).toBeTruthy();
    expect(google.requests).toEqual([{ origin: A, destination: B, waypoints: [], optimizeWaypoints: false, travelMode: 'DRIVING' }]);
    expect(routerCalls(calls)).toEqual([]);
    expect(await saveWith('Straight', calls)).toMatchObject({ user_route: [A, B], calculated_route: [A, B] });
  });

  it("a status without a message (NOT_FOUND) shows Google's words for it", async () => {
    google.answer = () => Promise.reject(Object.assign(new Error(''), { code: 'NOT_FOUND' }));
    await openForm({});
    draw([A, B]);
    expect((await screen.findByTestId('closure-route-error', {}, LOAD)).textContent).toBe(
      'At least one of the origin, destination, or waypoints could not be geocoded.',
    );
  });
});

describe('part 2 §7 closure routing falls back to the offline router', () => {
  it('when the loader fails (its error callback called several times): the map is standalone and POST /closure/route answers once', async () => {
    google.loaderErrors = 3;
    google.answer = () => Promise.resolve(GOOGLE_RESULT);
    const { calls } = await openForm({});
    await waitFor(() => expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('standalone'));
    draw([A, B]);
    expect(await screen.findByText('Route follows the roads: 1.00 mi', {}, LOAD)).toBeTruthy();
    expect(screen.getByTestId('closure-street-start').textContent).toBe('Lamar Blvd');
    expect(routerCalls(calls).map((c) => (c as { body?: unknown }).body)).toEqual([{ points: [A, B] }]);
    expect(google.requests).toEqual([]);
    expect(await saveWith('Offline', calls)).toMatchObject({ calculated_route: OFFLINE, street_start: 'Lamar Blvd' });
  });

  it("when Google's routes library fails to load: the offline router's path and streets, no error shown", async () => {
    google.routesFail = true;
    const { calls } = await openForm({});
    expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('google');
    draw([A, TURN, B]);
    expect(await screen.findByText('Route follows the roads: 1.00 mi', {}, LOAD)).toBeTruthy();
    expect(google.imports).toContain('routes');
    expect(routerCalls(calls).map((c) => (c as { body?: unknown }).body)).toEqual([{ points: [A, TURN, B] }]);
    expect(screen.getByTestId('closure-street-end').textContent).toBe('Riverside Dr');
    expect(screen.queryByTestId('closure-route-error')).toBeNull();
  });

  it("the offline router's own failure is still its message (Google's library failed first)", async () => {
    google.routesFail = true;
    await openForm({ 'POST /closure/route': () => json(422, { error: 'no_route', message: 'No road near the drawn point' }) });
    draw([A, B]);
    expect((await screen.findByTestId('closure-route-error', {}, LOAD)).textContent).toBe('No road near the drawn point');
  });
});

describe('without a Google key nothing changes', () => {
  it('the standalone map, POST /closure/route with the drawn points, and nothing asked of Google', async () => {
    google.answer = () => Promise.resolve(GOOGLE_RESULT);
    const { calls } = await openForm({}, { key: '' });
    expect(document.querySelector('[data-provider]')?.getAttribute('data-provider')).toBe('standalone');
    draw([A, TURN, B]);
    expect(await screen.findByText('Route follows the roads: 1.00 mi', {}, LOAD)).toBeTruthy();
    expect(routerCalls(calls).map((c) => (c as { body?: unknown }).body)).toEqual([{ points: [A, TURN, B] }]);
    expect(google.imports).toEqual([]);
    expect(google.requests).toEqual([]);
  });
});
