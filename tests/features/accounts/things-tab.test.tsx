// @vitest-environment jsdom
/**
 * part 2 §2 accounts "thing" tab: the device configuration column (§3 Device config: by the
 * asset's organization and type) and the bulk 'Set type' through PUT /things/{id} (part 1 §7
 * body; part 1 §6 thing:update / thing:manage, 'Not authorized'; part 1 §8 assetSave texts): the
 * whole app against a fake REST server.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { thing as liveThing } from '../../support/live-fixtures';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const WAIT = { timeout: 15_000 };
const ORG = 'org-1';
const EDITOR = ['user:manage', 'thing:update', 'thing:admin:manage'];
const TYPES = [
  { id: 'type-police', name: 'police', display_name: 'Police', is_emergency: true },
  { id: 'type-fire', name: 'fire', display_name: 'Fire', is_emergency: true },
];
const SUBTYPES = [
  { id: 'sub-engine', name: 'engine', display_name: 'Engine', thing_type_id: 'type-fire' },
  { id: 'sub-ladder', name: 'ladder', display_name: 'Ladder', thing_type_id: 'type-fire' },
  { id: 'sub-k9', name: 'k9', display_name: 'K9', thing_type_id: 'type-police' },
];
const config = (id: string, fileName: string, typeId: string) => ({
  id,
  organization_id: ORG,
  thing_type_id: typeId,
  user_id: null,
  model: 'HA5',
  platform: 'linux-arm',
  file_name: fileName,
  warning_light_pin: 17,
});
const THINGS = [
  liveThing(1, { id: 't-1', nickname: 'Engine 1', thing_type: 'police', thing_type_id: 'type-police', in_service: true }),
  liveThing(2, { id: 't-2', nickname: 'Engine 2', thing_type: 'fire', thing_type_id: 'type-fire', is_publicly_alerting: false }),
  liveThing(3, { id: 't-3', nickname: 'Engine 3', thing_type: 'other', thing_type_id: 'type-other', in_service: false }),
];

function render({ permissions = EDITOR, extra = {} }: { permissions?: string[]; extra?: Record<string, Handler> } = {}) {
  let listed = 0;
  const harness = renderApp(
    '/dashboard/accounts?tab=thing',
    {
      ...signedInRoutes(permissions, { organization_id: ORG, timezone: 'America/Chicago' }),
      'GET /organization/things': () => {
        listed += 1;
        return json(200, {
          data: THINGS,
          meta: { page: 1, per_page: 500, total: THINGS.length, server_timestamp: '2026-11-24T12:00:00Z' },
        });
      },
      'GET /organization/device_configs': () =>
        json(200, [
          config('c-1', 'patrol.conf', 'type-police'),
          config('c-2', 'patrol-night.conf', 'type-police'),
          config('c-3', 'fire.conf', 'type-fire'),
        ]),
      'GET /thing_types': () => json(200, TYPES),
      'GET /thing_subtypes': () => json(200, SUBTYPES),
      ...extra,
    },
    { signedIn: true },
  );
  return { ...harness, listed: () => listed };
}

const rowOf = (table: HTMLElement, name: string) => within(table).getByRole('row', { name: new RegExp(name) });

describe('thing tab: device configuration column (part 2 §2, §3 Device config)', () => {
  it("shows the organization's configurations for each asset's type, '—' when none", async () => {
    render();
    const table = await screen.findByRole('table', {}, WAIT);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['', 'Name', 'Type', 'Subtype', 'Device Configuration', 'Integrations', 'Actions']);
    await waitFor(() => expect(rowOf(table, 'Engine 1').textContent).toContain('patrol.conf, patrol-night.conf'), WAIT);
    expect(rowOf(table, 'Engine 2').textContent).toContain('fire.conf');
    expect(rowOf(table, 'Engine 3').textContent).toContain('—');
  });

  it('leaves the column out for a caller who may not read configurations (and never asks for them)', async () => {
    const { calls } = render({ permissions: ['user:manage', 'thing:update'] });
    const table = await screen.findByRole('table', {}, WAIT);
    expect(within(table).queryByRole('columnheader', { name: 'Device Configuration' })).toBeNull();
    expect(calls.some((call) => call.path === '/organization/device_configs')).toBe(false);
  });
});

describe("thing tab: bulk 'Set type' (part 1 §7 PUT /things/{id})", () => {
  it('selects rows and all shown rows; Set type waits for a selection', async () => {
    render();
    const table = await screen.findByRole('table', {}, WAIT);
    const setType = screen.getByRole('button', { name: 'Set type' }) as HTMLButtonElement;
    expect(setType.disabled).toBe(true);
    expect(setType.title).toBe('');
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select Engine 2' }));
    expect(setType.disabled).toBe(false);
    const all = within(table).getByRole('checkbox', { name: 'Select all shown assets' }) as HTMLInputElement;
    expect(all.checked).toBe(false);
    fireEvent.click(all);
    expect(
      within(table)
        .getAllByRole('checkbox')
        .every((box) => (box as HTMLInputElement).checked),
    ).toBe(true);
    fireEvent.click(all);
    expect(
      within(table)
        .getAllByRole('checkbox')
        .some((box) => (box as HTMLInputElement).checked),
    ).toBe(false);
    expect(setType.disabled).toBe(true);
  });

  it("asks first naming the count, sends each asset's PUT body, then '3 updated, 0 failed' and refreshes the list", async () => {
    const { calls, listed } = render({ extra: saves() });
    const table = await screen.findByRole('table', {}, WAIT);
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select all shown assets' }));
    fireEvent.click(screen.getByRole('button', { name: 'Set type' }));
    const form = await screen.findByRole('form', { name: 'Set type of 3 assets' }, WAIT);
    const typeSelect = within(form).getByRole('combobox', { name: 'Type *' }) as HTMLSelectElement;
    const subtypeSelect = within(form).getByRole('combobox', { name: 'Subtype' }) as HTMLSelectElement;
    // The type is required.
    fireEvent.submit(form);
    expect(await within(form).findByText('Required')).toBeTruthy();
    await waitFor(() => expect(within(typeSelect).getAllByRole('option')).toHaveLength(3), WAIT);
    fireEvent.change(typeSelect, { target: { value: 'type-fire' } });
    // The subtypes of the chosen type only.
    await waitFor(() =>
      expect(
        within(subtypeSelect)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['No subtype', 'Engine', 'Ladder']),
    );
    fireEvent.change(subtypeSelect, { target: { value: 'sub-ladder' } });
    fireEvent.submit(form);
    const confirm = await screen.findByRole('alertdialog', { name: 'Set the type of 3 assets to Fire / Ladder?' }, WAIT);
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    const before = listed();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Set type' }));
    const done = await screen.findByRole('dialog', { name: 'Set type' }, WAIT);
    await waitFor(() => expect(within(done).getByRole('status').textContent).toBe('3 updated, 0 failed'), WAIT);
    const subtype = { thing_type_id: 'type-fire', thing_subtype_id: 'sub-ladder' };
    expect(calls.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body])).toEqual([
      ['/things/t-1', { id: 't-1', in_service: true, is_publicly_alerting: true, ...subtype }],
      ['/things/t-2', { id: 't-2', in_service: true, is_publicly_alerting: false, ...subtype }],
      ['/things/t-3', { id: 't-3', in_service: false, is_publicly_alerting: true, ...subtype }],
    ]);
    await waitFor(() => expect(listed()).toBeGreaterThan(before), WAIT);
    expect((within(table).getByRole('checkbox', { name: 'Select Engine 1' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(within(done).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Set type' })).toBeNull();
  });

  it("without a subtype leaves it out; a refused asset shows '1 updated, 1 failed' with the server's text", async () => {
    const { calls } = render({
      extra: saves({
        't-3': () => json(422, { error: 'validation_failed', message: "thing_type_id must be an emergency type like the asset's" }),
      }),
    });
    const table = await screen.findByRole('table', {}, WAIT);
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select Engine 1' }));
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select Engine 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Set type' }));
    const form = await screen.findByRole('form', { name: 'Set type of 2 assets' }, WAIT);
    const typeSelect = within(form).getByRole('combobox', { name: 'Type *' });
    await waitFor(() => expect(within(typeSelect).getAllByRole('option')).toHaveLength(3), WAIT);
    fireEvent.change(typeSelect, { target: { value: 'type-police' } });
    fireEvent.submit(form);
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Set the type of 2 assets to Police?' }, WAIT)).getByRole('button', {
        name: 'Set type',
      }),
    );
    const done = await screen.findByRole('dialog', { name: 'Set type' }, WAIT);
    await waitFor(() => expect(within(done).getByRole('status').textContent).toBe('1 updated, 1 failed'), WAIT);
    expect(within(done).getByRole('alert').textContent).toBe("Engine 3: thing_type_id must be an emergency type like the asset's");
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { id: 't-1', in_service: true, is_publicly_alerting: true, thing_type_id: 'type-police' },
      { id: 't-3', in_service: false, is_publicly_alerting: true, thing_type_id: 'type-police' },
    ]);
  });

  it("is disabled with 'Not authorized' without thing:update or thing:manage (part 1 §6)", async () => {
    render({ permissions: ['user:manage', 'thing:read'] });
    const table = await screen.findByRole('table', {}, WAIT);
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select Engine 1' }));
    const setType = screen.getByRole('button', { name: 'Set type' }) as HTMLButtonElement;
    expect(setType.disabled).toBe(true);
    expect(setType.title).toBe('Not authorized');
  });
});

/** PUT /things/{id} of each listed asset: its wire object back, unless `refuse` answers for it. */
function saves(refuse: Record<string, Handler> = {}): Record<string, Handler> {
  return Object.fromEntries(THINGS.map((thing) => [`PUT /things/${thing.id}`, refuse[thing.id] ?? (() => json(200, thing))]));
}
