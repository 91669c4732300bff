// @vitest-environment jsdom
/**
 * The fleet on the dashboard map: which layers `useAssetLayers` builds from the
 * preferences and the worker's answers, what a pick on them does (popup, target, navigation, zoom
 * into a cluster), and the popups and availability legend of `<AssetPopups>`. The drawing itself is
 * Chromium's (e2e/dashboard-map.spec.ts).
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Layer, LayersList, PickingInfo } from '@deck.gl/core';
import { fromThingWire } from '../../../src/domain/asset';
import { ASSET_STATUS } from '../../../src/domain/asset-status';
import type { LiveBridge } from '../../../src/app/live/bridge';
import { LiveProvider } from '../../../src/app/live/hooks';
import { applyDiffToStore, createLiveStore, DEFAULT_PREFERENCES, type LivePreferences } from '../../../src/app/live/store';
import { AssetPopups, useAssetLayers } from '../../../src/app/map/asset-layers';
import { assetMapState } from '../../../src/app/map/asset-map-state';
import type { DashboardMapProps } from '../../../src/app/map/dashboard-map-props';
import { createMapState, setTarget } from '../../../src/app/map/map-state';
import { STATION_GROUPS_BELOW_ZOOM } from '../../../src/workers/cluster-index';
import { createFleetBuffers, encodeDiff, FLAG_LISTED, FLAG_PRESENT, STATUS_COUNT, type AssetDetails } from '../../../src/domain/live-diff';
import type { ClusterAnswer } from '../../../src/domain/cluster-answer';
import { NOW, parsedThing } from '../../support/live-fixtures';

afterEach(cleanup);

function details(i: number, overrides: Parameters<typeof parsedThing>[1] = {}): AssetDetails {
  const asset = fromThingWire(parsedThing(i, overrides), NOW);
  if (!asset) throw new Error('no asset');
  const { searchText: _s, ...rest } = asset;
  return rest;
}

const CLUSTER_ANSWER: ClusterAnswer = {
  version: 1,
  lngLat: new Float64Array([-97.7, 30.2, -97.6, 30.3]),
  count: new Int32Array([5, 1]),
  slot: new Int32Array([-1, 1]),
  clusterId: new Int32Array([77, -1]),
  topStatus: new Uint8Array([ASSET_STATUS.active, ASSET_STATUS.standby]),
  // The cluster: 1 en route, 4 standing by; the single: standby.
  mix: new Int32Array([0, 1, 4, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]),
  stations: {
    ids: ['st-1'],
    names: ['Fire Station 1'],
    lngLat: new Float64Array([-97.5, 30.1]),
    count: new Int32Array([3]),
    topStatus: new Uint8Array([2]),
    mix: new Int32Array([0, 0, 3, 0, 0, 0, 0]),
  },
};

/** A store with two listed assets in slots 0 and 1 (a diff, as the worker would send). */
function storeWith(preferences: Partial<LivePreferences>) {
  const store = createLiveStore({ ...DEFAULT_PREFERENCES, ...preferences });
  const source = createFleetBuffers(4);
  source.lngLat.set([-97.71, 30.21, -97.61, 30.31]);
  source.flags.set([FLAG_PRESENT | FLAG_LISTED, FLAG_PRESENT | FLAG_LISTED]);
  source.status.set([ASSET_STATUS.active, ASSET_STATUS.standby]);
  const counts = new Int32Array(STATUS_COUNT);
  applyDiffToStore(
    store,
    encodeDiff(source, [0, 1], [], {
      version: 1,
      time: NOW,
      reset: false,
      order: new Int32Array([0, 1]),
      clusterVersion: 1,
      counts,
      listCounts: counts,
      total: 2,
      listLength: 2,
    }),
  );
  return { store, source };
}

function fakeBridge(overrides: Partial<LiveBridge> = {}) {
  const assets = [details(1, { nickname: 'Engine 1', enroute: true }), details(2, { nickname: 'Tow 2', in_service: false })];
  return {
    clusters: vi.fn(async () => structuredClone(CLUSTER_ANSWER)),
    expansionZoom: vi.fn(async () => 13),
    assetAtSlot: vi.fn(async (slot: number) => assets[slot] ?? null),
    asset: vi.fn(async (id: string) => assets.find((a) => a.id === id) ?? null),
    slotOf: vi.fn(async (id: string) => assets.findIndex((a) => a.id === id)),
    availability: vi.fn(async (bbox: [number, number, number, number]) => ({
      version: 1,
      bbox,
      columns: 2,
      rows: 1,
      radiusM: 3_000,
      mask: new Uint8Array([1, 0]),
      coveredShare: 0.5,
      units: 1,
    })),
    listedPositions: vi.fn(async () => ({ version: 1, lngLat: new Float64Array([-97.71, 30.21, -97.61, 30.31]) })),
    ...overrides,
  } as unknown as LiveBridge & {
    [K in 'clusters' | 'expansionZoom' | 'assetAtSlot' | 'availability' | 'listedPositions' | 'slotOf']: ReturnType<typeof vi.fn>;
  };
}

