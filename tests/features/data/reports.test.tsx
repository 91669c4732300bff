// @vitest-environment jsdom
/**
 * part2 §2, §3, §6 Monthly Reports and the Data navigation: the tree by year then month, newest
 * first, organization names A to Z within a month, a fresh link per download click; /dashboard/data
 * by permission (haas:manage alone reads the reports, docs/decisions/spec.md); the profile card's
 * and the phone menu's Data links.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const LOAD = { timeout: 20_000 };

const report = (year: number, month: number, org: string) => ({
  year,
  month,
  file_id: `${year}-${month}-${org}.pdf`,
  organization_id: `id-${org}`,
  organization_name: org,
});

function openReports(list: unknown[], routes: Record<string, Handler> = {}, permissions = ['report:read']) {
  return renderApp(
    '/dashboard/data/reports',
    { ...signedInRoutes(permissions), 'GET /reports/org-1/organization_monthly_report_list': () => json(200, list), ...routes },
    { signedIn: true },
  );
}

describe('part2 §2 Monthly Reports tree', () => {
  it('years newest first, then months newest first, organizations A to Z within a month (whatever order the server sends)', async () => {
    openReports([
      report(2025, 12, 'Bravo'),
      report(2026, 1, 'bravo city'),
      report(2026, 1, 'Alpha County'),
      report(2026, 10, 'Alpha County'),
      report(2024, 3, 'Alpha County'),
    ]);
    await screen.findByRole('heading', { level: 1, name: 'Monthly Reports' }, LOAD);
    const tree = await screen.findByRole('list', { name: 'Monthly Reports' }, LOAD);
    const years = [...tree.querySelectorAll('details > summary')].map((s) => s.textContent);
    expect(years).toEqual(['2026', '2025', '2024']);
    expect((tree.querySelector('details') as HTMLDetailsElement).open).toBe(true);
    expect([...tree.querySelectorAll('details')].slice(1).every((d) => !d.open)).toBe(true);
    const months = within(tree)
      .getAllByRole('heading', { level: 2, hidden: true })
      .map((h) => h.textContent);
    expect(months).toEqual(['October 2026', 'January 2026', 'December 2025', 'March 2024']);
    const january = within(tree).getByRole('heading', { level: 2, name: 'January 2026' }).parentElement!;
    expect([...january.querySelectorAll('.report-org')].map((s) => s.textContent)).toEqual(['Alpha County', 'bravo city']);
  });

  it('an empty list says so; a failed list shows the server’s words (part 2 §8 Reports)', async () => {
    openReports([]);
    expect(await screen.findByText(/^No monthly reports yet\./, {}, LOAD)).toBeTruthy();
    cleanup();
    renderApp(
      '/dashboard/data/reports',
      {
        ...signedInRoutes(['report:read']),
        'GET /reports/org-1/organization_monthly_report_list': () => json(404, { error: 'not_found', message: 'Organization not found' }),
      },
      { signedIn: true },
    );
    expect((await screen.findByRole('alert', {}, LOAD)).textContent).toBe('Organization not found');
  });

  it('Download asks for a fresh link each click and re-asks once for an expired one, never showing an error', async () => {
    let links = 0;
    openReports([report(2026, 10, 'Alpha County')], {
      'GET /reports/organization_monthly_report_pdf_link': (_body, url) => {
        expect(url.searchParams.get('filename')).toBe('2026-10-Alpha County.pdf');
        links += 1;
        return json(200, { file_url: `/files/r.pdf?expires=1&signature=s${links}` });
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => new Response(null, { status: String(input).endsWith('s1') ? 403 : 200 })),
    );
    const opened: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      opened.push(this.getAttribute('href')!);
    });
    const button = await screen.findByRole('button', { name: 'Download Alpha County October 2026' }, LOAD);
    fireEvent.click(button);
    await waitFor(() => expect(opened).toEqual(['/files/r.pdf?expires=1&signature=s2']));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(button);
    await waitFor(() => expect(opened).toHaveLength(2));
    expect(links).toBe(3);
  });
});

describe('part2 §2 Data navigation by permission', () => {
  it.each([
    [['report:read', 'export:read'], '/dashboard/data/reports', 'Monthly Reports'],
    [['export:read'], '/dashboard/data/exports', 'Data Exports'],
    // docs/decisions/spec.md: haas:manage alone reads the monthly reports (not the unauthorized page).
    [['haas:manage'], '/dashboard/data/reports', 'Monthly Reports'],
  ])('/dashboard/data with %j goes to %s', async (permissions, path, heading) => {
    const harness = renderApp(
      '/dashboard/data',
      {
        ...signedInRoutes(permissions),
        'GET /reports/org-1/organization_monthly_report_list': () => json(200, []),
        'GET /organization/export': () => json(200, []),
      },
      { signedIn: true },
    );
    await waitFor(() => expect(harness.router.state.location.pathname).toBe(path), LOAD);
    expect(await screen.findByRole('heading', { level: 1, name: heading }, LOAD)).toBeTruthy();
  });

  it('a user without an export permission opening exports: the unauthorized page', async () => {
    renderApp('/dashboard/data/exports', { ...signedInRoutes(['haas:manage']) }, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Sorry, you are not currently authorized to access this page.' }, LOAD)).toBeTruthy();
  });

  it.each([
    [
      ['report:read', 'export:read'],
      ['Monthly Reports', 'Data Exports'],
    ],
    [['export:read'], ['Data Exports']],
    [['report:read'], ['Monthly Reports']],
    [['thing:read'], []],
  ])('the profile card with %j links %j', async (permissions, links) => {
    renderApp(
      '/dashboard/data/reports',
      { ...signedInRoutes([...permissions, 'thing:read']), 'GET /reports/org-1/organization_monthly_report_list': () => json(200, []) },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: /^Profile menu/ }, LOAD));
    const card = screen.getByRole('group', { name: 'Profile menu' });
    const shown = within(card)
      .queryAllByRole('link')
      .map((a) => a.textContent)
      .filter((text) => text === 'Monthly Reports' || text === 'Data Exports');
    expect(shown).toEqual(links);
  });
});
