// @vitest-environment jsdom
/**
 * part 2 §2 Alerting zones, §4, §8 Zones fetch: the zones page over a fake server (the fetch is the
 * only stand-in; the page, its query cache, the domain and the map state are the real ones): the
 * list (active first, rows, 'Showing (x/total)', org_ids[]), the type and status filters, the
 * search rule, the re-test rule as a table of filter changes around a server-side change, the
 * catalogue's texts for a failed fetch, the remembered List/Map switch and the zones on the map.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Outlet, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMapState, type MapState } from '../../../src/app/map/map-state';
import { createAppServices, ServicesContext, type AppServices } from '../../../src/app/services';
import type { ShellContext } from '../../../src/app/shell/dashboard-layout';
import type { AlertingZoneWire } from '../../../src/domain/alerting-zone';
import { fromProfileWire, profileWireSchema } from '../../../src/domain/profile';
import { ZONES_VIEW_PREFIX } from '../../../src/features/zones/use-zones-view-mode';
import { ZonesPage } from '../../../src/features/zones/zones-page';
import { json, MemoryStorage, profileWire } from '../../app/support/render-app';

const ORG = '00000000-0000-4000-8000-000000000001';
const LOAD = { timeout: 5_000 };
/** A failed fetch (no answer or 5xx) is tried twice more, with react-query's back-off, before it shows. */
const FAILED = { timeout: 10_000 };

const square = {
  type: 'Feature' as const,
  geometry: {
    type: 'Polygon' as const,
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
};

function zoneWire(id: string, overrides: Partial<AlertingZoneWire> = {}): AlertingZoneWire {
  return {
    id,
    external_id: null,
    alerting_zone_type_name: 'Work Zone',
    alert_message: null,
    description: null,
    features: [square],
    is_active: true,
    active_things: [],
    active_locations: { default_expiry: 3600 },
    ...overrides,
  };
}

const SCHOOL = zoneWire('z-1', {
  external_id: 'AZ-APD-001',
  alerting_zone_type_name: 'School Zone',
  description: 'Austin High School zone',
  alert_message: 'School zone: 20 mph',
  active_things: [{ id: 't-medic', haas_id: 'unit-12', nickname: 'Medic 7' }],
});
const BRIDGE = zoneWire('z-2', {
  external_id: 'AZ-2',
  description: 'Bridge works',
  is_active: false,
  active_things: [{ id: 't-tow', haas_id: 'tow-3', nickname: null }],
});
const NAMELESS = zoneWire('z-3');

interface Setup {
  zones?: AlertingZoneWire[];
  answer?: () => Response | Promise<Response>;
}

let services: AppServices;
const asked: URL[] = [];

function setup({ zones = [SCHOOL, BRIDGE, NAMELESS], answer }: Setup = {}) {
  asked.length = 0;
  let list = [...zones];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://lightbar.test');
    asked.push(url);
    if (url.pathname === '/organization/alerting_zones') return answer ? answer() : json(200, list);
    return json(404, { error: 'not_found', message: 'Not found' });
  });
  services = createAppServices({
    fetch: fetch as unknown as typeof globalThis.fetch,
    storage: new MemoryStorage(),
    channel: false,
    createBridge: null,
  });
  const profile = fromProfileWire(
    profileWireSchema.parse(profileWire(['zone:read'], { organization_id: ORG, user_org: { id: ORG, name: 'Travis' } })),
  );
  services.session.state.profile = profile;
  const map: MapState = createMapState();
  const context: ShellContext = { profile, mobile: false, mix: 'all', map, organizationId: ORG };
  const view = render(
    <ServicesContext.Provider value={services}>
      <MemoryRouter initialEntries={['/dashboard/zones']}>
        <Routes>
          <Route path="/dashboard" element={<Outlet context={context} />}>
            <Route path="zones/*" element={<ZonesPage />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </ServicesContext.Provider>,
  );
  return {
    map,
    unmount: view.unmount,
    /** The server's zones change; the page sees them on its next fetch. */
    async serverChanges(next: AlertingZoneWire[]) {
      list = next;
      await act(() => services.queries.invalidateQueries({ queryKey: ['zones'] }));
    },
  };
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  services.queries.clear();
});