let layers: LayersList = [];
function Host(props: DashboardMapProps) {
  layers = useAssetLayers(props, true);
  return <AssetPopups {...props} />;
}
function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function mount(preferences: Partial<LivePreferences>, bridgeOverrides: Partial<LiveBridge> = {}) {
  const { store, source } = storeWith(preferences);
  const bridge = fakeBridge(bridgeOverrides);
  const map = createMapState();
  map.view = { longitude: -97.7, latitude: 30.2, zoom: 10, bounds: [-98, 30, -97.4, 30.5] };
  render(
    <MemoryRouter initialEntries={['/dashboard/things']}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <LiveProvider value={{ store, bridge }}>
                <Host map={map} />
              </LiveProvider>
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
  return { store, source, bridge, map };
}

const ids = () => (layers as Layer[]).map((layer) => layer.id);
const layer = (id: string) => (layers as Layer[]).find((l) => l.id === id)!;
const pick = (index: number, extra: Partial<PickingInfo> = {}) => ({ index, x: 100, y: 50, ...extra }) as PickingInfo;

describe('the fleet on the map', () => {
  it('group view off: the plain assets layer; a hover shows the asset popup, a click targets and opens the asset', async () => {
    const { map, bridge } = mount({ groupView: false });
    expect(ids()).toEqual(['assets']);
    expect(bridge.clusters).not.toHaveBeenCalled();
    // A pick answers the slot (the plain layer's index).
    act(() => void layer('assets').props.onHover!(pick(1), {} as never));
    expect(await screen.findByRole('tooltip', { name: 'Tow 2' })).toBeTruthy();
    expect(screen.getByRole('tooltip').textContent).toContain('Out-of-Service');
    act(() => void layer('assets').props.onHover!(pick(-1), {} as never));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    // Leaving the map closes it too.
    act(() => void layer('assets').props.onHover!(pick(1), {} as never));
    await screen.findByRole('tooltip', { name: 'Tow 2' });
    fireEvent.pointerLeave(document.querySelector('.asset-popups')!.parentElement!);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    act(() => void layer('assets').props.onClick!(pick(0), {} as never));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/dashboard/things/${details(1).id}`));
    expect(map.target).toEqual({ kind: 'asset', id: details(1).id });
    // Pin marker off: nothing pinned.
    expect(map.popup).toBeNull();
  });

  it('group view on: asks the worker for the view’s clusters and draws clusters, stations and singles', async () => {
    const { bridge, map } = mount({ groupView: true });
    await waitFor(() => expect(ids()).toContain('asset-clusters'));
    expect(ids()).toEqual(['asset-clusters', 'asset-cluster-counts', 'asset-stations', 'asset-station-counts', 'assets-singles']);
    const [bbox, zoom] = bridge.clusters.mock.calls[0] as [number[], number];
    // The visible bounds, a little padded.
    expect(bbox[0]).toBeLessThan(-98);
    expect(bbox[2]).toBeGreaterThan(-97.4);
    expect(zoom).toBe(10);
    // The singles: one instance, slot 1's current values.
    const singles = layer('assets-singles').props.data as { length: number; attributes: { getPosition: { value: Float64Array } } };
    expect(singles.length).toBe(1);
    expect(Array.from(singles.attributes.getPosition.value)).toEqual([-97.61, 30.31]);
    // A single's pick maps its index to the slot.
    act(() => void layer('assets-singles').props.onHover!(pick(0), {} as never));
    expect(await screen.findByRole('tooltip', { name: 'Tow 2' })).toBeTruthy();
    // Hovering a cluster lists what its assets do; clicking it zooms to where it breaks apart.
    const clusterData = layer('asset-clusters').props.data as { clusterId: number; position: [number, number] }[];
    act(() => void layer('asset-clusters').props.onHover!({ object: clusterData[0], x: 9, y: 9, index: 0 } as PickingInfo, {} as never));
    const clusterPopup = await screen.findByTestId('cluster-popup');
    expect(clusterPopup.textContent).toContain('5 assets');
    expect([...clusterPopup.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['Responding 1', 'Standby 4']);
    act(() => void layer('asset-clusters').props.onHover!({ object: null, x: 0, y: 0, index: -1 } as unknown as PickingInfo, {} as never));
    await waitFor(() => expect(screen.queryByTestId('cluster-popup')).toBeNull());
    act(() => void layer('asset-clusters').props.onClick!({ object: clusterData[0] } as PickingInfo, {} as never));
    await waitFor(() => expect(map.camera).toMatchObject({ kind: 'center', longitude: -97.7, latitude: 30.2, zoom: 13 }));
    expect(bridge.expansionZoom).toHaveBeenCalledWith(77);
    // A station: its name on hover, a click zooms in to where the groups end.
    const stationData = layer('asset-stations').props.data as unknown[];
    act(() => void layer('asset-stations').props.onHover!({ object: stationData[0], x: 5, y: 5, index: 0 } as PickingInfo, {} as never));
    expect((await screen.findByTestId('station-popup')).textContent).toContain('Fire Station 1');
    act(() => void layer('asset-stations').props.onClick!({ object: stationData[0] } as PickingInfo, {} as never));
    expect(map.camera).toMatchObject({ kind: 'center', longitude: -97.5, latitude: 30.1, zoom: STATION_GROUPS_BELOW_ZOOM });
  });

  it('group view on: a moved view asks again, throttled (not per frame)', async () => {
    const { bridge, map } = mount({ groupView: true });
    await waitFor(() => expect(bridge.clusters).toHaveBeenCalledTimes(1));
    for (let i = 0; i < 20; i += 1)
      map.view = { ...map.view, longitude: -97.7 + i * 0.001, bounds: [-98 + i * 0.001, 30, -97.4 + i * 0.001, 30.5] };
    await waitFor(() => expect(bridge.clusters).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(bridge.clusters).toHaveBeenCalledTimes(2);
    const [bbox] = bridge.clusters.mock.calls[1] as [number[]];
    expect(bbox[0]).toBeLessThan(-98 + 0.019);
    expect(bbox[0]).toBeGreaterThan(-98.2);
  });

  it('the pin marker preference pins the clicked asset’s popup until Close', async () => {
    const { map } = mount({ groupView: false, pinMarker: true });
    const overlay = document.querySelector('.asset-popups')!;
    // jsdom lays nothing out: give the map a size.
    Object.defineProperty(overlay, 'clientWidth', { value: 800 });
    Object.defineProperty(overlay, 'clientHeight', { value: 600 });
    act(() => {
      assetMapState(map).size = { width: 800, height: 600 };
    });
    act(() => void layer('assets').props.onClick!(pick(0), {} as never));
    const pinned = await screen.findByRole('dialog', { name: 'Engine 1' });
    expect(pinned.textContent).toContain('Responding');
    expect(map.popup).toMatchObject({ kind: 'asset', id: details(1).id });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(map.popup).toBeNull();
  });

  it('the targeted asset gets a ring at its slot’s position that follows its diffs', async () => {
    const { map, store, source, bridge } = mount({ groupView: false });
    act(() => setTarget(map, { kind: 'asset', id: details(2).id }));
    await waitFor(() => expect(ids()).toContain('asset-target'));
    expect(bridge.slotOf).toHaveBeenCalledTimes(1);
    expect((layer('asset-target').props.data as { position: number[] }[])[0]!.position).toEqual([-97.61, 30.31]);
    // The asset moves: the next diff moves the ring, without asking the worker again.
    source.lngLat.set([-97.5, 30.4], 2);
    const counts = new Int32Array(STATUS_COUNT);
    act(() =>
      applyDiffToStore(
        store,
        encodeDiff(source, [1], [], {
          version: 2,
          time: NOW,
          reset: false,
          order: null,
          clusterVersion: 2,
          counts,
          listCounts: counts,
          total: 2,
          listLength: 2,
        }),
      ),
    );
    await waitFor(() => expect((layer('asset-target').props.data as { position: number[] }[])[0]!.position).toEqual([-97.5, 30.4]));
    expect(bridge.slotOf).toHaveBeenCalledTimes(1);
  });

  it('the popup words the status by the fleet’s responder mix (part 1 §4)', async () => {
    const { store } = mount({ groupView: false });
    act(() => {
      store.responderMix = 'none';
    });
    act(() => void layer('assets').props.onHover!(pick(0), {} as never));
    const popup = await screen.findByRole('tooltip', { name: 'Engine 1' });
    await waitFor(() => expect(popup.textContent).toContain('Active'));
    expect(popup.textContent).not.toContain('Responding');
  });

  it('density view: a heatmap of the listed positions from the worker', async () => {
    const { bridge } = mount({ groupView: false, densityView: true });
    await waitFor(() => expect(ids()).toContain('asset-density'));
    expect(bridge.listedPositions).toHaveBeenCalledTimes(1);
    expect(ids()).toEqual(['asset-density', 'assets']);
  });

  it('availability view: the share of the visible area covered, in the legend', async () => {
    const { bridge } = mount({ groupView: false, availabilityView: true, availabilityRadiusM: 3_000 });
    expect((await screen.findByTestId('availability-share')).textContent).toBe('Covered 50 % within 3 km');
    expect(bridge.availability).toHaveBeenCalledWith([-98, 30, -97.4, 30.5]);
  });
});
