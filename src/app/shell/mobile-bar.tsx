/**
 * part 1 §2 mobile: the top bar (logo, organization name truncated to 70, a dropdown with profile,
 * sign out and the organization chooser) and the 70 px bottom nav of four items.
 */
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import type { ResponderMix } from '../../domain/asset-status';
import { BOTTOM_NAV_HEIGHT } from '../../domain/constants';
import { DATA_TEXT, SHELL_EXTRA_TEXT } from '../../domain/labels';
import type { OrganizationRef } from '../../domain/organization';
import { canSeeSection, sectionHref, showsOrgChooser } from '../../domain/permissions';
import { profileInitials, type Profile } from '../../domain/profile';
import { Logo } from '../ui/logo';
import { BOTTOM_NAV_KEYS, mobileOrganizationName, navSections, sectionLabel, sectionLinkTarget, type ShellState } from './shell-model';
import { AppearanceChoice } from './profile-menu';
import { SignOutButton } from './sign-out-button';
import { OrganizationChooser } from './top-bar';

export function MobileTopBar({
  profile,
  organizations,
  organizationId,
  onChooseOrganization,
}: {
  profile: Profile;
  organizations: readonly OrganizationRef[];
  organizationId: string;
  onChooseOrganization: (org: OrganizationRef) => void;
}) {
  const [open, setOpen] = useState(false);
  // Moving on (the bottom nav, a link in the menu) closes the menu.
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  const name = organizations.find((org) => org.id === organizationId)?.name ?? '';
  return (
    <header className="mobile-top-bar">
      <Logo size={28} />
      <span className="mobile-org" data-testid="organization-name">
        {mobileOrganizationName(name)}
      </span>
      <button
        type="button"
        className="profile-circle"
        aria-expanded={open}
        aria-label={SHELL_EXTRA_TEXT.profileMenu}
        onClick={() => setOpen((v) => !v)}
      >
        {profileInitials(profile)}
      </button>
      {open && (
        <div className="mobile-menu">
          <p className="profile-name">{`${profile.firstName} ${profile.lastName}`.trim()}</p>
          <p className="profile-email">{profile.email}</p>
          {/* Accounts are not on a phone (part 2 §2): the profile's appearance is here instead. */}
          <AppearanceChoice />
          {/* part 2 §2: exports are unavailable on mobile, so the phone's Data navigation is the reports. */}
          {canSeeSection(profile.permissions, 'reports') && <Link to={sectionHref('reports')}>{DATA_TEXT.monthlyReports}</Link>}
          {showsOrgChooser({ acs: profile.acs, organizations }) && (
            <OrganizationChooser
              className="mobile-org-chooser"
              organizations={organizations}
              organizationId={organizationId}
              onChoose={(org) => {
                setOpen(false);
                onChooseOrganization(org);
              }}
            />
          )}
          <SignOutButton />
        </div>
      )}
    </header>
  );
}

export function BottomNav({ profile, mix, shell }: { profile: Profile; mix: ResponderMix; shell: ShellState }) {
  return (
    <nav className="bottom-nav" style={{ height: BOTTOM_NAV_HEIGHT }} aria-label={SHELL_EXTRA_TEXT.mobileNavigation}>
      <ul>
        {navSections(profile.permissions, BOTTOM_NAV_KEYS).map((key) => (
          <li key={key}>
            <NavLink to={sectionLinkTarget(key, shell.lastIds)} className="bottom-nav-link" data-section={key}>
              {sectionLabel(key, mix)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export type MobileView = 'list' | 'map';

/**
 * On a phone the section's page (the list, a detail, a form) and the map take the whole screen in
 * turn: this switch floats above the bottom nav in the sections that have a map.
 */
export function MobileViewSwitch({ view, onChange }: { view: MobileView; onChange: (view: MobileView) => void }) {
  const options: [MobileView, string][] = [
    ['list', SHELL_EXTRA_TEXT.mobileList],
    ['map', SHELL_EXTRA_TEXT.mobileMap],
  ];
  return (
    <div className="mobile-view-switch" role="group" aria-label={SHELL_EXTRA_TEXT.mobileView} style={{ bottom: BOTTOM_NAV_HEIGHT + 12 }}>
      {options.map(([value, label]) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          className={view === value ? 'active' : undefined}
          onClick={() => onChange(value)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
