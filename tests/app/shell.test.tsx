// @vitest-environment jsdom
/**
 * part 1 §2 Shell and part 1 §4 session dialogs in jsdom: nav links by permission with their
 * labels, the drawer toggle, the last selected id, Support, the profile card, the settings
 * dropdown, the offline banner, the version alert, and the inactivity warning.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WEBGL_STEPS } from '../../src/domain/labels';
import { INACTIVITY_TIMEOUT_MS, SECOND_MS, VERSION_FIRST_CHECK_MS, VERSION_POLL_MS } from '../../src/domain/constants';
import { ErrorAlert } from '../../src/app/ui/error-alert';
import { json, renderApp, signedInRoutes } from './support/render-app';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  localStorage.clear();
});

const ADMIN = [
  'thing:read',
  'thing:update',
  'incident:read',
  'exclusion:read',
  'closure:read',
  'zone:read',
  'trip:read',
  'hazard:read',
  'report:read',
  'user:admin:manage',
];

const shellRoutes = signedInRoutes;

async function nav() {
  return screen.findByRole('navigation', { name: 'Main navigation' });
}

describe('part1 §2 desktop shell', () => {
  it('shows the allowed sections labelled Live, Incidents, ...; the top bar with organization and asset count', async () => {
    renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
    const links = within(await nav())
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(links).toEqual(['Live', 'Incidents', 'Areas', 'Closures', 'Zones', 'Trips', 'Hazards']);
    expect(screen.getByTestId('organization-name').textContent).toBe('Travis County Regional');
    expect((await screen.findByTestId('asset-count')).textContent).toMatch(/^1,?234 Assets$/);
    expect(screen.getByRole('link', { name: 'Data' }).getAttribute('href')).toBe('/dashboard/data');
    expect(screen.getByRole('link', { name: 'Refer a Fleet' })).toBeTruthy();
    expect(screen.getByText(/© \d{4} Lightbar/)).toBeTruthy();
  });

  it("the top bar's date and time are in the user's time zone, as the times of the Live and Events sections", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 22, 13, 31));
    renderApp('/dashboard/things', shellRoutes(ADMIN, { timezone: 'America/Chicago' }), { signedIn: true });
    await nav();
    expect(document.querySelector('.top-bar-clock')?.textContent).toBe('Sun, Nov 22, 2026 07:31 AM');
  });

  it("the page's first link skips to the drawer, the list of what the map shows", async () => {
    renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
    await nav();
    const skip = screen.getByRole('link', { name: 'Go to the list of what the map shows' });
    // First in the page's order: the first Tab reaches it.
    const focusable = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea')];
    expect(focusable[0]).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('a Media user (incident read only) sees Incidents alone and no asset count', async () => {
    renderApp('/dashboard', shellRoutes(['incident:read']), { signedIn: true });
    const links = within(await nav())
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(links).toEqual(['Incidents']);
    expect(screen.queryByTestId('asset-count')).toBeNull();
  });

  it('a second click on the current section toggles the drawer; links append the last selected id', async () => {
    renderApp('/dashboard/things/asset-9', shellRoutes(ADMIN), { signedIn: true });
    const live = within(await nav()).getByRole('link', { name: 'Live' });
    await waitFor(() => expect(live.getAttribute('href')).toBe('/dashboard/things/asset-9'));
    // The drawer beside the map holds the section's page.
    expect(screen.getByRole('main')).toBeTruthy();
    fireEvent.click(live);
    await waitFor(() => expect(screen.queryByRole('main')).toBeNull());
    fireEvent.click(live);
    expect(await screen.findByRole('main')).toBeTruthy();
  });

  it("links remember items only: not a section's own page ('new'), nor an item found gone", async () => {
    const permissions = [...ADMIN, 'exclusion:manage'];
    const routes = {
      ...shellRoutes(permissions),
      'GET /organization/exclusion_zone': () => json(200, []),
      'GET /ez_types': () => json(200, []),
    };
    const { router } = renderApp('/dashboard/areas/new', routes, { signedIn: true });
    const areas = within(await nav()).getByRole('link', { name: 'Areas' });
    expect(await screen.findByRole('heading', { name: 'New Area' }, { timeout: 10_000 })).toBeTruthy();
    expect(areas.getAttribute('href')).toBe('/dashboard/areas');
    // An area that is not there (deleted meanwhile, or a stale link): its page says so, the link forgets it.
    await act(() => router.navigate('/dashboard/areas/area-gone'));
    expect(await screen.findByText('This area was not found.', {}, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(areas.getAttribute('href')).toBe('/dashboard/areas'));
  });

  it("the data pages by their own names go to them; an unknown data page is the 'not found' page", async () => {
    const { router } = renderApp(
      '/dashboard/reports',
      { ...shellRoutes(ADMIN), 'GET /reports/org-1/organization_monthly_report_list': () => json(200, []) },
      { signedIn: true },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/data/reports'));
    await act(() => router.navigate('/dashboard/data/nothing-here'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sorry, the requested URL was not found here.' }, { timeout: 10_000 }),
    ).toBeTruthy();
  });

  it('Support opens a dialog with the support phone and e-mail', async () => {
    renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
    fireEvent.click(within(await nav()).getByRole('button', { name: 'Support' }));
    const dialog = screen.getByRole('dialog', { name: 'Support' });
    expect(within(dialog).getByRole('link', { name: '+1 (555) 010-0199' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'support@lightbar.example' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the profile circle shows initials; its card shows name, e-mail, links by permission and Sign Out', async () => {
    const { router, calls } = renderApp('/dashboard/things', shellRoutes([...ADMIN, 'engineer:test']), { signedIn: true });
    const circle = await screen.findByRole('button', { name: /Profile menu/ });
    expect(circle.textContent).toBe('AL');
    fireEvent.mouseEnter(circle.parentElement!);
    const card = screen.getByRole('group', { name: 'Profile menu' });
    expect(within(card).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(card).getByText('ada@example.com')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Profile & Preferences' }).getAttribute('href')).toBe('/dashboard/accounts');
    expect(within(card).getByRole('link', { name: 'New Accounts (test)' }).getAttribute('href')).toBe('/dashboard/accounts-new');
    fireEvent.click(within(card).getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/signin'));
    expect(calls.find((c) => c.path === '/revoke_token')?.body).toEqual({ token: 'access-1' });
  });

  it("settings: 'Manage Accounts & Users' by permission; the organization list with search over 5", async () => {
    const orgs = Array.from({ length: 6 }, (_, i) => ({ id: `m${i}`, name: `Managed ${i}` }));
    renderApp('/dashboard/things', shellRoutes(ADMIN, { acs: true, managed_orgs: orgs }), { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('link', { name: 'Manage Accounts & Users' })).toBeTruthy();
    const search = screen.getByPlaceholderText('Search for an organization...');
    expect(within(screen.getByRole('list', { name: 'Organizations' })).getAllByRole('button')).toHaveLength(7);
    fireEvent.change(search, { target: { value: 'managed 3' } });
    expect(
      within(screen.getByRole('list', { name: 'Organizations' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Managed 3']);
  });

  it('no Manage Accounts without admin permissions; no search at 5 organizations or fewer', async () => {
    const orgs = Array.from({ length: 4 }, (_, i) => ({ id: `m${i}`, name: `Managed ${i}` }));
    renderApp('/dashboard/things', shellRoutes(['thing:read'], { acs: true, managed_orgs: orgs }), { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(screen.queryByRole('link', { name: 'Manage Accounts & Users' })).toBeNull();
    expect(screen.queryByPlaceholderText('Search for an organization...')).toBeNull();
  });

  it('a user who is neither acs nor an administrator still finds the organization list in Settings, never an empty box (part 1 §2)', async () => {
    renderApp('/dashboard/things', shellRoutes(['thing:read'], { managed_orgs: [{ id: 'm1', name: 'Travis County Regional' }] }), {
      signedIn: true,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const list = screen.getByRole('list', { name: 'Organizations' });
    expect(within(list).getAllByRole('button').length).toBeGreaterThan(0);
  });

  it('the offline banner follows the connection', async () => {
    renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
    await nav();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(screen.getByRole('alert').textContent).toBe(
      "Looks like your connection is having trouble - we'll keep trying to get you back online or you can try to restart your browser.",
    );
    online.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByRole('alert')).toBeNull();
    online.mockRestore();
  });

  it("the version poll: first after 10 s, then every 10 minutes; a new version opens 'Update Notification'", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let version = '1.0.0';
    const { calls } = renderApp(
      '/dashboard/things',
      shellRoutes(ADMIN, {}, () => version),
      { signedIn: true },
    );
    await nav();
    const versionCalls = () => calls.filter((c) => c.path === '/version').length;
    await act(async () => void (await vi.advanceTimersByTimeAsync(VERSION_FIRST_CHECK_MS - 500)));
    expect(versionCalls()).toBe(0);
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_000)));
    expect(versionCalls()).toBe(1);
    version = '1.1.0';
    await act(async () => void (await vi.advanceTimersByTimeAsync(VERSION_POLL_MS)));
    expect(versionCalls()).toBe(2);
    const dialog = await screen.findByRole('alertdialog', { name: 'Update Notification' });
    expect(within(dialog).getByText('A new version is available. Click OK to continue.')).toBeTruthy();
  });
});

describe('part1 §2 mobile shell', () => {
  it('below the breakpoint: the bottom nav with four items and the desktop-only page text', async () => {
    const matchMedia = vi.fn((query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    vi.stubGlobal('matchMedia', matchMedia);
    renderApp('/dashboard/zones', shellRoutes(ADMIN), { signedIn: true });
    const bottom = await screen.findByRole('navigation', { name: 'Sections' });
    expect(
      within(bottom)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Live', 'Incidents', 'Areas', 'Closures']);
    expect(screen.getByRole('heading', { name: "This page isn't available on mobile devices." })).toBeTruthy();
    expect(matchMedia).toHaveBeenCalledWith('(max-width: 768px)');
    vi.unstubAllGlobals();
  });

  it('the section and the map take the screen in turn (List / Map); a page opened meanwhile shows; desktop-only pages have no switch', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    try {
      const { router } = renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
      const show = await screen.findByRole('group', { name: 'Show' });
      const [list, map] = [within(show).getByRole('button', { name: 'List' }), within(show).getByRole('button', { name: 'Map' })];
      expect(list.getAttribute('aria-pressed')).toBe('true');
      expect(await screen.findByRole('heading', { level: 1, name: 'Live' })).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'Map' })).toBeNull();
      fireEvent.click(map);
      expect(map.getAttribute('aria-pressed')).toBe('true');
      expect(screen.getByRole('region', { name: 'Map' })).toBeTruthy();
      expect(screen.queryByRole('heading', { level: 1, name: 'Live' })).toBeNull();
      await act(() => router.navigate('/dashboard/events'));
      expect(await screen.findByRole('heading', { level: 1, name: 'Incidents' })).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'Map' })).toBeNull();
      expect(
        within(screen.getByRole('group', { name: 'Show' }))
          .getByRole('button', { name: 'List' })
          .getAttribute('aria-pressed'),
      ).toBe('true');
      await act(() => router.navigate('/dashboard/zones'));
      expect(await screen.findByRole('heading', { name: "This page isn't available on mobile devices." })).toBeTruthy();
      expect(screen.queryByRole('group', { name: 'Show' })).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('the dropdown of the profile circle holds Sign Out, as the desktop card: it revokes the token and goes to sign-in', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    try {
      const { router, calls } = renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
      fireEvent.click(await screen.findByRole('button', { name: 'Profile menu' }));
      fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/signin'));
      expect(calls.find((c) => c.path === '/revoke_token')?.body).toEqual({ token: 'access-1' });
    } finally {
      vi.unstubAllGlobals();
    }
  });
  it('the phone menu offers Night (no accounts page there, so no Profile & Preferences link) and closes when the bottom nav moves on', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    try {
      const { router } = renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
      fireEvent.click(await screen.findByRole('button', { name: 'Profile menu' }));
      const appearance = screen.getByRole('group', { name: 'Appearance' });
      expect(within(appearance).getByRole('radio', { name: 'Night' })).toBeTruthy();
      expect(screen.queryByRole('link', { name: 'Profile & Preferences' })).toBeNull();
      fireEvent.click(within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('link', { name: 'Closures' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/closures'));
      await waitFor(() => expect(screen.queryByRole('group', { name: 'Appearance' })).toBeNull());
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('part1 §4 session dialogs', () => {
  it("'Inactivity Warning' with 'Stay Signed In' and the countdown; then 'Session Expired - Activity' on sign-in", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
    await nav();
    // The section's chunk in first (its load gives up after 120 s of the clock the test moves on).
    await screen.findByRole('heading', { level: 1, name: 'Live' }, { timeout: 20_000 });
    await act(async () => void (await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS)));
    const warning = await screen.findByRole('alertdialog', { name: 'Inactivity Warning' });
    expect(within(warning).getByRole('button', { name: 'Stay Signed In' })).toBeTruthy();
    // The countdown from 10: the fake clock also follows real time here (shouldAdvanceTime), so a
    // loaded machine may have ticked it already, and may add a fraction of a second to the 3 s the
    // test moves it on: the count drops by the whole seconds the clock passed (3, or 4 when the
    // extra fraction crossed a second), read from the same clock.
    const seconds = () => Number(screen.getByTestId('inactivity-seconds').textContent);
    // A tick may have counted down without being drawn yet (the store notifies React a microtask
    // later): let it draw, then read the count and the clock together.
    await act(async () => undefined);
    const before = Date.now();
    const shown = seconds();
    expect(shown).toBeLessThanOrEqual(10);
    await act(async () => void (await vi.advanceTimersByTimeAsync(3 * SECOND_MS)));
    const passed = (Date.now() - before) / SECOND_MS;
    expect(shown - seconds()).toBeGreaterThanOrEqual(Math.floor(passed));
    expect(shown - seconds()).toBeLessThanOrEqual(Math.ceil(passed));
    fireEvent.click(within(warning).getByRole('button', { name: 'Stay Signed In' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await act(async () => void (await vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS + 10 * SECOND_MS)));
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/signin'));
    const notice = await screen.findByRole('alertdialog', { name: 'Session Expired - Activity' });
    fireEvent.click(within(notice).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it("a 401 on an authenticated call signs out; a profile failure shows 'Error' / 'Please log back in.'", async () => {
    const { router } = renderApp('/dashboard/things', { 'GET /profile': () => json(500, {}) }, { signedIn: true });
    const notice = await screen.findByRole('alertdialog', { name: 'Error' });
    expect(within(notice).getByText('Please log back in.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/signin'));
    cleanup();
    const second = renderApp('/dashboard/things', { 'GET /profile': () => json(401, { error: 'unauthorized' }) }, { signedIn: true });
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/welcome/signin'));
    expect(second.services.session.state.status).toBe('signedOut');
  });
});

describe('part1 §4 situational-awareness mode and §8 generic alert', () => {
  it('users with hasAwarenessModeAccess switch it on in the profile card; others have no switch', async () => {
    const first = renderApp('/dashboard/things', shellRoutes(ADMIN, { show_infinite_timeout_option: true }), { signedIn: true });
    const circle = await screen.findByRole('button', { name: /Profile menu/ });
    fireEvent.click(circle);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Situational awareness mode' }));
    await waitFor(() => expect(first.services.session.state.awarenessMode).toBe(true));
    cleanup();
    renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: /Profile menu/ }));
    expect(screen.queryByRole('checkbox', { name: 'Situational awareness mode' })).toBeNull();
  });

  it('Appearance in the profile card: Night darkens the page and is remembered for this user', async () => {
    const first = renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: /Profile menu/ }));
    const appearance = screen.getByRole('group', { name: 'Appearance' });
    expect((within(appearance).getByRole('radio', { name: 'Match system' }) as HTMLInputElement).checked).toBe(true);
    expect(document.documentElement.dataset.theme).toBe('day');
    fireEvent.click(within(appearance).getByRole('radio', { name: 'Night' }));
    expect(document.documentElement.dataset.theme).toBe('night');
    await waitFor(() => expect((within(appearance).getByRole('radio', { name: 'Night' }) as HTMLInputElement).checked).toBe(true));
    cleanup();
    // The next page in this browser, for the same user: night again, before anything is clicked.
    renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true, storage: first.storage });
    await screen.findByRole('button', { name: /Profile menu/ });
    expect(document.documentElement.dataset.theme).toBe('night');
    // Signed out, the system's preference (none here: day) shows.
    cleanup();
    renderApp('/welcome/signin', {}, { storage: first.storage });
    expect(document.documentElement.dataset.theme).toBe('day');
  });

  it("the generic alert says 'Error' / 'Click OK to try again' and OK retries", async () => {
    const retry = vi.fn();
    render(<ErrorAlert onOk={retry} />);
    const alert = screen.getByRole('alertdialog', { name: 'Error' });
    expect(within(alert).getByText('Click OK to try again')).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'OK' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});

describe('part1 §2 WebGL check', () => {
  it('without WebGL the map area shows the dialog with browser-specific steps', async () => {
    renderApp('/dashboard/things', shellRoutes(ADMIN), { signedIn: true, hasWebGL: false });
    const dialog = await screen.findByRole('dialog', { name: 'Your browser cannot show the map' });
    expect(within(dialog).getByText(WEBGL_STEPS.other)).toBeTruthy();
  });
});
