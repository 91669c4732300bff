// @vitest-environment jsdom
/**
 * part 2 §2 Areas, §4, §5, §8: the areas list (sort, search, type filter, count, 75 px rows, add
 * button, a row click targeting the area), the detail (fields, country labels, Delete Area with its
 * confirmation and the 404 rule), and the drawing form (each §5 text, the shapes' payloads, the
 * server's refusals) — the section's real pages over a fake server, the map state the test's own.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMapState, type MapState } from '../../../src/app/map/map-state';
import { createAppServices, ServicesContext } from '../../../src/app/services';
import type { ShellContext } from '../../../src/app/shell/dashboard-layout';
import type { AreaTypeWire, AreaWire } from '../../../src/domain/area';
import { fromProfileWire, profileWireSchema } from '../../../src/domain/profile';
import { AreasSection } from '../../../src/features/areas/areas-section';
import { json, MemoryStorage, profileWire, type Handler } from '../../app/support/render-app';

const ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-000000000002';
const LOAD = { timeout: 5_000 };

const TYPES: AreaTypeWire[] = [
  { id: 't-other', db_name: 'other', display_name: 'Other', is_station_view: false },
  { id: 't-station', db_name: 'station', display_name: 'Station', is_station_view: true },
  { id: 't-hospital', db_name: 'hospital', display_name: 'Hospital', is_station_view: false },
];
const typeOf = (id: string) => TYPES.find((t) => t.id === id)!;

function areaWire(id: string, name: string, overrides: Partial<AreaWire> = {}): AreaWire {
  return {
    id,
    organization_id: ORG,
    organization_name: 'Travis County Regional',
    name,
    desc: '',
    ez_type: typeOf('t-station'),
    point_geom: { lat: 30.3, lon: -97.7 },
    lat: 30.3,
    lng: -97.7,
    ...overrides,
  };
}

const RING = [
  [-97.701, 30.301],
  [-97.699, 30.301],
  [-97.699, 30.299],
  [-97.701, 30.301],
];

const PARK = areaWire('a-park', 'zilker Park', {
  desc: 'Picnic grounds',
  ez_type: typeOf('t-other'),
  point_geom: null,
  lat: null,
  lng: null,
  area_geom: { type: 'Polygon', coordinates: [RING] },
  address1: '2100 Barton Springs Rd',
  city: 'Austin',
  state: 'TX',
  postal_code: '78704',
  country_code: 'US',
});
const STATION = areaWire('a-station', 'Fire Station 1', { radius_dist: 0.06 });
const HOSPITAL = areaWire('a-hospital', 'Brackenridge', { ez_type: typeOf('t-hospital'), country_code: 'CA', postal_code: 'K1A 0B1' });
const LEGACY = areaWire('a-legacy', 'Old Yard', { point_geom: null, lat: null, lng: null });

interface Setup {
  path: string;
  areas?: AreaWire[];
  permissions?: string[];
  routes?: Record<string, Handler>;
  mobile?: boolean;
  /** The organization the dashboard shows (default the user's own, ORG). */
  shown?: string;
}

const calls: { method: string; path: string; body: unknown; query: URLSearchParams; headers: Headers }[] = [];

