// @vitest-environment jsdom
/**
 * part 2 §2 accounts (legacy tabs account, user, organization, billing), §3, §5 user, address and
 * password rules, §6 role names and 'Not authorized', §8 user and organization rows: the whole app
 * against a fake REST server.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { organizationRelationGroups } from '../../../src/domain/organization';
import { thing as liveThing } from '../../support/live-fixtures';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const WAIT = { timeout: 15_000 };
const ORG = 'org-1';
const ADMIN = ['user:manage', 'organization:update', 'billing:read'];
const ROLES = [
  { id: 4, name: 'MANUFACTURER ADMIN', order: 4 },
  { id: 1, name: 'USER (Incidents/Events only)', order: 1 },
  { id: 2, name: 'USER', order: 2 },
  { id: 3, name: 'ADMIN', order: 3 },
];
const user = (id: string, first: string, roleId: number, roleName: string, extra: Record<string, unknown> = {}) => ({
  id,
  email: `${first.toLowerCase()}@example.com`,
  firstname: first,
  lastname: 'Smith',
  role_id: roleId,
  role_name: roleName,
  sign_in_count: 1,
  last_sign_in_at: null,
  ...extra,
});
const USERS = {
  organization_users: [
    user('user-1', 'Ada', 4, 'MANUFACTURER ADMIN'),
    user('u-2', 'Ben', 2, 'USER', { version: 5 }),
    user('u-3', 'Cy', 1, 'USER (Incidents/Events only)'),
  ],
  organization_managers: [user('m-1', 'Mia', 3, 'ADMIN')],
  organization_accessors: [user('x-1', 'Xan', 2, 'USER')],
};
const ORGANIZATION = {
  id: ORG,
  name: 'Travis County Regional',
  email: 'ops@travis.example',
  address1: '1 Main St',
  city: 'Austin',
  state: 'TX',
  postal_code: '78701',
  country_code: 'US',
  timezone: 'America/Chicago',
  contact_name: 'Chief Ortiz',
  phone_number: '512-555-0100',
  organization_managers: [{ id: 'o-m', name: 'metro manager' }],
  organization_accessors: [{ id: 'o-x', name: 'Xpress Access' }],
  child_structure: [
    { id: 'o-c2', name: 'zeta station', parent_id: ORG },
    { id: 'o-c1', name: 'Alpha Station', parent_id: ORG },
  ],
};

function render(tab: string, { permissions = ADMIN, extra = {} }: { permissions?: string[]; extra?: Record<string, Handler> } = {}) {
  return renderApp(
    `/dashboard/accounts${tab}`,
    {
      ...signedInRoutes(permissions, {
        organization_id: ORG,
        phone: '512 555 0100',
        address1: '1 Main St',
        city: 'Austin',
        state: 'tx',
        postal_code: '78701',
        country_code: 'US',
      }),
      'GET /organization/users': () => json(200, USERS),
      'GET /roles': () => json(200, ROLES),
      [`GET /organization/${ORG}`]: () => json(200, ORGANIZATION),
      ...extra,
    },
    { signedIn: true },
  );
}

const input = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (element: HTMLElement, value: string) => {
  fireEvent.change(element, { target: { value } });
  fireEvent.blur(element);
};

describe('part2 §2 accounts tabs', () => {
  it('shows the five tabs; the tab is kept in ?tab=', async () => {
    const { router } = render('');
    const tabs = await screen.findByRole('tablist', { name: 'Account Management' }, WAIT);
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Account', 'Users', 'Organization', 'Assets', 'Billing']);
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Users' }));
    expect(router.state.location.search).toBe('?tab=user');
  });
});

describe('account tab: profile (part 2 §3, §5 address)', () => {
  it('shows the saved profile; a US address picks its state from the list; a bad zip and phone show their texts', async () => {
    render('');
    const form = await screen.findByRole('form', { name: 'Profile' }, WAIT);
    expect(input('Phone').value).toBe('512 555 0100');
    // 51 states: the searchable combobox (lists over 20 options), showing the state's name.
    expect((within(form).getByRole('combobox', { name: 'State *' }) as HTMLInputElement).value).toBe('Texas');
    type(input('Zip Code *'), '1234');
    type(input('Phone'), 'call me');
    fireEvent.submit(form);
    expect(await within(form).findByText('Invalid zip code')).toBeTruthy();
    expect(within(form).getByText('Invalid phone number')).toBeTruthy();
  });

  it('a Canadian address asks for a province; elsewhere the state is free text; required fields say Required', async () => {
    render('');
    const form = await screen.findByRole('form', { name: 'Profile' }, WAIT);
    fireEvent.change(within(form).getByRole('combobox', { name: 'Country *' }), { target: { value: 'CA' } });
    const province = within(form).getByRole('combobox', { name: 'Province *' }) as HTMLSelectElement;
    expect(province.value).toBe('');
    fireEvent.change(within(form).getByRole('combobox', { name: 'Country *' }), { target: { value: 'GB' } });
    // part 2 §2: others read 'Region'.
    expect(input('Region *')).toBeTruthy();
    type(input('City *'), ' ');
    fireEvent.submit(form);
    await waitFor(() => expect(within(form).getAllByText('Required').length).toBeGreaterThanOrEqual(2));
  });

  it('saves through PUT /profile with the address payload', async () => {
    let sent: unknown = null;
    const { calls } = render('', {
      extra: {
        'PUT /profile': (body) => {
          sent = body;
          return json(200, {
            id: 'user-1',
            email: 'ada@example.com',
            organization_id: ORG,
            firstname: 'Ada',
            lastname: 'Byron',
            phone: '512 555 0100',
          });
        },
      },
    });
    const form = await screen.findByRole('form', { name: 'Profile' }, WAIT);
    type(input('Last Name *'), 'Byron');
    fireEvent.submit(form);
    await waitFor(
      () =>
        expect(sent).toMatchObject({
          firstname: 'Ada',
          lastname: 'Byron',
          phone: '512 555 0100',
          state: 'TX',
          postal_code: '78701',
          country_code: 'US',
          address2: '',
        }),
      WAIT,
    );
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/profile').length).toBeGreaterThanOrEqual(2);
  });
});

describe('account tab: change password (part 2 §5 reset rules)', () => {
  it.each([
    ['Ab#1', 'At least 8 characters'],
    ['Abcdefg#h', 'At least one number'],
    ['abcdefg#1', 'At least one uppercase letter'],
    ['ABCDEFG#1', 'At least one lowercase letter'],
    ['Abcdefgh1', 'At least one special character (*@!#%&()^~{})'],
  ])('%s → %s', async (password, text) => {
    render('');
    const form = await screen.findByRole('form', { name: 'Change Password' }, WAIT);
    const fields = within(form).getAllByLabelText(/Password/, { selector: 'input' });
    type(fields[0]!, 'Old#Pass1');
    type(fields[1]!, password);
    type(fields[2]!, password);
    fireEvent.submit(form);
    expect(await within(form).findByText(text, { selector: '.field-error' })).toBeTruthy();
  });

  it("a confirmation that differs → 'Should match password'; a wrong current password shows the server's refusal", async () => {
    render('', { extra: { 'PUT /password': () => json(422, { error: 'wrong_password', message: 'Current password is incorrect' }) } });
    const form = await screen.findByRole('form', { name: 'Change Password' }, WAIT);
    const fields = within(form).getAllByLabelText(/Password/, { selector: 'input' });
    type(fields[0]!, 'Old#Pass1');
    type(fields[1]!, 'New#Pass12');
    type(fields[2]!, 'New#Pass13');
    fireEvent.submit(form);
    expect(await within(form).findByText('Should match password')).toBeTruthy();
    type(fields[2]!, 'New#Pass12');
    fireEvent.submit(form);
    expect(await within(form).findByText('Current password is incorrect', {}, WAIT)).toBeTruthy();
  });

  it("a reused password → 'Cannot be same as last 10 passwords.'", async () => {
    render('', { extra: { 'PUT /password': () => json(422, { error: 'password_reused', message: 'Password was used before' }) } });
    const form = await screen.findByRole('form', { name: 'Change Password' }, WAIT);
    const fields = within(form).getAllByLabelText(/Password/, { selector: 'input' });
    type(fields[0]!, 'Old#Pass1');
    type(fields[1]!, 'New#Pass12');
    type(fields[2]!, 'New#Pass12');
    fireEvent.submit(form);
    expect(await within(form).findByText('Cannot be same as last 10 passwords.', {}, WAIT)).toBeTruthy();
  });
});

describe('user tab (part 2 §2, §6 role names, badges)', () => {
  it('lists role labels Media, User, Admin, Org Admin and the MANAGER and ACCESS badges; other organizations’ users are not editable', async () => {
    render('?tab=user');
    const table = await screen.findByRole('table', {}, WAIT);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual(['Org Admin', 'User', 'Media', 'Admin', 'User']);
    expect(rows[3]!.textContent).toContain('MANAGER');
    expect(rows[4]!.textContent).toContain('ACCESS');
    const mia = within(rows[3]!).getByRole('button', { name: 'Edit Mia Smith' }) as HTMLButtonElement;
    expect(mia.disabled).toBe(true);
    expect(mia.title).toBe('Not authorized');
    expect((within(rows[0]!).getByRole('button', { name: 'Delete Ada Smith' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('without user write permissions Add, Edit and Delete are disabled with Not authorized', async () => {
    render('?tab=user', { permissions: ['user:read'] });
    const add = (await screen.findByRole('button', { name: 'Add User' }, WAIT)) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    expect(add.title).toBe('Not authorized');
    await screen.findByRole('table', {}, WAIT);
    expect((screen.getByRole('button', { name: 'Edit Ben Smith' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('add user: the §5 texts, roles in their order, then POST /users; a taken e-mail shows the §8 text', async () => {
    let sent: unknown = null;
    render('?tab=user', {
      extra: {
        'POST /users': (body) => {
          sent = body;
          return json(422, { error: 'email_taken', message: 'Email is already in use. Please try another one.' });
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add User' }, WAIT));
    const form = screen.getByRole('form', { name: 'Add User' });
    const role = within(form).getByRole('combobox', { name: 'Role *' }) as HTMLSelectElement;
    await waitFor(() => expect([...role.options].map((o) => o.textContent)).toEqual(['Select...', 'Media', 'User', 'Admin', 'Org Admin']));
    type(within(form).getByRole('textbox', { name: 'Email *' }), 'not-an-email');
    fireEvent.submit(form);
    expect(await within(form).findByText('Must be a valid email')).toBeTruthy();
    expect(within(form).getAllByText('Required').length).toBe(3);
    type(within(form).getByRole('textbox', { name: 'First Name *' }), 'Dana');
    type(within(form).getByRole('textbox', { name: 'Last Name *' }), 'Diaz');
    type(within(form).getByRole('textbox', { name: 'Email *' }), 'dana@example.com');
    fireEvent.change(role, { target: { value: '2' } });
    fireEvent.submit(form);
    expect(await within(form).findByText('Email is already in use. Please try another one.', {}, WAIT)).toBeTruthy();
    expect(sent).toEqual({ firstname: 'Dana', lastname: 'Diaz', email: 'dana@example.com', role_id: 2, organization_id: ORG });
  });

  it("edit user, the names alone: PATCH /users/{userId} with firstName and lastName; a 'find' failure shows 'The selected user could not be found'", async () => {
    const { calls } = render('?tab=user', { extra: { 'PATCH /users/u-2': () => json(422, { message: 'could not find this user' }) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ben Smith' }, WAIT));
    const form = screen.getByRole('form', { name: 'Edit User' });
    type(within(form).getByRole('textbox', { name: 'First Name *' }), 'Benjamin');
    fireEvent.submit(form);
    expect(await within(form).findByText('The selected user could not be found', {}, WAIT)).toBeTruthy();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toEqual({ firstName: 'Benjamin', lastName: 'Smith' });
    expect(patch?.headers.get('if-match')).toBe('"5"');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('edit user, the role too: PUT /users/{id} with the whole user', async () => {
    const { calls } = render('?tab=user', { extra: { 'PUT /users/u-2': () => json(422, { message: 'could not find this user' }) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ben Smith' }, WAIT));
    const form = screen.getByRole('form', { name: 'Edit User' });
    type(within(form).getByRole('textbox', { name: 'First Name *' }), 'Benjamin');
    fireEvent.change(within(form).getByRole('combobox', { name: 'Role *' }), { target: { value: '1' } });
    fireEvent.submit(form);
    expect(await within(form).findByText('The selected user could not be found', {}, WAIT)).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ id: 'u-2', firstname: 'Benjamin', lastname: 'Smith', role_id: 1 });
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it("delete asks for confirmation; a failure shows in the dialog ('User not found'); Cancel leaves the user", async () => {
    const { calls } = render('?tab=user', { extra: { 'DELETE /users/u-2': () => json(422, { message: 'gone' }) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Ben Smith' }, WAIT));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Ben Smith?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete User' }));
    expect(await within(dialog).findByText('User not found', {}, WAIT)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('organization tab (part 2 §3 organization, relations)', () => {
  it('shows the form with the time zone and the relations grouped: owned (subscribed first, then by upper-cased name), managed by, accessed by', async () => {
    render('?tab=organization');
    const form = await screen.findByRole('form', { name: 'Organization' }, WAIT);
    expect((within(form).getByRole('textbox', { name: 'Name *' }) as HTMLInputElement).value).toBe('Travis County Regional');
    expect(within(form).getByRole('combobox', { name: 'Time Zone *' })).toBeTruthy();
    const owned = screen.getByRole('list', { name: 'Owned' });
    expect(
      within(owned)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Travis County Regional', 'Alpha Station', 'zeta station']);
    expect(within(screen.getByRole('list', { name: 'Managed by' })).getByText('metro manager')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Accessed by' })).getByText('Xpress Access')).toBeTruthy();
  });

  it("the contact (the legacy fields): shown, checked ('Invalid phone number'), and sent with the save", async () => {
    const sent: unknown[] = [];
    render('?tab=organization', {
      extra: {
        [`PUT /organization/${ORG}`]: (body) => {
          sent.push(body);
          return json(200, { ...ORGANIZATION, ...(body as object) });
        },
      },
    });
    const form = await screen.findByRole('form', { name: 'Organization' }, WAIT);
    expect((within(form).getByRole('textbox', { name: 'Contact Name' }) as HTMLInputElement).value).toBe('Chief Ortiz');
    expect((within(form).getByRole('textbox', { name: 'Phone Number' }) as HTMLInputElement).value).toBe('512-555-0100');
    const cell = within(form).getByRole('textbox', { name: 'Cell Phone Number' });
    type(cell, 'call the chief');
    fireEvent.blur(cell);
    expect(await within(form).findByText('Invalid phone number', {}, WAIT)).toBeTruthy();
    // Saved while invalid: the save is refused (the field with the error takes the focus) and
    // nothing is sent (the one save below is the corrected one).
    (within(form).getByRole('textbox', { name: 'Contact Name' }) as HTMLInputElement).focus();
    fireEvent.submit(form);
    await waitFor(() => expect(document.activeElement).toBe(cell), WAIT);
    type(cell, '+1 512 555 0199');
    fireEvent.submit(form);
    await waitFor(() => expect(sent.length).toBe(1), WAIT);
    expect(sent[0]).toMatchObject({ contact_name: 'Chief Ortiz', phone_number: '512-555-0100', cell_phone_number: '+1 512 555 0199' });
  });

  it("a 422 on save shows 'Organization not found' under the form", async () => {
    render('?tab=organization', { extra: { [`PUT /organization/${ORG}`]: () => json(422, { message: 'nope' }) } });
    const form = await screen.findByRole('form', { name: 'Organization' }, WAIT);
    type(within(form).getByRole('textbox', { name: 'Name *' }), 'Travis County');
    fireEvent.submit(form);
    expect(await within(form).findByText('Organization not found', {}, WAIT)).toBeTruthy();
  });
});

describe('lost updates (two administrators edit the same record)', () => {
  const STALE = (what: string) => `This ${what} was changed by someone else. Reload to see their changes.`;

  it('organization: each save sends the version its values come from (its own save moves it on); a 412 keeps what was typed', async () => {
    let puts = 0;
    const { calls } = render('?tab=organization', {
      extra: {
        [`GET /organization/${ORG}`]: () => json(200, { ...ORGANIZATION, version: 7 }),
        [`PUT /organization/${ORG}`]: () =>
          ++puts === 1
            ? json(200, { ...ORGANIZATION, name: 'Travis County', version: 8 })
            : json(412, { error: 'precondition_failed', message: STALE('organization') }),
      },
    });
    const form = await screen.findByRole('form', { name: 'Organization' }, WAIT);
    type(within(form).getByRole('textbox', { name: 'Name *' }), 'Travis County');
    fireEvent.submit(form);
    await waitFor(() => expect(puts).toBe(1), WAIT);
    await waitFor(() => expect((within(form).getByRole('textbox', { name: 'Name *' }) as HTMLInputElement).value).toBe('Travis County'));
    type(within(form).getByRole('textbox', { name: 'Name *' }), 'Travis County Emergency');
    fireEvent.submit(form);
    expect(await within(form).findByText(STALE('organization'), {}, WAIT)).toBeTruthy();
    expect((within(form).getByRole('textbox', { name: 'Name *' }) as HTMLInputElement).value).toBe('Travis County Emergency');
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.headers.get('if-match'))).toEqual(['"7"', '"8"']);
  });

  it('user: the edit sends the version of the row it opened; a 412 shows the user sentence', async () => {
    const { calls } = render('?tab=user', {
      extra: { 'PATCH /users/u-2': () => json(412, { error: 'precondition_failed', message: STALE('user') }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ben Smith' }, WAIT));
    const form = screen.getByRole('form', { name: 'Edit User' });
    type(within(form).getByRole('textbox', { name: 'First Name *' }), 'Benjamin');
    fireEvent.submit(form);
    expect(await within(form).findByText(STALE('user'), {}, WAIT)).toBeTruthy();
    expect((within(form).getByRole('textbox', { name: 'First Name *' }) as HTMLInputElement).value).toBe('Benjamin');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.headers.get('if-match'))).toEqual(['"5"']);
  });
});

describe('organizationRelationGroups (part 2 §3)', () => {
  const org = { id: 'a', name: 'Alpha' };
  it("' (ONLY)' when the organization has no relationships; children still listed as owned", () => {
    expect(
      organizationRelationGroups({
        organization: org,
        subscribedOrgId: 'a',
        children: [{ id: 'c', name: 'child' }],
        managed: [],
        managers: [],
        accessors: [],
      }),
    ).toEqual([
      {
        kind: 'owned',
        entries: [
          { id: 'a', name: 'Alpha (ONLY)', isSubscribedOrg: true },
          { id: 'c', name: 'child', isSubscribedOrg: false },
        ],
      },
    ]);
  });
  it('groups by kind, each by upper-cased name; empty groups left out', () => {
    const groups = organizationRelationGroups({
      organization: org,
      subscribedOrgId: 'a',
      children: [],
      managed: [
        { id: 'z', name: 'zulu' },
        { id: 'b', name: 'Bravo' },
      ],
      managers: [],
      accessors: [{ id: 'x', name: 'x-ray' }],
    });
    expect(groups.map((g) => [g.kind, g.entries.map((e) => e.name)])).toEqual([
      ['owned', ['Alpha']],
      ['managed', ['Bravo', 'zulu']],
      ['accessors', ['x-ray']],
    ]);
  });
});

describe('thing tab (part 2 §2 accounts "thing")', () => {
  it('lists the organization’s assets with type, subtype and integrations, every page in turn; Edit opens the asset edit', async () => {
    const thing = (n: number) =>
      liveThing(n, {
        id: `t-${n}`,
        haas_id: `HA-${n}`,
        nickname: n === 1 ? 'Engine 1' : null,
        thing_type: 'fire',
        thing_subtype: 'engine',
        integrations: n === 1 ? [{ name: 'samsara', id: 's-1' }] : [],
      });
    const pages: string[] = [];
    render('?tab=thing', {
      extra: {
        'GET /organization/things': (_body, url) => {
          const page = Number(url.searchParams.get('page'));
          pages.push(`${url.searchParams.get('org_ids[]')}:${page}:${url.searchParams.get('per_page')}`);
          return json(200, { data: [thing(page)], meta: { page, per_page: 500, total: 501, server_timestamp: '2026-11-24T12:00:00Z' } });
        },
      },
    });
    const table = await screen.findByRole('table', {}, WAIT);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['Engine 1fireenginesamsaraEdit', 'HA-2fireengineEdit']);
    expect(pages).toEqual([`${ORG}:1:500`, `${ORG}:2:500`]);
    expect(within(rows[0]!).getByRole('link', { name: 'Edit Engine 1' }).getAttribute('href')).toBe('/dashboard/things/t-1/edit');
  });
});

describe('billing tab (designed: what the data holds)', () => {
  it('shows the ids and the asset count by type; without billing:read it says so', async () => {
    render('?tab=billing', {
      extra: {
        'GET /organization/billing': () =>
          json(200, {
            billing_id: 'bill-1',
            maxio_cust_id: null,
            asset_count: 3,
            assets_by_type: [{ type: 'fire', display_name: 'Fire', count: 3 }],
          }),
      },
    });
    expect(await screen.findByText('bill-1', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Not set')).toBeTruthy();
    expect(within(screen.getByRole('table')).getByRole('row', { name: 'Fire 3' })).toBeTruthy();
    cleanup();
    render('?tab=billing', { permissions: ['user:manage'] });
    expect(await screen.findByText('Billing is not available to your role. Ask your organization administrator.', {}, WAIT)).toBeTruthy();
  });
});
