// @vitest-environment jsdom
/**
 * The dashboard map's layers control (docs/map.md "Layers"): the toggles each user's permissions
 * allow (nothing fetched for the others), the choice remembered per user across remounts, the
 * legend of the colours drawn, the closures (in effect and scheduled), zones and hazards drawn from
 * any section with their popups and links, and nothing drawn twice while a section's own page draws
 * it. The sections' map layers are handed to the map as the router does. The REAL live engine and bridge run in-process over FakeApi (the worker's closures); the
 * zones and hazard calls are answered at the HTTP boundary. jsdom has no WebGL: deck.gl's <DeckGL>
 * is a stand-in that keeps the layers the map hands it; the map writes their ids on `data-layers`.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Layer, LayersList, PickingInfo } from '@deck.gl/core';
import { ScatterplotLayer } from '@deck.gl/layers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveBridge } from '../../../src/app/live/bridge';
import { liveOf, LiveProvider } from '../../../src/app/live/hooks';
import { DashboardMap } from '../../../src/app/map/dashboard-map';
import { MapLayerContentContext, type MapLayerContent } from '../../../src/app/map/layer-overlays';
import { createMapState, showOnMap, type MapState } from '../../../src/app/map/map-state';
import { MAP_LAYERS_PREFIX } from '../../../src/app/map/use-map-layers-memory';
import { createAppServices, ServicesContext, type AppServices } from '../../../src/app/services';
import type { AlertingZoneWire } from '../../../src/domain/alerting-zone';
import { DAY_MS, HOUR_MS } from '../../../src/domain/constants';
import type { HazardWire } from '../../../src/domain/hazard';
import { ClosuresMapLayer } from '../../../src/features/closures/closures-map-layer';
import { HazardsMapLayer } from '../../../src/features/hazards/hazards-map-layer';
import { ZonesMapLayer } from '../../../src/features/zones/zones-map-layer';
import { closureWire } from '../../features/closures/closure-fixtures';
import { FakeApi, iso, thing } from '../../support/live-fixtures';
import { giveProfile } from '../support/give-profile';
import { json } from '../support/render-app';
import { startPollingLive } from '../support/live-harness';

interface DeckStandInProps {
  layers: LayersList;
  views: { id: string };
}

const deck = vi.hoisted(() => ({ props: null as DeckStandInProps | null }));

vi.mock('@deck.gl/react', () => ({
  default: (props: DeckStandInProps) => {
    if (props.views.id !== 'basemap') deck.props = props;
    return <div data-testid={`deck-${props.views.id}`} />;
  },
}));

const LOAD = { timeout: 5_000 };
const ALL = ['haas:manage', 'hazard:read'];

const ZONE: AlertingZoneWire = {
  id: 'z-school',
  external_id: null,
  alerting_zone_type_name: 'School Zone',
  alert_message: 'School zone: 20 mph',
  description: 'Austin High School zone',
  features: [
    {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-97.75, 30.27],
            [-97.74, 30.27],
            [-97.74, 30.28],
            [-97.75, 30.27],
          ],
        ],
      },
      properties: {},
    },
  ],
  is_active: true,
  active_things: [],
  active_locations: { default_expiry: 3600 },
};

function hazardWire(now: number): HazardWire {
  return {
    id: 'h-ice',
    organization_id: 'org-1',
    organization_name: 'Travis County Regional',
    thing_id: 'thing-00001',
    thing_name: 'Unit 1',
    hazard_type: 'ice',
    severity: 'high',
    lat: 30.3,
    lng: -97.7,
    reported_at: iso(now - HOUR_MS),
  };
}

let api: FakeApi;
let bridge: LiveBridge;
let services: AppServices;
let map: MapState;
let asked: URL[];

/** The sections' map layers, as the router hands them to the map (there each in its own chunk). */
const CONTENT: MapLayerContent = { closures: ClosuresMapLayer, zones: ZonesMapLayer, hazards: HazardsMapLayer };

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderMap(permissions: string[] = ALL, userId = 'user-1') {
  giveProfile(services, permissions, { id: userId });
  map = createMapState();
  map.view = { longitude: -97.72, latitude: 30.3, zoom: 13, bounds: [-98, 30, -97.4, 30.6] };
  return render(
    <ServicesContext.Provider value={services}>
      <MemoryRouter initialEntries={['/dashboard/things']}>
        <LiveProvider value={liveOf(bridge)}>
          <MapLayerContentContext.Provider value={CONTENT}>
            <DashboardMap map={map} />
          </MapLayerContentContext.Provider>
        </LiveProvider>
        <Where />
      </MemoryRouter>
    </ServicesContext.Provider>,
  );
}

