// @vitest-environment jsdom
/**
 * part 1 §2 "Asset detail", §3 Asset, §4 statuses and labels, §5/§6 organization access:
 * /dashboard/things/{id} driven by the REAL live engine and bridge (in-process), REST
 * answered at the fetch boundary. Heartbeats are placed relative to the real clock.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThingWireInput } from '../../../src/domain/asset';
import { HOUR_MS, MINUTE_MS, THINGS_PAGE_MAX } from '../../../src/domain/constants';
import { formatDateTime } from '../../../src/domain/time';
import { FakeApi, iso, ORG, OTHER_ORG, runClockFromNow, thing } from '../../support/live-fixtures';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

// The fixtures' times sit around NOW: the date runs on from it (see runClockFromNow).
beforeEach(() => runClockFromNow());

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  localStorage.clear();
});

const WAIT = { timeout: 15_000 };
const ZONE = 'America/Chicago';
const EDITOR = ['thing:read', 'thing:update', 'thing:invoke_r2r', 'thing:ha5_light_intensity_change'];

function routes(
  permissions: string[],
  profile: Record<string, unknown> = {},
  extra: Record<string, Handler> = {},
): Record<string, Handler> {
  return {
    ...signedInRoutes(permissions, { organization_id: ORG, user_org: { id: ORG, name: 'Org' }, timezone: ZONE, ...profile }),
    ...extra,
  };
}

function renderDetail(
  wire: ThingWireInput,
  {
    permissions = EDITOR,
    profile = {},
    extra = {},
  }: { permissions?: string[]; profile?: Record<string, unknown>; extra?: Record<string, Handler> } = {},
) {
  const api = new FakeApi();
  api.setThings([wire, thing(2, { nickname: 'Other unit' })]);
  return renderApp(`/dashboard/things/${wire.id}`, routes(permissions, profile, extra), { signedIn: true, live: api });
}

/** The value shown for a term of a section's description list. */
function valueOf(sectionName: string, term: string): string | null {
  const section = screen.getByRole('region', { name: sectionName });
  const dt = within(section).queryAllByText(term, { selector: 'dt' }).at(0);
  return dt?.nextElementSibling?.textContent ?? null;
}

async function opened(name: string) {
  return screen.findByRole('heading', { level: 1, name }, WAIT);
}

