// @vitest-environment jsdom
/**
 * part 2 §2 accounts "API keys and integrations", §6 integration configuration permissions and
 * 'Not authorized', §9 "Integration providers: two fleet telematics providers": the Integrations
 * tab of the legacy accounts section, the whole app against a fake REST server.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const WAIT = { timeout: 15_000 };
const ORG = 'org-1';
const MANAGER = ['user:manage', 'integration_configuration:manage'];
const READER = ['user:read', 'integration_configuration:read'];
const SAMSARA = {
  id: 'int-s',
  organization_id: ORG,
  provider: 'samsara',
  settings: { api_token: '••••1234' },
  created_at: '2026-11-20T15:04:00.000Z',
};
const GEOTAB = {
  id: 'int-g',
  organization_id: ORG,
  provider: 'geotab',
  // In the order Postgres's jsonb answers the names (by length, then alphabetically), plus a name no field has.
  settings: { server: 'my.geotab.com', database: 'alpha_fleet', password: '••••9876', user_name: 'ops@alpha.example', fleet: 'North' },
  created_at: '2026-11-21T18:30:00.000Z',
};

type Wire = typeof SAMSARA | typeof GEOTAB;

/** A fake server's list: POST adds a configuration (answered masked, as the server does), DELETE removes one. */
function integrationServer(initial: Wire[] = [SAMSARA]) {
  let list: Wire[] = [...initial];
  const routes: Record<string, Handler> = {
    'GET /organization/integrations': (_body, url) => {
      expect(url.searchParams.getAll('org_ids[]')).toEqual([ORG]);
      return json(200, list);
    },
    'POST /organization/integrations': (body) => {
      const { provider, settings } = body as { provider: string; settings: Record<string, string> };
      const masked = Object.fromEntries(
        Object.entries(settings).map(([key, value]) => [key, /token|password/.test(key) ? `••••${value.slice(-4)}` : value]),
      );
      const made = { id: `int-${provider}`, organization_id: ORG, provider, settings: masked, created_at: '2026-11-22T12:00:00.000Z' };
      list = [...list, made as Wire];
      return json(201, made);
    },
  };
  for (const item of [SAMSARA, GEOTAB]) {
    routes[`PUT /organization/integrations/${item.id}`] = (body) => {
      const { settings } = body as { settings: Record<string, string> };
      const masked = Object.fromEntries(
        Object.entries(settings).map(([key, value]) => [key, /token|password/.test(key) ? `••••${value.slice(-4)}` : value]),
      );
      const updated = { ...item, settings: masked } as Wire;
      list = list.map((one) => (one.id === item.id ? updated : one));
      return json(200, updated);
    };
    routes[`DELETE /organization/integrations/${item.id}`] = () => {
      list = list.filter((one) => one.id !== item.id);
      return json(200, { id: item.id });
    };
  }
  return routes;
}

function render(permissions: string[], extra: Record<string, Handler> = {}, tab = '?tab=integration') {
  return renderApp(
    `/dashboard/accounts${tab}`,
    { ...signedInRoutes(permissions, { organization_id: ORG, timezone: 'America/Chicago' }), ...integrationServer(), ...extra },
    { signedIn: true },
  );
}