const drawnIds = () => (screen.getByTestId('dashboard-map').dataset.layers ?? '').split(' ').filter(Boolean);
function deckLayer(id: string): Layer {
  const found = (deck.props?.layers ?? []).find((l): l is Layer => !!l && typeof l === 'object' && 'id' in l && l.id === id);
  if (!found) throw new Error(`no layer ${id}`);
  return found;
}
interface Pickable<T> {
  data: T[];
  onHover: (info: Partial<PickingInfo<T>>) => boolean;
  onClick: (info: Partial<PickingInfo<T>>) => boolean;
}
const propsOf = <T,>(id: string) => deckLayer(id).props as unknown as Pickable<T>;
const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
const toggleNames = () => screen.getAllByRole('checkbox').map((box) => box.closest('label')?.textContent);
const legendOf = (key: string) => [...document.querySelectorAll(`[data-legend="${key}"] li`)].map((entry) => entry.textContent);

const settle = (call: () => void) =>
  act(async () => {
    call();
    await Promise.resolve();
  });

beforeEach(async () => {
  deck.props = null;
  localStorage.clear();
  vi.stubGlobal('fetch', () => Promise.reject(new Error('no basemap in jsdom')));
  api = new FakeApi();
  const now = Date.now();
  api.setThings([thing(1, { lat: 30.3, lng: -97.7, heartbeat_datetime: iso(now) })]);
  api.setClosure(
    closureWire('c-active', {
      description: 'Bridge deck repair',
      is_active: true,
      start_time: iso(now - HOUR_MS),
      end_time: iso(now + DAY_MS),
    }),
  );
  api.setClosure(
    closureWire('c-scheduled', { description: 'Parade route', start_time: iso(now + DAY_MS), end_time: iso(now + 2 * DAY_MS) }),
  );
  // Neither in effect nor scheduled: the control never draws it.
  api.setClosure(closureWire('c-idle', { description: 'Idle closure' }));
  const live = await startPollingLive(api, 1);
  bridge = live.bridge;
  asked = [];
  const fetchHere = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://api.test');
    asked.push(url);
    if (url.pathname === '/organization/alerting_zones') return Promise.resolve(json(200, [ZONE]));
    if (url.pathname === '/organization/hazards') {
      return Promise.resolve(json(200, { start_time: iso(now - DAY_MS), end_time: iso(now), hazards: [hazardWire(now)], counts: [] }));
    }
    return live.fetch(input, init);
  }) as typeof fetch;
  services = createAppServices({ fetch: fetchHere, storage: null, channel: false, createBridge: null });
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await bridge.dispose();
});

