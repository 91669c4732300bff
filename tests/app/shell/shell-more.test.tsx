// @vitest-environment jsdom
/**
 * part 1 §2 Shell with the real live engine in-process: the events link reads Incidents or Events
 * by the fleet's responder mix, and the acs organization chooser switches the subscribed
 * organization (the worker's calls and its channel follow it; the named caches are dropped).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, runClockFromNow, thing } from '../../support/live-fixtures';
import { json, renderApp, signedInRoutes } from '../support/render-app';
import { queryKey } from '../../../src/app/query-cache';

// The fixtures' times sit around NOW: the date runs on from it (see runClockFromNow).
beforeEach(() => runClockFromNow());

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  localStorage.clear();
});

const PERMS = ['thing:read', 'incident:read', 'exclusion:read', 'closure:read'];

async function navLabels(): Promise<string[]> {
  const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
  return within(nav)
    .getAllByRole('listitem')
    .map((li) => li.textContent ?? '');
}

describe('part1 §2 the events link by responder mix', () => {
  it("every asset a responder: 'Incidents'; a tow truck that is no responder arrives: 'Events'; it leaves: 'Incidents'", async () => {
    const api = new FakeApi();
    api.setThings([thing(1), thing(2, { thing_type: 'fire' })]);
    const { services } = renderApp('/dashboard/things', signedInRoutes(PERMS), { signedIn: true, live: api });
    await waitFor(() => expect(services.live.bridge?.store.total).toBe(2), { timeout: 5_000 });
    expect(await navLabels()).toEqual(['Live', 'Incidents', 'Areas', 'Closures']);

    api.setThings([thing(3, { thing_type: 'tow', is_responder: false })]);
    await services.live.bridge!.refresh();
    await waitFor(async () => expect(await navLabels()).toEqual(['Live', 'Events', 'Areas', 'Closures']), { timeout: 5_000 });
    expect(services.live.bridge!.store.responderMix).toBe('some');

    api.deleteThing('thing-00003');
    await services.live.bridge!.refresh();
    await waitFor(async () => expect(await navLabels()).toEqual(['Live', 'Incidents', 'Areas', 'Closures']), { timeout: 5_000 });
  });
});

/**
 * The worker's calls: it addresses the page's origin (bridge.ts defaultAddresses), while the main
 * thread's API client calls relative paths that the harness resolves against http://lightbar.test.
 */
function workerCalls(api: FakeApi): URL[] {
  return api.calls.map((url) => new URL(url)).filter((url) => url.origin === window.location.origin);
}

const ACS_ORG = { id: 'org-acs', name: 'Lightbar Integrations' };
const OTHER = { id: '00000000-0000-4000-8000-0000000000aa', name: 'Travis County Regional' };
const THIRD = { id: '00000000-0000-4000-8000-0000000000bb', name: 'Texas DOT' };

