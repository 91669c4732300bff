// @vitest-environment jsdom
/**
 * part 1 §2 "Asset list", §4 "Sorting and filtering", §6: the Live list driven by
 * the REAL live engine and bridge (in-process), with the REST calls answered at the fetch boundary.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThingWireInput } from '../../../src/domain/asset';
import { HOUR_MS, THINGS_PAGE_MAX } from '../../../src/domain/constants';
import { FakeApi, iso, ORG, OTHER_ORG, runClockFromNow, thing } from '../../support/live-fixtures';
import { ownershipChoice, showOwnershipToggles } from '../../../src/features/things/organization-filter';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

// The fixtures' times sit around NOW: the date runs on from it (see runClockFromNow).
beforeEach(() => runClockFromNow());

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  localStorage.clear();
});

const PERMISSIONS = ['thing:read', 'thing:update', 'incident:read'];
const WAIT = { timeout: 15_000 };

const THING_TYPES = [
  { id: 'tt-police', name: 'police', display_name: 'Police', is_emergency: true },
  { id: 'tt-fire', name: 'fire', display_name: 'Fire', is_emergency: true },
];
const THING_SUBTYPES = [
  { id: 'st-k9', name: 'k9', display_name: 'K9 Unit', thing_type_id: 'tt-police' },
  { id: 'st-engine', name: 'engine', display_name: 'Engine', thing_type_id: 'tt-fire' },
  { id: 'st-ladder', name: 'ladder', display_name: 'Ladder', thing_type_id: 'tt-fire' },
];

function routes(profile: Record<string, unknown> = {}): Record<string, Handler> {
  return {
    ...signedInRoutes(PERMISSIONS, { organization_id: ORG, user_org: { id: ORG, name: 'Org' }, ...profile }),
    'GET /thing_types': () => json(200, THING_TYPES),
    'GET /thing_subtypes': () => json(200, THING_SUBTYPES),
  };
}

/**
 * One asset per rule of the sort (component tests run on the real clock: heartbeats are placed
 * relative to it). Nicknames are the names the rows show.
 */
function fleet(): ThingWireInput[] {
  const now = Date.now();
  return [
    thing(1, { nickname: 'Zulu', location_id: 'loc-1' }), // location (on an incident)
    thing(2, { nickname: 'Bravo', enroute: true, speed: 31.6, course: 45 }), // active
    thing(3, { nickname: 'Charlie' }), // standby
    thing(4, { nickname: 'Alpha', thing_type: 'fire', thing_subtype_id: 'st-engine' }), // standby
    thing(9, { nickname: 'Delta', in_service: false }), // standby, out of service
    thing(5, { nickname: 'Echo', street: 'Congress Ave' }), // stationary
    thing(6, { nickname: 'Pending old', heartbeat_datetime: iso(now - 20 * HOUR_MS) }), // pending
    thing(7, { nickname: 'Pending new', heartbeat_datetime: iso(now - 9 * HOUR_MS) }), // pending
    thing(8, { nickname: 'Gone', heartbeat_datetime: iso(now - 100 * HOUR_MS) }), // offline
  ];
}

function renderLive(things: ThingWireInput[], profile: Record<string, unknown> = {}) {
  return renderLiveWith(things, () => undefined, profile);
}

/** `renderLive`, with the fake server prepared first (records it answers besides the fleet). */
function renderLiveWith(things: ThingWireInput[], prepare: (api: FakeApi) => void, profile: Record<string, unknown> = {}) {
  const api = new FakeApi();
  api.setThings(things);
  prepare(api);
  return { api, ...renderApp('/dashboard/things', routes(profile), { signedIn: true, live: api }) };
}

/** The Live section in the drawer (the map has toggles of its own). */
function drawer() {
  return screen.getByRole('heading', { level: 1, name: 'Live' }).parentElement!;
}

function assetList() {
  return screen.getByRole('list', { name: 'Assets' });
}

/** The names of the rendered rows, top to bottom. */
function rowNames(): string[] {
  return within(assetList())
    .queryAllByRole('button')
    .map((button) => button.querySelector('.asset-row-name')?.textContent ?? '');
}

