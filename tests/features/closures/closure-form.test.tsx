// @vitest-environment jsdom
/** part 2 §2 closure form, §4 "Closure form modes", §5 Closure validation, §8 Closure save. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, profileWire } from '../../app/support/render-app';
import { BRIDGE, CREW, DAY, MANAGE, NOW, ORG, PARADE, cleanupClosures, closureWire, renderClosures } from './closure-fixtures';
import { fromMinuteInput, toMinuteInput } from '../../../src/domain/time';

afterEach(cleanupClosures);

const LOAD = { timeout: 20_000 };

async function openForm(path: string, options: Parameters<typeof renderClosures>[1] = {}) {
  const harness = renderClosures(path, options);
  await screen.findByRole('button', { name: 'Save' }, LOAD);
  return harness;
}

const field = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const errorOf = (id: string) => document.getElementById(`${id}-error`)?.textContent ?? null;
/** An edit that changes one thing (part 2 §5: an unchanged edit cannot be saved). */
const touchDescription = () => fireEvent.change(field('Description *'), { target: { value: `${field('Description *').value}.` } });
/** datetime-local text of a time in the test's zone. */
const local = (ms: number): string => toMinuteInput(ms);

function saved(calls: { method: string; path: string; body: unknown }[]) {
  return calls.filter((c) => c.method === 'PUT' || c.method === 'POST').map((c) => c.body as Record<string, unknown>);
}

function answerWith(wire = PARADE) {
  return () => json(200, wire);
}

describe('part 2 §5 closure form validation (new closure)', () => {
  it('Save with nothing filled shows each §5 text under its field and sends nothing', async () => {
    const { calls } = await openForm('/dashboard/closures/new', { isWzdxOrg: true });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(errorOf('closure-path')).toBe("ERROR: Please create new Closure on map. Click 'View Instructions' above if needed."),
    );
    expect(errorOf('closure-description')).toBe('Required');
    // part 2 §5: direction required for WZDx organizations.
    expect(errorOf('closure-direction')).toBe('Required');
    expect(saved(calls)).toEqual([]);
    // 'View Instructions' (the route message points to it) shows how to draw.
    fireEvent.click(screen.getByRole('button', { name: 'View Instructions' }));
    expect(screen.getByText(/Click the map to place the start, any turns, then the end; press Enter to finish/)).toBeTruthy();
  });

  it('description 100 and alert message 40 with counters and their texts', async () => {
    await openForm('/dashboard/closures/new');
    fireEvent.change(field('Description *'), { target: { value: 'x'.repeat(101) } });
    fireEvent.change(field('Alert message'), { target: { value: 'y'.repeat(41) } });
    expect(screen.getByText('101/100')).toBeTruthy();
    expect(screen.getByText('41/40')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('closure-description')).toBe('100 Max Characters'));
    expect(errorOf('closure-alert')).toBe('40 Max Characters');
  });

  it('a non-WZDx organization does not require the direction', async () => {
    await openForm('/dashboard/closures/new', { isWzdxOrg: false });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('closure-description')).toBe('Required'));
    expect(errorOf('closure-direction')).toBeNull();
  });
});

