/** A dashboard section inside the shell: permission and mobile checks, then its page (a placeholder for the sections not built yet). */
import { Suspense, type ComponentType } from 'react';
import { useOutletContext } from 'react-router-dom';
import { SHELL_EXTRA_TEXT } from '../../domain/labels';
import { canSeeSection, section, type SectionKey } from '../../domain/permissions';
import { MobileUnavailablePage, UnauthorizedPage } from '../pages/status-pages';
import type { ShellContext } from './dashboard-layout';
import { sectionLabel } from './shell-model';
import './section-page.css';

export function SectionPage({ sectionKey, content: Content }: { sectionKey: SectionKey; content?: ComponentType | undefined }) {
  const { profile, mobile, mix } = useOutletContext<ShellContext>();
  if (!canSeeSection(profile.permissions, sectionKey)) return <UnauthorizedPage />;
  if (mobile && !section(sectionKey).onMobile) return <MobileUnavailablePage />;
  if (Content) {
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
  return (
    <section className="section-page" aria-labelledby="section-title" data-section={sectionKey}>
      <h1 id="section-title">{sectionLabel(sectionKey, mix)}</h1>
      <p className="section-placeholder">{SHELL_EXTRA_TEXT.placeholder}</p>
    </section>
  );
}