describe('the toggles a user gets', () => {
  it('every overlay its permissions allow, after Display Assets and Display Incidents', () => {
    renderMap(ALL);
    expect(toggleNames()).toEqual([
      'Display Assets',
      'Display Incidents',
      'Display Areas',
      'Active closures',
      'Scheduled closures',
      'Alerting zones',
      'Recent hazards (24 hrs)',
    ]);
  });

  it('closures only with the closures section; no areas, zones or hazards without theirs', () => {
    renderMap(['thing:read', 'incident:read', 'closure:read']);
    expect(toggleNames()).toEqual(['Display Assets', 'Display Incidents', 'Active closures', 'Scheduled closures']);
  });

  it('a forbidden overlay a stored choice has on is neither drawn nor fetched', async () => {
    localStorage.setItem(`${MAP_LAYERS_PREFIX}user-1`, JSON.stringify({ closuresActive: true, zones: true, hazards: true }));
    renderMap(['thing:read', 'incident:read']);
    await waitFor(() => expect(drawnIds()).toContain('assets'), LOAD);
    expect(screen.queryByRole('checkbox', { name: 'Alerting zones' })).toBeNull();
    expect(drawnIds().some((id) => /^(closures|zones|hazards)-/.test(id))).toBe(false);
    expect(asked.some((url) => url.pathname === '/organization/alerting_zones' || url.pathname === '/organization/hazards')).toBe(false);
    expect(Object.keys(map.sections)).toEqual([]);
  });

  it('on a phone the panel folds under its title, closed at first, as the map views do', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      addEventListener() {},
      removeEventListener() {},
    }));
    renderMap(ALL);
    const folded = screen.getByText('Layers').closest('details')!;
    expect(folded.open).toBe(false);
    expect(within(folded).getByRole('checkbox', { name: 'Active closures' })).toBeTruthy();
  });
});

describe('the choice is remembered per user', () => {
  it('across remounts for the same user; another user starts from the defaults', async () => {
    const first = renderMap(ALL, 'user-1');
    fireEvent.click(checkbox('Active closures'));
    fireEvent.click(checkbox('Display Incidents'));
    await waitFor(() => expect(drawnIds()).toContain('closures-paths'), LOAD);
    first.unmount();

    const again = renderMap(ALL, 'user-1');
    await waitFor(() => expect(checkbox('Active closures').checked).toBe(true));
    expect(checkbox('Display Incidents').checked).toBe(false);
    expect(checkbox('Scheduled closures').checked).toBe(false);
    await waitFor(() => expect(drawnIds()).toContain('closures-paths'), LOAD);
    expect(drawnIds()).not.toContain('events');
    again.unmount();

    renderMap(ALL, 'user-2');
    expect(checkbox('Active closures').checked).toBe(false);
    expect(checkbox('Display Incidents').checked).toBe(true);
    expect(checkbox('Display Areas').checked).toBe(true);
  });
});

