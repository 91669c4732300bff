/**
 * Routing a drawn path along the roads (part 2 §7 "Closure routing uses a maps directions service
 * (driving, waypoints)"): one interface, `PathRouter`, whoever answers. With a Google key the
 * Google map provider offers Google's Directions service (`googleDirections`, the `routes`
 * library loaded through the provider's own loader on the first request); `routeWithFallback`
 * asks it while the Google map draws and the offline router otherwise, and also when Google's
 * loader or its routing library fails. Google's answer statuses (ZERO_RESULTS, NOT_FOUND, …) are
 * the service's answer, not a failure to fall back from: they reject with a `ServiceError` whose
 * message is Google's (part 2 §8 Route drawing: "The service message, or 'Something went wrong'").
 */
import { ServiceError } from '../domain/errors';
import { truncateLatLng, type LatLng } from '../domain/geometry';

/** A drawn path routed along the roads, with its start and end street names. */
export interface RoutedPath {
  path: LatLng[];
  streetStart: string;
  streetEnd: string;
  distanceM: number;
}

/** Routes the drawn points (start, turns, end) along the roads, in their order. */
export type PathRouter = (points: readonly LatLng[]) => Promise<RoutedPath>;

/** The Google provider's loader of Maps JavaScript API libraries (@vis.gl/react-google-maps's `importLibrary`). */
export type GoogleLibraryImporter = (name: 'routes') => Promise<unknown>;

/** Google could not be asked (its loader, its routing library or its script failed): route another way. */
export class DirectionsUnavailableError extends Error {
  override readonly name = 'DirectionsUnavailableError';
}

/** How long the `routes` library may take to load before the offline router answers instead. */
export const ROUTES_LIBRARY_TIMEOUT_MS = 10_000;

/**
 * Google's words for its statuses (the Maps JavaScript API reference of `DirectionsStatus`), shown
 * when its error carries no message of its own.
 */
export const GOOGLE_DIRECTIONS_STATUS_TEXT: Readonly<Record<string, string>> = {
  INVALID_REQUEST: 'The DirectionsRequest provided was invalid.',
  MAX_WAYPOINTS_EXCEEDED: 'Too many DirectionsWaypoints were provided in the DirectionsRequest.',
  MAX_ROUTE_LENGTH_EXCEEDED: 'The requested route is too long and cannot be processed.',
  NOT_FOUND: 'At least one of the origin, destination, or waypoints could not be geocoded.',
  OVER_QUERY_LIMIT: 'The webpage has gone over the requests limit in too short a period of time.',
  REQUEST_DENIED: 'The webpage is not allowed to use the directions service.',
  UNKNOWN_ERROR: 'A directions request could not be processed due to a server error. The request may succeed if you try again.',
  ZERO_RESULTS: 'No route could be found between the origin and destination.',
};

interface GoogleLatLng {
  lat(): number;
  lng(): number;
}
interface GoogleLeg {
  start_address?: string;
  end_address?: string;
  distance?: { value: number };
  steps?: { path?: GoogleLatLng[] }[];
}
interface GoogleDirectionsResult {
  routes?: { legs?: GoogleLeg[]; overview_path?: GoogleLatLng[] }[];
}
/** The request sent (a google.maps.DirectionsRequest). */
interface GoogleDirectionsRequest {
  origin: LatLng;
  destination: LatLng;
  waypoints: { location: LatLng; stopover: boolean }[];
  optimizeWaypoints: boolean;
  travelMode: 'DRIVING';
}
/** What is used of Google's `routes` library (google.maps.DirectionsService). */
interface RoutesLibrary {
  DirectionsService: new () => { route(request: GoogleDirectionsRequest): Promise<GoogleDirectionsResult> };
}

/**
 * The street of a Google address: its first part without the house number
 * ('1200-1298 S Congress Ave, Austin, TX 78704, USA' → 'S Congress Ave'; '1st St' stays).
 */
export function streetOfAddress(address: string | undefined): string {
  const first = (address ?? '').split(',')[0]?.trim() ?? '';
  return first.replace(/^\d+[A-Za-z]?(?:[-–]\d+[A-Za-z]?)?\s+/, '');
}

/** Google's message of a status error ('DIRECTIONS_ROUTE: ZERO_RESULTS: No route…' → 'No route…'), else its status's words. */
function googleMessage(code: string, message: unknown): string | null {
  const own = typeof message === 'string' ? message.replace(/^[A-Z_]+: [A-Z_]+:\s*/, '').trim() : '';
  if (own && own !== code) return own;
  return GOOGLE_DIRECTIONS_STATUS_TEXT[code] ?? null;
}