describe('part1 §2 the organization chooser (acs)', () => {
  it('an acs user gets a labelled select of the organizations; choosing one resubscribes the worker to it', async () => {
    const api = new FakeApi();
    api.setThings([thing(1)]);
    const routes = {
      ...signedInRoutes(PERMS, { acs: true, organization_id: ACS_ORG.id, user_org: ACS_ORG }),
      'GET /organization/assignable': () => json(200, [THIRD, OTHER]),
    };
    const { services, live } = renderApp('/dashboard/things', routes, { signedIn: true, live: api });
    await waitFor(() => expect(services.live.bridge?.store.total).toBe(1), { timeout: 5_000 });
    await waitFor(() => expect(live!.cable.subscribed).toBe(true));

    const chooser = (await screen.findByRole('combobox', { name: 'Organization' })) as HTMLSelectElement;
    await waitFor(() =>
      expect(
        within(chooser)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([ACS_ORG.name, THIRD.name, OTHER.name]),
    );
    expect(chooser.value).toBe(ACS_ORG.id);
    // The caller's own scope at start: no org_ids[].
    expect(api.callsTo('/organization/things').every((url) => url.searchParams.getAll('org_ids[]').length === 0)).toBe(true);
    // A named cache (part 1 §7 'things') that the switch must drop, and one it keeps.
    let loads = 0;
    const load = () => Promise.resolve((loads += 1));
    await services.queries.fetchQuery({ queryKey: queryKey('things', ACS_ORG.id, 'types'), queryFn: load });
    await services.queries.fetchQuery({ queryKey: queryKey('profileExtras', ACS_ORG.id), queryFn: load });
    expect(loads).toBe(2);

    const before = workerCalls(api).length;
    fireEvent.change(chooser, { target: { value: OTHER.id } });
    expect(chooser.value).toBe(OTHER.id);
    await waitFor(() => expect(services.live.bridge!.store.organizationId).toBe(OTHER.id), { timeout: 5_000 });
    // The worker refetches for the chosen organization…
    await waitFor(
      () => {
        const after = workerCalls(api).slice(before);
        const things = after.filter((url) => url.pathname === '/organization/things');
        expect(things.length).toBeGreaterThan(0);
        for (const url of after) expect(url.searchParams.getAll('org_ids[]')).toEqual([OTHER.id]);
      },
      { timeout: 5_000 },
    );
    // …and subscribes to its channel.
    await waitFor(
      () => {
        const identifier = live!.cable.sockets.at(-1)?.identifier;
        expect(identifier ? JSON.parse(identifier) : null).toEqual({ channel: 'EventsChannel', organization: OTHER.id });
      },
      { timeout: 5_000 },
    );
    await services.queries.fetchQuery({ queryKey: queryKey('things', ACS_ORG.id, 'types'), queryFn: load });
    await services.queries.fetchQuery({ queryKey: queryKey('profileExtras', ACS_ORG.id), queryFn: load });
    expect(loads).toBe(3);

    // Back to the own organization: the caller's own scope again.
    const back = workerCalls(api).length;
    fireEvent.change(chooser, { target: { value: ACS_ORG.id } });
    await waitFor(() => expect(services.live.bridge!.store.organizationId).toBe(ACS_ORG.id), { timeout: 5_000 });
    await waitFor(
      () =>
        expect(
          workerCalls(api)
            .slice(back)
            .some((url) => url.pathname === '/organization/things'),
        ).toBe(true),
      { timeout: 5_000 },
    );
    for (const url of workerCalls(api).slice(back)) expect(url.searchParams.getAll('org_ids[]')).toEqual([]);
  });

  it("the top bar's asset count is asked again for the chosen organization (org_ids[]), and without it back home", async () => {
    const asked: string[][] = [];
    const COUNTS: Record<string, number> = { [OTHER.id]: 37, [THIRD.id]: 5 };
    const routes = {
      ...signedInRoutes(PERMS, { acs: true, organization_id: ACS_ORG.id, user_org: ACS_ORG }),
      'GET /organization/assignable': () => json(200, [THIRD, OTHER]),
      'GET /organization/things_count': (_body: unknown, url: URL) => {
        const orgIds = url.searchParams.getAll('org_ids[]');
        asked.push(orgIds);
        return json(200, { count: orgIds.length === 0 ? 1234 : COUNTS[orgIds[0]!] });
      },
    };
    renderApp('/dashboard/things', routes, { signedIn: true });
    const count = () => screen.getByTestId('asset-count').textContent;
    await waitFor(() => expect(count()).toBe('1,234 Assets'));
    expect(asked).toEqual([[]]);

    const chooser = (await screen.findByRole('combobox', { name: 'Organization' })) as HTMLSelectElement;
    await waitFor(() => expect(within(chooser).getAllByRole('option')).toHaveLength(3));
    fireEvent.change(chooser, { target: { value: OTHER.id } });
    await waitFor(() => expect(count()).toBe('37 Assets'));
    fireEvent.change(chooser, { target: { value: THIRD.id } });
    await waitFor(() => expect(count()).toBe('5 Assets'));
    fireEvent.change(chooser, { target: { value: ACS_ORG.id } });
    await waitFor(() => expect(count()).toBe('1,234 Assets'));
    expect(asked).toEqual([[], [OTHER.id], [THIRD.id], []]);
  });

  it('mobile: the dropdown holds the chooser; choosing closes it and the top bar shows the new name', async () => {
    const matchMedia = vi.fn((query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      const routes = {
        ...signedInRoutes(PERMS, { acs: true, organization_id: ACS_ORG.id, user_org: ACS_ORG }),
        'GET /organization/assignable': () => json(200, [OTHER]),
      };
      renderApp('/dashboard/things', routes, { signedIn: true });
      expect((await screen.findByTestId('organization-name')).textContent).toBe(ACS_ORG.name);
      fireEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
      const chooser = screen.getByRole('combobox', { name: 'Organization' }) as HTMLSelectElement;
      await waitFor(() => expect(within(chooser).getAllByRole('option')).toHaveLength(2));
      fireEvent.change(chooser, { target: { value: OTHER.id } });
      expect(screen.queryByRole('combobox', { name: 'Organization' })).toBeNull();
      expect(screen.getByTestId('organization-name').textContent).toBe(OTHER.name);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a user without the acs flag sees the organization name, no chooser', async () => {
    renderApp('/dashboard/things', signedInRoutes(PERMS, { managed_orgs: [THIRD] }), { signedIn: true });
    expect((await screen.findByTestId('organization-name')).textContent).toBe('Travis County Regional');
    expect(screen.queryByRole('combobox', { name: 'Organization' })).toBeNull();
  });
});