describe('part1 §2 Asset detail: Status section variants', () => {
  it('location (on scene): the label by responder mix, arrival time and duration', async () => {
    const arrived = Date.now() - (65 * MINUTE_MS + 5_000);
    renderDetail(
      thing(1, { nickname: 'Engine 7', location_id: 'loc-1', incident_start_time: iso(arrived), heartbeat_datetime: iso(Date.now()) }),
    );
    await opened('Engine 7');
    const status = screen.getByRole('region', { name: 'Status' });
    expect(within(status).getByText('On-Scene')).toBeTruthy();
    expect(valueOf('Status', 'Arrived')).toBe(formatDateTime(arrived, ZONE));
    expect(valueOf('Status', 'Duration')).toBe('1h 5m');
    expect(valueOf('Status', 'Direction')).toBeNull();
    expect(valueOf('Status', 'Last Online')).toBeNull();
  });

  it('the arrival time is written in the organization timezone', async () => {
    renderDetail(thing(1, { nickname: 'Engine 7', location_id: 'loc-1', incident_start_time: '2026-11-20T15:04:00Z' }));
    await opened('Engine 7');
    // 15:04 UTC is 9:04 AM in Chicago (CST, UTC-6).
    expect(valueOf('Status', 'Arrived')).toBe('11/20/2026 9:04 AM');
  });

  it('active (moving): direction from the course (8-point compass), speed and last sync', async () => {
    const heard = Date.now() - 2 * MINUTE_MS;
    renderDetail(thing(1, { nickname: 'Medic 3', enroute: true, course: 225, speed: 41.6, heartbeat_datetime: iso(heard) }));
    await opened('Medic 3');
    expect(within(screen.getByRole('region', { name: 'Status' })).getByText('Responding')).toBeTruthy();
    expect(valueOf('Status', 'Direction')).toBe('SW');
    expect(valueOf('Status', 'Speed')).toBe('42 mph');
    expect(valueOf('Status', 'Last Sync')).toBe(formatDateTime(heard, ZONE));
    expect(valueOf('Status', 'Run Start')).toBeNull();
  });

  it('an active run adds run start, run time and alert points', async () => {
    const start = Date.now() - 12 * MINUTE_MS;
    renderDetail(
      thing(1, {
        nickname: 'Medic 3',
        enroute: true,
        course: 10,
        heartbeat_datetime: iso(Date.now()),
        run_id: 'run-1',
        run_start_time: iso(start),
        run_points_count: 17,
      }),
    );
    await opened('Medic 3');
    expect(valueOf('Status', 'Direction')).toBe('N');
    expect(valueOf('Status', 'Run Start')).toBe(formatDateTime(start, ZONE));
    expect(valueOf('Status', 'Run Time')).toMatch(/^12m \d+s$/);
    expect(valueOf('Status', 'Alert Points')).toBe('17');
  });

  it('standby: direction, speed and last sync', async () => {
    renderDetail(thing(1, { nickname: 'Unit 1', course: 95, speed: 0, heartbeat_datetime: iso(Date.now()) }));
    await opened('Unit 1');
    expect(within(screen.getByRole('region', { name: 'Status' })).getByText('Standby')).toBeTruthy();
    expect(valueOf('Status', 'Direction')).toBe('E');
    expect(valueOf('Status', 'Speed')).toBe('0 mph');
  });

  it('stationary (still, with a street): direction, speed and last sync', async () => {
    const heard = Date.now() - MINUTE_MS;
    renderDetail(thing(1, { nickname: 'Unit 1', street: 'Congress Ave', course: 350, speed: 0, heartbeat_datetime: iso(heard) }));
    await opened('Unit 1');
    expect(within(screen.getByRole('region', { name: 'Status' })).getByText('Stationary')).toBeTruthy();
    expect(valueOf('Status', 'Direction')).toBe('N');
    expect(valueOf('Status', 'Speed')).toBe('0 mph');
    expect(valueOf('Status', 'Last Sync')).toBe(formatDateTime(heard, ZONE));
    expect(valueOf('Status', 'Last Online')).toBeNull();
  });

  it('out of service: the status reads Out-of-Service, and R2R and LED say Invalid asset status', async () => {
    renderDetail(
      thing(1, {
        nickname: 'Unit 1',
        in_service: false,
        device_type: 'ha7',
        is_r2r_enabled: true,
        thing_type: 'police',
        heartbeat_datetime: iso(Date.now()),
      }),
    );
    await opened('Unit 1');
    const status = screen.getByRole('region', { name: 'Status' });
    expect(within(status).getByText('Out-of-Service')).toBeTruthy();
    expect(within(status).queryByText('Standby')).toBeNull();
    expect(valueOf('Profile', 'In Service')).toBe('No');
    const r2r = screen.getByRole('button', { name: 'Send R2R Test Alert' }) as HTMLButtonElement;
    expect(r2r.disabled).toBe(true);
    expect(document.getElementById(r2r.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Invalid asset status');
    expect((screen.getByRole('combobox', { name: 'LED Intensity' }) as HTMLSelectElement).disabled).toBe(true);
  });

  it.each([
    ['Pending', 9 * HOUR_MS],
    ['Offline', 100 * HOUR_MS],
  ])('%s shows when it was last online (and no direction or speed)', async (label, age) => {
    const heard = Date.now() - age;
    renderDetail(thing(1, { nickname: 'Quiet unit', heartbeat_datetime: iso(heard) }));
    await opened('Quiet unit');
    expect(within(screen.getByRole('region', { name: 'Status' })).getByText(label)).toBeTruthy();
    expect(valueOf('Status', 'Last Online')).toBe(formatDateTime(heard, ZONE));
    expect(valueOf('Status', 'Direction')).toBeNull();
    expect(valueOf('Status', 'Speed')).toBeNull();
  });

  it('the detail follows live changes of the asset (socket message)', async () => {
    const { live } = renderDetail(thing(1, { nickname: 'Unit 1', heartbeat_datetime: iso(Date.now()) }));
    await opened('Unit 1');
    await waitFor(() => expect(live!.cable.subscribed).toBe(true), WAIT);
    live!.cable.send({ type: 'heartbeat', thing_id: 'thing-00001', is_active: true, timestamp: iso(Date.now()) });
    live!.cable.send({
      type: 'point',
      thing_id: 'thing-00001',
      lat: 30.25,
      lng: -97.71,
      speed: 55,
      course: 180,
      timestamp: iso(Date.now()),
    });
    await waitFor(() => expect(valueOf('Status', 'Speed')).toBe('55 mph'), WAIT);
    expect(valueOf('Status', 'Direction')).toBe('S');
    expect(within(screen.getByRole('region', { name: 'Status' })).getByText('Responding')).toBeTruthy();
  });
});

describe('part1 §2 Asset detail: Profile and Organization Access', () => {
  it('shows the profile fields; alerting off shows that it turns back on after 60 minutes', async () => {
    renderDetail(
      thing(1, {
        nickname: 'Ladder 12',
        haas_id: 'ha5-000123',
        vin_number: '1FTFW1E50PFA00001',
        license_plate_number: 'TX-4411',
        registry_number: 'V-12',
        thing_type: 'fire',
        thing_subtype: 'ladder',
        device_type: 'api',
        external_id: 'SAM-123456',
        external_identifiers: [{ identifier_id: 'SAM-123456', system_name: 'samsara' }],
        is_publicly_alerting: false,
        in_service: true,
      }),
    );
    await opened('Ladder 12');
    expect(screen.getByText('ha5-000123')).toBeTruthy(); // secondary name under the nickname
    expect(valueOf('Profile', 'Name')).toBe('HA5-000123');
    expect(valueOf('Profile', 'Nickname')).toBe('Ladder 12');
    expect(valueOf('Profile', 'VIN')).toBe('1FTFW1E50PFA00001');
    expect(valueOf('Profile', 'License Plate')).toBe('TX-4411');
    expect(valueOf('Profile', 'Vehicle ID')).toBe('V-12');
    // Without the type lists (the server answered none here): the codes as words, never the codes.
    expect(valueOf('Profile', 'Type')).toBe('Fire');
    expect(valueOf('Profile', 'Subtype')).toBe('Ladder');
    expect(valueOf('Profile', 'System ID')).toBe('SAM-123456');
    expect(valueOf('Profile', 'Integrations')).toBe('samsara: SAM-123456');
    expect(valueOf('Profile', 'Alerting')).toBe('Off');
    expect(valueOf('Profile', 'In Service')).toBe('Yes');
    expect(screen.getByRole('note').textContent).toBe('Alerting is off. It turns back on automatically after 60 minutes.');
  });

  it('type and subtype by their display names from GET /thing_types and /thing_subtypes', async () => {
    renderDetail(thing(1, { nickname: 'Unit 7', thing_type: 'police', thing_subtype: 'patrol_car', thing_subtype_id: 'st-patrol' }), {
      extra: {
        'GET /thing_types': () => json(200, [{ id: 'tt-police', name: 'police', display_name: 'Police Department', is_emergency: true }]),
        'GET /thing_subtypes': () =>
          json(200, [{ id: 'st-patrol', name: 'patrol_car', display_name: 'Patrol Car', thing_type_id: 'tt-police' }]),
      },
    });
    await opened('Unit 7');
    await waitFor(() => expect(valueOf('Profile', 'Type')).toBe('Police Department'), WAIT);
    await waitFor(() => expect(valueOf('Profile', 'Subtype')).toBe('Patrol Car'), WAIT);
  });

  it("Integrations are the asset's own provider ids (what its edit form edits), not the owner's integration configurations", async () => {
    renderDetail(
      thing(1, {
        nickname: 'Engine 41',
        device_type: 'ha7',
        integrations: [{ name: 'samsara', id: '732271c2-f1e8-4494-8b11-2719ebe7bb4b' }],
        external_identifiers: [],
      }),
    );
    await opened('Engine 41');
    expect(valueOf('Profile', 'Integrations')).toBe('—');
  });

  it('an asset of the fleet snapshot shows its Integrations and Organization Access at once: the snapshot brings them (README "Spec decisions")', async () => {
    const api = new FakeApi();
    const wire = thing(6_000, {
      nickname: 'Snapshot unit',
      external_identifiers: [{ identifier_id: 'S-6', system_name: 'samsara' }],
      organization_relationships: [{ organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' }],
    });
    api.setThings([...Array.from({ length: 5_001 }, (_, i) => thing(i)), wire]);
    renderApp(`/dashboard/things/${wire.id}`, routes(EDITOR), { signedIn: true, live: api });
    await opened('Snapshot unit');
    await waitFor(() => expect(valueOf('Profile', 'Integrations')).toBe('samsara: S-6'), WAIT);
    const access = screen.getByRole('region', { name: 'Organization Access' });
    expect(
      within(access)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['City of AustinMANAGER']);
    expect(api.callsTo('/organization/things').filter((url) => url.searchParams.get('per_page') === String(THINGS_PAGE_MAX))).toEqual([]);
  });

  it('an asset of a snapshot without its details (another server version): Integrations, Organization Access and their edit wait for its page', async () => {
    const api = new FakeApi();
    api.snapshotDetails = false;
    // 5,002 assets: more than one page of 5,000, so the snapshot comes after the first page of 500.
    const wire = thing(6_000, {
      nickname: 'Snapshot unit',
      external_identifiers: [{ identifier_id: 'S-6', system_name: 'samsara' }],
      organization_relationships: [{ organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' }],
    });
    api.setThings([...Array.from({ length: 5_001 }, (_, i) => thing(i)), wire]);
    let release!: () => void;
    const pages = new Promise<void>((resolve) => (release = resolve));
    const answer = api.fetch;
    api.fetch = async (input, init) => {
      if (new URL(String(input)).searchParams.get('per_page') === '5000') await pages;
      return answer(input, init);
    };
    renderApp(`/dashboard/things/${wire.id}`, routes(EDITOR), { signedIn: true, live: api });
    await opened('Snapshot unit');
    expect(valueOf('Profile', 'Integrations')).toBe('Loading...');
    expect(valueOf('Profile', 'Type')).toBe('Police');
    const access = screen.getByRole('region', { name: 'Organization Access' });
    expect(within(access).getByText('Loading...')).toBeTruthy();
    expect(within(access).queryByRole('listitem')).toBeNull();
    expect(within(access).queryByRole('link', { name: 'Edit Organization Access' })).toBeNull();
    release();
    await waitFor(() => expect(valueOf('Profile', 'Integrations')).toBe('samsara: S-6'), WAIT);
    expect(
      within(access)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['City of AustinMANAGER']);
    expect(within(access).getByRole('link', { name: 'Edit Organization Access' })).toBeTruthy();
  });

  it('the edit page of an asset of a snapshot without its details waits for its page: a form without its relations would replace them', async () => {
    const api = new FakeApi();
    api.snapshotDetails = false;
    const wire = thing(6_000, {
      nickname: 'Snapshot unit',
      organization_relationships: [{ organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' }],
    });
    api.setThings([...Array.from({ length: 5_001 }, (_, i) => thing(i)), wire]);
    let release!: () => void;
    const pages = new Promise<void>((resolve) => (release = resolve));
    const answer = api.fetch;
    let snapshotAnswered = false;
    api.fetch = async (input, init) => {
      const url = new URL(String(input));
      if (url.searchParams.get('per_page') === '5000') await pages;
      const response = await answer(input, init);
      if (url.pathname === '/organization/things/snapshot') snapshotAnswered = true;
      return response;
    };
    renderApp(`/dashboard/things/${wire.id}/edit?tab=associations`, routes(EDITOR), { signedIn: true, live: api });
    await waitFor(() => expect(snapshotAnswered).toBe(true), WAIT);
    await screen.findByText('Loading asset...', {}, WAIT);
    // Held in the worker from the snapshot by now (the other test sees its detail); the page still waits.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(screen.getByText('Loading asset...')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'Snapshot unit' })).toBeNull();
    release();
    await screen.findByRole('form', { name: 'Associations' }, WAIT);
    expect((screen.getByRole('combobox', { name: 'Relation of City of Austin' }) as HTMLSelectElement).value).toBe('manager');
  });

  it('alerting on: no info text; the system id shows only for api devices', async () => {
    renderDetail(thing(1, { nickname: 'Unit 1', device_type: 'ha5', external_id: 'X-1', is_publicly_alerting: true }));
    await opened('Unit 1');
    expect(valueOf('Profile', 'Alerting')).toBe('On');
    expect(valueOf('Profile', 'System ID')).toBe('—');
    expect(screen.queryByText(/turns back on/)).toBeNull();
  });

  it('Organization Access lists the relations with MANAGER / ACCESS badges and the edit link for editors', async () => {
    renderDetail(
      thing(1, {
        nickname: 'Unit 1',
        organization_relationships: [
          { organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' },
          { organization_uuid: 'org-3', organization_name: 'Hays County', relationship_type: 'accessor' },
        ],
      }),
    );
    await opened('Unit 1');
    const access = screen.getByRole('region', { name: 'Organization Access' });
    const items = within(access)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['City of AustinMANAGER', 'Hays CountyACCESS']);
    const edit = within(access).getByRole('link', { name: 'Edit Organization Access' });
    expect(edit.getAttribute('href')).toBe('/dashboard/things/thing-00001/edit?tab=associations');
  });

  it.each([
    [
      'no edit permission, with relations',
      ['thing:read'],
      [{ organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' as const }],
      {},
      false,
    ],
    ['edit permission, no asset or subscribed-organization relation', EDITOR, [], {}, false],
    [
      'edit permission, a subscribed-organization relation only',
      EDITOR,
      [],
      { managed_orgs: [{ id: OTHER_ORG, name: 'City of Austin' }] },
      true,
    ],
  ])('part1 §5: the organization access edit link with %s', async (_name, permissions, relations, profile, shown) => {
    renderDetail(thing(1, { nickname: 'Unit 1', organization_relationships: relations }), { permissions, profile });
    await opened('Unit 1');
    const access = screen.getByRole('region', { name: 'Organization Access' });
    expect(within(access).queryByRole('link', { name: 'Edit Organization Access' }) !== null).toBe(shown);
  });

  it('the edit link shows with thing update or manage only', async () => {
    renderDetail(thing(1, { nickname: 'Unit 1' }), { permissions: ['thing:read'] });
    await opened('Unit 1');
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    cleanup();
    renderDetail(thing(1, { nickname: 'Unit 1' }), { permissions: ['thing:manage'] });
    await opened('Unit 1');
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/dashboard/things/thing-00001/edit');
  });
});

describe('part1 §2 Asset detail: navigation', () => {
  it('a deep link targets the asset on the map and pans to it at the centring zoom; Back clears the target and the selection and goes to the list', async () => {
    const harness = renderDetail(thing(1, { nickname: 'Unit 1' }));
    await opened('Unit 1');
    const store = harness.services.live.bridge!.store;
    expect(store.selection.id).toBe('thing-00001');
    const map = screen.getByTestId('dashboard-map');
    await waitFor(() => expect(map.getAttribute('data-target')).toBe('asset:thing-00001'), WAIT);
    // thing(1) stands at 30.201, -97.7 (the first view's fit of the fleet does not override it)
    await waitFor(() => expect(map.getAttribute('data-camera')).toBe('-97.70000,30.20100,16.00'), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(map.getAttribute('data-camera-kind')).toBe('center');
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/things'), WAIT);
    expect(map.getAttribute('data-target')).toBeNull();
    await waitFor(() => expect(store.selection.id).toBeNull(), WAIT);
    expect(store.selection.asset).toBeNull();
  });

  it('an id that is not in the fleet shows the not-found state once the fleet has loaded', async () => {
    const api = new FakeApi();
    api.setThings([thing(2)]);
    renderApp('/dashboard/things/thing-99999', routes(EDITOR), { signedIn: true, live: api });
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe('This asset is not in your fleet.');
  });

  it('an asset that loads after the page opened is shown when it arrives (deep link before the fleet)', async () => {
    const api = new FakeApi();
    api.setThings([thing(2)]);
    const harness = renderApp('/dashboard/things/thing-00001', routes(EDITOR), { signedIn: true, live: api });
    await waitFor(() => expect(harness.services.live.bridge?.store.total).toBe(1), WAIT);
    api.setThings([thing(1, { nickname: 'Late unit' })]);
    await harness.services.live.bridge!.refresh();
    await opened('Late unit');
  });
});

describe('part1 §2 Asset detail: actions through the detail page (R2R test end to end)', () => {
  it("R2R test alert sends PUT /things/{id}/r2r {action:'test'} and shows 'Sending test' then 'Alert Delivered'", async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const harness = renderDetail(
      thing(1, { nickname: 'Unit 1', device_type: 'ha7', is_r2r_enabled: true, thing_type: 'police', heartbeat_datetime: iso(Date.now()) }),
      {
        extra: {
          'PUT /things/thing-00001/r2r': async () => {
            await answered;
            return json(200, { delivered: true });
          },
        },
      },
    );
    await opened('Unit 1');
    const button = screen.getByRole('button', { name: 'Send R2R Test Alert' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(await screen.findByText('Sending test')).toBeTruthy();
    release();
    expect(await screen.findByText('Alert Delivered', {}, WAIT)).toBeTruthy();
    const call = harness.calls.find((c) => c.method === 'PUT' && c.path === '/things/thing-00001/r2r');
    expect(call?.body).toEqual({ action: 'test' });
  });
});
