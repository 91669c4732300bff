// @vitest-environment jsdom
/**
 * part2 §2, §4, §5 the export wizard: step 1 the type, step 2 the form with its defaults and every
 * validation text under its field, the assets picker's three empty texts, step 3 'Export
 * In-Progress' with 'Got It'; going back clears the form; the POST body of part 2 §3.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { exportDefaults } from '../../../src/domain/export';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(cleanup);

const LOAD = { timeout: 20_000 };
const DAY = 86_400_000;
const ASSETS = [
  { id: 'a-1', haas_id: 'ha-1', nickname: 'Engine 1' },
  { id: 'a-2', haas_id: 'ha-2', nickname: null },
];

function openWizard(routes: Record<string, Handler> = {}, assets = ASSETS) {
  return renderApp(
    '/dashboard/data/exports/new',
    {
      ...signedInRoutes(['export:read', 'export:create']),
      'GET /organization/export': () => json(200, []),
      'GET /organization/things': () =>
        json(200, { data: assets, meta: { page: 1, per_page: 500, total: assets.length, server_timestamp: '2026-11-24T12:00:00.000Z' } }),
      ...routes,
    },
    { signedIn: true },
  );
}

async function choose(type: 'Incident' | 'Point' | 'Asset' | 'Closure') {
  await screen.findByRole('heading', { level: 1, name: 'Choose the export type' }, LOAD);
  fireEvent.click(screen.getByRole('button', { name: type }));
  await screen.findByRole('heading', { level: 1, name: `Export details: ${type}` });
}

const input = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Export' }));
const errorOf = (label: string | RegExp) => {
  const id = input(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};
const utcInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('part2 §2 export wizard steps', () => {
  it('step 1 offers the four types; step 2 starts from the defaults: previous day, title Type Export date', async () => {
    openWizard();
    await screen.findByRole('heading', { level: 1, name: 'Choose the export type' }, LOAD);
    expect(
      within(screen.getByRole('group', { name: 'Choose the export type' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Incident', 'Point', 'Asset', 'Closure']);
    fireEvent.click(screen.getByRole('button', { name: 'Incident' }));
    await screen.findByRole('heading', { level: 1, name: 'Export details: Incident' });
    const expected = exportDefaults(Date.now(), 'incident', zone);
    expect(input('Title *').value).toBe(expected.title);
    expect(expected.title).toMatch(/^Incident Export \d{4}-\d{2}-\d{2}$/);
    expect(expected.endTime! - expected.startTime!).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect(input('Include incidents without an asset').checked).toBe(false);
    expect((screen.getByLabelText('Organization *') as HTMLSelectElement).value).toBe('org-1');
  });

  it('going back clears the form', async () => {
    openWizard();
    await choose('Point');
    fireEvent.change(input('Title *'), { target: { value: 'My own title' } });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await choose('Point');
    expect(input('Title *').value).toMatch(/^Point Export \d{4}-\d{2}-\d{2}$/);
  });

  it('submits the payload of part 2 §3, then step 3 Export In-Progress; Got It returns to the list', async () => {
    let body: Record<string, unknown> | null = null;
    const harness = openWizard({
      'POST /organization/export': (sent) => {
        body = sent as Record<string, unknown>;
        return json(201, {
          ...body,
          id: 'new-1',
          requested_by: 'user-1',
          requested_at: new Date().toISOString(),
          status: 'requested',
          completed_at: null,
          file_id: null,
        });
      },
    });
    await choose('Point');
    fireEvent.click(await screen.findByRole('button', { name: 'Engine 1' }, LOAD));
    fireEvent.click(input('Times in UTC'));
    fireEvent.click(input('Times in UTC'));
    submit();
    await screen.findByRole('heading', { level: 1, name: 'Export In-Progress' }, LOAD);
    const expected = exportDefaults(Date.now(), 'point', zone);
    expect(body).toEqual({
      export_type: 'point',
      title: expected.title,
      export_start_time: new Date(expected.startTime!).toISOString(),
      export_end_time: new Date(expected.endTime!).toISOString(),
      use_utc: expected.useUtc,
      organization_id: 'org-1',
      thing_uuids: ['a-1'],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Got It' }));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/data/exports'));
    expect(harness.router.state.location.search).toBe('?tab=in_progress');
  });

  it('a refusal from the server shows its words under the form', async () => {
    openWizard({
      'POST /organization/export': () =>
        json(429, {
          error: 'export_limit',
          message: 'You already have 2 exports In-Progress. Please wait for one to finish before requesting another.',
        }),
    });
    await choose('Asset');
    submit();
    expect((await screen.findByRole('alert', {}, LOAD)).textContent).toBe(
      'You already have 2 exports In-Progress. Please wait for one to finish before requesting another.',
    );
  });
});

describe('part2 §5 export validation texts, each under its field', () => {
  it('title required', async () => {
    openWizard();
    await choose('Asset');
    fireEvent.change(input('Title *'), { target: { value: '   ' } });
    expect(errorOf('Title *')).toBe('Required');
    expect(input('Title *').getAttribute('aria-invalid')).toBe('true');
  });

  it('range: required except for asset exports, not beyond now, end after start, at most 31 days', async () => {
    const { calls } = openWizard();
    await choose('Incident');
    fireEvent.click(input('Times in UTC'));
    if (!input('Times in UTC').checked) fireEvent.click(input('Times in UTC'));
    fireEvent.change(input('Start time *'), { target: { value: '' } });
    expect(errorOf('Start time *')).toBe('Required');
    const now = Date.now();
    fireEvent.change(input('Start time *'), { target: { value: utcInput(now - 40 * DAY) } });
    fireEvent.change(input('End time *'), { target: { value: utcInput(now - 2 * DAY) } });
    expect(errorOf('End time *')).toBe('Exceeds max time range');
    fireEvent.change(input('End time *'), { target: { value: utcInput(now - 41 * DAY) } });
    expect(errorOf('End time *')).toBe('End time must be after Start time');
    fireEvent.change(input('End time *'), { target: { value: utcInput(now + DAY) } });
    expect(errorOf('End time *')).toBe('Must be past date');
    submit();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await choose('Asset');
    fireEvent.change(input('Start time'), { target: { value: '' } });
    fireEvent.change(input('End time'), { target: { value: '' } });
    expect(errorOf('Start time')).toBeUndefined();
    expect(errorOf('End time')).toBeUndefined();
  });

  it('a point export needs an asset: the message under the list', async () => {
    openWizard();
    await choose('Point');
    submit();
    const picker = screen.getByRole('group', { name: 'Assets *' });
    expect(within(picker).getByRole('alert').textContent).toBe('Must select at least 1 Asset');
  });

  it('a closure export needs an asset or manual or feed closures', async () => {
    const { calls } = openWizard();
    await choose('Closure');
    submit();
    const kinds = screen.getByRole('group', { name: 'Closures to include' });
    expect(within(kinds).getByRole('alert').textContent).toBe('Must include at least 1 Closure type or Asset');
    fireEvent.click(within(kinds).getByLabelText('Feed closures'));
    expect(within(kinds).queryByRole('alert')).toBeNull();
    fireEvent.click(within(kinds).getByLabelText('Feed closures'));
    expect(within(kinds).getByRole('alert').textContent).toBe('Must include at least 1 Closure type or Asset');
    fireEvent.click(await screen.findByRole('button', { name: 'HA-2' }));
    expect(within(kinds).queryByRole('alert')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('part2 §5 the assets picker’s empty texts', () => {
  it('No Assets Available when the organization has none; No Assets selected before a choice', async () => {
    openWizard({}, []);
    await choose('Point');
    expect(await screen.findByText('No Assets Available', {}, LOAD)).toBeTruthy();
    expect(screen.getByText('No Assets selected')).toBeTruthy();
  });

  it('No Assets to select once every asset is chosen or the search matches none; removing one brings it back', async () => {
    openWizard();
    await choose('Point');
    fireEvent.click(await screen.findByRole('button', { name: 'Engine 1' }, LOAD));
    fireEvent.click(screen.getByRole('button', { name: 'HA-2' }));
    expect(screen.getByText('No Assets to select')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Selected assets' }))
        .getAllByRole('listitem')
        .map((li) => li.firstChild!.textContent),
    ).toEqual(['Engine 1', 'HA-2']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove HA-2' }));
    expect(screen.getByRole('button', { name: 'HA-2' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search assets'), { target: { value: 'zzz' } });
    expect(screen.getByText('No Assets to select')).toBeTruthy();
  });
});
