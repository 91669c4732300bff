// @vitest-environment jsdom
/**
 * The command palette (src/app/palette/command-palette.tsx; docs/accessibility.md "Keyboard") in
 * the whole app with the real live engine over FakeApi: Ctrl+K opens it from anywhere with focus
 * in its combobox; the worker's assets and incidents, the cached areas, the sections the user may
 * see and a typed 'lat, lng' are offered; the keys move and choose; Escape closes and gives focus
 * back; a choice does what the item's own row does and is offered first next time.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, ORG, PARK_AREA, crashOnLamar, runClockFromNow, thing } from '../../support/live-fixtures';
import { renderApp, signedInRoutes } from '../support/render-app';

const WAIT = { timeout: 15_000 };
const PERMS = ['thing:read', 'incident:read', 'exclusion:read', 'closure:read'];

beforeEach(() => runClockFromNow());

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  localStorage.clear();
});

async function renderDashboard(permissions = PERMS) {
  const api = new FakeApi();
  // thing(1) stands at 30.201, -97.7; thing(2) at 30.202, -97.7.
  api.setThings([thing(1, { nickname: 'Engine 12' }), thing(2, { nickname: 'Medic 7' }), thing(3, { nickname: 'Ladder 3' })]);
  api.setLocation(crashOnLamar(Date.now(), { id: 'thing-00001', haas_id: 'ha-00001' }));
  api.areas = [PARK_AREA];
  const harness = renderApp(
    '/dashboard/things',
    signedInRoutes(permissions, { organization_id: ORG, user_org: { id: ORG, name: 'Org' } }),
    {
      signedIn: true,
      live: api,
    },
  );
  await waitFor(() => expect(harness.services.live.bridge?.store.total).toBe(3), WAIT);
  return harness;
}

function pressCtrlK(target: Element = document.body) {
  fireEvent.keyDown(target, { key: 'k', ctrlKey: true });
}

function palette() {
  return screen.getByRole('combobox', { name: 'Find an asset, incident, area, section or lat, lng' }) as HTMLInputElement;
}

const labelOf = (option: HTMLElement) => option.querySelector('.palette-label')?.textContent;

/** Types `query` and waits until the first option is `first` (the worker's matches come a moment later than the page's own). */
async function optionsFor(query: string, first: string): Promise<HTMLElement[]> {
  fireEvent.change(palette(), { target: { value: query } });
  const list = screen.getByRole('listbox', { name: 'Matches' });
  await waitFor(() => expect(within(list).queryAllByRole('option').map(labelOf)[0]).toBe(first), WAIT);
  return within(list).getAllByRole('option');
}

describe('command palette (Ctrl+K)', () => {
  it('opens from the map with focus in the combobox; an asset typed by name is listed first; ArrowDown and Enter choose it as its Live row does', async () => {
    const { router } = await renderDashboard();
    const map = screen.getByTestId('dashboard-map');
    pressCtrlK(map);
    const input = palette();
    expect(document.activeElement).toBe(input);
    expect(screen.getByRole('dialog', { name: 'Go to' })).toBeTruthy();
    expect(input.getAttribute('aria-expanded')).toBe('false');

    // By nickname, by name (the haas id) and by a fuzzy spelling the asset comes first.
    await optionsFor('medic', 'Medic 7');
    await optionsFor('ha-00002', 'Medic 7');
    await optionsFor('mdc7', 'Medic 7');

    // 'e': Engine 12 (prefix) then the others that hold an e (Ladder 3, Medic 7: substring, A to Z).
    const options = await optionsFor('e', 'Engine 12');
    expect(options.slice(0, 3).map(labelOf)).toEqual(['Engine 12', 'Ladder 3', 'Medic 7']);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(input.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'End' });
    expect(input.getAttribute('aria-activedescendant')).toBe(options.at(-1)!.id);
    fireEvent.keyDown(input, { key: 'Home' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });

    // Ladder 3: selected, targeted, the map centred on it (30.203, -97.7) at the centring zoom, its page open.
    expect(screen.queryByRole('dialog', { name: 'Go to' })).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/things/thing-00003'), WAIT);
    await waitFor(() => expect(map.getAttribute('data-target')).toBe('asset:thing-00003'), WAIT);
    await waitFor(() => expect(map.getAttribute('data-camera')).toBe('-97.70000,30.20300,16.00'), WAIT);

    // Chosen once, it is offered first next time, before typing.
    pressCtrlK();
    const recent = within(screen.getByRole('listbox', { name: 'Matches' })).getAllByRole('option');
    expect(recent.map(labelOf)).toEqual(['Ladder 3']);
  });

  it('Escape closes it and focus returns where it was; Ctrl+K opens from a text field, a plain k there does nothing', async () => {
    await renderDashboard();
    const search = await screen.findByLabelText('Search assets');
    search.focus();
    fireEvent.keyDown(search, { key: 'k' });
    expect(screen.queryByRole('dialog', { name: 'Go to' })).toBeNull();
    pressCtrlK(search);
    expect(document.activeElement).toBe(palette());
    fireEvent.keyDown(palette(), { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Go to' })).toBeNull();
    expect(document.activeElement).toBe(search);
  });

  it('offers incidents, areas and the sections the user may see, never one they may not; an incident opens its page', async () => {
    const { router } = await renderDashboard();
    pressCtrlK();
    await optionsFor('lamar', 'Crash on Lamar');
    expect((await optionsFor('zilker', 'Zilker Park')).map(labelOf)).toEqual(['Zilker Park']);
    expect((await optionsFor('closures', 'Closures')).map(labelOf)).toEqual(['Closures']);
    // No trip:read: no Trips; no engineer:test: no R2R.
    fireEvent.change(palette(), { target: { value: 'trips' } });
    expect(within(screen.getByRole('listbox')).queryAllByRole('option')).toHaveLength(0);
    expect(within(screen.getByRole('dialog', { name: 'Go to' })).getByRole('status').textContent).toBe('No matches');
    fireEvent.change(palette(), { target: { value: 'r2r' } });
    expect(within(screen.getByRole('listbox')).queryAllByRole('option')).toHaveLength(0);

    const incident = (await optionsFor('crash on', 'Crash on Lamar'))[0]!;
    fireEvent.click(incident);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/events/loc-1'), WAIT);
  });

  it('an area is opened as its row does: targeted, its page open', async () => {
    const { router } = await renderDashboard();
    pressCtrlK();
    await optionsFor('zilker', 'Zilker Park');
    fireEvent.keyDown(palette(), { key: 'Enter' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/areas/park'), WAIT);
    await waitFor(() => expect(screen.getByTestId('dashboard-map').getAttribute('data-target')).toBe('area:park'), WAIT);
  });

  it("a typed 'lat, lng' is offered first and centres the map there", async () => {
    await renderDashboard();
    pressCtrlK();
    const [first] = await optionsFor('30.25, -97.75', '30.25, -97.75');
    expect(first!.textContent).toContain('Coordinates');
    fireEvent.keyDown(palette(), { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('dashboard-map').getAttribute('data-camera')).toBe('-97.75000,30.25000,16.00'), WAIT);
  });
});
