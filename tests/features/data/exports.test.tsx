// @vitest-environment jsdom
/**
 * part2 §2, §4, §6, §8 Data Exports: the tabs and their counts, creator-only delete with its
 * tooltip, the failed-exports text, the in-progress row's bar and estimate, the list following a
 * running export to Completed by itself, and a download through a fresh signed link.
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
const EXPORTER = ['export:read', 'export:create', 'export:delete'];

function wire(id: string, over: Record<string, unknown> = {}) {
  return {
    id,
    organization_id: 'org-1',
    requested_by: 'user-1',
    export_type: 'point',
    title: `Export ${id}`,
    export_start_time: '2026-11-20T00:00:00.000Z',
    export_end_time: '2026-11-21T00:00:00.000Z',
    requested_at: '2026-11-21T08:00:00.000Z',
    completed_at: '2026-11-21T08:01:00.000Z',
    file_id: `${id}.csv`,
    status: 'completed',
    use_utc: true,
    error: null,
    rows_written: 0,
    rows_total: null,
    started_at: null,
    ...over,
  };
}

const running = (id: string, over: Record<string, unknown> = {}) =>
  wire(id, { status: 'in_progress', completed_at: null, file_id: null, started_at: new Date(Date.now() - 10_000).toISOString(), ...over });

function openExports(list: () => unknown[], routes: Record<string, Handler> = {}, permissions = EXPORTER) {
  return renderApp(
    '/dashboard/data/exports',
    { ...signedInRoutes(permissions), 'GET /organization/export': () => json(200, list()), ...routes },
    { signedIn: true },
  );
}

const tab = (name: RegExp) => screen.getByRole('tab', { name });

describe('part2 §2 Data Exports tabs', () => {
  it('Completed, In-Progress and Error with their counts; requested and in_progress both count as In-Progress', async () => {
    const { calls } = openExports(() => [
      wire('a'),
      wire('b', { requested_by: 'user-2' }),
      running('c', { rows_written: 10, rows_total: 100 }),
      wire('d', { status: 'requested', completed_at: null, file_id: null }),
      wire('e', { status: 'errored', completed_at: null, file_id: null, error: 'The export request is incomplete' }),
    ]);
    await screen.findByRole('heading', { level: 1, name: 'Data Exports' }, LOAD);
    expect((await screen.findAllByRole('tab', {}, LOAD)).map((t) => t.textContent)).toEqual([
      'Completed (2)',
      'In-Progress (2)',
      'Error (1)',
    ]);
    expect(tab(/Completed/).getAttribute('aria-selected')).toBe('true');
    expect(
      within(screen.getByRole('main'))
        .getAllByRole('listitem')
        .map((li) => within(li).getByText(/^Export /).textContent),
    ).toEqual(['Export a', 'Export b']);
    expect(calls.find((c) => c.path === '/organization/export')!.headers.get('authorization')).toMatch(/^Bearer /);
    const asked = calls.find((c) => c.path === '/organization/export')!;
    expect(asked.method).toBe('GET');

    fireEvent.click(tab(/Error/));
    expect(screen.getByText('The requested exports have failed and are no longer In-Progress')).toBeTruthy();
    expect(screen.getByText(/send a support request to support@lightbar\.example/)).toBeTruthy();
    expect(screen.getByText('Reason: The export request is incomplete')).toBeTruthy();
  });

  it("the Create New link opens the wizard; without a create permission it is disabled with 'Not authorized' (part 2 §6)", async () => {
    const harness = openExports(() => []);
    fireEvent.click(await screen.findByRole('link', { name: 'Create New' }, LOAD));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/data/exports/new'));
    cleanup();
    openExports(() => [], {}, ['export:read']);
    await screen.findByRole('heading', { level: 1, name: 'Data Exports' }, LOAD);
    expect(screen.queryByRole('link', { name: 'Create New' })).toBeNull();
    const button = screen.getByRole('button', { name: 'Create New' }) as HTMLButtonElement;
    expect([button.disabled, button.title]).toEqual([true, 'Not authorized']);
    expect(await screen.findByText('No exports here.', {}, LOAD)).toBeTruthy();
  });

  it('the wizard opened by its address without a create permission says so and offers no form (the server would answer 403)', async () => {
    const { calls } = renderApp('/dashboard/data/exports/new', { ...signedInRoutes(['export:read']) }, { signedIn: true });
    expect(await screen.findByText('Sorry, you are not currently authorized to access this page.', {}, LOAD)).toBeTruthy();
    expect(screen.queryByRole('group', { name: /export/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Incident' })).toBeNull();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('Refresh asks the server again', async () => {
    let asked = 0;
    openExports(() => {
      asked += 1;
      return [wire(`n${asked}`)];
    });
    await screen.findByText('Export n1', {}, LOAD);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('Export n2', {}, LOAD);
  });
});

describe('part2 §4, §6 only the creator deletes', () => {
  it('another user’s export: Delete is disabled with the tooltip, and a click sends nothing', async () => {
    const { calls } = openExports(() => [wire('theirs', { requested_by: 'user-2' })]);
    const button = await screen.findByRole('button', { name: 'Delete Export theirs' }, LOAD);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    const tooltip = document.getElementById(button.getAttribute('aria-describedby')!)!;
    expect(tooltip.textContent).toBe('Only the export creator can delete.');
    expect(tooltip.getAttribute('role')).toBe('tooltip');
    expect(button.parentElement!.getAttribute('title')).toBe('Only the export creator can delete.');
    fireEvent.click(button);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it("a deleted user's export: the organization's administrator may delete it; a live user's stays the creator's", async () => {
    let list = [wire('orphan', { requested_by: 'user-9', requested_by_deleted: true }), wire('kept', { requested_by: 'user-2' })];
    const { calls } = openExports(
      () => list,
      {
        'DELETE /organization/export/orphan': () => {
          list = list.filter((e) => e.id !== 'orphan');
          return json(200, { id: 'orphan' });
        },
      },
      [...EXPORTER, 'user:admin:manage'],
    );
    const kept = await screen.findByRole('button', { name: 'Delete Export kept' }, LOAD);
    expect(kept.getAttribute('aria-disabled')).toBe('true');
    const orphan = screen.getByRole('button', { name: 'Delete Export orphan' });
    expect(orphan.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(orphan);
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Export orphan')).toBeNull(), LOAD);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/organization/export/orphan']);
  });

  it('the creator confirms and the export goes; a refusal shows the catalogue text in the dialog', async () => {
    let list = [wire('mine'), wire('other')];
    let refuse = true;
    const { calls } = openExports(() => list, {
      'DELETE /organization/export/mine': () => {
        if (refuse) return json(403, { error: 'not_creator', message: 'Only the export creator can delete' });
        list = list.filter((e) => e.id !== 'mine');
        return json(200, { id: 'mine' });
      },
    });
    const button = await screen.findByRole('button', { name: 'Delete Export mine' }, LOAD);
    expect(button.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(button);
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Only the export creator can delete');
    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Export mine')).toBeNull(), LOAD);
    expect(screen.getByText('Export other')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      '/organization/export/mine',
      '/organization/export/mine',
    ]);
  });
});

describe('part2 §4 progress of a running export', () => {
  it('a waiting export says so; a running one shows rows written of the total as a bar and an estimate', async () => {
    openExports(() => [
      wire('w', { status: 'requested', completed_at: null, file_id: null }),
      // 10 s for 3,000 rows of 6,000: about 10 s left.
      running('r', { rows_written: 3_000, rows_total: 6_000 }),
    ]);
    fireEvent.click(await screen.findByRole('tab', { name: /In-Progress/ }, LOAD));
    expect(screen.getByText('Waiting to start')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Progress Export r' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(bar.getAttribute('aria-valuetext')).toBe('3,000 of 6,000 rows');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('50%');
    expect(screen.getByText(/^3,000 of 6,000 rows · About (9|10|11) s left$/)).toBeTruthy();
  });

  it('while one runs the list asks again by itself: the bar moves and the export reaches Completed without a refresh', async () => {
    let asked = 0;
    const states = [
      running('p', { rows_written: 0, rows_total: 4_000 }),
      running('p', { rows_written: 2_000, rows_total: 4_000 }),
      wire('p', { rows_written: 4_000, rows_total: 4_000 }),
    ];
    openExports(() => [states[Math.min(asked++, states.length - 1)]]);
    fireEvent.click(await screen.findByRole('tab', { name: 'In-Progress (1)' }, LOAD));
    await waitFor(() => expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50'), { timeout: 8_000 });
    await waitFor(() => expect(tab(/Completed/).textContent).toBe('Completed (1)'), { timeout: 8_000 });
    expect(tab(/In-Progress/).textContent).toBe('In-Progress (0)');
    const settled = asked;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // Nothing runs any more: no more asking.
    expect(asked).toBe(settled);
  }, 30_000);
});

describe('part2 §7 download: a fresh signed link per click', () => {
  it('asks for the link, checks it, re-asks once for a refused (expired) one, then downloads; each click asks anew', async () => {
    let links = 0;
    openExports(() => [wire('dl')], {
      'GET /organization/export/dl': (_body, url) => {
        expect(url.searchParams.get('is_downloadable')).toBe('true');
        links += 1;
        return json(200, { file_url: `/files/dl.csv?expires=1&signature=s${links}` });
      },
    });
    const heads: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method === 'HEAD') heads.push(`${init.method} ${String(input)}`);
        return new Response(null, { status: String(input).endsWith('s1') ? 403 : 200 });
      }),
    );
    const opened: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      opened.push(this.getAttribute('href')!);
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Download Export dl' }, LOAD));
    await waitFor(() => expect(opened).toEqual(['/files/dl.csv?expires=1&signature=s2']));
    expect(heads).toEqual(['HEAD /files/dl.csv?expires=1&signature=s1', 'HEAD /files/dl.csv?expires=1&signature=s2']);
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Download Export dl' }));
    await waitFor(() => expect(opened).toEqual(['/files/dl.csv?expires=1&signature=s2', '/files/dl.csv?expires=1&signature=s3']));
  });

  it('a file that is gone: File not found next to the button', async () => {
    openExports(() => [wire('gone')], {
      'GET /organization/export/gone': () => json(404, { error: 'not_found', message: 'File not found' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Download Export gone' }, LOAD));
    expect((await screen.findByRole('alert')).textContent).toBe('File not found');
  });
});
