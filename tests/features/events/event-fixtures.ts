/**
 * Events of the events-section tests, placed around NOW (2026-11-22 12:00 UTC = 06:00 in
 * America/Chicago, the profile's zone), and the app rendered with the real live engine.
 */
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import type { LocationWireInput } from '../../../src/domain/location';
import { FakeApi, NOW, ORG, iso, thing } from '../../support/live-fixtures';
import { renderApp, signedInRoutes, type AppHarness, type Handler } from '../../app/support/render-app';

export { NOW };
export const TIME_ZONE = 'America/Chicago';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function vehicle(i: number, nickname: string, start: number, end: number | null, runtime: number) {
  return {
    id: `thing-${String(i).padStart(5, '0')}`,
    haas_id: `ha-${String(i).padStart(5, '0')}`,
    nickname,
    start_time: iso(start),
    end_time: end === null ? null : iso(end),
    runtime,
  };
}

export function eventWire(id: string, overrides: Partial<LocationWireInput> = {}): LocationWireInput {
  return {
    id,
    display_name: id,
    is_active: true,
    is_geo_marker: false,
    lat: 30.2672,
    lng: -97.7431,
    street: null,
    roadway_heading: null,
    start_time: iso(NOW - HOUR),
    end_time: null,
    organization_id: ORG,
    things_active: [],
    things_inactive: [],
    ...overrides,
  };
}

/** Active, 30 min old, a heading, an alert message, a system id, one vehicle on scene and one gone. */
export const FIRE = eventWire('loc-fire', {
  display_name: 'Structure Fire',
  street: 'Congress Ave',
  external_id: 'CAD-1001',
  roadway_heading: 90,
  alert_message: 'Avoid the area',
  start_time: iso(NOW - 30 * MINUTE),
  things_active: [vehicle(1, 'Engine 1', NOW - 20 * MINUTE, null, 1_200)],
  things_inactive: [vehicle(2, 'Medic 2', NOW - 25 * MINUTE, NOW - 10 * MINUTE, 900)],
});
/** Active, 5 min old, no roadway heading. */
export const COLLISION = eventWire('loc-collision', { display_name: 'Collision', street: 'Lamar Blvd', start_time: iso(NOW - 5 * MINUTE) });
/** Active geo marker, an hour old. */
export const MARKER = eventWire('loc-marker', { display_name: 'Geo Marker Site', is_geo_marker: true, start_time: iso(NOW - HOUR) });
/** Ended 2 h ago (today in Chicago). */
export const MEDICAL = eventWire('loc-medical', {
  display_name: 'Medical Call',
  is_active: false,
  start_time: iso(NOW - 3 * HOUR),
  end_time: iso(NOW - 2 * HOUR),
  roadway_heading: 0,
});
/** Ended 20 h ago (yesterday in Chicago, within 24 hrs). */
export const VEHICLE_FIRE = eventWire('loc-vehicle-fire', {
  display_name: 'Vehicle Fire',
  is_active: false,
  start_time: iso(NOW - 21 * HOUR),
  end_time: iso(NOW - 20 * HOUR),
});
/** Ended 3 days ago (only under All Recent). */
export const BRUSH_FIRE = eventWire('loc-brush-fire', {
  display_name: 'Brush Fire',
  is_active: false,
  start_time: iso(NOW - 73 * HOUR),
  end_time: iso(NOW - 72 * HOUR),
});

export const ALL_EVENTS = [FIRE, COLLISION, MARKER, MEDICAL, VEHICLE_FIRE, BRUSH_FIRE];

const harnesses: AppHarness[] = [];

/**
 * Renders `path` signed in with `permissions`, the clock (Date only; timers stay real) at NOW and
 * moving on, the events given to the real live engine, and `routes` for the page's own calls.
 * `fakeIntervals`: setInterval is faked too (a test moves minutes on with vi.advanceTimersByTime).
 */
export function renderEvents(
  path: string,
  {
    permissions = ['incident:read', 'incident:update'],
    events = ALL_EVENTS,
    routes = {},
    fakeIntervals = false,
  }: { permissions?: string[]; events?: LocationWireInput[]; routes?: Record<string, Handler>; fakeIntervals?: boolean } = {},
): AppHarness & { api: FakeApi } {
  vi.useFakeTimers({ toFake: fakeIntervals ? ['Date', 'setInterval', 'clearInterval'] : ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(NOW);
  const api = new FakeApi();
  api.setThings([thing(1)]);
  for (const event of events) api.setLocation(event);
  const harness = renderApp(path, { ...signedInRoutes(permissions, { timezone: TIME_ZONE }), ...routes }, { signedIn: true, live: api });
  harnesses.push(harness);
  return { ...harness, api };
}

/** afterEach: unmount, stop the engines, give the clock back. */
export function cleanupEvents(): void {
  cleanup();
  for (const harness of harnesses.splice(0)) harness.services.session.signOut();
  vi.useRealTimers();
}