describe('the overlays drawn, their legend and popups', () => {
  it('closures in effect and scheduled, each by its toggle; the legend names the status colours; a popup links to the closure', async () => {
    renderMap(ALL);
    await waitFor(() => expect(drawnIds()).toContain('assets'), LOAD);
    expect(drawnIds().some((id) => id.startsWith('closures-'))).toBe(false);
    expect(document.querySelector('[data-legend="closures"]')).toBeNull();

    fireEvent.click(checkbox('Active closures'));
    await waitFor(() => expect(propsOf<{ id: string }>('closures-paths').data.map((d) => d.id)).toEqual(['c-active']), LOAD);
    expect(drawnIds()).toEqual(expect.arrayContaining(['closures-paths', 'closures-arrows', 'closures-markers']));
    expect(legendOf('closures')).toEqual(['Active', 'Standby', 'Pending', 'Offline', 'Closure start', 'Closure end']);

    fireEvent.click(checkbox('Scheduled closures'));
    await waitFor(() =>
      expect(
        propsOf<{ id: string }>('closures-paths')
          .data.map((d) => d.id)
          .sort(),
      ).toEqual(['c-active', 'c-scheduled']),
    );

    // Hover: the summary as a tooltip; a click pins it with the link to the closure's page.
    await settle(() => void propsOf<{ id: string }>('closures-paths').onHover({ object: { id: 'c-scheduled' }, x: 200, y: 100 }));
    expect(screen.getByRole('tooltip', { name: 'Parade route' }).textContent).toContain('Standby');
    await settle(() => void propsOf<{ id: string }>('closures-paths').onClick({ object: { id: 'c-scheduled' }, x: 200, y: 100 }));
    const popup = await screen.findByRole('dialog', { name: 'Parade route' });
    expect(popup.textContent).toContain('Lamar Blvd');
    const link = within(popup).getByRole('link', { name: 'Open closure' });
    expect(link.getAttribute('href')).toBe('/dashboard/closures/c-scheduled');
    fireEvent.click(link);
    expect(screen.getByTestId('path').textContent).toBe('/dashboard/closures/c-scheduled');
  });

  it('alerting zones and recent hazards: fetched once on, drawn, in the legend, with popups linking to their pages', async () => {
    renderMap(ALL);
    await waitFor(() => expect(drawnIds()).toContain('assets'), LOAD);
    expect(asked.some((url) => url.pathname === '/organization/alerting_zones')).toBe(false);

    fireEvent.click(checkbox('Alerting zones'));
    await waitFor(() => expect(propsOf<{ id: string }>('zones-shapes').data.map((d) => d.id)).toEqual(['z-school']), LOAD);
    expect(legendOf('zones')).toEqual(['Active', 'Standby']);
    await settle(
      () =>
        void propsOf<{ id: string }>('zones-shapes').onClick({ object: { id: 'z-school' }, x: 300, y: 200, coordinate: [-97.745, 30.275] }),
    );
    const zonePopup = await screen.findByRole('dialog', { name: 'Austin High School zone' });
    expect(zonePopup.textContent).toContain('School zone: 20 mph');
    expect(within(zonePopup).getByRole('link', { name: 'Open alerting zones' }).getAttribute('href')).toBe('/dashboard/zones');

    fireEvent.click(checkbox('Recent hazards (24 hrs)'));
    await waitFor(() => expect(propsOf<HazardWire>('hazards-points').data.map((h) => h.id)).toEqual(['h-ice']), LOAD);
    const call = asked.find((url) => url.pathname === '/organization/hazards')!;
    expect(call.searchParams.get('all_types')).toBe('true');
    expect(call.searchParams.getAll('severities[]')).toEqual(['low', 'medium', 'high']);
    expect(Date.parse(call.searchParams.get('end_time')!) - Date.parse(call.searchParams.get('start_time')!)).toBe(DAY_MS);
    expect(legendOf('hazards')).toEqual(['Low', 'Medium', 'High']);
    await settle(() => void propsOf<HazardWire>('hazards-points').onClick({ object: hazardWire(Date.now()), x: 10, y: 10 }));
    const hazardPopup = await screen.findByRole('dialog', { name: 'Ice' });
    expect(hazardPopup.textContent).toContain('High');
    expect(within(hazardPopup).getByRole('link', { name: 'Open hazard report' }).getAttribute('href')).toBe('/dashboard/hazards');
  });

  it("'Display Areas' off takes the area layers off", async () => {
    renderMap(ALL);
    await waitFor(() => expect(drawnIds()).toContain('area-shapes'), LOAD);
    expect(legendOf('areas')).toEqual(['Area']);
    fireEvent.click(checkbox('Display Areas'));
    await waitFor(() => expect(drawnIds()).not.toContain('area-shapes'));
    expect(drawnIds()).not.toContain('area-markers');
    expect(document.querySelector('[data-legend="areas"]')).toBeNull();
  });

  it("while the closures page draws its own, the control's copy is off the map (nothing twice), and back after", async () => {
    renderMap(ALL);
    fireEvent.click(checkbox('Active closures'));
    await waitFor(() => expect(drawnIds()).toContain('closures-paths'), LOAD);
    expect(Object.keys(map.sections)).toEqual(['layers-closures']);

    let hide = () => {};
    await settle(() => {
      hide = showOnMap(map, 'closures', { under: [new ScatterplotLayer({ id: 'closures-paths', data: [] })] });
    });
    await waitFor(() => expect(Object.keys(map.sections)).toEqual(['closures']));
    expect(drawnIds().filter((id) => id === 'closures-paths')).toHaveLength(1);

    await settle(() => hide());
    await waitFor(() => expect(Object.keys(map.sections)).toEqual(['layers-closures']), LOAD);
    expect(drawnIds().filter((id) => id === 'closures-paths')).toHaveLength(1);
  });
});
