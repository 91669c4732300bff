/**
 * The routes of part 1 §2 and part 2 §2: the public pages, the OAuth-style return, /dashboard with
 * one route per section of SECTIONS, and the not-found, crash and unauthorized pages.
 */
import { lazy, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { DASHBOARD_PATH, dataIndexTarget, section, SECTIONS, type SectionKey } from '../domain/permissions';
import { CrashPage, NotFoundPage, UnauthorizedPage } from './pages/status-pages';
import { useServices } from './services';
import { DashboardIndex, RequireSession } from './shell/dashboard-layout';
import { SectionPage } from './shell/section-page';
import { sectionOfPath } from './shell/shell-model';
import { ForgotPage } from './welcome/forgot-page';
import { OAuthReturn } from './welcome/oauth-return';
import { ResetPage } from './welcome/reset-page';
import { SignInPage } from './welcome/sign-in-page';
import { UnlockPage } from './welcome/unlock-page';
import { WelcomeLayout } from './welcome/welcome-layout';
import { AppFrame } from './app-frame';
import { lazySection, loadChunk, type LazySection } from './chunk-load';
import { MapLayerContentContext, type MapLayerContent } from './map/layer-overlays';

export { lazySection };

/** The OAuth-style return's path (the server serves the app for /oauth, server/http/spa.ts). */
export const OAUTH_RETURN_PATH = '/oauth';

/** part 1 §2: / goes to /dashboard when signed in, otherwise to sign-in. */
function RootRedirect() {
  const { session } = useServices();
  const { status } = useSnapshot(session.state);
  return <Navigate to={status === 'signedIn' ? DASHBOARD_PATH : '/welcome/signin'} replace />;
}

/** part 2 §2: the data index goes to reports with a report permission, otherwise to exports. */
function DataIndex() {
  const { session } = useServices();
  const { profile } = useSnapshot(session.state);
  if (!profile) return null;
  return <Navigate to={`${DASHBOARD_PATH}/${section(dataIndexTarget(profile.permissions)).path}`} replace />;
}

/**
 * The section pages ('data' has none: its index goes to reports or exports). The router is the one
 * module of src/app that imports features: it mounts their routes (docs/decisions/design.md) and
 * hands the dashboard map their map layers (MAP_LAYER_CONTENT).
 */
const SECTION_CONTENT: Partial<Record<SectionKey, LazySection>> = {
  things: lazySection(() => import('../features/things/things-section').then((module) => module.ThingsSection)),
  events: lazySection(() => import('../features/events/events-section').then((module) => module.EventsSection)),
  areas: lazySection(() => import('../features/areas/areas-section').then((module) => module.AreasSection)),
  reports: lazySection(() => import('../features/data/data-section').then((module) => module.ReportsSection)),
  exports: lazySection(() => import('../features/data/data-section').then((module) => module.ExportsSection)),
  closures: lazySection(() => import('../features/closures/closures-section').then((module) => module.ClosuresSection)),
  zones: lazySection(() => import('../features/zones/zones-page').then((module) => module.ZonesPage)),
  trips: lazySection(() => import('../features/trips/trips-page').then((module) => module.TripsPage)),
  r2r: lazySection(() => import('../features/r2r/r2r-page').then((module) => module.R2RPage)),
  hazards: lazySection(() => import('../features/hazards/hazards-page').then((module) => module.HazardsPage)),
  accounts: lazySection(() => import('../features/accounts/accounts-section').then((module) => module.AccountsSection)),
  accounts_new: lazySection(() => import('../features/accounts/accounts-new-section').then((module) => module.AccountsNewSection)),
};

/** A section's map layer in its own chunk (with its section's code), fetched when the layer is first drawn. */
function lazyMapLayer<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() => loadChunk(load).then((Component) => ({ default: Component })));
}

/** The sections' map layers the layers control draws on the dashboard map (docs/map.md "Layers"). */
const MAP_LAYER_CONTENT: MapLayerContent = {
  closures: lazyMapLayer(() => import('../features/closures/closures-map-layer').then((module) => module.ClosuresMapLayer)),
  zones: lazyMapLayer(() => import('../features/zones/zones-map-layer').then((module) => module.ZonesMapLayer)),
  hazards: lazyMapLayer(() => import('../features/hazards/hazards-map-layer').then((module) => module.HazardsMapLayer)),
};

/** Fetches the chunk of the section `pathname` opens (a page load of a dashboard URL), if it has one. */
export function preloadSectionOf(pathname: string): void {
  const key = sectionOfPath(pathname)?.key;
  if (key) SECTION_CONTENT[key]?.preload();
}

export const appRoutes: RouteObject[] = [
  {
    element: <AppFrame />,
    errorElement: <CrashPage />,
    children: [
      { path: '/', element: <RootRedirect /> },
      {
        path: '/welcome',
        element: <WelcomeLayout />,
        children: [
          { index: true, element: <Navigate to="/welcome/signin" replace /> },
          { path: 'signin', element: <SignInPage /> },
          { path: 'forgot', element: <ForgotPage /> },
          { path: 'reset/:email/:resetToken', element: <ResetPage /> },
          { path: 'unlock/:email/:unlockToken', element: <UnlockPage /> },
        ],
      },
      { path: OAUTH_RETURN_PATH, element: <OAuthReturn /> },
      {
        path: DASHBOARD_PATH,
        element: (
          <MapLayerContentContext.Provider value={MAP_LAYER_CONTENT}>
            <RequireSession />
          </MapLayerContentContext.Provider>
        ),
        children: [
          { index: true, element: <DashboardIndex /> },
          { path: 'unauthorized', element: <UnauthorizedPage /> },
          { path: 'data', element: <DataIndex /> },
          // Every section with a page; a path under one without (the data index's '/dashboard/data/x')
          // is not found.
          ...SECTIONS.flatMap((entry) => {
            const content = SECTION_CONTENT[entry.key];
            return content ? [{ path: `${entry.path}/*`, element: <SectionPage sectionKey={entry.key} content={content} /> }] : [];
          }),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