/** The count chip of a status label, e.g. 'Standby 3'. */
function chip(label: string): string | null {
  const chips = screen.getByRole('list', { name: 'Assets by status' });
  const item = within(chips)
    .queryAllByText(label, { selector: '.things-count-label' })
    .map((element) => element.closest('li'))[0];
  return item?.textContent ?? null;
}

const ALL_IN_ORDER = ['Zulu', 'Bravo', 'Alpha', 'Charlie', 'Delta', 'Echo', 'Pending new', 'Pending old', 'Gone'];

describe('part1 §2 Asset list, §4 sorting (the Live list)', () => {
  it('shows the rows in the spec order: status, then name below pending, newest heartbeat first for pending and offline', async () => {
    renderLive(fleet());
    expect(await screen.findByRole('heading', { level: 1, name: 'Live' }, WAIT)).toBeTruthy();
    await waitFor(() => expect(rowNames()).toEqual(ALL_IN_ORDER), WAIT);
    expect(screen.getByText('9 of 9 assets')).toBeTruthy();
    // Labels by the responder mix ('all' responders): On-Scene / Responding.
    const rows = within(assetList()).getAllByRole('button');
    expect(rows[0]?.textContent).toContain('On-Scene');
    expect(rows[1]?.textContent).toContain('Responding');
    // A moving asset shows its speed and direction, a stationary one its street.
    expect(rows[1]?.textContent).toContain('32 mph NE');
    expect(rows[5]?.textContent).toContain('Congress Ave');
    expect(rows[2]?.textContent).toContain('fire');
    // Others without a street show their last sync.
    expect(rows[6]?.textContent).toContain('Last sync');
    // Counts by display status: the out-of-service standby asset counts as Out-of-Service.
    expect(chip('Standby')).toBe('Standby 2');
    expect(chip('Pending')).toBe('Pending 2');
    expect(chip('Out-of-Service')).toBe('Out-of-Service 1');
  });

  it('an out-of-service row is 90 px high and says Out-of-Service; the others are 65 px', async () => {
    renderLive(fleet());
    await waitFor(() => expect(rowNames()).toEqual(ALL_IN_ORDER), WAIT);
    const items = within(assetList()).getAllByRole('listitem');
    const heights = items.map((item) => item.style.height);
    expect(heights).toEqual(['65px', '65px', '65px', '65px', '90px', '65px', '65px', '65px', '65px']);
    expect(within(items[4]!).getByText('Out-of-Service')).toBeTruthy();
    expect(within(items[3]!).queryByText('Out-of-Service')).toBeNull();
  });

  it('the search box narrows the rows (debounced); nothing matching shows the empty text', async () => {
    renderLive(fleet());
    await waitFor(() => expect(rowNames()).toHaveLength(9), WAIT);
    const search = screen.getByRole('searchbox', { name: 'Search assets' });
    expect(search.getAttribute('placeholder')).toBe('Search assets');
    fireEvent.change(search, { target: { value: 'pending' } });
    await waitFor(() => expect(rowNames()).toEqual(['Pending new', 'Pending old']), WAIT);
    expect(screen.getByText('2 of 9 assets')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'no such unit' } });
    expect(await screen.findByText('No assets match the search and filters.', {}, WAIT)).toBeTruthy();
    fireEvent.change(search, { target: { value: '' } });
    await waitFor(() => expect(rowNames()).toHaveLength(9), WAIT);
  });

  it('Filters: Apply narrows the rows and the counts by status, type and subtype; Clear restores the defaults', async () => {
    const { calls } = renderLive(fleet());
    await waitFor(() => expect(rowNames()).toHaveLength(9), WAIT);
    const open = screen.getByRole('button', { name: 'Filters' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(open);
    const panel = screen.getByRole('region', { name: 'Filters' });
    // Status boxes labelled by the responder mix, location … offline, all on by default.
    const boxes = within(panel).getAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('label')?.textContent)).toEqual([
      'On-Scene',
      'Responding',
      'Standby',
      'Stationary',
      'Pending',
      'Offline',
      'Out of service',
      'Feed',
    ]);
    // Out of service is in view by default (its own status: the standby Delta is out of service).
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([true, true, true, true, true, true, true, false]);
    fireEvent.click(within(panel).getByRole('checkbox', { name: 'Standby' }));
    // A draft until Apply.
    expect(rowNames()).toHaveLength(9);
    fireEvent.click(within(panel).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowNames()).toEqual(['Zulu', 'Bravo', 'Delta', 'Echo', 'Pending new', 'Pending old', 'Gone']), WAIT);
    expect(chip('Standby')).toBe('Standby 0');
    expect(chip('Out-of-Service')).toBe('Out-of-Service 1');
    expect(screen.queryByRole('region', { name: 'Filters' })).toBeNull();
    // The button says the list is filtered.
    expect(screen.getByRole('button', { name: 'Filters 1 active' })).toBeTruthy();

    // Type and subtype from GET /thing_types and /thing_subtypes; subtype options follow the type.
    fireEvent.click(screen.getByRole('button', { name: 'Filters 1 active' }));
    const again = screen.getByRole('region', { name: 'Filters' });
    expect((within(again).getByRole('checkbox', { name: 'Standby' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(within(again).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(rowNames()).toHaveLength(9), WAIT);
    expect(chip('Standby')).toBe('Standby 2');
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const third = screen.getByRole('region', { name: 'Filters' });
    const type = within(third).getByRole('combobox', { name: 'Type' });
    await waitFor(
      () =>
        expect(
          within(type)
            .getAllByRole('option')
            .map((o) => o.textContent),
        ).toEqual(['All types', 'Police', 'Fire']),
      WAIT,
    );
    const subtype = within(third).getByRole('combobox', { name: 'Subtype' }) as HTMLSelectElement;
    expect(subtype.disabled).toBe(true);
    fireEvent.change(type, { target: { value: 'fire' } });
    expect(
      within(subtype)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All subtypes', 'Engine', 'Ladder']);
    fireEvent.change(subtype, { target: { value: 'st-engine' } });
    fireEvent.click(within(third).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowNames()).toEqual(['Alpha']), WAIT);
    expect(chip('Standby')).toBe('Standby 1');
    expect(chip('On-Scene')).toBe('On-Scene 0');
    expect(calls.filter((call) => call.path === '/thing_types')).toHaveLength(1);

    expect(screen.getByRole('button', { name: 'Filters 2 active' })).toBeTruthy();

    // part 1 §4 "Filters add out-of-service": with no status chosen, Out of service alone.
    fireEvent.click(screen.getByRole('button', { name: 'Filters 2 active' }));
    const fourth = screen.getByRole('region', { name: 'Filters' });
    for (const status of ['On-Scene', 'Responding', 'Standby', 'Stationary', 'Pending', 'Offline']) {
      fireEvent.click(within(fourth).getByRole('checkbox', { name: status }));
    }
    fireEvent.change(within(fourth).getByRole('combobox', { name: 'Type' }), { target: { value: '' } });
    fireEvent.click(within(fourth).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowNames()).toEqual(['Delta']), WAIT);
    expect(chip('Out-of-Service')).toBe('Out-of-Service 1');
    // Unticked, the out-of-service asset leaves the default list.
    fireEvent.click(screen.getByRole('button', { name: 'Filters 1 active' }));
    fireEvent.click(within(screen.getByRole('region', { name: 'Filters' })).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(rowNames()).toHaveLength(9), WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const fifth = screen.getByRole('region', { name: 'Filters' });
    fireEvent.click(within(fifth).getByRole('checkbox', { name: 'Out of service' }));
    fireEvent.click(within(fifth).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowNames()).toEqual(ALL_IN_ORDER.filter((name) => name !== 'Delta')), WAIT);
  });

  it("Filters: Feed adds the assets in a WZDx feed to the chosen statuses (part1 §4 'Filters add … feed')", async () => {
    renderLive([...fleet(), thing(10, { nickname: 'Feeder', feed_subscriptions: ['wzdx-1'] })]);
    await waitFor(() => expect(rowNames()).toHaveLength(10), WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    // Pending alone, and out of service off: the two pending assets; Feed then adds the standby Feeder.
    for (const status of ['On-Scene', 'Responding', 'Standby', 'Stationary', 'Offline', 'Out of service']) {
      fireEvent.click(within(panel).getByRole('checkbox', { name: status }));
    }
    fireEvent.click(within(panel).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowNames()).toEqual(['Pending new', 'Pending old']), WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Filters 2 active' }));
    const again = screen.getByRole('region', { name: 'Filters' });
    fireEvent.click(within(again).getByRole('checkbox', { name: 'Feed' }));
    fireEvent.click(within(again).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowNames()).toEqual(['Feeder', 'Pending new', 'Pending old']), WAIT);
    expect(screen.getByText('3 of 10 assets')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filters 3 active' })).toBeTruthy();
  });

  it('part1 §4: with the show-offline preference off the status filter leaves offline out (and Clear keeps it out)', async () => {
    renderLive(fleet());
    await waitFor(() => expect(rowNames()).toEqual(ALL_IN_ORDER), WAIT);
    fireEvent.click(screen.getByRole('switch', { name: 'Show offline' }));
    await waitFor(() => expect(rowNames()).toEqual(ALL_IN_ORDER.filter((name) => name !== 'Gone')), WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    expect((within(panel).getByRole('checkbox', { name: 'Offline' }) as HTMLInputElement).checked).toBe(false);
    expect((within(panel).getByRole('checkbox', { name: 'Pending' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(panel).getByRole('button', { name: 'Clear' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rowNames()).not.toContain('Gone');
  });

  it('a row click targets the asset, navigates to its id and pans the map to it at the centring zoom', async () => {
    const { router } = renderLive(fleet());
    await waitFor(() => expect(rowNames()).toHaveLength(9), WAIT);
    const bravo = within(assetList()).getAllByRole('button')[1]!;
    expect(bravo.tagName).toBe('BUTTON'); // Tab reaches it, Enter activates it
    fireEvent.click(bravo);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/things/thing-00002'), WAIT);
    const map = screen.getByTestId('dashboard-map');
    expect(map.getAttribute('data-target')).toBe('asset:thing-00002');
    // thing(2) sits at 30.202, -97.7; the default zoom (10) is below CENTERING_MIN_ZOOM (16).
    expect(map.getAttribute('data-camera')).toBe('-97.70000,30.20200,16.00');
  });

  it('Owned and Managed toggles show only when relations exist, and narrow the list by the ownership rule (children own, shared ones are managed)', async () => {
    // Only own, unshared assets: no relations, no toggles.
    const first = renderLive(fleet().slice(0, 3));
    await waitFor(() => expect(rowNames()).toHaveLength(3), WAIT);
    expect(within(drawer()).getByRole('switch', { name: 'Group view' })).toBeTruthy();
    expect(within(drawer()).queryByRole('switch', { name: 'Owned' })).toBeNull();
    expect(within(drawer()).queryByRole('switch', { name: 'Managed' })).toBeNull();
    first.services.session.signOut();
    cleanup();

    // An asset of a child organization and one shared alone by an organization the profile does not list.
    const things = [
      ...fleet().slice(0, 3),
      thing(20, { nickname: 'Shared', organization: { id: OTHER_ORG, name: 'Other' } }),
      thing(21, { nickname: 'North unit', organization: { id: 'org-north', name: 'Org North' } }),
    ];
    const { api } = renderLiveWith(things, (fake) =>
      fake.organizations.set(ORG, { id: ORG, name: 'Org', child_structure: [{ id: 'org-north', name: 'Org North', parent_id: ORG }] }),
    );
    await waitFor(() => expect(rowNames()).toHaveLength(5), WAIT);
    expect(api.callsTo(`/organization/${ORG}`)).toHaveLength(1);
    const owned = (await within(drawer()).findByRole('switch', { name: 'Owned' }, WAIT)) as HTMLInputElement;
    const managed = within(drawer()).getByRole('switch', { name: 'Managed' }) as HTMLInputElement;
    expect([owned.checked, managed.checked]).toEqual([true, true]);
    // Each switch says how many assets it covers, as its description (its name stays the spec's).
    const description = (control: HTMLElement) => document.getElementById(control.getAttribute('aria-describedby') ?? '')?.textContent;
    await waitFor(() => expect(description(owned)).toBe('4 assets'), WAIT);
    expect(description(managed)).toBe('1 asset');
    fireEvent.click(managed);
    await waitFor(() => expect(rowNames()).toEqual(['Zulu', 'Bravo', 'Charlie', 'North unit']), WAIT);
    // One of the two stays on.
    expect(owned.disabled).toBe(true);
    fireEvent.click(managed);
    await waitFor(() => expect(rowNames()).toHaveLength(5), WAIT);
    fireEvent.click(owned);
    await waitFor(() => expect(rowNames()).toEqual(['Shared']), WAIT);
  });

  it('an acs organization skips the relation logic (part 1 §1): no Owned / Managed toggles whatever the fleet', async () => {
    const things = [...fleet().slice(0, 2), thing(20, { nickname: 'Shared', organization: { id: OTHER_ORG, name: 'Other' } })];
    renderLive(things, { acs: true });
    await waitFor(() => expect(rowNames()).toHaveLength(3), WAIT);
    expect(within(drawer()).queryByRole('switch', { name: 'Owned' })).toBeNull();
  });

  it('the group- and density-view toggles write the preferences', async () => {
    const { services } = renderLive(fleet().slice(0, 2));
    await waitFor(() => expect(rowNames()).toHaveLength(2), WAIT);
    const store = services.live.bridge!.store;
    const group = within(drawer()).getByRole('switch', { name: 'Group view' }) as HTMLInputElement;
    const density = within(drawer()).getByRole('switch', { name: 'Density view' }) as HTMLInputElement;
    expect([group.checked, density.checked]).toEqual([true, false]);
    fireEvent.click(density);
    fireEvent.click(group);
    await waitFor(() => expect([store.preferences.groupView, store.preferences.densityView]).toEqual([false, true]), WAIT);
    expect([group.checked, density.checked]).toEqual([false, true]);
  });

  it('shows a progress bar with the pages loaded while the fleet loads', async () => {
    const api = new FakeApi();
    // One asset more than a large page of the live worker: a first page of 500, the fleet snapshot
    // of a server without its details, then two large pages; the second waits until the test lets it go.
    api.snapshotDetails = false;
    const count = THINGS_PAGE_MAX + 1;
    api.setThings(Array.from({ length: count }, (_, i) => thing(i + 1)));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = api.fetch;
    api.fetch = async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname === '/organization/things' && url.searchParams.get('page') === '2') await gate;
      return answer(input, init);
    };
    renderApp('/dashboard/things', routes(), { signedIn: true, live: api });
    const bar = await screen.findByRole('progressbar', {}, WAIT);
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('3'), WAIT);
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(screen.getByText('Loading assets… 3 of 4 pages')).toBeTruthy();
    // The first page is listed already.
    await waitFor(() => expect(rowNames().length).toBeGreaterThan(0), WAIT);
    // Virtualized: only the rows in view (and a few more) are drawn, not a page.
    expect(rowNames().length).toBeLessThan(20);
    release();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull(), WAIT);
    expect(screen.getByText(`${count} of ${count} assets`)).toBeTruthy();
  });

  it('part1 §3: both toggles (or neither) list every asset, one alone its kind; acs organizations never show them', () => {
    expect([
      ownershipChoice(true, true),
      ownershipChoice(false, false),
      ownershipChoice(true, false),
      ownershipChoice(false, true),
    ]).toEqual([null, null, 'owned', 'managed']);
    expect([showOwnershipToggles(false, true), showOwnershipToggles(true, true), showOwnershipToggles(false, false)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
