import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { PRODUCT_NAME } from '../../domain/constants';
import { DASHBOARD_PATH } from '../../domain/permissions';
import { useServices } from '../services';
import { Logo } from '../ui/logo';
import { fromState } from './return-path';

/** part 1 §2: signed-in visits to /welcome go to /dashboard (or to the path that sent them to sign in). */
export function WelcomeLayout() {
  const { session } = useServices();
  const { status } = useSnapshot(session.state);
  const location = useLocation();
  if (status === 'signedIn') return <Navigate to={fromState(location.state) ?? DASHBOARD_PATH} replace />;
  return (
    <main className="welcome">
      <Outlet />
    </main>
  );
}

export function WelcomeCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="welcome-card" aria-labelledby="welcome-title">
      <div className="welcome-brand">
        <Logo />
        <span className="welcome-product">{PRODUCT_NAME}</span>
      </div>
      <h1 id="welcome-title">{title}</h1>
      {children}
    </section>
  );
}
