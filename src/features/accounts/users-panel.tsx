/**
 * The organization's users (part 2 §2 "Users list with role labels. Managers get the badge
 * MANAGER and access users get the badge ACCESS"; §3 User; §6 role names; §7 GET
 * /organization/users): name with its badge, e-mail, role label, last sign-in, and Edit and Delete
 * (behind a confirmation, §2) for the organization's own users whose role the caller may assign.
 * What the caller may not do shows disabled with 'Not authorized' (§6); the server refuses it too.
 */
import { useState } from 'react';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { useSubmit } from '../../app/section/use-submit';
import { useApiQuery } from '../../app/use-api-query';
import { canAdministerUsers, type PermissionList } from '../../domain/permissions';
import { ACCOUNTS_TEXT, SECTION_TEXT } from '../../domain/labels';
import { formatDateTime } from '../../domain/time';
import { userFullName, type User } from '../../domain/user';
import { AccountsPanel, AllowedButton } from './accounts-panel';
import { AccountsTable } from './accounts-table';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';

export interface UsersPanelProps {
  organizationId: string;
  /** The signed-in user (never deleted from here). */
  selfId: string;
  permissions: PermissionList;
  timeZone: string | null;
  onAdd(): void;
  onEdit(user: User): void;
}

export function UsersPanel({ organizationId, selfId, permissions, timeZone, onAdd, onEdit }: UsersPanelProps) {
  const calls = useAccountCalls();
  const users = useApiQuery({ key: ACCOUNT_QUERIES.users(organizationId), load: () => calls.users(organizationId) });
  const roles = useApiQuery({ key: ACCOUNT_QUERIES.roles(organizationId), load: () => calls.roles() });
  const [deleting, setDeleting] = useState<User | null>(null);
  const remove = useSubmit<void>({
    context: 'userCalls',
    invalidates: [ACCOUNT_QUERIES.users(organizationId)],
    onSuccess: () => setDeleting(null),
  });
  const assignable = new Set((roles.data ?? []).map((role) => role.id));
  const canAdd = canAdministerUsers(permissions, 'canCreate');
  const canUpdate = canAdministerUsers(permissions, 'canUpdate');
  const canDelete = canAdministerUsers(permissions, 'canDelete');
  /** Own users only (a badge marks another organization's), and only a role the caller could assign. */
  const manageable = (user: User) => user.badge === null && user.roleId !== null && assignable.has(user.roleId);

  return (
    <AccountsPanel
      id="users"
      title={ACCOUNTS_TEXT.usersTitle}
      action={
        <AllowedButton allowed={canAdd} className="button button-primary" onClick={onAdd}>
          {ACCOUNTS_TEXT.addUser}
        </AllowedButton>
      }
    >
      <AccountsTable
        answer={users}
        rows={(data) => data}
        columns={[ACCOUNTS_TEXT.name, ACCOUNTS_TEXT.email, ACCOUNTS_TEXT.role, ACCOUNTS_TEXT.lastSignIn]}
        empty={ACCOUNTS_TEXT.noUsers}
        renderRow={(user) => {
          const mayEdit = canUpdate && manageable(user);
          const mayDelete = canDelete && manageable(user) && user.id !== selfId;
          const name = userFullName(user);
          return (
            <tr key={user.id}>
              <th scope="row">
                {name}
                {user.badge && <span className="accounts-badge">{user.badge}</span>}
              </th>
              <td>{user.email}</td>
              <td>{user.roleLabel ?? ''}</td>
              <td>{user.lastSignInAt === null ? ACCOUNTS_TEXT.never : formatDateTime(user.lastSignInAt, timeZone)}</td>
              <td className="accounts-row-actions">
                <AllowedButton allowed={mayEdit} aria-label={`${SECTION_TEXT.edit} ${name}`} onClick={() => onEdit(user)}>
                  {SECTION_TEXT.edit}
                </AllowedButton>
                <AllowedButton
                  allowed={mayDelete}
                  aria-label={`${SECTION_TEXT.delete} ${name}`}
                  onClick={() => {
                    remove.reset();
                    setDeleting(user);
                  }}
                >
                  {SECTION_TEXT.delete}
                </AllowedButton>
              </td>
            </tr>
          );
        }}
      />
      {deleting && (
        <ConfirmDialog
          title={SECTION_TEXT.confirmDeleteTitle(userFullName(deleting))}
          body={SECTION_TEXT.confirmDeleteBody}
          confirmLabel={ACCOUNTS_TEXT.deleteUser}
          pending={remove.pending}
          failure={remove.failure}
          onConfirm={() => void remove.submit(() => calls.deleteUser(deleting.id))}
          onCancel={() => setDeleting(null)}
        />
      )}
    </AccountsPanel>
  );
}