function setup({
  path,
  areas = [PARK, STATION, HOSPITAL],
  permissions = ['exclusion:manage'],
  routes = {},
  mobile = false,
  shown = ORG,
}: Setup) {
  calls.length = 0;
  let list = [...areas];
  const handlers: Record<string, Handler> = {
    'GET /organization/exclusion_zone': () => json(200, list),
    'GET /ez_types': () => json(200, TYPES),
    ...routes,
  };
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://lightbar.test');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, body, query: url.searchParams, headers: new Headers(init?.headers) });
    const exact = handlers[`${method} ${url.pathname}`];
    const prefix = Object.entries(handlers).find(([key]) => key.endsWith('/*') && `${method} ${url.pathname}`.startsWith(key.slice(0, -1)));
    const handler = exact ?? prefix?.[1];
    return handler ? handler(body, url) : json(404, { error: 'not_found', message: 'Not found' });
  });
  const services = createAppServices({
    fetch: fetch as unknown as typeof globalThis.fetch,
    storage: new MemoryStorage(),
    channel: false,
    createBridge: null,
  });
  const profile = fromProfileWire(
    profileWireSchema.parse(profileWire(permissions, { organization_id: ORG, user_org: { id: ORG, name: 'Travis County Regional' } })),
  );
  services.session.state.profile = profile;
  const map: MapState = createMapState();
  const context: ShellContext = { profile, mobile, mix: 'all', map, organizationId: shown };
  let where = '';
  function Where() {
    where = useLocation().pathname;
    return null;
  }
  render(
    <ServicesContext.Provider value={services}>
      <MemoryRouter initialEntries={[path]}>
        <Where />
        <Routes>
          <Route path="/dashboard" element={<Outlet context={context} />}>
            <Route path="areas/*" element={<AreasSection />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </ServicesContext.Provider>,
  );
  return {
    map,
    path: () => where,
    setList: (next: AreaWire[]) => {
      list = next;
    },
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const rowNames = () => Array.from(document.querySelectorAll('.area-row-name')).map((el) => el.textContent);

describe('part2 §2 areas list', () => {
  it('sorts by name case-insensitively (§4), counts Showing (x/total), rows 75 px, asks with org_ids[]', async () => {
    setup({ path: '/dashboard/areas' });
    await waitFor(() => expect(rowNames()).toEqual(['Brackenridge', 'Fire Station 1', 'zilker Park']), LOAD);
    expect(screen.getByText('Showing (3/3)')).toBeTruthy();
    const slot = document.querySelector('.area-row-slot') as HTMLElement;
    expect(slot.style.height).toBe('75px');
    const list = calls.filter((c) => c.path === '/organization/exclusion_zone');
    expect(list.map((c) => c.query.getAll('org_ids[]'))).toEqual([[ORG]]);
  });

  it('search (name or description, any case) and the type filter narrow the rows', async () => {
    setup({ path: '/dashboard/areas' });
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    fireEvent.change(screen.getByPlaceholderText('Search areas'), { target: { value: 'PICNIC' } });
    await waitFor(() => expect(rowNames()).toEqual(['zilker Park']));
    expect(screen.getByText('Showing (1/3)')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search areas'), { target: { value: '' } });
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    const filter = screen.getByRole('combobox', { name: 'Type' }) as HTMLSelectElement;
    // part 2 §3: types alphabetically, Other last.
    expect(Array.from(filter.options).map((o) => o.text)).toEqual(['All Types', 'Hospital', 'Station', 'Other']);
    fireEvent.change(filter, { target: { value: 't-hospital' } });
    expect(rowNames()).toEqual(['Brackenridge']);
    expect(screen.getByText('Showing (1/3)')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search areas'), { target: { value: 'zzz' } });
    await waitFor(() => expect(screen.getByText('No areas match.')).toBeTruthy());
    expect(screen.getByText('Showing (0/3)')).toBeTruthy();
  });

  it('an edit page opened by its address (a reload, a deep link) frames its area as the list does, not the region', async () => {
    const { map } = setup({ path: '/dashboard/areas/a-park/edit' });
    await screen.findByRole('button', { name: 'Save' }, LOAD);
    expect(map.target).toEqual({ kind: 'area', id: 'a-park' });
    expect(map.camera).toMatchObject({ kind: 'fit', bounds: [-97.701, 30.299, -97.699, 30.301] });
  });

  it('a row click targets the area, fits the map to its shape and opens its detail', async () => {
    const { map, path } = setup({ path: '/dashboard/areas' });
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    fireEvent.click(screen.getByRole('button', { name: /zilker Park/ }));
    expect(map.target).toEqual({ kind: 'area', id: 'a-park' });
    expect(map.camera).toMatchObject({ kind: 'fit', bounds: [-97.701, 30.299, -97.699, 30.301] });
    await waitFor(() => expect(path()).toBe('/dashboard/areas/a-park'), LOAD);
    await screen.findByRole('heading', { level: 1, name: 'zilker Park' });
  });

  it.each([
    [['exclusion:manage'], true],
    [['exclusion:read', 'exclusion:create'], true],
    [['exclusion:read'], false],
  ])('part2 §6 with %j the add-new button shows: %s', async (permissions, shown) => {
    setup({ path: '/dashboard/areas', permissions });
    await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
    expect(screen.queryByRole('link', { name: 'Add New Area' }) !== null).toBe(shown);
    // Without: the button is there, disabled, 'Not authorized' (part 2 §6).
    if (!shown) expect((screen.getByRole('button', { name: 'Add New Area' }) as HTMLButtonElement).title).toBe('Not authorized');
  });
});

it('part2 §6 an area is added, edited and deleted by its owner: a managed organization shown offers no add, as the server refuses it', async () => {
  setup({ path: '/dashboard/areas', shown: 'org-managed' });
  await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
  expect(screen.queryByRole('link', { name: 'Add New Area' })).toBeNull();
  expect((screen.getByRole('button', { name: 'Add New Area' }) as HTMLButtonElement).disabled).toBe(true);
});

it('part2 §2 on a phone the list works but offers no add button (new is not available there)', async () => {
  setup({ path: '/dashboard/areas', mobile: true });
  await waitFor(() => expect(rowNames()).toHaveLength(3), LOAD);
  expect(screen.queryByRole('link', { name: 'Add New Area' })).toBeNull();
});

describe('part2 §2 area detail', () => {
  it('shows every field, the owner, and Edit and Delete Area', async () => {
    setup({ path: '/dashboard/areas/a-park' });
    await screen.findByRole('heading', { level: 1, name: 'zilker Park' }, LOAD);
    const fields = Object.fromEntries(
      Array.from(document.querySelectorAll('.area-field')).map((el) => [
        el.querySelector('dt')!.textContent,
        el.querySelector('dd')!.textContent,
      ]),
    );
    expect(fields).toEqual({
      Name: 'zilker Park',
      Description: 'Picnic grounds',
      Type: 'Other',
      Lat: '—',
      Lon: '—',
      Country: 'US',
      'Address 1': '2100 Barton Springs Rd',
      'Address 2': '—',
      City: 'Austin',
      State: 'TX',
      'Zip Code': '78704',
      Owner: 'Travis County Regional',
    });
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/dashboard/areas/a-park/edit');
    expect(screen.getByRole('button', { name: 'Delete Area' })).toBeTruthy();
  });

  it.each([
    ['US', 'State', 'Zip Code'],
    ['CA', 'Province', 'Postal Code'],
    ['MX', 'Region', 'Postal Code'],
    ['', 'Region', 'Postal Code'],
  ])('part2 §2 labels by country %j: %s and %s', async (country, state, postal) => {
    setup({ path: '/dashboard/areas/a-station', areas: [{ ...STATION, country_code: country }] });
    await screen.findByRole('heading', { level: 1, name: 'Fire Station 1' }, LOAD);
    const labels = Array.from(document.querySelectorAll('.area-field dt')).map((el) => el.textContent);
    expect(labels.slice(9, 11)).toEqual([state, postal]);
  });

  it('an unknown id says so', async () => {
    setup({ path: '/dashboard/areas/a-gone' });
    await screen.findByText('This area was not found.', undefined, LOAD);
  });

  it("part2 §6 a user of another organization gets Edit and Delete disabled, 'Not authorized'", async () => {
    setup({ path: '/dashboard/areas/a-station', areas: [{ ...STATION, organization_id: OTHER_ORG }] });
    await screen.findByRole('heading', { level: 1, name: 'Fire Station 1' }, LOAD);
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    for (const name of ['Edit', 'Delete Area']) {
      const button = screen.getByRole('button', { name }) as HTMLButtonElement;
      expect([button.disabled, button.title]).toEqual([true, 'Not authorized']);
    }
    fireEvent.click(screen.getByRole('button', { name: 'Delete Area' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it.each([
    ['200', 200],
    ['404 (already deleted, part 2 §4)', 404],
  ])('Delete Area asks first; a %s answer leaves for the list with the target cleared', async (_label, status) => {
    let deleted = false;
    const harness = setup({
      path: '/dashboard/areas/a-station',
      routes: {
        'DELETE /organization/exclusion_zone/*': () => {
          deleted = true;
          harness.setList([PARK, HOSPITAL]);
          return status === 200 ? json(200, { id: 'a-station' }) : json(404, { error: 'not_found', message: 'Not found' });
        },
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Fire Station 1' }, LOAD);
    expect(harness.map.target).toEqual({ kind: 'area', id: 'a-station' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Area' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Fire Station 1?' });
    expect(deleted).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Area' }));
    await waitFor(() => expect(harness.path()).toBe('/dashboard/areas'), LOAD);
    expect(deleted).toBe(true);
    expect(harness.map.target).toBeNull();
    await waitFor(() => expect(rowNames()).toEqual(['Brackenridge', 'zilker Park']));
  });

  it("a 422 on delete shows 'Unable to delete Area' in the dialog and stays", async () => {
    const harness = setup({
      path: '/dashboard/areas/a-station',
      routes: { 'DELETE /organization/exclusion_zone/*': () => json(422, { error: 'unprocessable', message: 'in use' }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'Fire Station 1' }, LOAD);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Area' }));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Area' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Unable to delete Area'));
    expect(harness.path()).toBe('/dashboard/areas/a-station');
  });

  it('a legacy area (no point, no shape) says it has no place on the map', async () => {
    setup({ path: '/dashboard/areas/a-legacy', areas: [LEGACY] });
    await screen.findByRole('heading', { level: 1, name: 'Old Yard' }, LOAD);
    expect(screen.getByRole('note').textContent).toBe('This area has no location on the map yet. Edit it to place it.');
  });
});

// ── the form ────────────────────────────────────────────────────────────────

const field = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
function type(label: string | RegExp, value: string) {
  fireEvent.change(field(label), { target: { value } });
  fireEvent.blur(field(label));
}
const alerts = () => screen.queryAllByRole('alert').map((el) => el.textContent);

const SQUARE = [
  { lat: 30.3, lng: -97.7 },
  { lat: 30.3, lng: -97.699 },
  { lat: 30.299, lng: -97.699 },
  { lat: 30.299, lng: -97.7 },
];

async function openNew(routes: Record<string, Handler> = {}) {
  const harness = setup({ path: '/dashboard/areas/new', routes });
  await screen.findByRole('heading', { level: 1, name: 'New Area' }, LOAD);
  await waitFor(() => expect((screen.getByLabelText('Type *') as HTMLSelectElement).options.length).toBe(4));
  return harness;
}

describe('part2 §5 area form', () => {
  it('a new area is an exclusion (polygon) and starts drawing on the map at once', async () => {
    const { map } = await openNew();
    expect((screen.getByRole('radio', { name: 'Polygon' }) as HTMLInputElement).checked).toBe(true);
    expect(map.drawing?.kind).toBe('polygon');
    expect(map.drawing?.initial ?? null).toBeNull();
    expect(screen.getByText('Drawing on the map...')).toBeTruthy();
    expect(save().disabled).toBe(true);
  });

  it.each([
    ['Name *', 'x'.repeat(101), '100 Max Characters'],
    ['Zip Code', '7870', 'Invalid zip code'],
    ['Zip Code', '78704-12', 'Invalid zip code'],
    ['Country', 'USA', 'Must be 2 or fewer characters'],
  ])('%s %j: %s', async (label, value, message) => {
    await openNew();
    type('Country', 'US');
    type(label, 'a');
    type(label, value);
    await waitFor(() => expect(alerts()).toContain(message), LOAD);
  });

  it.each([
    ['CA', 'K1A0B', 'Province', 'Invalid postal code'],
    ['GB', 'SW1A_1AA', 'Region', 'Invalid postal code'],
  ])('country %s: %s is refused (%s field): %s', async (country, code, stateLabel, message) => {
    await openNew();
    type('Country', country);
    expect(field(stateLabel)).toBeTruthy();
    type('Postal Code', code);
    await waitFor(() => expect(alerts()).toContain(message), LOAD);
  });

  it("Save with no name, no type and nothing drawn: 'Required' twice, the position and 3-point texts, and no call", async () => {
    await openNew();
    type('Description', 'Lot');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() =>
      expect(alerts()).toEqual([
        'Required',
        'Required',
        "ERROR: Please set new map location. Click 'View Instructions' above if needed",
        'Exclusions must have at least 3 points',
      ]),
    );
    expect(field('Name *').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a polygon drawn: live sq mi, then POST with its ring, its centre as point_geom, the address; the target cleared', async () => {
    let body: Record<string, unknown> = {};
    const harness = await openNew({
      'POST /organization/exclusion_zone': (sent) => {
        body = sent as Record<string, unknown>;
        return json(201, areaWire('a-new', 'Lot', { area_geom: (sent as { area_geom: AreaWire['area_geom'] }).area_geom }));
      },
    });
    harness.map.target = { kind: 'area', id: 'a-park' };
    type('Name *', 'Lot');
    fireEvent.change(screen.getByLabelText('Type *'), { target: { value: 't-other' } });
    type('Country', 'us');
    type('Zip Code', '78704');
    await act(async () => harness.map.drawing!.onChange!({ kind: 'polygon', ring: SQUARE.slice(0, 3) }));
    expect(screen.getByTestId('area-size').textContent).toBe('Size: 0.002 sq mi');
    await act(async () => harness.map.drawing!.onDone({ kind: 'polygon', ring: SQUARE }));
    expect(harness.map.drawing).toBeNull();
    expect(screen.getByTestId('area-size').textContent).toBe('Size: 0.004 sq mi');
    // The finished shape stays on the map (the section's overlay) until the form leaves.
    const under = (harness.map.sections.areas?.under ?? []) as { id: string }[];
    expect(under.map((layer) => layer.id)).toEqual(['areas-draft-shape']);
    fireEvent.click(save());
    await waitFor(() => expect(harness.path()).toBe('/dashboard/areas'), LOAD);
    // The form's overlay goes when React unmounts the form, a commit after the path changed.
    await waitFor(() => expect(harness.map.sections.areas).toBeUndefined(), LOAD);
    expect(body).toEqual({
      organization_id: ORG,
      name: 'Lot',
      desc: '',
      ez_type_id: 't-other',
      area_geom: { type: 'Polygon', coordinates: [[...SQUARE, SQUARE[0]!].map((p) => [p.lng, p.lat])] },
      point_geom: { lat: 30.2995, lon: -97.6995 },
      radius_dist: null,
      address1: '',
      address2: '',
      city: '',
      state: '',
      postal_code: '78704',
      country_code: 'US',
    });
    // part 2 §4: "After an area is added or deleted, the targeted area is cleared."
    expect(harness.map.target).toBeNull();
  });

  it('a circle sends its centre and radius_dist in miles; a point of interest only its point', async () => {
    const bodies: Record<string, unknown>[] = [];
    const harness = await openNew({
      'POST /organization/exclusion_zone': (sent) => {
        bodies.push(sent as Record<string, unknown>);
        return json(422, { error: 'x', message: 'something else' });
      },
    });
    type('Name *', 'Yard');
    fireEvent.change(screen.getByLabelText('Type *'), { target: { value: 't-station' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Circle' }));
    expect(harness.map.drawing?.kind).toBe('circle');
    await act(async () => harness.map.drawing!.onDone({ kind: 'circle', center: { lat: 30.3, lng: -97.7 }, radius: 160.9 }));
    expect(screen.getByTestId('area-size').textContent).toBe('Size: 0.031 sq mi');
    fireEvent.click(save());
    await waitFor(() => expect(bodies).toHaveLength(1), LOAD);
    expect(bodies[0]).toMatchObject({ area_geom: null, point_geom: { lat: 30.3, lon: -97.7 }, radius_dist: 0.1 });
    // part 2 §8 Area save, other: 'Unable to save Area' under the form.
    await waitFor(() => expect(alerts()).toContain('Unable to save Area'), LOAD);
    fireEvent.click(screen.getByRole('radio', { name: 'Point of Interest' }));
    expect(harness.map.drawing?.kind).toBe('point');
    await act(async () => harness.map.drawing!.onDone({ kind: 'point', position: { lat: 30.31, lng: -97.71 } }));
    expect(screen.getByTestId('area-size').textContent).toBe('A point of interest has no size.');
    fireEvent.click(save());
    await waitFor(() => expect(bodies).toHaveLength(2), LOAD);
    expect(bodies[1]).toMatchObject({ area_geom: null, point_geom: { lat: 30.31, lon: -97.71 }, radius_dist: null });
  });

  it.each([
    ['Polygon area is too large', 'Polygon area is too large, please keep area under .5 square miles'],
    ['area_geom: Exclusion shape is invalid', 'Exclusion shape is invalid'],
  ])('part2 §8 a 422 %j shows %j under the form and stays', async (message, shown) => {
    const harness = await openNew({ 'POST /organization/exclusion_zone': () => json(422, { error: 'unprocessable', message }) });
    type('Name *', 'Big');
    fireEvent.change(screen.getByLabelText('Type *'), { target: { value: 't-other' } });
    await act(async () => harness.map.drawing!.onDone({ kind: 'polygon', ring: SQUARE }));
    fireEvent.click(save());
    await waitFor(() => expect(alerts()).toContain(shown), LOAD);
    expect(harness.path()).toBe('/dashboard/areas/new');
  });

  it('editing a polygon starts from its values and moves its vertices (the drawing edits its shape); PUT', async () => {
    let body: Record<string, unknown> = {};
    const harness = setup({
      path: '/dashboard/areas/a-park/edit',
      routes: {
        'PUT /organization/exclusion_zone/*': (sent) => {
          body = sent as Record<string, unknown>;
          return json(200, { ...PARK, name: 'Zilker' });
        },
      },
    });
    await screen.findByRole('button', { name: 'Save' }, LOAD);
    expect(field('Name *').value).toBe('zilker Park');
    expect(field('Zip Code').value).toBe('78704');
    expect(harness.map.drawing?.kind).toBe('polygon');
    expect(harness.map.drawing?.initial).toEqual({ kind: 'polygon', ring: RING.slice(0, 3).map(([lng, lat]) => ({ lat, lng })) });
    type('Name *', 'Zilker');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(harness.path()).toBe('/dashboard/areas/a-park'), LOAD);
    expect(body).toMatchObject({ id: 'a-park', organization_id: ORG, name: 'Zilker', ez_type_id: 't-other' });
    expect(body.area_geom).toEqual({ type: 'Polygon', coordinates: [RING] });
  });

  it('lost updates: the PUT sends the version the form opened on; a 412 shows the area sentence and stays on the form', async () => {
    const harness = setup({
      path: '/dashboard/areas/a-park/edit',
      areas: [{ ...PARK, version: 4 }, STATION, HOSPITAL],
      routes: {
        'PUT /organization/exclusion_zone/*': () =>
          json(412, { error: 'precondition_failed', message: 'This area was changed by someone else. Reload to see their changes.' }),
      },
    });
    await screen.findByRole('button', { name: 'Save' }, LOAD);
    type('Name *', 'Zilker Metro Park');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(alerts()).toContain('This area was changed by someone else. Reload to see their changes.'), LOAD);
    expect(field('Name *').value).toBe('Zilker Metro Park');
    expect(harness.path()).toBe('/dashboard/areas/a-park/edit');
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.headers.get('if-match'))).toEqual(['"4"']);
  });

  it('a station opens as a circle of its radius', async () => {
    const harness = setup({ path: '/dashboard/areas/a-station/edit' });
    await screen.findByRole('button', { name: 'Save' }, LOAD);
    expect((screen.getByRole('radio', { name: 'Circle' }) as HTMLInputElement).checked).toBe(true);
    expect(harness.map.drawing?.initial).toEqual({ kind: 'circle', center: { lat: 30.3, lng: -97.7 }, radius: 0.06 * 1609 });
  });

  it('a legacy area opens with a note and draws a new shape', async () => {
    const harness = setup({ path: '/dashboard/areas/a-legacy/edit', areas: [LEGACY] });
    await screen.findByRole('button', { name: 'Save' }, LOAD);
    expect(screen.getByRole('note').textContent).toBe('This area has no location on the map yet. Draw one below to place it.');
    expect(harness.map.drawing?.kind).toBe('polygon');
    expect(harness.map.drawing?.initial ?? null).toBeNull();
  });

  it("part2 §2 new and edit are not on a phone: 'This page isn't available on mobile devices.'", async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    setup({ path: '/dashboard/areas/new' });
    expect(await screen.findByText("This page isn't available on mobile devices.")).toBeTruthy();
  });

  it('the edit page of a user who may not edit says so', async () => {
    setup({ path: '/dashboard/areas/a-station/edit', permissions: ['exclusion:read'] });
    expect(await screen.findByText('Sorry, you are not currently authorized to access this page.', undefined, LOAD)).toBeTruthy();
    expect(screen.getByText('Sorry, you are not currently authorized to access this page.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