describe('part 2 §5 General: the closure form on the form kit', () => {
  const saveButton = () => screen.getByRole('button', { name: /^Save|Saving/ }) as HTMLButtonElement;

  it("required fields read 'Required *'; the counters show the limit as the user types and warn within 5 of it", async () => {
    await openForm('/dashboard/closures/new', { isWzdxOrg: true });
    expect(field('Description *').placeholder).toBe('Required *');
    expect(field('Direction of travel *')).toBeTruthy();
    expect(screen.getByText('0/100')).toBeTruthy();
    expect(screen.getByText('0/40')).toBeTruthy();
    fireEvent.change(field('Description *'), { target: { value: 'x'.repeat(94) } });
    expect(screen.getByText('94/100').classList.contains('field-count-warn')).toBe(false);
    fireEvent.change(field('Description *'), { target: { value: 'x'.repeat(95) } });
    expect(screen.getByText('95/100').classList.contains('field-count-warn')).toBe(true);
    fireEvent.change(field('Alert message'), { target: { value: 'y'.repeat(36) } });
    expect(screen.getByText('36/40').classList.contains('field-count-warn')).toBe(true);
    fireEvent.click(screen.getByRole('switch', { name: 'Publish to WZDx feed' }));
    expect(field('WZDx ID *').placeholder).toBe('Required *');
    expect((screen.getByLabelText('Location method *') as HTMLSelectElement).options[0]!.textContent).toBe('Required *');
    expect((screen.getByLabelText('Vehicle impact *') as HTMLSelectElement).options[0]!.textContent).toBe('Required *');
  });

  it('an edit saves only once changed (a change undone disables Save again), and not while it is submitting', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: { [`PUT /organization/closure/${PARADE.id}`]: () => new Promise<Response>((resolve) => (answer = resolve)) },
    });
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(field('Description *'), { target: { value: 'Parade route!' } });
    expect(saveButton().disabled).toBe(false);
    fireEvent.change(field('Description *'), { target: { value: 'Parade route' } });
    expect(saveButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: '3' }));
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(saveButton());
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    expect(saveButton().disabled).toBe(true);
    expect(saved(calls)[0]!.impacted_lanes).toEqual([1, 3]);
    answer(json(200, PARADE));
  });

  it('part 2 §2: the layers on the map while a closure is edited have ids of their own (the form draws its path beside the list)', async () => {
    await openForm(`/dashboard/closures/${PARADE.id}/edit`);
    const map = screen.getByTestId('dashboard-map');
    const ids = () => (map.getAttribute('data-layers') ?? '').split(' ').filter(Boolean);
    await waitFor(() => expect(ids()).toEqual(expect.arrayContaining(['closures-paths', 'closure-form-paths'])), LOAD);
    expect(ids().length).toBeGreaterThan(0);
    expect(new Set(ids()).size).toBe(ids().length);
  });
});

