/**
 * part 1 §2 desktop side nav (160 px): logo, section links (Live, Incidents or Events by responder
 * mix, ...) with the last selected id appended, a second click on the current section toggling the
 * drawer, Support (a dialog with phone and e-mail), Refer a Fleet, and the copyright.
 */
import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ResponderMix } from '../../domain/asset-status';
import { PRODUCT_NAME, SIDE_NAV_WIDTH, SUPPORT_EMAIL, SUPPORT_PHONE } from '../../domain/constants';
import { DIALOG_TEXT, SHELL_EXTRA_TEXT, SHELL_TEXT } from '../../domain/labels';
import type { PermissionList, SectionKey } from '../../domain/permissions';
import { Logo } from '../ui/logo';
import { Modal } from '../ui/modal';
import { navSections, sectionLabel, sectionLinkTarget, SIDE_NAV_KEYS, type ShellState } from './shell-model';

export interface SideNavProps {
  permissions: PermissionList;
  mix: ResponderMix;
  shell: ShellState;
  currentKey: SectionKey | null;
}

export function SideNav({ permissions, mix, shell, currentKey }: SideNavProps) {
  const snap = useSnapshot(shell);
  const [support, setSupport] = useState(false);
  return (
    <nav className="side-nav" style={{ width: SIDE_NAV_WIDTH }} aria-label={SHELL_EXTRA_TEXT.mainNavigation}>
      <NavLink to="/dashboard" className="side-nav-logo" aria-label={PRODUCT_NAME}>
        <Logo size={36} />
        <span>{PRODUCT_NAME}</span>
      </NavLink>
      <ul className="side-nav-links">
        {navSections(permissions, SIDE_NAV_KEYS).map((key) => (
          <li key={key}>
            <NavLink
              to={sectionLinkTarget(key, snap.lastIds)}
              className={() => (currentKey === key ? 'side-nav-link active' : 'side-nav-link')}
              aria-current={currentKey === key ? 'page' : undefined}
              data-section={key}
              onClick={(event) => {
                // part 1 §2: clicking the link of the current section toggles the side drawer.
                if (currentKey === key) {
                  event.preventDefault();
                  shell.drawerOpen = !shell.drawerOpen;
                } else {
                  shell.drawerOpen = true;
                }
              }}
            >
              {sectionLabel(key, mix)}
            </NavLink>
          </li>
        ))}
      </ul>
      <div className="side-nav-footer">
        <button type="button" className="side-nav-button" onClick={() => setSupport(true)}>
          {SHELL_TEXT.support}
        </button>
        <a className="side-nav-button" href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(SHELL_TEXT.referAFleet)}`}>
          {SHELL_TEXT.referAFleet}
        </a>
        <p className="copyright">
          © {new Date().getFullYear()} {PRODUCT_NAME}
        </p>
      </div>
      {support && (
        <Modal
          title={SHELL_EXTRA_TEXT.supportTitle}
          onClose={() => setSupport(false)}
          actions={
            <button type="button" className="button button-primary" onClick={() => setSupport(false)}>
              {DIALOG_TEXT.close}
            </button>
          }
        >
          <dl className="support-list">
            <dt>{SHELL_EXTRA_TEXT.phone}</dt>
            <dd>
              <a href={`tel:${SUPPORT_PHONE.replace(/[^+\d]/g, '')}`}>{SUPPORT_PHONE}</a>
            </dd>
            <dt>{SHELL_EXTRA_TEXT.email}</dt>
            <dd>
              <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
            </dd>
          </dl>
        </Modal>
      )}
    </nav>
  );
}
