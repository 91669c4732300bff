// @vitest-environment jsdom
/** part 2 §2 Closures list, §4 closure status, quick toggle, lists and permissions; the detail view. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { addCalendarMonths } from '../../../src/domain/closure';
import { json, profileWire } from '../../app/support/render-app';
import {
  BRIDGE,
  CREW,
  DAY,
  FEED,
  MANAGE,
  NOW,
  OLD,
  OOS,
  ORG,
  PARADE,
  cleanupClosures,
  closureWire,
  renderClosures,
} from './closure-fixtures';

afterEach(cleanupClosures);

const LOAD = { timeout: 20_000 };

function rowOf(id: string): HTMLElement {
  const row = document.querySelector<HTMLElement>(`[data-closure-id="${id}"]`);
  expect(row, id).not.toBeNull();
  return row!;
}
/** part 2 §6: a control the user may not use shows disabled with the tooltip 'Not authorized'. */
function expectRefused(...names: string[]) {
  for (const name of names) {
    const button = screen.getByRole('button', { name }) as HTMLButtonElement;
    expect([name, button.disabled, button.title]).toEqual([name, true, 'Not authorized']);
  }
}
const box = (group: string, name: string) => within(screen.getByRole('group', { name: group })).getByRole('checkbox', { name });
const shownIds = () => [...document.querySelectorAll('[data-closure-id]')].map((el) => el.getAttribute('data-closure-id'));

async function openList(options: Parameters<typeof renderClosures>[1] = {}) {
  const harness = renderClosures('/dashboard/closures', options);
  await waitFor(() => expect(document.querySelector('[data-closure-id]')).not.toBeNull(), LOAD);
  return harness;
}

