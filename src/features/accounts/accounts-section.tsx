/**
 * The legacy account manager (part 2 §2 "accounts: Legacy account manager. Tabs: account, user,
 * organization, thing, billing"), desktop only (the shell shows 'This page isn't available on
 * mobile devices.' on a phone). The tab is kept in `?tab=`. Three more tabs hold §2's "API keys",
 * "integrations" (the fleet telematics providers, §9) and "Device configuration"; each shows only
 * to a caller the server lets read it (§6).
 */
import { useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { DesktopOnly } from '../../app/section/desktop-only';
import { Tabs, useTabParam } from '../../app/section/tabs';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { Modal } from '../../app/ui/modal';
import { ACCOUNTS_TEXT } from '../../domain/labels';
import {
  apiKeyAccess,
  canConfigureDevices,
  canEditOrganizationInAccounts,
  integrationAccess,
  type PermissionList,
} from '../../domain/permissions';
import type { User } from '../../domain/user';
import { ApiKeysPanel } from './api-keys-panel';
import { BillingPanel } from './billing-panel';
import { ChangePasswordForm } from './change-password-form';
import { DeviceConfigsPanel } from './device-configs-panel';
import { IntegrationsPanel } from './integrations-panel';
import { OrganizationEdit } from './organization-form';
import { ProfileForm } from './profile-form';
import { ThingsPanel } from './things-panel';
import { UserForm } from './user-form';
import { UsersPanel } from './users-panel';
import './accounts.css';

const TABS = ['account', 'user', 'organization', 'thing', 'billing', 'api_key', 'integration', 'device_config'] as const;
type AccountsTab = (typeof TABS)[number];

/** Who may open a tab that not every caller may: API keys and integrations with their read permission, device configuration with its permission. */
const TAB_RULES: Partial<Record<AccountsTab, (permissions: PermissionList) => boolean>> = {
  api_key: (permissions) => apiKeyAccess(permissions).canRead,
  integration: (permissions) => integrationAccess(permissions).canRead,
  device_config: canConfigureDevices,
};

function visibleTabs(permissions: PermissionList): readonly AccountsTab[] {
  return TABS.filter((key) => TAB_RULES[key]?.(permissions) ?? true);
}

export function AccountsSection() {
  return (
    <DesktopOnly>
      <LegacyAccounts />
    </DesktopOnly>
  );
}

function LegacyAccounts() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const permissions = profile.permissions as PermissionList;
  const tabs = visibleTabs(permissions);
  const [tab, choose] = useTabParam(tabs);
  return (
    <div className="accounts-page">
      <h1 className="accounts-title">{ACCOUNTS_TEXT.title}</h1>
      <Tabs
        tabs={tabs.map((key) => ({ key, label: ACCOUNTS_TEXT.tabs[key] }))}
        selected={tab}
        onSelect={choose}
        label={ACCOUNTS_TEXT.title}
        idPrefix="accounts"
      >
        <AccountsTabPanel tab={tab} organizationId={organizationId} permissions={permissions} />
      </Tabs>
    </div>
  );
}

function AccountsTabPanel({ tab, organizationId, permissions }: { tab: AccountsTab; organizationId: string; permissions: PermissionList }) {
  const { profile } = useOutletContext<ShellContext>();
  switch (tab) {
    case 'account':
      return (
        <div className="accounts-columns">
          <ProfileForm profile={profile} />
          <ChangePasswordForm />
        </div>
      );
    case 'user':
      return <UsersWithDialog organizationId={organizationId} permissions={permissions} />;
    case 'organization':
      return (
        <OrganizationEdit
          organizationId={organizationId}
          subscribedOrgId={profile.organizationId}
          managedOrgs={profile.managedOrgs}
          canEdit={canEditOrganizationInAccounts(permissions)}
        />
      );
    case 'thing':
      return <ThingsPanel organizationId={organizationId} permissions={permissions} />;
    case 'billing':
      return <BillingPanel organizationId={organizationId} permissions={permissions} />;
    case 'api_key':
      return <ApiKeysPanel permissions={permissions} timeZone={profile.timezone} />;
    case 'integration':
      return <IntegrationsPanel organizationId={organizationId} permissions={permissions} timeZone={profile.timezone} />;
    case 'device_config':
      return <DeviceConfigsPanel organizationId={organizationId} managedOrgs={profile.managedOrgs} />;
  }
}

/** The user tab: the list, with the add and edit form in a dialog. */
function UsersWithDialog({ organizationId, permissions }: { organizationId: string; permissions: PermissionList }) {
  const { profile } = useOutletContext<ShellContext>();
  const [editing, setEditing] = useState<{ user: User | null } | null>(null);
  const close = () => setEditing(null);
  return (
    <>
      <UsersPanel
        organizationId={organizationId}
        selfId={profile.id}
        permissions={permissions}
        timeZone={profile.timezone}
        onAdd={() => setEditing({ user: null })}
        onEdit={(user) => setEditing({ user })}
      />
      {editing && (
        <Modal title={editing.user ? ACCOUNTS_TEXT.editUser : ACCOUNTS_TEXT.addUser} onClose={close} actions={null}>
          <UserForm organizationId={organizationId} user={editing.user} onDone={close} onCancel={close} />
        </Modal>
      )}
    </>
  );
}
