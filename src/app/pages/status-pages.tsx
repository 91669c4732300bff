/** part 1 §2 "Other pages": unknown URL, crash, unauthorized, and desktop-only sections on mobile. */
import { Link, useRouteError } from 'react-router-dom';
import { PAGE_TEXT } from '../../domain/labels';
import { DASHBOARD_PATH } from '../../domain/permissions';
import { ChunkLoadError } from '../../domain/errors';

export function NotFoundPage() {
  return (
    <main className="status-page">
      <h1>{PAGE_TEXT.notFound}</h1>
      <Link className="button button-primary" to={DASHBOARD_PATH}>
        {PAGE_TEXT.backToMain}
      </Link>
    </main>
  );
}

/** The router's error element: a render error anywhere below shows the crash page. */
export function CrashPage() {
  const error = useRouteError();
  return (
    <main className="status-page">
      <h1>{PAGE_TEXT.crash}</h1>
      {error instanceof ChunkLoadError && <p>{error.message}</p>}
      {/* A full load: the app starts again from a clean state. */}
      <a className="button button-primary" href="/">
        {PAGE_TEXT.backToMain}
      </a>
    </main>
  );
}

export function UnauthorizedPage() {
  return (
    <section className="status-page">
      <h1>{PAGE_TEXT.unauthorized}</h1>
      <Link className="button button-primary" to={DASHBOARD_PATH}>
        {PAGE_TEXT.backToMain}
      </Link>
    </section>
  );
}

export function MobileUnavailablePage() {
  return (
    <section className="status-page">
      <h1>{PAGE_TEXT.mobileUnavailable}</h1>
    </section>
  );
}