function isStatusError(error: unknown): error is { code: string; message?: unknown } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    Object.hasOwn(GOOGLE_DIRECTIONS_STATUS_TEXT, (error as { code: string }).code)
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

const toLatLng = (p: GoogleLatLng): LatLng => truncateLatLng({ lat: p.lat(), lng: p.lng() });

/** The route's path: every step's points in order (consecutive repeats dropped), else its overview. */
function pathOf(route: { legs?: GoogleLeg[]; overview_path?: GoogleLatLng[] }): LatLng[] {
  const path: LatLng[] = [];
  for (const leg of route.legs ?? []) {
    for (const step of leg.steps ?? []) {
      for (const point of step.path ?? []) {
        const next = toLatLng(point);
        const last = path[path.length - 1];
        if (!last || last.lat !== next.lat || last.lng !== next.lng) path.push(next);
      }
    }
  }
  return path.length >= 2 ? path : (route.overview_path ?? []).map(toLatLng);
}

/**
 * Google's Directions service as a PathRouter: driving from the first drawn point to the last,
 * the points between as waypoints in their order; the path from the route's steps, the street
 * names from its first leg's start and last leg's end address. Rejects with a `ServiceError`
 * (Google's message) on a status, with `DirectionsUnavailableError` when the library cannot be had.
 */
export function googleDirections(importLibrary: GoogleLibraryImporter, libraryTimeoutMs = ROUTES_LIBRARY_TIMEOUT_MS): PathRouter {
  let service: Promise<InstanceType<RoutesLibrary['DirectionsService']>> | null = null;
  const directionsService = () => {
    if (service) return service;
    const loading = withTimeout(importLibrary('routes'), libraryTimeoutMs).then((library) => {
      const routes = library as Partial<RoutesLibrary> | null;
      if (typeof routes?.DirectionsService !== 'function') throw new Error('the routes library has no DirectionsService');
      return new routes.DirectionsService();
    });
    // A failed load is asked again next time (the provider's loader decides whether it can load).
    loading.catch(() => {
      if (service === loading) service = null;
    });
    service = loading;
    return loading;
  };
  return async (points) => {
    const first = points[0];
    const last = points[points.length - 1];
    if (!first || !last || points.length < 2) throw new ServiceError({ message: null });
    let directions: Awaited<ReturnType<typeof directionsService>>;
    try {
      directions = await directionsService();
    } catch (error) {
      throw new DirectionsUnavailableError('Google routes library unavailable', { cause: error });
    }
    let result: GoogleDirectionsResult;
    try {
      result = await directions.route({
        origin: { lat: first.lat, lng: first.lng },
        destination: { lat: last.lat, lng: last.lng },
        waypoints: points.slice(1, -1).map((p) => ({ location: { lat: p.lat, lng: p.lng }, stopover: true })),
        optimizeWaypoints: false,
        travelMode: 'DRIVING',
      });
    } catch (error) {
      if (isStatusError(error)) throw new ServiceError({ code: error.code, message: googleMessage(error.code, error.message) });
      throw new DirectionsUnavailableError('Google directions request failed', { cause: error });
    }
    const route = result.routes?.[0];
    const legs = route?.legs ?? [];
    const path = route ? pathOf(route) : [];
    if (path.length < 2) throw new ServiceError({ code: 'ZERO_RESULTS', message: GOOGLE_DIRECTIONS_STATUS_TEXT.ZERO_RESULTS });
    return {
      path,
      streetStart: streetOfAddress(legs[0]?.start_address),
      streetEnd: streetOfAddress(legs[legs.length - 1]?.end_address),
      distanceM: legs.reduce((sum, leg) => sum + (leg.distance?.value ?? 0), 0),
    };
  };
}

/**
 * The provider's directions service when there is one now (read at each request: Google's map may
 * have fallen back since), else `fallback`; `fallback` also answers when the directions service is
 * unavailable. Any other failure (the service's status, the fallback's own) reaches the caller.
 */
export function routeWithFallback(directions: () => PathRouter | null, fallback: PathRouter): PathRouter {
  return async (points) => {
    const primary = directions();
    if (!primary) return fallback(points);
    try {
      return await primary(points);
    } catch (error) {
      if (error instanceof DirectionsUnavailableError) return fallback(points);
      throw error;
    }
  };
}
