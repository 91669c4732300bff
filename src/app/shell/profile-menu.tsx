/** part 1 §2: the profile circle with initials; on hover (or focus) the card with name, e-mail, links and Sign Out. */
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'react-router-dom';
import { DATA_TEXT, SHELL_EXTRA_TEXT, SHELL_TEXT } from '../../domain/labels';
import { canSeeSection, sectionHref } from '../../domain/permissions';
import { profileInitials, type Profile } from '../../domain/profile';
import { useServices } from '../services';
import { THEME_CHOICES, type ThemeChoice } from '../theme';
import { SignOutButton } from './sign-out-button';

const APPEARANCE_LABEL: Readonly<Record<ThemeChoice, string>> = {
  system: SHELL_EXTRA_TEXT.appearanceSystem,
  day: SHELL_EXTRA_TEXT.appearanceDay,
  night: SHELL_EXTRA_TEXT.appearanceNight,
};

/** Day, night or the system's (docs/map.md "Night mode"), remembered for this user in this browser; the phone's menu has it too. */
export function AppearanceChoice() {
  const { theme } = useServices();
  const { choice } = useSnapshot(theme.state);
  return (
    <fieldset className="profile-appearance">
      <legend>{SHELL_EXTRA_TEXT.appearance}</legend>
      {THEME_CHOICES.map((option) => (
        <label key={option}>
          <input type="radio" name="appearance" value={option} checked={choice === option} onChange={() => theme.choose(option)} />
          {APPEARANCE_LABEL[option]}
        </label>
      ))}
    </fieldset>
  );
}

export function ProfileMenu({ profile }: { profile: Profile }) {
  const { session } = useServices();
  const [open, setOpen] = useState(false);
  const { awarenessMode } = useSnapshot(session.state);
  const fullName = `${profile.firstName} ${profile.lastName}`.trim() || profile.email;
  return (
    <div
      className="profile-menu"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setOpen(false);
      }}
    >
      <button
        type="button"
        className="profile-circle"
        aria-label={`${SHELL_EXTRA_TEXT.profileMenu}: ${fullName}`}
        aria-expanded={open}
        // Hover opens it too: a click after the hover must not close it (Escape or leaving does).
        onClick={() => setOpen(true)}
      >
        {profileInitials(profile)}
      </button>
      {open && (
        <div className="profile-card" role="group" aria-label={SHELL_EXTRA_TEXT.profileMenu}>
          <p className="profile-name">{fullName}</p>
          <p className="profile-email">{profile.email}</p>
          {canSeeSection(profile.permissions, 'accounts') && <Link to={sectionHref('accounts')}>{SHELL_TEXT.profileAndPreferences}</Link>}
          {canSeeSection(profile.permissions, 'accounts_new') && <Link to={sectionHref('accounts_new')}>{SHELL_TEXT.newAccountsTest}</Link>}
          {/* part 1 §2 "A Data link appears for users with data access"; part 2 §2 each by permission. */}
          {canSeeSection(profile.permissions, 'reports') && <Link to={sectionHref('reports')}>{DATA_TEXT.monthlyReports}</Link>}
          {canSeeSection(profile.permissions, 'exports') && <Link to={sectionHref('exports')}>{DATA_TEXT.dataExports}</Link>}
          {profile.hasAwarenessModeAccess && (
            <label className="profile-toggle">
              <input type="checkbox" checked={awarenessMode} onChange={(event) => session.setAwarenessMode(event.target.checked)} />{' '}
              {SHELL_EXTRA_TEXT.awarenessMode}
            </label>
          )}
          <AppearanceChoice />
          <SignOutButton />
        </div>
      )}
    </div>
  );
}
