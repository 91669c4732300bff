/**
 * The new account manager (part 2 §2 "accounts-new: profile (index), users (list, new,
 * {userId}/edit), organizations (list, {orgId}/edit), integrations, billing and settings. The
 * last three are placeholders"), desktop only. The same forms and calls as the legacy tabs.
 */
import { useState } from 'react';
import { NavLink, Route, Routes, useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { useSubmit } from '../../app/section/use-submit';
import { DesktopOnly } from '../../app/section/desktop-only';
import { ItemState } from '../../app/section/item-state';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { useApiQuery } from '../../app/use-api-query';
import { ACCOUNTS_TEXT, SECTION_TEXT } from '../../domain/labels';
import { administeredOrganizations, type OrganizationRef } from '../../domain/organization';
import { canEditOrganizationInAccounts, HAAS_MANAGE, hasPermission, sectionHref, type PermissionList } from '../../domain/permissions';
import { AccountsTable } from './accounts-table';
import { ChangePasswordForm } from './change-password-form';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';
import { OrganizationEdit } from './organization-form';
import { ProfileForm } from './profile-form';
import { UserForm } from './user-form';
import { UsersPanel } from './users-panel';
import './accounts.css';

const BASE = sectionHref('accounts_new');
const href = (...parts: string[]) => [BASE, ...parts.map(encodeURIComponent)].join('/');

const NAV = [
  { to: '', label: ACCOUNTS_TEXT.newTabs.profile },
  { to: 'users', label: ACCOUNTS_TEXT.newTabs.users },
  { to: 'organizations', label: ACCOUNTS_TEXT.newTabs.organizations },
  { to: 'integrations', label: ACCOUNTS_TEXT.newTabs.integrations },
  { to: 'billing', label: ACCOUNTS_TEXT.newTabs.billing },
  { to: 'settings', label: ACCOUNTS_TEXT.newTabs.settings },
] as const;

export function AccountsNewSection() {
  return (
    <DesktopOnly>
      <div className="accounts-page">
        <h1 className="accounts-title">{ACCOUNTS_TEXT.title}</h1>
        <div className="accounts-new">
          <nav className="accounts-new-nav" aria-label={ACCOUNTS_TEXT.title}>
            {NAV.map((item) => (
              <NavLink key={item.to} to={item.to ? href(item.to) : BASE} end={item.to === ''}>
                {item.label}
              </NavLink>
            ))}
          </nav>
          <div className="accounts-new-main">
            <Routes>
              <Route index element={<ProfilePage />} />
              <Route path="users" element={<UsersPage />} />
              <Route path="users/new" element={<UserPage />} />
              <Route path="users/:userId/edit" element={<UserPage />} />
              <Route path="organizations" element={<OrganizationsPage />} />
              <Route path="organizations/:orgId/edit" element={<OrganizationPage />} />
              <Route path="integrations" element={<Placeholder title={ACCOUNTS_TEXT.newTabs.integrations} />} />
              <Route path="billing" element={<Placeholder title={ACCOUNTS_TEXT.newTabs.billing} />} />
              <Route path="settings" element={<Placeholder title={ACCOUNTS_TEXT.newTabs.settings} />} />
            </Routes>
          </div>
        </div>
      </div>
    </DesktopOnly>
  );
}

function ProfilePage() {
  const { profile } = useOutletContext<ShellContext>();
  return (
    <div className="accounts-columns">
      <ProfileForm profile={profile} />
      <ChangePasswordForm />
    </div>
  );
}

function UsersPage() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  return (
    <UsersPanel
      organizationId={organizationId}
      selfId={profile.id}
      permissions={profile.permissions as PermissionList}
      timeZone={profile.timezone}
      onAdd={() => navigate(href('users', 'new'))}
      onEdit={(user) => navigate(href('users', user.id, 'edit'))}
    />
  );
}

