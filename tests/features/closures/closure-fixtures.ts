/**
 * Closures of the closures-section tests around NOW, and the app rendered with the real live
 * engine (the worker's closure copy) and the page's own calls.
 */
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import type { ClosureWire } from '../../../src/domain/closure';
import { FakeApi, NOW, ORG, iso, thing } from '../../support/live-fixtures';
import { json, renderApp, signedInRoutes, type AppHarness, type Handler } from '../../app/support/render-app';

export { NOW, ORG };
const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export const ROUTE = [
  { lat: 30.26, lng: -97.75 },
  { lat: 30.262, lng: -97.75 },
  { lat: 30.262, lng: -97.745 },
];

export function closureWire(id: string, overrides: Partial<ClosureWire> = {}): ClosureWire {
  return {
    id,
    closure_type: 'manual',
    is_active: false,
    description: id,
    alert_message: null,
    direction: 'N',
    street_start: 'Lamar Blvd',
    street_end: '5th St',
    external_id: null,
    calculated_route: ROUTE,
    user_route: [ROUTE[0]!, ROUTE[2]!],
    impacted_lanes: [1],
    is_in_service: true,
    organization: { id: ORG, name: 'Travis County Regional' },
    thing: null,
    start_time: null,
    end_time: null,
    last_start_time: null,
    is_wzdx_compliant: false,
    is_dashboard_managed: true,
    location_method: null,
    vehicle_impact: null,
    group_id: null,
    ...overrides,
  };
}

/** Manual, active, published. */
export const BRIDGE = closureWire('c-bridge', {
  description: 'Bridge deck repair',
  is_active: true,
  start_time: iso(NOW - HOUR),
  end_time: iso(NOW + 2 * DAY),
  alert_message: 'Right lane closed',
  direction: 'S',
  impacted_lanes: [1, 2],
  external_id: 'wz-bridge',
  location_method: 'channel-device-method',
  vehicle_impact: 'some-lanes-closed',
  group_id: 'bridges',
  is_wzdx_compliant: true,
});
/** Manual, inactive (standby). */
export const PARADE = closureWire('c-parade', { description: 'Parade route' });
/** Automated by an asset heard 10 minutes ago (standby). */
export const CREW = closureWire('c-crew', {
  closure_type: 'automated',
  description: 'Crew work zone',
  thing: { id: 'thing-00001', haas_id: 'ha-00001', nickname: 'Arrow 7', heartbeat_datetime: iso(NOW - 10 * 60_000) },
});
/** From another agency's feed, active. */
export const FEED = closureWire('c-feed', {
  closure_type: 'feed',
  description: 'State DOT lane closure',
  is_active: true,
  external_id: 'txdot-77',
  is_dashboard_managed: false,
});
/** Automated, asset silent for 5 days (offline: hidden by the default filter). */
export const OLD = closureWire('c-old', {
  closure_type: 'automated',
  description: 'Old sign job',
  thing: { id: 'thing-00002', haas_id: 'ha-00002', nickname: 'Sign 2', heartbeat_datetime: iso(NOW - 5 * DAY) },
});
/** Manual, out of service. */
export const OOS = closureWire('c-oos', { description: 'Culvert works', is_in_service: false });

export const ALL_CLOSURES = [BRIDGE, PARADE, CREW, FEED, OLD, OOS];
export const MANAGE = ['closure:read', 'closure:manage'];

const harnesses: AppHarness[] = [];

export function renderClosures(
  path: string,
  {
    permissions = MANAGE,
    closures = ALL_CLOSURES,
    routes = {},
    isWzdxOrg = false,
  }: { permissions?: string[]; closures?: ClosureWire[]; routes?: Record<string, Handler>; isWzdxOrg?: boolean } = {},
): AppHarness & { api: FakeApi } {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(NOW);
  const api = new FakeApi();
  api.setThings([thing(1), thing(2)]);
  for (const closure of closures) api.setClosure(closure);
  const harness = renderApp(
    path,
    {
      ...signedInRoutes(permissions, { organization_id: ORG, user_org: { id: ORG, name: 'Travis County Regional' } }),
      [`GET /organization/${ORG}`]: () => json(200, { id: ORG, name: 'Travis County Regional', is_wzdx_org: isWzdxOrg }),
      ...routes,
    },
    { signedIn: true, live: api },
  );
  harnesses.push(harness);
  return { ...harness, api };
}

export function cleanupClosures(): void {
  cleanup();
  for (const harness of harnesses.splice(0)) harness.services.session.signOut();
  vi.useRealTimers();
}
