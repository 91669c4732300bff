// @vitest-environment jsdom
/**
 * part 2 §2 accounts "API keys" and "Device configuration" tabs, §3 API key and Device config,
 * §5 Device config rules and 'Required *', §6 'Not authorized', §8 'Your User has reached the API
 * Key limit': the whole app against a fake REST server.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const WAIT = { timeout: 15_000 };
const ORG = 'org-1';
const KEYS_ADMIN = ['user:manage', 'integration_configuration:manage'];
const DEVICE_ADMIN = ['user:manage', 'thing:admin:manage'];
const TOKEN = 'lb_abcdefgh1234567890abcdefghijklmnopqrstuvwxyzAB';
const key = (
  id: string,
  description: string,
  created: string,
  token = `lb_${id.padEnd(8, 'x')}••••••••`,
): { id: string; description: string; token: string; created_date: string; owner?: { id: string; name: string; email: string } } => ({
  id,
  description,
  token,
  created_date: created,
});
const TYPES = [
  { id: 'type-police', name: 'police', display_name: 'Police', is_emergency: true },
  { id: 'type-fire', name: 'fire', display_name: 'Fire', is_emergency: true },
];
const CONFIG = {
  id: 'cfg-1',
  organization_id: ORG,
  thing_type_id: 'type-police',
  user_id: 'user-1',
  model: 'HA5',
  platform: 'linux-arm',
  file_name: 'patrol.conf',
  heartbeat_interval: 30,
  warning_light_pin: 17,
  indicator_pin: 27,
  location_type: 'gps',
  created_at: '2026-11-20T15:04:00.000Z',
  updated_at: '2026-11-20T15:04:00.000Z',
};

function render(tab: string, { permissions = KEYS_ADMIN, extra = {} }: { permissions?: string[]; extra?: Record<string, Handler> } = {}) {
  return renderApp(
    `/dashboard/accounts${tab}`,
    {
      ...signedInRoutes(permissions, { organization_id: ORG, timezone: 'America/Chicago' }),
      'GET /thing_types': () => json(200, TYPES),
      ...extra,
    },
    { signedIn: true },
  );
}

const type = (element: HTMLElement, value: string) => {
  fireEvent.change(element, { target: { value } });
  fireEvent.blur(element);
};

/** A fake server's key list: POST adds a key (answered whole, listed masked), DELETE revokes. */
function keyServer(initial = [key('k-1', 'Depot gateway', '2026-11-20T15:04:00.000Z')]) {
  let keys = [...initial];
  const routes: Record<string, Handler> = {
    'GET /api_keys': () => json(200, keys),
    'POST /api_keys': (body) => {
      const { description } = body as { description: string };
      const made = key('k-new', description, '2026-11-21T18:30:00.000Z', TOKEN);
      keys = [{ ...made, token: `${TOKEN.slice(0, 11)}••••••••` }, ...keys];
      return json(201, made);
    },
  };
  return { routes, revoke: (id: string) => (keys = keys.filter((k) => k.id !== id)) };
}

