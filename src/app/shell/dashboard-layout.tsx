/**
 * /dashboard: signed-out visits go to sign-in remembering the path (part 1 §2); signed in, the
 * profile is loaded and checked (part 1 §7, §8), the live worker starts with the token and the
 * profile's organization, and the shell frames the section pages.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ASSET_STATUS, type ResponderMix } from '../../domain/asset-status';
import { DRAWER_WIDTH } from '../../domain/constants';
import { SHELL_EXTRA_TEXT } from '../../domain/labels';
import type { OrganizationRef } from '../../domain/organization';
import { DASHBOARD_PATH, firstAllowedSection, sectionPathRedirect, showsAssetCount } from '../../domain/permissions';
import type { Profile } from '../../domain/profile';
import { DashboardMap } from '../map/dashboard-map';
import { createMapState, type MapState } from '../map/map-state';
import type { LiveBridge } from '../live/bridge';
import { liveOf, LiveProvider, useLiveValue, useResponderMix } from '../live/hooks';
import { dropOnUnsubscribe } from '../query-cache';
import { useServices } from '../services';
import { useApiQuery } from '../use-api-query';
import { ItemMemoryContext, type ItemMemory } from '../section/item-memory';
import { SHELL_QUERIES, useShellCalls } from './shell-calls';
import { MobileTopBar, BottomNav, MobileViewSwitch, type MobileView } from './mobile-bar';
import { OfflineAssetsNotice, OfflineBanner, UpdateAlert, WebGLMissing } from './notices';
import {
  BOTTOM_NAV_KEYS,
  chooserOrganizations,
  createShellState,
  organizationChoice,
  profileOrganizations,
  sectionOfPath,
} from './shell-model';
import { CommandPalette } from '../palette/command-palette';
import { IncidentAnnouncer } from './announcer';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';
import { useIsMobile } from './use-media';

export interface ShellContext {
  profile: Profile;
  mobile: boolean;
  mix: ResponderMix;
  /** The dashboard map's shared state (view, camera requests, target, display toggles). */
  map: MapState;
  /** The organization the dashboard shows (the subscribed one). */
  organizationId: string;
}