const rowNames = () => Array.from(document.querySelectorAll('.zone-row-name')).map((el) => el.textContent);
const search = (text: string) => fireEvent.change(screen.getByPlaceholderText('Search zones'), { target: { value: text } });
/** The search box hands on what is typed once typing pauses (250 ms, part 1 §9). */
const typingPause = () => act(() => new Promise((resolve) => setTimeout(resolve, 400)));
const tick = (name: string, on: boolean) => {
  const box = screen.getByRole('checkbox', { name }) as HTMLInputElement;
  if (box.checked !== on) fireEvent.click(box);
};

describe('part2 §2 alerting zones list', () => {
  it("shows 'Alerting zones', active first (§4), each row's fields, 'Showing (x/total)', and asks with org_ids[]", async () => {
    setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Alerting zones' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading zones...');
    await waitFor(() => expect(rowNames()).toEqual(['Austin High School zone', 'z-3', 'Bridge works']), LOAD);
    expect(screen.getByText('Showing (3/3)')).toBeTruthy();
    const school = document.querySelector('[data-zone-id="z-1"]') as HTMLElement;
    expect(school.textContent).toContain('School Zone');
    expect(school.textContent).toContain('External id AZ-APD-001');
    expect(school.textContent).toContain('Assets: Medic 7');
    expect(school.querySelector('.zone-status')!.textContent).toBe('Active');
    const bridge = document.querySelector('[data-zone-id="z-2"]') as HTMLElement;
    expect(bridge.querySelector('.zone-status')!.textContent).toBe('Standby');
    expect(bridge.textContent).toContain('Assets: TOW-3');
    expect((document.querySelector('[data-zone-id="z-3"]') as HTMLElement).textContent).toContain('No assets');
    expect(asked.map((url) => url.searchParams.getAll('org_ids[]'))).toEqual([[ORG]]);
  });

  it('offers one type checkbox per type present; unticking hides the type, the status boxes filter, the count follows', async () => {
    const page = setup();
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    const types = Array.from(screen.getByRole('group', { name: 'Zone type' }).querySelectorAll('label')).map((l) => l.textContent);
    expect(types).toEqual(['School Zone', 'Work Zone']);
    tick('Work Zone', false);
    expect(rowNames()).toEqual(['Austin High School zone']);
    expect(screen.getByText('Showing (1/3)')).toBeTruthy();
    tick('Work Zone', true);
    tick('Active', false);
    expect(rowNames()).toEqual(['Bridge works']);
    expect(screen.getByText('Showing (1/3)')).toBeTruthy();
    tick('Standby', false);
    expect(screen.getByText('No zones match.')).toBeTruthy();
    expect(screen.getByText('Showing (0/3)')).toBeTruthy();
    // The map draws the shown zones only: none now.
    const shapes = (page.map.sections.zones?.under ?? []).find((layer) => (layer as { id: string }).id === 'zones-shapes');
    expect((shapes as { props: { data: unknown[] } }).props.data).toEqual([]);
  });

  it.each([
    ['', ['Austin High School zone', 'z-3', 'Bridge works']],
    ['BRIDGE', ['Bridge works']],
    ['az-apd', ['Austin High School zone']],
    ['z-3', ['z-3']],
    ['medic', ['Austin High School zone']],
    ['t-tow', ['Bridge works']],
    ['tow-3', ['Bridge works']],
    ['nowhere', []],
  ])('part2 §2 search %j (zone id, description, its assets ids and names; any case) shows %j', async (text, expected) => {
    setup();
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    search(text);
    await waitFor(() => expect(rowNames()).toEqual(expected));
    expect(screen.getByText(`Showing (${expected.length}/3)`)).toBeTruthy();
  });

  it('shows the empty text when the organization has no zones', async () => {
    setup({ zones: [] });
    await screen.findByText('No alerting zones yet.', undefined, LOAD);
    expect(screen.getByText('Showing (0/0)')).toBeTruthy();
  });
});

