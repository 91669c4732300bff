// @vitest-environment jsdom
/**
 * The section kit (src/app/section): part 2 §2 list frame ('Showing (x/total)', rows 75px, add-new),
 * detail header (Edit, Delete with confirmation, "delete errors show in the confirm dialog"), the
 * item states, tabs, useSubmit (part 1 §8 catalogue text, invalidation after a write), itemHref,
 * focusOn (part 1 §2 centring) and the shared useNow clock.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMapState } from '../../../src/app/map/map-state';
import { queryKey } from '../../../src/app/query-cache';
import { DesktopOnly } from '../../../src/app/section/desktop-only';
import { DetailHeader } from '../../../src/app/section/detail-header';
import { focusOn } from '../../../src/app/section/focus-on';
import { itemHref } from '../../../src/app/section/item-href';
import { ItemState } from '../../../src/app/section/item-state';
import { ListFrame, type RowComponentProps } from '../../../src/app/section/list-frame';
import { Tabs, useTabParam } from '../../../src/app/section/tabs';
import { runningClocks, useNow } from '../../../src/app/section/use-now';
import { useSubmit } from '../../../src/app/section/use-submit';
import { createAppServices, ServicesContext, type AppServices } from '../../../src/app/services';
import { MOBILE_QUERY } from '../../../src/app/shell/use-media';
import { CENTERING_MIN_ZOOM } from '../../../src/domain/constants';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function answering(status: number, body: unknown): AppServices {
  return createAppServices({
    storage: null,
    createBridge: null,
    channel: false,
    fetch: async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  });
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

describe('itemHref', () => {
  it.each([
    ['things', undefined, {}, '/dashboard/things'],
    ['things', 'thing-1', {}, '/dashboard/things/thing-1'],
    ['events', 'a/b?c#d', {}, '/dashboard/events/a%2Fb%3Fc%23d'],
    ['things', 'x y', { page: 'edit' }, '/dashboard/things/x%20y/edit'],
    ['things', '7', { page: 'edit', query: { tab: 'associations' } }, '/dashboard/things/7/edit?tab=associations'],
    ['things', '7', { page: 'edit', query: { tab: undefined } }, '/dashboard/things/7/edit'],
  ] as const)('%s %s %o → %s', (section, id, options, href) => {
    expect(itemHref(section, id, options)).toBe(href);
  });
});

describe('part1 §2 focusOn', () => {
  it('targets the item and pans at the centring zoom, never zooming out', () => {
    const map = createMapState();
    map.view.zoom = 10;
    focusOn(map, { kind: 'event', id: 'e1' }, { lng: -97.7, lat: 30.2 });
    expect(map.target).toEqual({ kind: 'event', id: 'e1' });
    expect(map.camera).toMatchObject({ kind: 'center', longitude: -97.7, latitude: 30.2, zoom: CENTERING_MIN_ZOOM });
    map.view.zoom = CENTERING_MIN_ZOOM + 2;
    focusOn(map, { kind: 'asset', id: 'a1' }, { lng: 1, lat: 2 });
    expect(map.camera).toMatchObject({ longitude: 1, latitude: 2, zoom: CENTERING_MIN_ZOOM + 2 });
    const seq = map.camera?.seq;
    focusOn(map, { kind: 'asset', id: 'a2' }, null);
    expect(map.target).toEqual({ kind: 'asset', id: 'a2' });
    expect(map.camera?.seq).toBe(seq);
  });
});

describe('useNow', () => {
  it('one timer ticks for every subscriber of a period, and stops with the last', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    function Clock({ name }: { name: string }) {
      return <p data-testid={name}>{useNow(1_000)}</p>;
    }
    const view = render(
      <>
        <Clock name="a" />
        <Clock name="b" />
      </>,
    );
    expect(runningClocks()).toBe(1);
    act(() => vi.advanceTimersByTime(3_000));
    expect(screen.getByTestId('a').textContent).toBe('1003000');
    expect(screen.getByTestId('b').textContent).toBe('1003000');
    view.unmount();
    expect(runningClocks()).toBe(0);
  });
});

describe('part1 §8 useSubmit', () => {
  function Save({ onSuccess }: { onSuccess: () => void }) {
    const { api } = useServicesFor();
    const { pending, failure, succeeded, submit } = useSubmit({
      context: 'assetSave',
      invalidates: [queryKey('things', 'org-1')],
      onSuccess,
    });
    return (
      <>
        <button
          type="button"
          onClick={() => void submit(() => api.request('/things/1', { method: 'PUT', body: {}, context: 'assetSave' }))}
        >
          Save
        </button>
        {pending && <p>pending</p>}
        {succeeded && <p>saved</p>}
        {failure && <p role="alert">{failure.text}</p>}
      </>
    );
  }
  let current: AppServices;
  const useServicesFor = () => current;

  it('a failed write shows the catalogue text of its context; nothing is invalidated', async () => {
    current = answering(404, { error: 'not_found', message: 'Not found' });
    await current.queries.fetchQuery({ queryKey: queryKey('things', 'org-1'), queryFn: async () => 1 });
    const onSuccess = vi.fn();
    render(
      <ServicesContext.Provider value={current}>
        <Save onSuccess={onSuccess} />
      </ServicesContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('pending')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('Asset not found');
    expect(onSuccess).not.toHaveBeenCalled();
    expect(current.queries.getQueryState(queryKey('things', 'org-1'))?.isInvalidated).toBe(false);
  });

  it('a passed write invalidates the named queries and runs onSuccess', async () => {
    current = answering(200, {});
    await current.queries.fetchQuery({ queryKey: queryKey('things', 'org-1'), queryFn: async () => 1 });
    const onSuccess = vi.fn();
    render(
      <ServicesContext.Provider value={current}>
        <Save onSuccess={onSuccess} />
      </ServicesContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('saved');
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(current.queries.getQueryState(queryKey('things', 'org-1'))?.isInvalidated).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('part2 §2 detail header', () => {
  it('Edit links to the edit page; Delete asks first, shows a failed delete in its dialog, then leaves', async () => {
    const services = answering(200, {});
    let answer: Promise<unknown> = Promise.reject(new Error('no answer'));
    answer.catch(() => undefined);
    const onDeleted = vi.fn();
    const send = vi.fn(() => answer);
    render(
      <ServicesContext.Provider value={services}>
        <MemoryRouter>
          <DetailHeader
            title="Park"
            onBack={() => undefined}
            editHref={itemHref('areas', 'a1', { page: 'edit' })}
            remove={{ label: 'Delete Area', itemName: 'Park', send, context: 'general', onDeleted }}
          />
        </MemoryRouter>
      </ServicesContext.Provider>,
    );
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/dashboard/areas/a1/edit');
    fireEvent.click(screen.getByRole('button', { name: 'Delete Area' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Park?' });
    expect(send).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Area' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Connection failed.');
    expect(onDeleted).not.toHaveBeenCalled();
    answer = Promise.resolve();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Area' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('Cancel closes the dialog without sending', () => {
    const send = vi.fn(async () => undefined);
    render(
      <ServicesContext.Provider value={answering(200, {})}>
        <MemoryRouter>
          <DetailHeader
            title="Park"
            onBack={() => undefined}
            remove={{ label: 'Delete', itemName: 'Park', send, context: 'general', onDeleted: () => undefined }}
          />
        </MemoryRouter>
      </ServicesContext.Provider>,
    );
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });
});

describe('item states', () => {
  it.each([
    ['loading', 'status', 'Loading...'],
    ['missing', 'alert', 'Not here.'],
  ] as const)('%s: a %s line', (state, role, text) => {
    render(<ItemState state={state} texts={{ notFound: 'Not here.' }} />);
    expect(screen.getByRole(role).textContent).toBe(text);
  });

  it('failed: the catalogue text of the failed read', () => {
    render(<ItemState state="failed" texts={{ notFound: 'Not here.' }} failure={{ text: 'Connection failed.' } as never} />);
    expect(screen.getByRole('alert').textContent).toBe('Connection failed.');
  });
});

describe('tabs', () => {
  function Page() {
    const keys = ['account', 'user', 'billing'] as const;
    const [tab, choose] = useTabParam(keys);
    return (
      <Tabs tabs={keys.map((key) => ({ key, label: key.toUpperCase() }))} selected={tab} onSelect={choose} label="Edit" idPrefix="t">
        <p>panel {tab}</p>
      </Tabs>
    );
  }
  it('arrows, Home and End move the selection and the focus; the tab is in the URL, the first leaves it bare', () => {
    render(
      <MemoryRouter initialEntries={['/x?tab=user']}>
        <Page />
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('USER');
    expect(screen.getByRole('tabpanel', { name: 'USER' }).textContent).toBe('panel user');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'USER' }), { key: 'ArrowRight' });
    expect(screen.getByTestId('where').textContent).toBe('/x?tab=billing');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'BILLING' }));
    fireEvent.keyDown(screen.getByRole('tab', { name: 'BILLING' }), { key: 'ArrowRight' });
    expect(screen.getByTestId('where').textContent).toBe('/x');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'ACCOUNT' }), { key: 'End' });
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('BILLING');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'BILLING' }), { key: 'Home' });
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('ACCOUNT');
  });
});

describe('part2 §2 list frame', () => {
  const AREAS = ['Park', 'School', 'Depot', 'Bridge', 'Mall'];
  function Row({ index, style, names }: RowComponentProps<{ names: readonly string[] }>) {
    return (
      <div style={style} role="listitem">
        {names[index]}
      </div>
    );
  }
  function Areas() {
    const [search, setSearch] = useState('');
    const shown = AREAS.filter((name) => name.toLowerCase().includes(search.toLowerCase()));
    return (
      <ListFrame
        title="Areas"
        search={{ value: search, onSearch: setSearch, label: 'Search areas', delayMs: 0 }}
        filters={<select aria-label="Type" />}
        shown={shown.length}
        total={AREAS.length}
        addNew={{ href: itemHref('areas', null, { page: 'new' }) }}
        rows={{ label: 'Areas', role: 'list', rowComponent: Row, rowCount: shown.length, rowHeight: 75, rowProps: { names: shown } }}
      />
    );
  }
  it("shows 'Showing (x/total)', the add-new button, the filters and 75px rows", () => {
    render(
      <MemoryRouter>
        <Areas />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Areas' })).toBeTruthy();
    expect(screen.getByText('Showing (5/5)')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add New' }).getAttribute('href')).toBe('/dashboard/areas/new');
    expect(screen.getByRole('combobox', { name: 'Type' })).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Areas' })).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual(AREAS);
    expect(rows.map((row) => row.style.height)).toEqual(AREAS.map(() => '75px'));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search areas' }), { target: { value: 'park' } });
    expect(screen.getByText('Showing (1/5)')).toBeTruthy();
  });
});

describe('part2 §2 per-route mobile rules', () => {
  function Areas() {
    return (
      <Routes>
        <Route index element={<p>area list</p>} />
        <Route
          path="new"
          element={
            <DesktopOnly>
              <p>area form</p>
            </DesktopOnly>
          }
        />
      </Routes>
    );
  }
  function phone(matches: boolean) {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: matches && query === MOBILE_QUERY,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
  }
  it.each([
    ['a phone', true, '/dashboard/areas/new', "This page isn't available on mobile devices."],
    ['a desktop', false, '/dashboard/areas/new', 'area form'],
    ['a phone', true, '/dashboard/areas', 'area list'],
  ])('on %s, %s shows %s', (_device, matches, path, text) => {
    phone(matches);
    render(
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/dashboard/areas/*" element={<Areas />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText(text)).toBeTruthy();
    if (text.startsWith('This page')) expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(text);
  });
});