describe('part 2 §4 closure form modes (editing a manual closure)', () => {
  it('inactive: times cleared; saves is_active false with no times', async () => {
    const { calls } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: { [`PUT /organization/closure/${PARADE.id}`]: answerWith() },
    });
    expect(screen.getByText('Inactive: no start or end time.')).toBeTruthy();
    expect(screen.queryByLabelText('End time *')).toBeNull();
    // Unchanged, the edit cannot be saved (part 2 §5 General).
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    touchDescription();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    expect(saved(calls)[0]).toMatchObject({
      uuid: PARADE.id,
      organization_id: ORG,
      closure_type: 'manual',
      is_dashboard_managed: true,
      is_active: false,
      start_time: null,
      end_time: null,
      user_route: PARADE.user_route,
      calculated_route: PARADE.calculated_route,
    });
  });

  it('active: needs an end time ("End date required"), at most 3 months ahead; the scheduled switch is disabled', async () => {
    const { calls } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: { [`PUT /organization/closure/${PARADE.id}`]: answerWith() },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Active now' }));
    expect((screen.getByRole('switch', { name: 'Scheduled' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('closure-end')).toBe('End date required'));
    fireEvent.change(field('End time *'), { target: { value: local(NOW + 100 * DAY) } });
    await waitFor(() => expect(errorOf('closure-end')).toBe('Must be within 3 months'));
    fireEvent.change(field('End time *'), { target: { value: local(NOW + 2 * DAY) } });
    await waitFor(() => expect(errorOf('closure-end')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    const body = saved(calls)[0]!;
    expect(body.is_active).toBe(true);
    expect(Math.abs(Date.parse(body.end_time as string) - (NOW + 2 * DAY))).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(body.start_time as string) - NOW)).toBeLessThan(60_000);
  });

  it("times are shown and read in the user's zone (the profile's), not the browser's: what is typed is what the detail and the feed say", async () => {
    // A zone no test machine runs in (UTC+14): the browser's reading would differ by hours.
    const ZONE = 'Pacific/Kiritimati';
    const { calls } = await openForm(`/dashboard/closures/${BRIDGE.id}/edit`, {
      routes: {
        'GET /profile': () =>
          json(200, profileWire(MANAGE, { organization_id: ORG, user_org: { id: ORG, name: 'Travis County Regional' }, timezone: ZONE })),
        [`PUT /organization/closure/${BRIDGE.id}`]: answerWith(BRIDGE),
      },
    });
    const end = Date.parse(BRIDGE.end_time!);
    expect(field('End time *').value).toBe(toMinuteInput(end, ZONE));
    expect(toMinuteInput(end, ZONE)).not.toBe(toMinuteInput(end));
    const typed = toMinuteInput(end + DAY, ZONE).replace(/T\d\d:\d\d$/, 'T17:00');
    fireEvent.change(field('End time *'), { target: { value: typed } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    expect(saved(calls)[0]!.end_time).toBe(new Date(fromMinuteInput(typed, ZONE)!).toISOString());
    expect(new Date(saved(calls)[0]!.end_time as string).getUTCHours()).toBe(3); // 17:00 at UTC+14
  });

  it('scheduled: start and end; a start already past is sent as scheduled (the server makes it active on save); the active switch is disabled', async () => {
    const { calls } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: { [`PUT /organization/closure/${PARADE.id}`]: answerWith() },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Scheduled' }));
    expect((screen.getByRole('switch', { name: 'Active now' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('closure-start')).toBe('Required'));
    expect(errorOf('closure-end')).toBe('End date required');
    fireEvent.change(field('Start time *'), { target: { value: local(NOW - 2 * 3_600_000) } });
    fireEvent.change(field('End time *'), { target: { value: local(NOW + DAY) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    const body = saved(calls)[0]!;
    expect(body.is_active).toBe(false);
    expect(Math.abs(Date.parse(body.start_time as string) - (NOW - 2 * 3_600_000))).toBeLessThan(60_000);
  });

  it("offers every asset of the organization by name in the virtualized picker, the live list's filters aside; a search narrows it", async () => {
    await openForm('/dashboard/closures/new');
    expect(await screen.findByRole('checkbox', { name: 'Unit 1' }, LOAD)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Unit 2' })).toBeTruthy();
    expect(screen.getByText('No asset (manual closure)')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Asset' }), { target: { value: 'unit 2' } });
    expect(screen.queryByRole('checkbox', { name: 'Unit 1' })).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Asset' }), { target: { value: '' } });
    // One asset at most: a second choice replaces the first.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Unit 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Unit 2' }));
    expect(screen.queryByRole('button', { name: 'Remove Unit 1' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Unit 2' })).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Unit 1' }) as HTMLInputElement).checked).toBe(false);
    // An automated closure: the status section is hidden.
    expect(screen.queryByRole('switch', { name: 'Active now' })).toBeNull();
  });

  it('an automated closure (asset associated) hides the status section; removing the asset shows it and makes the edit savable', async () => {
    await openForm(`/dashboard/closures/${CREW.id}/edit`);
    expect(screen.queryByRole('switch', { name: 'Active now' })).toBeNull();
    expect(((await screen.findByRole('checkbox', { name: 'Unit 1' }, LOAD)) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Unit 1' }));
    expect(screen.getByRole('switch', { name: 'Active now' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('WZDx publishing: id, location method and vehicle impact required; group id free or existing; the payload carries them', async () => {
    const { calls } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: { [`PUT /organization/closure/${PARADE.id}`]: answerWith() },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Publish to WZDx feed' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('closure-wzdx-id')).toBe('Required'));
    expect(errorOf('closure-location-method')).toBe('Required');
    expect(errorOf('closure-vehicle-impact')).toBe('Required');
    // An existing group id is offered (the published BRIDGE closure's).
    expect([...document.querySelectorAll('#closure-group-ids option')].map((o) => o.getAttribute('value'))).toEqual(['bridges']);
    fireEvent.change(field('WZDx ID *'), { target: { value: 'wz-parade' } });
    // The choices read as words; the values sent are WZDx's codes.
    expect([...(screen.getByLabelText('Vehicle impact *') as HTMLSelectElement).options].slice(1, 8).map((o) => o.textContent)).toEqual([
      'All lanes closed',
      'Some lanes closed',
      'All lanes open',
      'Alternating one way',
      'Some lanes closed, merge left',
      'Some lanes closed, merge right',
      'All lanes open, shift left',
    ]);
    fireEvent.change(screen.getByLabelText('Location method *'), { target: { value: 'sign-method' } });
    fireEvent.change(screen.getByLabelText('Vehicle impact *'), { target: { value: 'all-lanes-closed' } });
    fireEvent.change(field('Group ID'), { target: { value: 'bridges' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    expect(saved(calls)[0]).toMatchObject({
      external_id: 'wz-parade',
      location_method: 'sign-method',
      vehicle_impact: 'all-lanes-closed',
      group_id: 'bridges',
    });
  });

  it.each([
    [422, 'external_id: violates unique index', 'ID is already in use. Please select a new ID'],
    [422, 'Closure not managed by Dashboard', 'Closure not managed by Dashboard'],
    [404, 'Closure not found', 'Closure not found'],
    // part 2 §8 Asset save errors, for the closure's asset association.
    [422, 'thing_id: Asset not found', 'Asset not found'],
    [500, 'boom', 'Unable to save Closure'],
  ])('part 2 §8 Closure save %i "%s" shows "%s" under the form', async (status, message, text) => {
    await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: { [`PUT /organization/closure/${PARADE.id}`]: () => json(status, { error: 'x', message }) },
    });
    touchDescription();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const form = screen.getByRole('form');
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe(text), LOAD);
  });

  it("while the path is drawn the form offers 'Finish path' (Enter's twin for touch: a phone has no Enter key)", async () => {
    await openForm('/dashboard/closures/new');
    expect(screen.queryByRole('button', { name: 'Finish path' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Draw path on map' }));
    expect(await screen.findByRole('button', { name: 'Finish path' })).toBeTruthy();
    expect(screen.getByText(/press Enter to finish/)).toBeTruthy();
  });

  it('lost updates: the save sends the version the form opened on; a 412 shows whose change it met and keeps what was typed', async () => {
    const opened = { ...PARADE, version: 3 };
    const { calls, router } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      closures: [opened],
      routes: {
        [`PUT /organization/closure/${PARADE.id}`]: () =>
          json(412, { error: 'precondition_failed', message: 'This closure was changed by someone else. Reload to see their changes.' }),
      },
    });
    fireEvent.change(field('Description *'), { target: { value: 'Parade route, east side' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const form = screen.getByRole('form');
    await waitFor(
      () =>
        expect(within(form).getByRole('alert').textContent).toBe('This closure was changed by someone else. Reload to see their changes.'),
      LOAD,
    );
    const put = calls.filter((c) => c.method === 'PUT');
    expect(put.map((c) => c.headers.get('if-match'))).toEqual(['"3"']);
    expect(field('Description *').value).toBe('Parade route, east side');
    expect(router.state.location.pathname).toBe(`/dashboard/closures/${PARADE.id}/edit`);
  });

  it('the edit page needs closure update or manage (mobile: the mobile closure permissions)', async () => {
    renderClosures(`/dashboard/closures/${BRIDGE.id}/edit`, { permissions: ['closure:read'] });
    expect(await screen.findByText('Sorry, you are not currently authorized to access this page.', {}, LOAD)).toBeTruthy();
  });

  it('a saved new closure opens its detail', async () => {
    const created = closureWire('c-new', { description: 'New one' });
    const { router, api } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: {
        [`PUT /organization/closure/${PARADE.id}`]: () => {
          api.setClosure(created);
          return json(200, created);
        },
      },
    });
    touchDescription();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/closures/c-new'), LOAD);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("Back with a change not saved asks 'Leave without saving?'; a failed save still asks; Stay keeps the change", async () => {
    const { router } = await openForm(`/dashboard/closures/${PARADE.id}/edit`, {
      routes: { [`PUT /organization/closure/${PARADE.id}`]: () => json(500, { error: 'x', message: 'boom' }) },
    });
    touchDescription();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(screen.getByRole('form')).getByRole('alert').textContent).toBe('Unable to save Closure'), LOAD);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe(`/dashboard/closures/${PARADE.id}/edit`);
    expect(field('Description *').value.endsWith('.')).toBe(true);
  });
});
