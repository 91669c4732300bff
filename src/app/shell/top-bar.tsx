/**
 * part 1 §2 legacy desktop top bar: date and time, the subscribed organization (a chooser for acs users), the asset count
 * (thing read or manage), the Data link, a settings dropdown with the organization list (search
 * over 5) and 'Manage Accounts & Users', and the profile circle.
 */
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { MINUTE_MS } from '../../domain/constants';
import { SHELL_EXTRA_TEXT, SHELL_TEXT } from '../../domain/labels';
import type { OrganizationRef } from '../../domain/organization';
import { canSeeSection, sectionHref, showsAssetCount, showsManageAccounts, showsOrgChooser } from '../../domain/permissions';
import type { Profile } from '../../domain/profile';
import { formatClock } from '../../domain/time';
import { useNow } from '../section/use-now';
import { ProfileMenu } from './profile-menu';
import { filterOrganizations, showsOrganizationSearch } from './shell-model';
import './org-chooser.css';

/** The shown clock moves every quarter minute (the shared clock of the kit). */
function useClock(): Date {
  return new Date(useNow(MINUTE_MS / 4));
}

export interface TopBarProps {
  profile: Profile;
  organizations: readonly OrganizationRef[];
  organizationId: string;
  assetCount: number | null;
  onChooseOrganization: (org: OrganizationRef) => void;
}

export function OrganizationList({
  organizations,
  organizationId,
  onChoose,
}: {
  organizations: readonly OrganizationRef[];
  organizationId: string;
  onChoose: (org: OrganizationRef) => void;
}) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const shown = filterOrganizations(organizations, query);
  return (
    <div className="org-list">
      {showsOrganizationSearch(organizations.length) && (
        <>
          <label className="visually-hidden" htmlFor={searchId}>
            {SHELL_TEXT.organizationSearch}
          </label>
          <input
            id={searchId}
            type="search"
            className="org-search"
            placeholder={SHELL_TEXT.organizationSearch}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </>
      )}
      <ul aria-label={SHELL_EXTRA_TEXT.organizations}>
        {shown.map((org) => (
          <li key={org.id}>
            <button type="button" aria-pressed={org.id === organizationId} onClick={() => onChoose(org)}>
              {org.name}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * part 1 §2 "Organization chooser: a select for users with the acs flag and at least one
 * organization"; choosing one switches the subscribed organization.
 */
export function OrganizationChooser({
  organizations,
  organizationId,
  onChoose,
  className,
}: {
  organizations: readonly OrganizationRef[];
  organizationId: string;
  onChoose: (org: OrganizationRef) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <span className={className ? `org-chooser ${className}` : 'org-chooser'}>
      <label className="visually-hidden" htmlFor={id}>
        {SHELL_EXTRA_TEXT.organization}
      </label>
      <select
        id={id}
        value={organizationId}
        onChange={(event) => {
          const org = organizations.find((entry) => entry.id === event.target.value);
          if (org) onChoose(org);
        }}
      >
        {organizations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </select>
    </span>
  );
}

export function TopBar({ profile, organizations, organizationId, assetCount, onChooseOrganization }: TopBarProps) {
  const now = useClock();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const organization = organizations.find((org) => org.id === organizationId);
  const chooser = showsOrgChooser({ acs: profile.acs, organizations });
  return (
    <header className="top-bar">
      <time className="top-bar-clock" dateTime={now.toISOString()}>
        {formatClock(now.getTime(), profile.timezone)}
      </time>
      {chooser ? (
        <OrganizationChooser
          className="top-bar-org"
          organizations={organizations}
          organizationId={organizationId}
          onChoose={onChooseOrganization}
        />
      ) : (
        <span className="top-bar-org" data-testid="organization-name">
          {organization?.name ?? ''}
        </span>
      )}
      {showsAssetCount(profile.permissions) && assetCount !== null && (
        <span className="top-bar-count" data-testid="asset-count">
          {assetCount.toLocaleString()} {SHELL_EXTRA_TEXT.assets}
        </span>
      )}
      <span className="top-bar-spacer" />
      {canSeeSection(profile.permissions, 'data') && (
        <Link className="top-bar-link" to={sectionHref('data')}>
          {SHELL_EXTRA_TEXT.data}
        </Link>
      )}
      <div className="settings">
        <button type="button" className="top-bar-link" aria-expanded={settingsOpen} onClick={() => setSettingsOpen((v) => !v)}>
          {SHELL_EXTRA_TEXT.settings}
        </button>
        {settingsOpen && (
          <div className="settings-menu">
            {/* part 1 §2: the dropdown holds the organization list for every user (search past 5). */}
            {organizations.length > 0 && (
              <OrganizationList
                organizations={organizations}
                organizationId={organizationId}
                onChoose={(org) => {
                  setSettingsOpen(false);
                  onChooseOrganization(org);
                }}
              />
            )}
            {showsManageAccounts(profile.permissions) && (
              <Link to={sectionHref('accounts')} onClick={() => setSettingsOpen(false)}>
                {SHELL_TEXT.manageAccounts}
              </Link>
            )}
          </div>
        )}
      </div>
      <ProfileMenu profile={profile} />
    </header>
  );
}
