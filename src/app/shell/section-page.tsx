/** A dashboard section inside the shell: permission and mobile checks, then its page (its own code chunk). */
import { Suspense, type ComponentType } from 'react';
import { useOutletContext } from 'react-router-dom';
import { SHELL_EXTRA_TEXT } from '../../domain/labels';
import { canSeeSection, section, type SectionKey } from '../../domain/permissions';
import { MobileUnavailablePage, UnauthorizedPage } from '../pages/status-pages';
import type { ShellContext } from './dashboard-layout';
import './section-page.css';

export function SectionPage({ sectionKey, content: Content }: { sectionKey: SectionKey; content: ComponentType }) {
  const { profile, mobile } = useOutletContext<ShellContext>();
  if (!canSeeSection(profile.permissions, sectionKey)) return <UnauthorizedPage />;
  if (mobile && !section(sectionKey).onMobile) return <MobileUnavailablePage />;
  // Sections load as their own chunks (router.tsx): the fallback shows inside the drawer.
  return (
    <Suspense
      fallback={
        <p className="section-loading" role="status" aria-busy="true">
          {SHELL_EXTRA_TEXT.loadingSection}
        </p>
      }
    >
      <Content />
    </Suspense>
  );
}