describe('part 2 §2 closures list', () => {
  it('shows the default filter: types automated, feed, manual; statuses active, standby, pending (the offline one hidden)', async () => {
    await openList();
    expect(screen.getByText('Showing (5/6)')).toBeTruthy();
    // Active first, then standby; by description.
    expect(shownIds()).toEqual(['c-bridge', 'c-feed', 'c-crew', 'c-oos', 'c-parade']);
    expect(shownIds()).not.toContain(OLD.id);
    const checked = (group: string) => (name: string) => (box(group, name) as HTMLInputElement).checked;
    expect(['Automated', 'Feed', 'Manual'].map(checked('Type'))).toEqual([true, true, true]);
    expect(['Active', 'Standby', 'Pending', 'Offline'].map(checked('Status'))).toEqual([true, true, true, false]);
    expect(['Online', 'Offline', 'Out of service'].map(checked('Online / Offline'))).toEqual([true, true, true]);
  });

  it.each([
    ['c-bridge', 'Bridge deck repair', 'Manual Closure', true, false, 'Active', 90],
    ['c-crew', 'Crew work zone', 'by Arrow 7', false, false, 'Standby', 70],
    ['c-feed', 'State DOT lane closure', 'txdot-77', true, false, 'Active', 90],
    ['c-oos', 'Culvert works', 'Manual Closure', false, true, 'Standby', 90],
  ])(
    'row %s: description, secondary label, WZDx badge, out-of-service tag, status icon, height',
    async (id, description, secondary, wzdx, oos, status, height) => {
      await openList();
      const row = rowOf(id);
      expect(row.querySelector('.closure-row-description')!.textContent).toBe(description);
      expect(row.querySelector('.closure-row-secondary')!.textContent).toBe(secondary);
      expect(row.querySelector('.closure-badge')?.textContent ?? null).toBe(wzdx ? 'WZDx' : null);
      expect(row.querySelector('.closure-tag-oos')?.textContent ?? null).toBe(oos ? 'Out of service' : null);
      expect(within(row).getByRole('img').getAttribute('aria-label')).toBe(status);
      expect((row.parentElement as HTMLElement).style.height).toBe(`${height}px`);
    },
  );

  it('only manual closures have the quick toggle', async () => {
    await openList();
    expect(within(rowOf(BRIDGE.id)).getByRole('switch').getAttribute('aria-checked')).toBe('true');
    expect(within(rowOf(PARADE.id)).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    expect(within(rowOf(CREW.id)).queryByRole('switch')).toBeNull();
    expect(within(rowOf(FEED.id)).queryByRole('switch')).toBeNull();
  });

  it('filters by type, status, online/offline/out-of-service and search', async () => {
    await openList();
    fireEvent.click(box('Status', 'Offline'));
    await waitFor(() => expect(shownIds()).toContain(OLD.id));
    fireEvent.click(box('Type', 'Manual'));
    await waitFor(() => expect(shownIds()).toEqual(['c-feed', 'c-crew', 'c-old']));
    fireEvent.click(box('Type', 'Manual'));
    fireEvent.click(box('Online / Offline', 'Out of service'));
    await waitFor(() => expect(shownIds()).not.toContain(OOS.id));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search closures' }), { target: { value: 'ARROW' } });
    await waitFor(() => expect(shownIds()).toEqual(['c-crew']));
    expect(screen.getByText('Showing (1/6)')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search closures' }), { target: { value: 'nothing like it' } });
    await waitFor(() => expect(screen.getByText('No closures match the filters')).toBeTruthy());
  });

  it('part 2 §4 quick toggle: activating sends is_active true, end one month ahead, isQuickUpdate; the row follows the server', async () => {
    const { api, calls } = await openList({
      routes: {
        [`PUT /organization/closure/${PARADE.id}`]: (body) => {
          const b = body as { is_active: boolean; end_time: string };
          api.setClosure({ ...PARADE, is_active: b.is_active, end_time: b.end_time, start_time: new Date(NOW).toISOString() });
          return json(200, {});
        },
      },
    });
    fireEvent.click(within(rowOf(PARADE.id)).getByRole('switch'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    const body = put.body as Record<string, unknown>;
    expect(body).toMatchObject({ uuid: PARADE.id, is_active: true, isQuickUpdate: true });
    expect(Math.abs(Date.parse(body.end_time as string) - addCalendarMonths(NOW, 1))).toBeLessThan(60_000);
    await waitFor(() => expect(rowOf(PARADE.id).getAttribute('data-status')).toBe('active'), LOAD);
    expect(within(rowOf(PARADE.id)).getByRole('switch').getAttribute('aria-checked')).toBe('true');
  });

  it('part 2 §4 quick toggle: deactivating sends end null; a failure reverts the toggle with "Unable to Activate/Deactivate"', async () => {
    const { calls } = await openList({
      routes: { [`PUT /organization/closure/${BRIDGE.id}`]: () => json(422, { error: 'unprocessable', message: 'end_time: nope' }) },
    });
    const toggle = within(rowOf(BRIDGE.id)).getByRole('switch');
    fireEvent.click(toggle);
    // BRIDGE is published in the WZDx feed: the toggle asks first; Cancel sends nothing.
    const ask = screen.getByRole('alertdialog', { name: 'Deactivate Bridge deck repair?' });
    expect(ask.textContent).toContain('This closure is published in your WZDx feed.');
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(within(rowOf(BRIDGE.id)).getByRole('switch').getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    // Shows the new state while the call is on its way …
    expect(within(rowOf(BRIDGE.id)).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Unable to Activate/Deactivate');
    // … and reverts when it failed.
    expect(within(rowOf(BRIDGE.id)).getByRole('switch').getAttribute('aria-checked')).toBe('true');
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ uuid: BRIDGE.id, is_active: false, end_time: null, isQuickUpdate: true });
  });

  it("an organization that only names ours accessor is read-only: its closures get no toggle, and Edit and Delete say 'Not authorized' (the server refuses them)", async () => {
    const ACCESSED = { id: 'org-accessed', name: 'City of Pflugerville' };
    const theirs = closureWire('c-theirs', { description: 'Their parade', organization: ACCESSED });
    const profile = {
      'GET /profile': () =>
        json(
          200,
          profileWire(MANAGE, { organization_id: ORG, user_org: { id: ORG, name: 'Travis County Regional' }, accessed_orgs: [ACCESSED] }),
        ),
    };
    renderClosures('/dashboard/closures', { closures: [PARADE, theirs], routes: profile });
    await waitFor(() => expect(rowOf(theirs.id)).toBeTruthy(), { timeout: 20_000 });
    expect(within(rowOf(theirs.id)).queryByRole('switch')).toBeNull();
    expect(within(rowOf(PARADE.id)).getByRole('switch')).toBeTruthy();
    cleanupClosures();
    renderClosures(`/dashboard/closures/${theirs.id}`, { closures: [PARADE, theirs], routes: profile });
    expect(await screen.findByRole('heading', { level: 1, name: 'Their parade' }, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expectRefused('Edit', 'Delete');
  });

  it('the add-new button and the toggle need the permissions (part 2 §6)', async () => {
    await openList({ permissions: ['closure:read'] });
    expect(screen.queryByRole('link', { name: 'Add Closure' })).toBeNull();
    expect(within(rowOf(BRIDGE.id)).queryByRole('switch')).toBeNull();
    cleanupClosures();
    await openList({ permissions: ['closure:read', 'closure:create'] });
    expect(screen.getByRole('link', { name: 'Add Closure' }).getAttribute('href')).toBe('/dashboard/closures/new');
  });

  it('a closure changed on the server (another user, the simulator) updates in place after the incremental load', async () => {
    const { api, services } = await openList();
    const asked = api.callsTo('/organization/closure').length;
    api.setClosure({ ...PARADE, description: 'Parade route (moved)', is_active: true, end_time: new Date(NOW + DAY).toISOString() });
    await services.live.bridge!.refresh();
    await waitFor(() => expect(rowOf(PARADE.id).querySelector('.closure-row-description')!.textContent).toBe('Parade route (moved)'), LOAD);
    expect(rowOf(PARADE.id).getAttribute('data-status')).toBe('active');
    // Incremental: the later call carries the server's timestamp.
    const later = api.callsTo('/organization/closure').slice(asked);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((url) => url.searchParams.get('last_updated_timestamp'))).toBe(true);
    fireEvent.click(within(rowOf(CREW.id)).getByRole('button', { name: /Crew work zone/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Crew work zone' }, LOAD)).toBeTruthy();
  });
});

function facts(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dl of document.querySelectorAll('.closure-detail .closure-fields')) {
    const terms = dl.querySelectorAll('dt');
    for (const dt of terms) out[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? '';
  }
  return out;
}

describe('part 2 §2 closure detail', () => {
  it('shows every field, the WZDx block and the owner, with Edit and Delete', async () => {
    renderClosures(`/dashboard/closures/${BRIDGE.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Bridge deck repair' }, LOAD)).toBeTruthy();
    const shown = facts();
    expect(shown).toMatchObject({
      Status: 'Active',
      Association: 'None',
      Type: 'Manual',
      'Start street': 'Lamar Blvd',
      'Start position': '30.260000, -97.750000',
      'End street': '5th St',
      'End position': '30.262000, -97.745000',
      'Alert message': 'Right lane closed',
      'Direction of travel': 'South',
      'Impacted lanes': '1, 2',
      Owner: 'Travis County Regional',
      'Publish to WZDx feed': 'Yes',
      'WZDx ID': 'wz-bridge',
      // WZDx values as words (the feed keeps the codes).
      'Location method': 'Channel device method',
      'Vehicle impact': 'Some lanes closed',
      'Group ID': 'bridges',
      'WZDx compliant': 'Yes',
    });
    expect(shown['Start time']).not.toBe('None');
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(`/dashboard/closures/${BRIDGE.id}/edit`);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('a feed closure is read-only: managed by the WZDx feed, no Edit or Delete; its edit page refuses', async () => {
    renderClosures(`/dashboard/closures/${FEED.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'State DOT lane closure' }, LOAD)).toBeTruthy();
    expect(screen.getByRole('note').textContent).toBe('This closure is managed by the WZDx feed and cannot be edited or deleted.');
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    cleanupClosures();
    renderClosures(`/dashboard/closures/${FEED.id}/edit`);
    expect(await screen.findByText('This closure is managed by the WZDx feed and cannot be edited or deleted.', {}, LOAD)).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it("Delete asks, sends DELETE and goes back to the list; for a read-only user both say 'Not authorized'", async () => {
    const { calls, api, router } = renderClosures(`/dashboard/closures/${PARADE.id}`, {
      routes: {
        [`DELETE /organization/closure/${PARADE.id}`]: () => {
          api.closures.get(PARADE.id)!.deletedAt = api.now();
          return json(200, { id: PARADE.id });
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }, LOAD));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/closures'), LOAD);
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/organization/closure/${PARADE.id}`)).toBe(true);
    // part 1 §2: the nav link no longer leads back to the deleted closure.
    const navigation = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(navigation).getByRole('link', { name: 'Closures' }).getAttribute('href')).toBe('/dashboard/closures');
    await waitFor(() => expect(shownIds()).not.toContain(PARADE.id), LOAD);
    cleanupClosures();
    renderClosures(`/dashboard/closures/${PARADE.id}`, { permissions: ['closure:read'] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Parade route' }, LOAD)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expectRefused('Edit', 'Delete');
  });

  it("a failed delete says so in the dialog ('Unable to delete Closure'), not the save's words; the closure stays", async () => {
    const { router } = renderClosures(`/dashboard/closures/${PARADE.id}`, {
      routes: { [`DELETE /organization/closure/${PARADE.id}`]: () => json(500, { error: 'internal', message: 'boom' }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }, LOAD));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Unable to delete Closure', {}, LOAD)).toBeTruthy();
    expect(within(dialog).queryByText('Unable to save Closure')).toBeNull();
    expect(router.state.location.pathname).toBe(`/dashboard/closures/${PARADE.id}`);
  });
});