describe('API keys tab (part 2 §2, §3 API key)', () => {
  it('shows the API Keys and Device Configuration tabs only to callers the server lets in', async () => {
    render('', { permissions: [...KEYS_ADMIN, 'thing:admin:manage'] });
    const tabs = await screen.findByRole('tablist', { name: 'Account Management' }, WAIT);
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Account', 'Users', 'Organization', 'Assets', 'Billing', 'API Keys', 'Integrations', 'Device Configuration']);
    cleanup();
    const { router } = render('?tab=api_key', { permissions: ['user:manage'] });
    const bare = await screen.findByRole('tablist', { name: 'Account Management' }, WAIT);
    expect(within(bare).queryByRole('tab', { name: 'API Keys' })).toBeNull();
    expect(within(bare).queryByRole('tab', { name: 'Device Configuration' })).toBeNull();
    // An address asking for a tab the caller may not open shows the first.
    expect(within(bare).getByRole('tab', { name: 'Account' }).getAttribute('aria-selected')).toBe('true');
    expect(router.state.location.search).toBe('?tab=api_key');
  });

  it('lists description, the created date in the user’s time zone and the masked key', async () => {
    render('?tab=api_key', { extra: keyServer().routes });
    const table = await screen.findByRole('table', {}, WAIT);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Description', 'Created', 'Key', 'Actions']);
    expect(within(table).getByRole('row', { name: /Depot gateway/ }).textContent).toBe(
      'Depot gateway11/20/2026 9:04 AMlb_k-1xxxxx••••••••Revoke',
    );
  });

  it("an organization's administrator sees every key of the organization with its owner, and may revoke another's", async () => {
    const server = keyServer([
      { ...key('k-2', 'Yard gateway', '2026-11-21T15:04:00.000Z'), owner: { id: 'u-2', name: 'Sam Ortiz', email: 'sam@example.com' } },
    ]);
    const { calls } = render('?tab=api_key', {
      permissions: ['user:admin:manage'],
      extra: {
        ...server.routes,
        'DELETE /api_keys/k-2': () => {
          server.revoke('k-2');
          return json(200, { id: 'k-2' });
        },
      },
    });
    const table = await screen.findByRole('table', {}, WAIT);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Description', 'Owner', 'Created', 'Key', 'Actions']);
    const row = within(table).getByRole('row', { name: /Yard gateway/ });
    expect(within(row).getByText('Sam Ortiz').getAttribute('title')).toBe('sam@example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke Yard gateway' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Revoke Yard gateway?' })).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No API keys yet.', {}, WAIT)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api_keys/k-2']);
  });

  it('with no keys says so', async () => {
    render('?tab=api_key', { extra: { 'GET /api_keys': () => json(200, []) } });
    expect(await screen.findByText('No API keys yet.', {}, WAIT)).toBeTruthy();
  });

  it("create: 'Required *' and the §5 texts, then the key shown once with Copy ('Copied'); the list masks it afterwards", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const server = keyServer();
    const { calls } = render('?tab=api_key', { extra: server.routes });
    fireEvent.click(await screen.findByRole('button', { name: 'Create' }, WAIT));
    const form = screen.getByRole('form', { name: 'Create API Key' });
    const description = within(form).getByRole('textbox', { name: 'Description *' }) as HTMLInputElement;
    expect(description.placeholder).toBe('Required *');
    type(description, '   ');
    fireEvent.submit(form);
    expect(await within(form).findByText('Required')).toBeTruthy();
    type(description, 'x'.repeat(101));
    expect(await within(form).findByText('100 Max Characters')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    type(description, '  Yard sensors  ');
    fireEvent.submit(form);
    const shown = await screen.findByRole('dialog', { name: 'New API Key' }, WAIT);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ description: 'Yard sensors' });
    expect(within(shown).getByLabelText('Key').textContent).toBe(TOKEN);
    expect(within(shown).getByText('Copy the key now: it will not be shown again.')).toBeTruthy();
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(await within(shown).findByText('Copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(TOKEN);

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const row = await screen.findByRole('row', { name: /Yard sensors/ }, WAIT);
    expect(row.textContent).toContain('lb_abcdefgh••••••••');
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it('a refused copy says so; the key stays on screen to select', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    render('?tab=api_key', { extra: keyServer().routes });
    fireEvent.click(await screen.findByRole('button', { name: 'Create' }, WAIT));
    const form = screen.getByRole('form', { name: 'Create API Key' });
    type(within(form).getByRole('textbox', { name: 'Description *' }), 'Yard sensors');
    fireEvent.submit(form);
    const shown = await screen.findByRole('dialog', { name: 'New API Key' }, WAIT);
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(await within(shown).findByText('Copy failed: select the key and copy it.')).toBeTruthy();
    expect(within(shown).getByLabelText('Key').textContent).toBe(TOKEN);
  });

  it("the limit: 'Your User has reached the API Key limit' under the form", async () => {
    render('?tab=api_key', {
      extra: {
        ...keyServer().routes,
        'POST /api_keys': () => json(422, { error: 'api_key_limit', message: 'Your User has reached the API Key limit', limit: 5 }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create' }, WAIT));
    const form = screen.getByRole('form', { name: 'Create API Key' });
    type(within(form).getByRole('textbox', { name: 'Description *' }), 'One too many');
    fireEvent.submit(form);
    expect(await within(form).findByText('Your User has reached the API Key limit', {}, WAIT)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'New API Key' })).toBeNull();
  });

  it('revoke asks first; Cancel keeps the key; Revoke sends DELETE /api_keys/{id} and the key leaves the list', async () => {
    const server = keyServer();
    const { calls } = render('?tab=api_key', {
      extra: {
        ...server.routes,
        'DELETE /api_keys/k-1': () => {
          server.revoke('k-1');
          return json(200, { id: 'k-1' });
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Depot gateway' }, WAIT));
    let dialog = screen.getByRole('alertdialog', { name: 'Revoke Depot gateway?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke Depot gateway' }));
    dialog = screen.getByRole('alertdialog', { name: 'Revoke Depot gateway?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No API keys yet.', {}, WAIT)).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api_keys/k-1']);
  });

  it('read only: Create and Revoke are disabled with Not authorized', async () => {
    render('?tab=api_key', { permissions: ['user:read', 'integration_configuration:read'], extra: keyServer().routes });
    const create = (await screen.findByRole('button', { name: 'Create' }, WAIT)) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    expect(create.title).toBe('Not authorized');
    const revoke = (await screen.findByRole('button', { name: 'Revoke Depot gateway' }, WAIT)) as HTMLButtonElement;
    expect(revoke.disabled).toBe(true);
    expect(revoke.title).toBe('Not authorized');
  });
});

describe('Device Configuration tab (part 2 §2, §3 Device config, §5)', () => {
  it('lists file name, platform, type and model', async () => {
    render('?tab=device_config', {
      permissions: DEVICE_ADMIN,
      extra: { 'GET /organization/device_configs': () => json(200, [CONFIG]) },
    });
    const table = await screen.findByRole('table', {}, WAIT);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['File Name', 'Platform', 'Type', 'Model', 'Actions']);
    await waitFor(() =>
      expect(within(table).getByRole('row', { name: /patrol\.conf/ }).textContent).toBe('patrol.conflinux-armPoliceHA5EditDelete'),
    );
  });

  it("add: every §5 rule ('Required', 'Cannot be the same as Warning Light Pin', pin and interval ranges) before POST; the password is sent", async () => {
    let sent: unknown = null;
    const { calls } = render('?tab=device_config', {
      permissions: DEVICE_ADMIN,
      extra: {
        'GET /organization/device_configs': () => json(200, []),
        'POST /organization/device_configs': (body) => {
          sent = body;
          return json(201, { ...CONFIG, id: 'cfg-2' });
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Configuration' }, WAIT));
    const form = screen.getByRole('form', { name: 'Add Device Configuration' });
    const textbox = (name: string) => within(form).getByRole('textbox', { name }) as HTMLInputElement;
    for (const name of ['File Name *', 'Platform *', 'Model *', 'Warning Light Pin *'])
      expect(textbox(name).placeholder).toBe('Required *');
    const typeSelect = within(form).getByRole('combobox', { name: 'Type *' }) as HTMLSelectElement;
    await waitFor(() => expect([...typeSelect.options].map((o) => o.textContent)).toEqual(['Select...', 'Police', 'Fire']));
    fireEvent.submit(form);
    await waitFor(() => expect(within(form).getAllByText('Required').length).toBe(5));

    type(textbox('File Name *'), 'patrol.conf');
    type(textbox('Platform *'), 'linux-arm');
    fireEvent.change(typeSelect, { target: { value: 'type-fire' } });
    type(textbox('Model *'), 'HA5');
    type(textbox('Warning Light Pin *'), 'GPIO17');
    type(textbox('Heartbeat Interval (seconds)'), '0');
    fireEvent.submit(form);
    expect(await within(form).findByText('Must be a whole number from 0 to 255')).toBeTruthy();
    expect(within(form).getByText('Must be a whole number from 1 to 86400')).toBeTruthy();
    type(textbox('Heartbeat Interval (seconds)'), '');
    type(textbox('Warning Light Pin *'), '17');
    type(textbox('Indicator Pin'), '17');
    fireEvent.submit(form);
    expect(await within(form).findByText('Cannot be the same as Warning Light Pin')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    type(textbox('Indicator Pin'), '27');
    type(within(form).getByLabelText('Password'), 'gpio-pass');
    fireEvent.submit(form);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add Device Configuration' })).toBeNull(), WAIT);
    expect(sent).toEqual({
      organization_id: ORG,
      thing_type_id: 'type-fire',
      user_id: null,
      model: 'HA5',
      platform: 'linux-arm',
      file_name: 'patrol.conf',
      password: 'gpio-pass',
      heartbeat_interval: null,
      warning_light_pin: 17,
      indicator_pin: 27,
      location_type: null,
    });
  });

  it('edit: the password is write-only — never shown, empty keeps the stored one (sent as null); a refused save shows the server’s text', async () => {
    const sent: unknown[] = [];
    render('?tab=device_config', {
      permissions: DEVICE_ADMIN,
      extra: {
        'GET /organization/device_configs': () => json(200, [CONFIG]),
        'PUT /organization/device_configs/cfg-1': (body) => {
          sent.push(body);
          return sent.length === 1
            ? json(422, { error: 'invalid', message: 'thing_type_id: Thing type not found' })
            : json(200, { ...CONFIG, model: 'HA7' });
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit patrol.conf' }, WAIT));
    const form = screen.getByRole('form', { name: 'Edit Device Configuration' });
    const password = within(form).getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    expect(password.value).toBe('');
    expect(within(form).getByText('Leave empty to keep the current password.')).toBeTruthy();
    expect((within(form).getByRole('textbox', { name: 'Indicator Pin' }) as HTMLInputElement).value).toBe('27');
    type(within(form).getByRole('textbox', { name: 'Model *' }), 'HA7');
    fireEvent.submit(form);
    expect(await within(form).findByText('thing_type_id: Thing type not found', {}, WAIT)).toBeTruthy();
    expect(sent[0]).toMatchObject({ id: 'cfg-1', model: 'HA7', password: null, warning_light_pin: 17, heartbeat_interval: 30 });

    type(password, 'new-pass');
    fireEvent.submit(form);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Device Configuration' })).toBeNull(), WAIT);
    expect(sent[1]).toMatchObject({ id: 'cfg-1', password: 'new-pass' });
  });

  it('edit: Move to organization offers own, children and managed organizations; the PUT carries organization_id and the moved one leaves the list', async () => {
    let configs = [CONFIG];
    const sent: unknown[] = [];
    renderApp(
      '/dashboard/accounts?tab=device_config',
      {
        ...signedInRoutes(DEVICE_ADMIN, {
          organization_id: ORG,
          timezone: 'America/Chicago',
          managed_orgs: [
            { id: 'org-m', name: 'Metro Fleet' },
            { id: 'org-c', name: 'Alpha Station' },
          ],
        }),
        'GET /thing_types': () => json(200, TYPES),
        [`GET /organization/${ORG}`]: () =>
          json(200, {
            id: ORG,
            name: 'Travis County Regional',
            email: 'ops@travis.example',
            address1: '1 Main St',
            city: 'Austin',
            state: 'TX',
            postal_code: '78701',
            country_code: 'US',
            child_structure: [{ id: 'org-c', name: 'Alpha Station', parent_id: ORG }],
          }),
        'GET /organization/device_configs': () => json(200, configs),
        'PUT /organization/device_configs/cfg-1': (body) => {
          sent.push(body);
          configs = [];
          return json(200, { ...CONFIG, organization_id: 'org-m' });
        },
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit patrol.conf' }, WAIT));
    const form = screen.getByRole('form', { name: 'Edit Device Configuration' });
    const organization = (await within(form).findByRole('combobox', { name: 'Organization *' }, WAIT)) as HTMLSelectElement;
    expect([...organization.options].map((o) => o.textContent)).toEqual([
      'Select...',
      'Travis County Regional',
      'Alpha Station',
      'Metro Fleet',
    ]);
    expect(organization.value).toBe(ORG);
    fireEvent.change(organization, { target: { value: 'org-m' } });
    fireEvent.submit(form);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Device Configuration' })).toBeNull(), WAIT);
    expect(sent).toEqual([expect.objectContaining({ id: 'cfg-1', organization_id: 'org-m', file_name: 'patrol.conf', password: null })]);
    expect(await screen.findByText('No device configurations yet.', {}, WAIT)).toBeTruthy();
  });

  it('add: no organization select (a new configuration is made in the shown organization)', async () => {
    render('?tab=device_config', { permissions: DEVICE_ADMIN, extra: { 'GET /organization/device_configs': () => json(200, []) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Configuration' }, WAIT));
    const form = screen.getByRole('form', { name: 'Add Device Configuration' });
    expect(within(form).queryByRole('combobox', { name: 'Organization *' })).toBeNull();
  });

  it('delete asks first, then DELETE /organization/device_configs/{id}', async () => {
    let configs = [CONFIG];
    const { calls } = render('?tab=device_config', {
      permissions: DEVICE_ADMIN,
      extra: {
        'GET /organization/device_configs': () => json(200, configs),
        'DELETE /organization/device_configs/cfg-1': () => {
          configs = [];
          return json(200, { id: 'cfg-1' });
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete patrol.conf' }, WAIT));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete patrol.conf?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Configuration' }));
    expect(await screen.findByText('No device configurations yet.', {}, WAIT)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/organization/device_configs/cfg-1']);
  });
});