describe('part2 §2 re-test rule: "When a filter loosens, hidden zones are re-tested and may appear. Otherwise shown zones are re-tested and may be hidden."', () => {
  // Before each change: only Active ticked (the standby bridge hidden), then the school zone turns
  // standby on the server: a refetch keeps it where it was (shown), now with its Standby badge.
  const school = 'Austin High School zone';
  it.each<[string, () => void, string[]]>([
    [
      'tick Standby (looser): hidden zones re-tested, the bridge appears; the school stays',
      () => tick('Standby', true),
      ['z-3', school, 'Bridge works'],
    ],
    ['search "z" (tighter): shown zones re-tested, the now-standby school goes', () => search('z'), ['z-3']],
    ['untick School Zone (tighter): the school goes', () => tick('School Zone', false), ['z-3']],
    ['untick Work Zone (tighter): z-3 goes with its type, and the re-tested school goes too', () => tick('Work Zone', false), []],
    ['search "   " (the same filter): shown zones re-tested, the school goes', () => search('   '), ['z-3']],
  ])('%s', async (_name, change, expected) => {
    const page = setup();
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    tick('Standby', false);
    expect(rowNames()).toEqual([school, 'z-3']);
    await page.serverChanges([{ ...SCHOOL, is_active: false }, BRIDGE, NAMELESS]);
    await waitFor(() => expect(document.querySelector('[data-zone-id="z-1"] .zone-status')!.textContent).toBe('Standby'));
    // Active first (§4): the shown school now sorts after the active z-3.
    expect(rowNames()).toEqual(['z-3', school]);
    change();
    await waitFor(() => expect(rowNames()).toEqual(expected));
  });

  it('a loosening leaves shown zones untested: a zone that stopped matching the search stays until a tightening', async () => {
    const page = setup();
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    search('school');
    await waitFor(() => expect(rowNames()).toEqual(['Austin High School zone']));
    await page.serverChanges([{ ...SCHOOL, description: 'Austin High' }, BRIDGE, NAMELESS]);
    await waitFor(() => expect(rowNames()).toEqual(['Austin High']));
    search('schoo');
    await typingPause();
    expect(screen.getByText('Showing (1/3)')).toBeTruthy();
    expect(rowNames()).toEqual(['Austin High']);
    search('schoo ');
    // trimmed, the same text: shown zones are re-tested.
    await waitFor(() => expect(rowNames()).toEqual([]));
  });

  it('a zone new to the page is tested against the filter', async () => {
    const page = setup({ zones: [SCHOOL] });
    await waitFor(() => expect(rowNames()).toHaveLength(1), LOAD);
    tick('Standby', false);
    await page.serverChanges([SCHOOL, BRIDGE, NAMELESS]);
    await waitFor(() => expect(rowNames()).toEqual(['Austin High School zone', 'z-3']));
    expect(screen.getByText('Showing (2/3)')).toBeTruthy();
  });
});

describe('part2 §8 Zones fetch', () => {
  it.each<[string, () => Response | Promise<Response>, string]>([
    ['no answer (0)', () => Promise.reject(new TypeError('Failed to fetch')), 'Connection failed'],
    ['404', () => json(404, { error: 'not_found', message: 'Organization not found' }), 'Organization not found'],
    ['500', () => json(500, { error: 'internal', message: 'boom' }), 'Unknown failure'],
  ])('%s shows %j', async (_name, answer, text) => {
    setup({ answer });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text), FAILED);
  });
});

describe('part2 §2 "A list or map of zones"', () => {
  it("'Show things on map' adds the assets' ring layer over the fleet (no live engine here: no positions), and takes it off", async () => {
    const page = setup();
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    const overIds = () => (page.map.sections.zones?.over ?? []).map((layer) => (layer as { id: string }).id);
    expect(overIds()).toEqual([]);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show things on map' }));
    expect(overIds()).toEqual(['zones-things']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show things on map' }));
    expect(overIds()).toEqual([]);
  });
  it('draws the shown zones on the map; Map collapses the list to the filters, fits the map, and is remembered', async () => {
    const page = setup();
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    const layerIds = () => (page.map.sections.zones?.under ?? []).map((layer) => (layer as { id: string }).id);
    expect(layerIds()).toContain('zones-shapes');
    fireEvent.click(screen.getByRole('radio', { name: 'Map' }));
    expect(rowNames()).toEqual([]);
    expect(screen.getByText('Showing (3/3)')).toBeTruthy();
    expect(page.map.camera).toMatchObject({ kind: 'fit', bounds: [-97.75, 30.27, -97.74, 30.28] });
    expect(localStorage.getItem(`${ZONES_VIEW_PREFIX}user-1`)).toBe('map');
    page.unmount();
    expect(page.map.sections.zones).toBeUndefined();
    setup();
    await waitFor(() => expect(screen.getByText('Showing (3/3)')).toBeTruthy(), LOAD);
    expect((screen.getByRole('radio', { name: 'Map' }) as HTMLInputElement).checked).toBe(true);
    expect(rowNames()).toEqual([]);
    fireEvent.click(screen.getByRole('radio', { name: 'List' }));
    expect(rowNames()).toHaveLength(3);
  });
});