/** users/new and users/{userId}/edit: the user from the (cached) list. */
function UserPage() {
  const { organizationId } = useOutletContext<ShellContext>();
  const { userId } = useParams();
  const calls = useAccountCalls();
  const navigate = useNavigate();
  const users = useApiQuery({
    key: ACCOUNT_QUERIES.users(organizationId),
    load: () => calls.users(organizationId),
    enabled: Boolean(userId),
  });
  const back = () => navigate(href('users'));
  const title = userId ? ACCOUNTS_TEXT.editUser : ACCOUNTS_TEXT.addUser;
  const heading = <h2 className="accounts-heading">{title}</h2>;
  if (!userId) {
    return (
      <section className="accounts-panel">
        {heading}
        <UserForm organizationId={organizationId} user={null} onDone={back} onCancel={back} />
      </section>
    );
  }
  if (users.isPending) return <ItemState state="loading" header={heading} texts={{ notFound: ACCOUNTS_TEXT.userNotFound }} />;
  if (users.isError)
    return <ItemState state="failed" header={heading} failure={users.error.userError} texts={{ notFound: ACCOUNTS_TEXT.userNotFound }} />;
  const user = users.data.find((u) => u.id === userId && u.badge === null);
  if (!user) return <ItemState state="missing" header={heading} texts={{ notFound: ACCOUNTS_TEXT.userNotFound }} />;
  return (
    <section className="accounts-panel">
      {heading}
      <UserForm organizationId={organizationId} user={user} onDone={back} onCancel={back} />
    </section>
  );
}

/**
 * The organizations the user runs: their own, its children and the ones it manages. Lightbar staff
 * (haas:manage) may delete one other than their own, behind a confirmation that says what goes
 * with it; the server refuses one that still owns assets, and its words show in the dialog.
 */
function OrganizationsPage() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const calls = useAccountCalls();
  const own = useApiQuery({ key: ACCOUNT_QUERIES.organization(organizationId), load: () => calls.organization(organizationId) });
  const mayDelete = hasPermission(profile.permissions as PermissionList, HAAS_MANAGE);
  const [deleting, setDeleting] = useState<OrganizationRef | null>(null);
  const remove = useSubmit<void>({
    context: 'organizationDelete',
    invalidates: [ACCOUNT_QUERIES.organization(organizationId)],
    onSuccess: () => setDeleting(null),
  });
  return (
    <section className="accounts-panel" aria-labelledby="accounts-orgs-title">
      <h2 id="accounts-orgs-title" className="accounts-heading">
        {ACCOUNTS_TEXT.organizationsTitle}
      </h2>
      <AccountsTable
        answer={own}
        rows={(organization) => administeredOrganizations(organization, profile.managedOrgs)}
        columns={[ACCOUNTS_TEXT.name]}
        renderRow={(org) => (
          <tr key={org.id}>
            <th scope="row">{org.name}</th>
            <td className="accounts-row-actions">
              <NavLink
                className="button button-secondary"
                to={href('organizations', org.id, 'edit')}
                aria-label={`${SECTION_TEXT.edit} ${org.name}`}
              >
                {SECTION_TEXT.edit}
              </NavLink>
              {mayDelete && org.id !== profile.organizationId && (
                <button
                  type="button"
                  className="button button-secondary"
                  aria-label={`${SECTION_TEXT.delete} ${org.name}`}
                  onClick={() => {
                    remove.reset();
                    setDeleting(org);
                  }}
                >
                  {SECTION_TEXT.delete}
                </button>
              )}
            </td>
          </tr>
        )}
      />
      {deleting && (
        <ConfirmDialog
          title={ACCOUNTS_TEXT.deleteOrganizationTitle(deleting.name)}
          body={ACCOUNTS_TEXT.deleteOrganizationBody}
          confirmLabel={ACCOUNTS_TEXT.deleteOrganization}
          pending={remove.pending}
          failure={remove.failure}
          onConfirm={() => void remove.submit(() => calls.deleteOrganization(deleting.id))}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function OrganizationPage() {
  const { profile } = useOutletContext<ShellContext>();
  const { orgId = '' } = useParams();
  return (
    <OrganizationEdit
      organizationId={orgId}
      subscribedOrgId={profile.organizationId}
      managedOrgs={profile.managedOrgs}
      canEdit={canEditOrganizationInAccounts(profile.permissions as PermissionList)}
    />
  );
}

function Placeholder({ title }: { title: string }) {
  return (
    <section className="accounts-panel">
      <h2 className="accounts-heading">{title}</h2>
      <p>{ACCOUNTS_TEXT.placeholder}</p>
    </section>
  );
}
