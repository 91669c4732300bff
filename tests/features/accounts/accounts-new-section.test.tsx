// @vitest-environment jsdom
/**
 * part 2 §2 accounts-new: profile (index), users (list, new, {userId}/edit), organizations (list,
 * {orgId}/edit), and integrations, billing and settings as placeholders — the legacy tabs' forms.
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
const PERMISSIONS = ['engineer:test', 'user:manage', 'organization:update'];
const ROLES = [
  { id: 2, name: 'USER', order: 2 },
  { id: 3, name: 'ADMIN', order: 3 },
];
const USERS = {
  organization_users: [
    { id: 'u-2', email: 'ben@example.com', firstname: 'Ben', lastname: 'Smith', role_id: 2, role_name: 'USER', last_sign_in_at: null },
  ],
};
const ORGANIZATION = {
  id: ORG,
  name: 'Travis County Regional',
  address1: '1 Main St',
  city: 'Austin',
  state: 'TX',
  postal_code: '78701',
  country_code: 'US',
  timezone: 'America/Chicago',
  child_structure: [{ id: 'o-c1', name: 'Alpha Station', parent_id: ORG }],
};

function render(path: string, { permissions = PERMISSIONS, extra = {} }: { permissions?: string[]; extra?: Record<string, Handler> } = {}) {
  return renderApp(
    `/dashboard/accounts-new${path}`,
    {
      ...extra,
      ...signedInRoutes(permissions, { organization_id: ORG, managed_orgs: [{ id: 'o-m', name: 'Metro' }] }),
      'GET /organization/users': () => json(200, USERS),
      'GET /roles': () => json(200, ROLES),
      [`GET /organization/${ORG}`]: () => json(200, ORGANIZATION),
      'GET /organization/o-c1': () => json(200, { ...ORGANIZATION, id: 'o-c1', name: 'Alpha Station', child_structure: [] }),
    },
    { signedIn: true },
  );
}

describe('part2 §2 accounts-new', () => {
  it('the index is the profile with the change-password form', async () => {
    render('');
    expect(await screen.findByRole('form', { name: 'Profile' }, WAIT)).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Change Password' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Account Management' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Profile', 'Users', 'Organizations', 'Integrations', 'Billing', 'Settings']);
  });

  it('users: Add User opens users/new; Edit opens users/{id}/edit with the user filled in', async () => {
    const { router } = render('/users');
    fireEvent.click(await screen.findByRole('button', { name: 'Add User' }, WAIT));
    expect(router.state.location.pathname).toBe('/dashboard/accounts-new/users/new');
    expect(await screen.findByRole('form', { name: 'Add User' }, WAIT)).toBeTruthy();
    await router.navigate('/dashboard/accounts-new/users');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ben Smith' }, WAIT));
    expect(router.state.location.pathname).toBe('/dashboard/accounts-new/users/u-2/edit');
    const form = await screen.findByRole('form', { name: 'Edit User' }, WAIT);
    expect((within(form).getByRole('textbox', { name: 'First Name *' }) as HTMLInputElement).value).toBe('Ben');
  });

  it('an unknown user id says so', async () => {
    render('/users/nobody/edit');
    expect(await screen.findByText('This user is not in your organization.', {}, WAIT)).toBeTruthy();
  });

  it('organizations: own, children and managed; Edit opens the same organization form', async () => {
    const { router } = render('/organizations');
    const table = await screen.findByRole('table', {}, WAIT);
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('rowheader')
          .map((r) => r.textContent),
      ).toEqual(['Travis County Regional', 'Alpha Station', 'Metro']),
    );
    fireEvent.click(within(table).getByRole('link', { name: 'Edit Alpha Station' }));
    expect(router.state.location.pathname).toBe('/dashboard/accounts-new/organizations/o-c1/edit');
    const form = await screen.findByRole('form', { name: 'Organization' }, WAIT);
    expect((within(form).getByRole('textbox', { name: 'Name *' }) as HTMLInputElement).value).toBe('Alpha Station');
  });

  it('only haas:manage gets Delete, never for its own organization; the dialog says what goes, and shows the refusal of one with assets', async () => {
    render('/organizations');
    const table = await screen.findByRole('table', {}, WAIT);
    await waitFor(() => expect(within(table).getAllByRole('rowheader')).toHaveLength(3));
    expect(within(table).queryByRole('button', { name: /^Delete / })).toBeNull();
    cleanup();

    let refuse = true;
    const { calls } = render('/organizations', {
      permissions: [...PERMISSIONS, 'haas:manage'],
      extra: {
        'DELETE /organization/o-m': () =>
          refuse
            ? json(422, {
                error: 'organization_has_assets',
                message: 'This organization still has 3 assets. Move or delete them before deleting the organization.',
              })
            : json(200, { id: 'o-m', uuid: 'o-m' }),
      },
    });
    const staffTable = await screen.findByRole('table', {}, WAIT);
    await waitFor(() => expect(within(staffTable).getAllByRole('rowheader')).toHaveLength(3));
    expect(within(staffTable).queryByRole('button', { name: 'Delete Travis County Regional' })).toBeNull();
    fireEvent.click(within(staffTable).getByRole('button', { name: 'Delete Metro' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Metro?' });
    expect(dialog.textContent).toContain('An organization that still has assets cannot be deleted: move or delete them first.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Organization' }));
    expect((await within(dialog).findByRole('alert', {}, WAIT)).textContent).toBe(
      'This organization still has 3 assets. Move or delete them before deleting the organization.',
    );
    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Organization' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), WAIT);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/organization/o-m', '/organization/o-m']);
  });

  it.each(['integrations', 'billing', 'settings'])('%s is a placeholder', async (page) => {
    render(`/${page}`);
    expect(await screen.findByText('Coming soon.', {}, WAIT)).toBeTruthy();
  });
});
