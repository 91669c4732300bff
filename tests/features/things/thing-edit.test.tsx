// @vitest-environment jsdom
/**
 * part 1 §2 (asset edit: tabs profile and associations), §3 "Thing form", §5 asset edit and
 * organization access rules, §7 PUT /things/{id} and /associations, §8 asset save errors
 *. The whole app with the REAL live engine providing the asset.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThingWireInput } from '../../../src/domain/asset';
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
const EDITOR = ['thing:read', 'thing:update'];
const HAYS = '00000000-0000-4000-8000-000000000003';
const BASTROP = '00000000-0000-4000-8000-000000000004';

const THING_TYPES = [
  { id: 'tt-fire', name: 'fire', display_name: 'Fire', is_emergency: true },
  { id: 'tt-police', name: 'police', display_name: 'Police', is_emergency: true },
  { id: 'tt-tow', name: 'tow', display_name: 'Tow', is_emergency: false },
];
const THING_SUBTYPES = [
  { id: 'st-k9', name: 'k9', display_name: 'K9 Unit', thing_type_id: 'tt-police' },
  { id: 'st-patrol', name: 'patrol', display_name: 'Patrol', thing_type_id: 'tt-police' },
  { id: 'st-engine', name: 'engine', display_name: 'Engine', thing_type_id: 'tt-fire' },
  { id: 'st-ladder', name: 'ladder', display_name: 'Ladder', thing_type_id: 'tt-fire' },
  { id: 'st-flatbed', name: 'flatbed', display_name: 'Flatbed', thing_type_id: 'tt-tow' },
];

/** The asset under edit: a police car with a K9 subtype, heard from now. */
function unit(overrides: Partial<ThingWireInput> = {}): ThingWireInput {
  return thing(1, {
    nickname: 'Patrol 1',
    thing_type: 'police',
    thing_type_id: 'tt-police',
    thing_subtype: 'k9',
    thing_subtype_id: 'st-k9',
    heartbeat_datetime: iso(Date.now()),
    ...overrides,
  });
}

function renderEdit(
  wire: ThingWireInput,
  { permissions = EDITOR, extra = {}, tab = '' }: { permissions?: string[]; extra?: Record<string, Handler>; tab?: string } = {},
) {
  const api = new FakeApi();
  api.setThings([wire]);
  const routes: Record<string, Handler> = {
    ...signedInRoutes(permissions, { organization_id: ORG, user_org: { id: ORG, name: 'Org' } }),
    'GET /thing_types': () => json(200, THING_TYPES),
    'GET /thing_subtypes': () => json(200, THING_SUBTYPES),
    ...extra,
  };
  return renderApp(`/dashboard/things/${wire.id}/edit${tab}`, routes, { signedIn: true, live: api });
}

async function profileForm() {
  await screen.findByRole('heading', { level: 1, name: 'Patrol 1' }, WAIT);
  const form = screen.getByRole('form', { name: 'Profile' });
  // The type list has loaded when the asset's type is chosen.
  await waitFor(() => expect((within(form).getByRole('combobox', { name: 'Type *' }) as HTMLSelectElement).value).toBe('tt-police'), WAIT);
  return form;
}

const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const input = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const optionTexts = (element: HTMLSelectElement) => [...element.options].map((o) => o.textContent);

/** Types text and leaves the field (touched and dirty). */
function typeInto(name: string, value: string) {
  fireEvent.change(input(name), { target: { value } });
  fireEvent.blur(input(name));
}