const type = (element: HTMLElement, value: string) => {
  fireEvent.change(element, { target: { value } });
  fireEvent.blur(element);
};
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('Integrations tab (part 2 §2, §9)', () => {
  it('shows only to callers who may read integration configurations, beside API Keys', async () => {
    render(MANAGER, {}, '');
    const tabs = await screen.findByRole('tablist', { name: 'Account Management' }, WAIT);
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Account', 'Users', 'Organization', 'Assets', 'Billing', 'API Keys', 'Integrations']);
    cleanup();
    render(['user:manage']);
    const bare = await screen.findByRole('tablist', { name: 'Account Management' }, WAIT);
    expect(within(bare).queryByRole('tab', { name: 'Integrations' })).toBeNull();
    expect(within(bare).getByRole('tab', { name: 'Account' }).getAttribute('aria-selected')).toBe('true');
  });

  it('lists both providers: configured with its masked settings and created date, or not configured', async () => {
    render(MANAGER);
    const table = await screen.findByRole('table', {}, WAIT);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Provider', 'Status', 'Settings', 'Created', 'Actions']);
    const samsara = within(table).getByRole('row', { name: /Samsara/ });
    expect(samsara.textContent).toBe('SamsaraConfiguredAPI Token••••123411/20/2026 9:04 AMConfigureTest connectionDelete');
    expect(within(table).getByRole('row', { name: /Geotab/ }).textContent).toBe('GeotabNot configuredConfigureTest connectionDelete');
    // A configured provider is configured again in place (its settings replaced), not a dead end.
    expect(button('Configure Samsara').disabled).toBe(false);
    expect(button('Configure Geotab').disabled).toBe(false);
    // Nothing to test or delete where nothing is configured: disabled, and not for want of permission.
    for (const name of ['Test connection Geotab', 'Delete Integration Geotab']) {
      expect(button(name).disabled).toBe(true);
      expect(button(name).title).toBe('');
    }
    expect(document.body.textContent).toContain('Credentials are stored whole and shown masked.');
  });

  it("configure Samsara: 'API Token *' with 'Required *', 'Required', '500 Max Characters', then the body sent and the masked token listed", async () => {
    const { calls } = render(MANAGER, integrationServer([]));
    fireEvent.click(await screen.findByRole('button', { name: 'Configure Samsara' }, WAIT));
    const form = screen.getByRole('form', { name: 'Configure Samsara' });
    const token = within(form).getByLabelText('API Token *') as HTMLInputElement;
    expect(token.type).toBe('password');
    expect(token.placeholder).toBe('Required *');
    fireEvent.submit(form);
    expect(await within(form).findByText('Required')).toBeTruthy();
    type(token, 't'.repeat(501));
    expect(await within(form).findByText('500 Max Characters')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    type(token, '  samsara-live-token-abcd  ');
    fireEvent.submit(form);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Configure Samsara' })).toBeNull(), WAIT);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      provider: 'samsara',
      settings: { api_token: 'samsara-live-token-abcd' },
      organization_id: ORG,
    });
    const row = await screen.findByRole('row', { name: /Samsara Configured/ }, WAIT);
    expect(row.textContent).toContain('API Token••••abcd');
    expect(document.body.textContent).not.toContain('samsara-live-token');
  });

  it('a configured provider is mended in place: Configure opens its settings (credentials blank), Save replaces them (PUT), the test outcome starts over', async () => {
    const { calls } = render(MANAGER, integrationServer([SAMSARA, GEOTAB]));
    fireEvent.click(await screen.findByRole('button', { name: 'Configure Geotab' }, WAIT));
    const form = screen.getByRole('form', { name: 'Configure Geotab' });
    // The settings it has, but never the credential (answered masked).
    expect((within(form).getByLabelText('Database *') as HTMLInputElement).value).toBe('alpha_fleet');
    expect((within(form).getByLabelText('Password *') as HTMLInputElement).value).toBe('');
    type(within(form).getByLabelText('Password *'), 'new-pass-5555');
    fireEvent.submit(form);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Configure Geotab' })).toBeNull(), WAIT);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/organization/integrations/int-g',
      body: { settings: { server: 'my.geotab.com', database: 'alpha_fleet', user_name: 'ops@alpha.example', password: 'new-pass-5555' } },
    });
    await waitFor(() => expect(screen.getByRole('row', { name: /Geotab/ }).textContent).toContain('Password••••5555'), WAIT);
  });

  it("configure Geotab: four required fields, the server's form, and a refusal ('Provider already used') under the form", async () => {
    const { calls } = render(MANAGER, {
      'POST /organization/integrations': () =>
        json(422, { error: 'provider_used', message: 'provider: Provider already used', fields: { provider: 'Provider already used' } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Configure Geotab' }, WAIT));
    const form = screen.getByRole('form', { name: 'Configure Geotab' });
    const server = within(form).getByRole('textbox', { name: 'Server *' });
    const database = within(form).getByRole('textbox', { name: 'Database *' });
    const user = within(form).getByRole('textbox', { name: 'User Name *' });
    const password = within(form).getByLabelText('Password *') as HTMLInputElement;
    expect(password.type).toBe('password');
    for (const input of [server, database, user, password]) expect((input as HTMLInputElement).placeholder).toBe('Required *');
    fireEvent.submit(form);
    await waitFor(() => expect(within(form).getAllByText('Required').length).toBe(4));

    type(server, 'https://my.geotab.com/apiv1');
    type(database, 'alpha_fleet');
    type(user, 'ops@alpha.example');
    type(password, 'geotab-pass-9876');
    fireEvent.submit(form);
    expect(await within(form).findByText('Must be a server name like my.geotab.com')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    type(server, 'my3.geotab.com');
    fireEvent.submit(form);
    expect(await within(form).findByText('provider: Provider already used', {}, WAIT)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      provider: 'geotab',
      settings: { server: 'my3.geotab.com', database: 'alpha_fleet', user_name: 'ops@alpha.example', password: 'geotab-pass-9876' },
      organization_id: ORG,
    });
  });

  it('test connection: the server’s outcome in the row — works (with the time), refused, unreachable, or the call’s own failure', async () => {
    const answers = [
      () => json(200, { ok: true, checked_at: '2026-11-22T12:00:00.000Z' }),
      () => json(200, { ok: false, reason: 'The provider refused the credentials' }),
      () => json(200, { ok: false, reason: 'The provider could not be reached' }),
      () => json(404, { error: 'not_found', message: 'Integration not found' }),
    ];
    let next = 0;
    const { calls } = render(MANAGER, { 'POST /organization/integrations/int-s/test': () => answers[next++]!() });
    const test = await screen.findByRole('button', { name: 'Test connection Samsara' }, WAIT);
    const row = screen.getByRole('row', { name: /Samsara/ });
    const expected = [
      'Connection works (checked 11/22/2026 6:00 AM)',
      'Connection failed: The provider refused the credentials',
      'Connection failed: The provider could not be reached',
      'Connection failed: Integration not found',
    ];
    for (const text of expected) {
      fireEvent.click(test);
      await waitFor(() => expect(within(row).getByRole('status').textContent).toBe(text), WAIT);
    }
    expect(calls.filter((c) => c.path.endsWith('/test')).map((c) => `${c.method} ${c.path}`)).toEqual(
      Array(4).fill('POST /organization/integrations/int-s/test'),
    );
  });

  it('delete asks first; Cancel keeps it; Delete Integration sends DELETE and the provider shows not configured', async () => {
    const { calls } = render(MANAGER, integrationServer([SAMSARA, GEOTAB]));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Integration Geotab' }, WAIT));
    let dialog = screen.getByRole('alertdialog', { name: 'Delete the Geotab integration?' });
    expect(within(dialog).getByText('Its settings are removed; configure it again to reconnect. This cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(button('Delete Integration Geotab'));
    dialog = screen.getByRole('alertdialog', { name: 'Delete the Geotab integration?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Integration' }));
    await waitFor(() => expect(screen.getByRole('row', { name: /Geotab/ }).textContent).toContain('Not configured'), WAIT);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/organization/integrations/int-g']);
    expect(screen.getByRole('row', { name: /Samsara/ }).textContent).toContain('Configured');
  });

  it('a failed delete shows in the dialog', async () => {
    render(MANAGER, {
      'DELETE /organization/integrations/int-s': () => json(404, { error: 'not_found', message: 'Integration not found' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Integration Samsara' }, WAIT));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the Samsara integration?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Integration' }));
    expect(await within(dialog).findByText('Integration not found', {}, WAIT)).toBeTruthy();
  });

  it('read only: Configure and Delete are disabled with Not authorized; Test connection stays (read may test)', async () => {
    render(READER, integrationServer([SAMSARA, GEOTAB]));
    const geotab = await screen.findByRole('row', { name: /Geotab/ }, WAIT);
    // The settings in the form's order with its labels, then the other stored names as they are.
    expect(within(geotab).getByRole('cell', { name: 'Geotab Settings' }).textContent).toBe(
      'Servermy.geotab.comDatabasealpha_fleetUser Nameops@alpha.examplePassword••••9876fleetNorth',
    );
    for (const name of ['Configure Samsara', 'Configure Geotab', 'Delete Integration Samsara', 'Delete Integration Geotab']) {
      expect(button(name).disabled).toBe(true);
      expect(button(name).title).toBe('Not authorized');
    }
    expect(button('Test connection Geotab').disabled).toBe(false);
  });

  it('create only (no read): the tab is hidden, as the server refuses the list', async () => {
    render(['user:manage', 'integration_configuration:create']);
    const tabs = await screen.findByRole('tablist', { name: 'Account Management' }, WAIT);
    expect(within(tabs).queryByRole('tab', { name: 'Integrations' })).toBeNull();
  });

  it('a failed list shows the catalogue’s text', async () => {
    render(MANAGER, { 'GET /organization/integrations': () => json(500, { error: 'boom' }) });
    expect(await screen.findByText('Unknown failure', {}, WAIT)).toBeTruthy();
  });
});