export function RequireSession() {
  const { session } = useServices();
  const { status } = useSnapshot(session.state);
  const location = useLocation();
  if (status !== 'signedIn') {
    return <Navigate to="/welcome/signin" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <DashboardLayout />;
}

/** /dashboard itself: the first section the user may see (data: its allowed sub-page), else unauthorized. */
export function DashboardIndex() {
  const { session } = useServices();
  const { profile } = useSnapshot(session.state);
  if (!profile) return null;
  const first = firstAllowedSection(profile.permissions);
  return <Navigate to={first ? `${DASHBOARD_PATH}/${first.path}` : `${DASHBOARD_PATH}/unauthorized`} replace />;
}

/**
 * part 1 §2 the top bar's asset count: asked for the caller's own scope (no `org_ids[]`) or, after
 * an acs switch, for the chosen organization; a new organization's count shows only once it is in
 * (never the previous organization's).
 */
function useAssetCount(profile: Profile | null, orgIds: readonly string[]): number | null {
  const calls = useShellCalls();
  const query = useApiQuery({
    key: SHELL_QUERIES.thingsCount(orgIds),
    load: () => calls.thingsCount(orgIds),
    enabled: profile !== null && showsAssetCount(profile.permissions),
  });
  return query.data ?? null;
}

/** part 1 §1, §2: acs users choose among the organizations they can see, not only their relations. */
function useVisibleOrganizations(profile: Profile | null): OrganizationRef[] {
  const calls = useShellCalls();
  const query = useApiQuery({
    key: SHELL_QUERIES.assignable(profile?.organizationId ?? null),
    load: calls.assignableOrganizations,
    enabled: profile?.acs === true,
  });
  return query.data ?? NO_ORGANIZATIONS;
}
const NO_ORGANIZATIONS: OrganizationRef[] = [];

function OfflineAssets() {
  const offline = useLiveValue((store) => store.counts[ASSET_STATUS.offline] ?? 0);
  return <OfflineAssetsNotice offlineAssets={offline} />;
}

/** The running engine's bridge (null until the profile is in, or without live data): its `{ store, bridge }` pair reaches every part of the dashboard through LiveContext. */
function DashboardLayout() {
  const [running, setRunning] = useState<LiveBridge | null>(null);
  const livePair = useMemo(() => liveOf(running), [running]);
  return (
    <LiveProvider value={livePair}>
      <DashboardFrame running={running} onStarted={setRunning} />
    </LiveProvider>
  );
}

/** The drawer's id: the skip link's target. */
const DRAWER_ID = 'lightbar-drawer';

function DashboardFrame({ running, onStarted }: { running: LiveBridge | null; onStarted: (bridge: LiveBridge | null) => void }) {
  const services = useServices();
  const { session, live, api } = services;
  const snap = useSnapshot(session.state);
  const location = useLocation();
  const mobile = useIsMobile();
  const shell = useMemo(createShellState, []);
  const map = useMemo(createMapState, []);
  const shellSnap = useSnapshot(shell);
  const mix = useResponderMix();
  const [organizationId, setOrganizationId] = useState<string | null>(null);
  // The organizations the count is asked for: none (the caller's own scope) until an acs switch.
  const [countOrgIds, setCountOrgIds] = useState<readonly string[]>([]);
  const webgl = useMemo(() => services.hasWebGL(), [services]);
  const profile = snap.profile as Profile | null;
  const assetCount = useAssetCount(profile, countOrgIds);
  const visibleOrgs = useVisibleOrganizations(profile);

  useEffect(() => {
    if (session.state.profile) return;
    void session.loadProfile().then((loaded) => {
      if (!loaded) return;
      setOrganizationId(loaded.organizationId);
      onStarted(live.start(loaded));
    });
  }, [session, live, onStarted]);

  // part 1 §2: remember the last selected item of each section for its nav link; an item page that
  // finds its item gone, or deletes it, makes the link forget it (ItemMemoryContext). The page tells
  // before this effect runs (children's effects first), so a gone item is never remembered again.
  const current = sectionOfPath(location.pathname);
  const gone = useRef(new Set<string>());
  useEffect(() => {
    if (current?.id && !gone.current.has(`${current.key}/${current.id}`)) shell.lastIds[current.key] = current.id;
  }, [shell, current?.key, current?.id]);
  const shownPath = useRef(location.pathname);
  shownPath.current = location.pathname;
  const itemMemory = useMemo<ItemMemory>(
    () => ({
      forgetShownItem() {
        const shown = sectionOfPath(shownPath.current);
        if (!shown?.id) return;
        gone.current.add(`${shown.key}/${shown.id}`);
        if (shell.lastIds[shown.key] === shown.id) delete shell.lastIds[shown.key];
      },
    }),
    [shell],
  );

  // On a phone the section's page and the map take the screen in turn (MobileViewSwitch); a page
  // opened from the map (a marker's popup, a cluster) is shown.
  const [mobileView, setMobileView] = useState<MobileView>('list');
  useEffect(() => setMobileView('list'), [location.pathname]);
  // A form drawing on the map (a closure's path, part 2 §2 "Closures new/edit are available on
  // mobile"): the phone shows the map while it draws and keeps the form mounted, hidden, beneath.
  const drawing = useSnapshot(map).drawing !== null;

  const alias = sectionPathRedirect(location.pathname);
  if (alias) return <Navigate to={`${alias}${location.search}`} replace />;

  if (!profile) {
    return (
      <main className="shell-loading" aria-busy="true">
        <p role="status">{SHELL_EXTRA_TEXT.loadingProfile}</p>
      </main>
    );
  }
  const organizations: OrganizationRef[] = profile.acs
    ? chooserOrganizations(profileOrganizations(profile), visibleOrgs)
    : profileOrganizations(profile);
  const orgId = organizationId ?? profile.organizationId;
  const chooseOrganization = (org: OrganizationRef) => {
    if (org.id === orgId) return;
    setOrganizationId(org.id);
    // part 1 §4 "Other", §7: switching resets and refetches; the named caches go at once.
    dropOnUnsubscribe(services.queries);
    const choice = organizationChoice(org.id, profile.organizationId);
    void running?.switchOrganization(choice).catch(() => undefined);
    setCountOrgIds(choice.orgIds);
  };
  const context: ShellContext = { profile, mobile, mix, map, organizationId: orgId };
  // The sections a phone shows (the bottom nav's) are the map's; the desktop-only pages have no map there.
  const mapOnMobile = current !== null && BOTTOM_NAV_KEYS.includes(current.key);
  const drawingOnPhone = mobile && mapOnMobile && drawing;
  const phoneShowsMap = mobile && mapOnMobile && (mobileView === 'map' || drawing);
  const drawerShown = mobile ? !phoneShowsMap || drawingOnPhone : shellSnap.drawerOpen;

  return (
    <div className={mobile ? 'shell shell-mobile' : 'shell'}>
      {drawerShown && (
        // Bypass blocks (WCAG 2.4.1; docs/accessibility.md): the first Tab of the page offers the
        // drawer, which holds in text what the map draws (the Live list, the section's items).
        <a
          className="skip-link"
          href={`#${DRAWER_ID}`}
          onClick={(event) => {
            event.preventDefault();
            document.getElementById(DRAWER_ID)?.focus();
          }}
        >
          {SHELL_EXTRA_TEXT.skipToList}
        </a>
      )}
      {mobile ? (
        <MobileTopBar profile={profile} organizations={organizations} organizationId={orgId} onChooseOrganization={chooseOrganization} />
      ) : (
        <SideNav permissions={profile.permissions} mix={mix} shell={shell} currentKey={current?.key ?? null} />
      )}
      <div className="shell-main">
        {!mobile && (
          <TopBar
            profile={profile}
            organizations={organizations}
            organizationId={orgId}
            assetCount={assetCount}
            onChooseOrganization={chooseOrganization}
          />
        )}
        <OfflineBanner />
        {running && <OfflineAssets />}
        <div className="shell-body">
          {drawerShown && (
            <main
              id={DRAWER_ID}
              tabIndex={-1}
              className="drawer"
              style={mobile ? (drawingOnPhone ? { display: 'none' } : undefined) : { width: DRAWER_WIDTH }}
            >
              <ItemMemoryContext.Provider value={itemMemory}>
                <Outlet context={context} />
              </ItemMemoryContext.Provider>
            </main>
          )}
          {(!mobile || phoneShowsMap) && (
            <div className="map-area" role="region" aria-label="Map">
              {webgl ? <DashboardMap map={map} /> : <WebGLMissing />}
            </div>
          )}
        </div>
      </div>
      {mobile && mapOnMobile && <MobileViewSwitch view={mobileView} onChange={setMobileView} />}
      {mobile && <BottomNav profile={profile} mix={mix} shell={shell} />}
      <UpdateAlert api={api} />
      {running && <IncidentAnnouncer />}
      {/* Keyboard-first dispatch: Ctrl+K (⌘+K) opens the command palette (docs/accessibility.md "Keyboard"). */}
      <CommandPalette map={map} profile={profile} mix={mix} organizationId={orgId} shell={shell} />
    </div>
  );
}