describe('part1 §2 asset edit tabs', () => {
  it('is a tablist (profile selected); arrows move to associations and back; the tab is in the URL', async () => {
    const harness = renderEdit(
      unit({
        organization_relationships: [{ organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' }],
      }),
    );
    await profileForm();
    const tabs = within(screen.getByRole('tablist')).getAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected'), t.tabIndex])).toEqual([
      ['Profile', 'true', 0],
      ['Associations', 'false', -1],
    ]);
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs[0]?.id);
    fireEvent.keyDown(tabs[0]!, { key: 'ArrowRight' });
    const associations = await screen.findByRole('tab', { name: 'Associations', selected: true });
    expect(document.activeElement).toBe(associations);
    expect(harness.router.state.location.search).toBe('?tab=associations');
    expect(screen.getByRole('form', { name: 'Associations' })).toBeTruthy();
    fireEvent.keyDown(associations, { key: 'ArrowLeft' });
    expect(await screen.findByRole('tab', { name: 'Profile', selected: true })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Profile' })).toBeTruthy();
  });

  it('part1 §5: without any asset or subscribed-organization relation there is no associations tab', async () => {
    renderEdit(unit(), { tab: '?tab=associations' });
    await profileForm();
    expect(
      within(screen.getByRole('tablist'))
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Profile']);
  });

  it('without thing update or manage the page says not authorized', async () => {
    renderEdit(unit(), { permissions: ['thing:read'] });
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe('Sorry, you are not currently authorized to access this page.');
  });
});

describe('part1 §5 asset edit: fields and rules', () => {
  it("starts from the asset; labels 'Nickname *' and 'Type *'; Save is disabled until the form changed", async () => {
    await (renderEdit(unit({ vin_number: 'ABC123', license_plate_number: 'TX-1', registry_number: 'R-9' })), profileForm());
    expect(input('Nickname *').value).toBe('Patrol 1');
    expect(input('VIN').value).toBe('ABC123');
    expect(input('License Plate').value).toBe('TX-1');
    expect(input('Vehicle ID').value).toBe('R-9');
    expect(select('Subtype').value).toBe('st-k9');
    expect((screen.getByRole('checkbox', { name: 'In Service' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Alerting' }) as HTMLInputElement).checked).toBe(true);
    expect(save().disabled).toBe(true);
    fireEvent.change(input('License Plate'), { target: { value: 'TX-2' } });
    expect(save().disabled).toBe(false);
    fireEvent.change(input('License Plate'), { target: { value: 'TX-1' } });
    await waitFor(() => expect(save().disabled).toBe(true));
  });

  it("part1 §5 'Required *': the nickname is marked required and reads 'Required *' while empty", async () => {
    renderEdit(unit());
    await profileForm();
    const nickname = input('Nickname *');
    expect(nickname.getAttribute('aria-required')).toBe('true');
    expect(nickname.getAttribute('placeholder')).toBe('Required *');
    typeInto('Nickname *', '');
    expect(nickname.value).toBe('');
    expect((await screen.findByText('Required')).id).toBe(nickname.getAttribute('aria-describedby'));
  });

  it("type required: choosing no type and saving shows 'Required' under it (and sends nothing)", async () => {
    const harness = renderEdit(unit());
    await profileForm();
    fireEvent.change(select('Type *'), { target: { value: '' } });
    fireEvent.blur(select('Type *'));
    fireEvent.click(save());
    const shown = await screen.findByText('Required');
    expect(select('Type *').getAttribute('aria-describedby')).toBe(shown.id);
    expect(harness.calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it.each([
    ['Nickname *', '', 'Required'],
    ['Nickname *', 'x'.repeat(51), 'Must be 50 or fewer characters'],
    ['VIN', '1FT-FW1', 'Please only use numbers or letters'],
    ['VIN', 'ABC 123', 'Please only use numbers or letters'],
    ['License Plate', 'p'.repeat(51), 'Must be 50 or fewer characters'],
    ['Vehicle ID', 'r'.repeat(51), 'Must be 50 or fewer characters'],
  ])('%s %j shows %s', async (field, value, message) => {
    renderEdit(unit());
    await profileForm();
    typeInto(field, value);
    const shown = await screen.findByText(message);
    expect(input(field).getAttribute('aria-describedby')).toBe(shown.id);
  });

  it('50 characters and letters-and-digits VINs are accepted', async () => {
    renderEdit(unit());
    await profileForm();
    typeInto('Nickname *', 'n'.repeat(50));
    typeInto('VIN', '1FTFW1E50PFA00001');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('type options are the emergency kind of the asset; subtype options follow the type and reset when it changes', async () => {
    renderEdit(unit());
    await profileForm();
    expect(optionTexts(select('Type *'))).toEqual(['Select...', 'Fire', 'Police']);
    expect(optionTexts(select('Subtype'))).toEqual(['Select...', 'K9 Unit', 'Patrol']);
    fireEvent.change(select('Type *'), { target: { value: 'tt-fire' } });
    await waitFor(() => expect(optionTexts(select('Subtype'))).toEqual(['Select...', 'Engine', 'Ladder']));
    expect(select('Subtype').value).toBe('');
  });

  it('a non-emergency asset gets the non-emergency types', async () => {
    renderEdit(unit({ thing_type: 'tow', thing_type_id: 'tt-tow', thing_subtype_id: null, is_responder: false }));
    await screen.findByRole('heading', { level: 1, name: 'Patrol 1' }, WAIT);
    await waitFor(() => expect(select('Type *').value).toBe('tt-tow'), WAIT);
    expect(optionTexts(select('Type *'))).toEqual(['Select...', 'Tow']);
  });

  it("integrations: up to 2, no provider twice ('Available providers in use' when exhausted), each needs provider and id", async () => {
    renderEdit(unit());
    await profileForm();
    const add = screen.getByRole('button', { name: '+ Add Integration' }) as HTMLButtonElement;
    fireEvent.click(add);
    const first = screen.getAllByRole('combobox', { name: 'Provider *' })[0] as HTMLSelectElement;
    expect(optionTexts(first)).toEqual(['Select...', 'Samsara', 'Geotab']);
    fireEvent.change(first, { target: { value: 'samsara' } });
    fireEvent.click(add);
    const second = screen.getAllByRole('combobox', { name: 'Provider *' })[1] as HTMLSelectElement;
    expect(optionTexts(second)).toEqual(['Select...', 'Geotab']);
    expect(add.disabled).toBe(true);
    expect(screen.getByText('Available providers in use')).toBeTruthy();
    // Submitting with empty rows: each needs a provider and an id.
    fireEvent.click(save());
    await waitFor(() => expect(screen.getAllByText('Required')).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: 'Remove integration 2' }));
    await waitFor(() => expect(add.disabled).toBe(false));
    expect(screen.queryByText('Available providers in use')).toBeNull();
  });

  it('alerting switched off shows that it turns back on after 60 minutes', async () => {
    renderEdit(unit());
    await profileForm();
    expect(screen.queryByText(/turns back on/)).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Alerting' }));
    expect(screen.getByRole('note').textContent).toBe('Alerting is off. It turns back on automatically after 60 minutes.');
  });
});

describe('part1 §7 PUT /things/{id} and §8 asset save errors', () => {
  it('Save sends the thing payload and returns to the detail', async () => {
    const bodies: unknown[] = [];
    const harness = renderEdit(unit({ external_identifiers: [{ identifier_id: 'G-1', system_name: 'geotab' }] }), {
      extra: {
        'PUT /things/thing-00001': (body) => {
          bodies.push(body);
          return json(200, { ...unit(), nickname: 'Patrol One' });
        },
      },
    });
    await profileForm();
    typeInto('Nickname *', '  Patrol One ');
    typeInto('VIN', '1FTFW1E50PFA00001');
    fireEvent.change(select('Subtype'), { target: { value: 'st-patrol' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'In Service' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove integration 1' }));
    fireEvent.click(screen.getByRole('button', { name: '+ Add Integration' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Provider *' }), { target: { value: 'samsara' } });
    typeInto('Integration ID *', 'SAM-77');
    fireEvent.click(save());
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/things/thing-00001'), WAIT);
    expect(bodies).toEqual([
      {
        id: 'thing-00001',
        in_service: false,
        is_publicly_alerting: true,
        nickname: 'Patrol One',
        thing_type_id: 'tt-police',
        thing_subtype_id: 'st-patrol',
        vin_number: '1FTFW1E50PFA00001',
        license_plate_number: null,
        registry_number: null,
        external_identifiers: [
          { identifier_id: 'SAM-77', system_name: 'samsara', is_deleted: false },
          { identifier_id: 'G-1', system_name: 'geotab', is_deleted: true },
        ],
      },
    ]);
  });

  it('lost updates: the save sends the version the page opened on; a 412 stays on the form with what was typed', async () => {
    const harness = renderEdit(unit({ version: 12 }), {
      extra: {
        'PUT /things/thing-00001': () =>
          json(412, { error: 'precondition_failed', message: 'This asset was changed by someone else. Reload to see their changes.' }),
      },
    });
    await profileForm();
    typeInto('Nickname *', 'Patrol Nine');
    fireEvent.click(save());
    expect(await screen.findByText('This asset was changed by someone else. Reload to see their changes.', {}, WAIT)).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Nickname *' }) as HTMLInputElement).value).toBe('Patrol Nine');
    expect(harness.calls.filter((call) => call.method === 'PUT').map((call) => call.headers.get('if-match'))).toEqual(['"12"']);
    expect(harness.router.state.location.pathname).toBe('/dashboard/things/thing-00001/edit');
  });

  it('Save is disabled while the save is on its way', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const harness = renderEdit(unit(), {
      extra: {
        'PUT /things/thing-00001': async () => {
          await answered;
          return json(200, unit({ nickname: 'Patrol 2' }));
        },
      },
    });
    await profileForm();
    typeInto('Nickname *', 'Patrol 2');
    expect(save().disabled).toBe(false);
    fireEvent.click(save());
    await waitFor(() => expect(harness.calls.some((call) => call.method === 'PUT')).toBe(true), WAIT);
    expect(save().disabled).toBe(true);
    release();
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/things/thing-00001'), WAIT);
  });

  it.each([
    [
      '422 naming the nickname',
      'Asset nickname cannot be updated',
      () => json(422, { error: 'nickname_taken', message: 'nickname is already used by another asset of this organization' }),
    ],
    ['422 containing found', 'Asset not found', () => json(422, { error: 'not_found', message: 'Asset not found' })],
    ['404', 'Asset not found', () => json(404, { error: 'not_found', message: 'Not found' })],
    [
      'another 422 (shown as received)',
      'Your organization can view this asset but not change it',
      () => json(422, { error: 'read_only', message: 'Your organization can view this asset but not change it' }),
    ],
    ['500', 'Unknown failure', () => json(500, { error: 'server' })],
    [
      'no answer',
      'Connection failed',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('%s shows %s under the form', async (_name, text, handler) => {
    renderEdit(unit(), { extra: { 'PUT /things/thing-00001': handler } });
    const form = await profileForm();
    typeInto('Nickname *', 'Patrol 2');
    fireEvent.click(save());
    const alert = await within(form).findByRole('alert', {}, WAIT);
    expect(alert.textContent).toBe(text);
    // Under the form: after the Save button.
    expect(save().compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('part1 §5 organization access edit, §7 PUT /things/{thingId}/associations', () => {
  it('each relation is manager, accessor or delete; organizations to add come from /organization/assignable', async () => {
    const bodies: unknown[] = [];
    const harness = renderEdit(
      unit({
        organization_relationships: [
          { organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' },
          { organization_uuid: HAYS, organization_name: 'Hays County', relationship_type: 'accessor' },
        ],
      }),
      {
        tab: '?tab=associations',
        extra: {
          'GET /organization/assignable': () =>
            json(200, [
              { id: BASTROP, name: 'Bastrop County' },
              { id: OTHER_ORG, name: 'City of Austin' },
              { id: HAYS, name: 'Hays County' },
            ]),
          'PUT /things/thing-00001/associations': (body) => {
            bodies.push(body);
            return json(200, body);
          },
        },
      },
    );
    await screen.findByRole('form', { name: 'Associations' }, WAIT);
    const austin = select('Relation of City of Austin');
    expect(optionTexts(austin)).toEqual(['Select...', 'Manager', 'Access', 'Delete']);
    expect(austin.value).toBe('manager');
    expect(select('Relation of Hays County').value).toBe('accessor');
    expect(save().disabled).toBe(true);
    // Only organizations not listed yet can be added.
    await waitFor(() => expect(optionTexts(select('Add organization'))).toEqual(['Select...', 'Bastrop County']), WAIT);
    fireEvent.change(austin, { target: { value: 'accessor' } });
    fireEvent.change(select('Relation of Hays County'), { target: { value: 'delete' } });
    fireEvent.change(select('Add organization'), { target: { value: BASTROP } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    fireEvent.change(select('Relation of Bastrop County'), { target: { value: 'manager' } });
    expect(save().disabled).toBe(false);
    fireEvent.click(save());
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/things/thing-00001'), WAIT);
    expect(bodies).toEqual([
      {
        organization_relationships: [
          { organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'accessor' },
          { organization_uuid: BASTROP, organization_name: 'Bastrop County', relationship_type: 'manager' },
        ],
      },
    ]);
  });

  it('a refused change shows the asset-save text under the form', async () => {
    renderEdit(
      unit({
        organization_relationships: [{ organization_uuid: OTHER_ORG, organization_name: 'City of Austin', relationship_type: 'manager' }],
      }),
      {
        tab: '?tab=associations',
        extra: {
          'GET /organization/assignable': () => json(200, []),
          'PUT /things/thing-00001/associations': () =>
            json(422, { error: 'owner_only', message: "Only the asset's owner organization can change its organization access" }),
        },
      },
    );
    await screen.findByRole('form', { name: 'Associations' }, WAIT);
    fireEvent.change(select('Relation of City of Austin'), { target: { value: 'delete' } });
    fireEvent.click(save());
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe(
      "Only the asset's owner organization can change its organization access",
    );
  });
});
